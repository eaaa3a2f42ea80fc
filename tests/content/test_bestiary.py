"""Bringing stat blocks into an encounter (bot/content/bestiary.py): squads of minions, a solo's two turns,
every other monster with its stat block and abilities; a Forge Steel encounter's slots resolved by id."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.content.bestiary import UnresolvedMonsters, add_encounter_file, add_monsters, carried_abilities
from bot.content.forgesteel.encounter import read_encounter
from bot.content.forgesteel.monster import read_monster, read_monster_group
from bot.content.monster import Monster
from bot.rules.codec import load, to_data
from bot.rules.creature import Creature
from bot.rules.damage import DamageType
from bot.rules.encounter import Encounter, fold, new_encounter_state
from tests.content.forgesteel_files import invented_bytes

BOGLINGS = {m.id: m for m in read_monster_group(invented_bytes("Bogling.ds-monster-group")).monsters}
SLINGER = BOGLINGS["bogling-1"]
STABBER = BOGLINGS["bogling-3"]
WYRM = read_monster(invented_bytes("Cinder Wyrm.ds-monster"))
AMBUSH = read_encounter(invented_bytes("Bog Ambush.ds-encounter"))


def test_minions_brought_in_together_are_one_squad_sharing_their_stamina() -> None:
    """Monsters: "minions become one squad per group of `count` with the shared pool"."""
    encounter, brought = add_monsters(new_encounter_state(), SLINGER, 4, "director")
    assert brought.squad == "Bogling Slinger squad"
    assert brought.names == tuple(f"Bogling Slinger {n}" for n in range(1, 5))
    squad = encounter.squad("Bogling Slinger squad")
    assert squad is not None and squad.pool == 4 * SLINGER.stamina and squad.minion_stamina == SLINGER.stamina
    (entry,) = encounter.turns.entries
    assert entry.id == "Bogling Slinger squad" and entry.members == brought.names
    assert all(encounter.creature(n).squad_id == "Bogling Slinger squad" for n in brought.names)


def test_a_solo_takes_two_turns_a_round() -> None:
    """A solo monster takes two turns each round (the Cinder Wyrm's "Solo Monster" trait)."""
    encounter, brought = add_monsters(new_encounter_state(), WYRM, 1, "director")
    assert brought.names == ("Cinder Wyrm",)
    assert encounter.entry_of("Cinder Wyrm").turns_per_round == 2
    encounter, bogling = add_monsters(encounter, STABBER, 1, "director")
    assert encounter.entry_of(bogling.names[0]).turns_per_round == 1


def test_every_creature_keeps_its_stat_block_and_abilities() -> None:
    """Stamina, level, characteristics, immunities (the wyrm's fire 5), stability and abilities, the Free
    Strike (its free-strike damage and type) first."""
    encounter, _ = add_monsters(new_encounter_state(), WYRM, 1, "director")
    wyrm = encounter.creature("Cinder Wyrm")
    assert wyrm.vitals.max_stamina == 220 and wyrm.level == 3 and wyrm.stability == 4
    assert wyrm.characteristics == WYRM.characteristics
    fire = wyrm.modifiers.immunity_for(DamageType.FIRE)
    assert wyrm.modifiers == WYRM.modifiers and fire is not None and fire.value == 5
    assert wyrm.abilities == carried_abilities(WYRM)
    strike, *own = wyrm.abilities
    assert strike.name == "Free Strike" and strike.power_roll is not None
    assert strike.power_roll.tiers == ("5 fire damage",) * 3
    assert tuple(own) == WYRM.abilities and own


def test_every_creature_of_a_squad_and_a_horde_carries_the_abilities() -> None:
    encounter, squad = add_monsters(new_encounter_state(), SLINGER, 3, "director")
    encounter, horde = add_monsters(encounter, STABBER, 2, "director")
    assert horde.names == ("Bogling Stabber 1", "Bogling Stabber 2") and horde.squad is None
    for name in (*squad.names, *horde.names):
        creature = encounter.creature(name)
        monster = SLINGER if creature.squad_id else STABBER
        assert creature.abilities == carried_abilities(monster)
        assert creature.vitals.max_stamina == monster.stamina


@pytest.mark.parametrize(
    ("before", "monster", "count", "names", "squad"),
    [
        ((), STABBER, 1, ("Bogling Stabber",), None),
        ((("Bogling Stabber", 1),), STABBER, 1, ("Bogling Stabber 2",), None),
        ((("Bogling Stabber", 2),), STABBER, 2, ("Bogling Stabber 3", "Bogling Stabber 4"), None),
        ((("Bogling Stabber", 2),), STABBER, 1, ("Bogling Stabber 3",), None),
        (
            (("Bogling Slinger", 2),),
            SLINGER,
            2,
            ("Bogling Slinger 3", "Bogling Slinger 4"),
            "Bogling Slinger squad 2",
        ),
        (
            (("Bogling Slinger", 1), ("Bogling Slinger", 1)),
            SLINGER,
            1,
            ("Bogling Slinger 3",),
            "Bogling Slinger squad 3",
        ),
    ],
)
def test_names_are_numbered_after_the_ones_taken(
    before: tuple[tuple[str, int], ...],  # (monster, count) brought in first
    monster: Monster,
    count: int,
    names: tuple[str, ...],
    squad: str | None,
) -> None:
    encounter = new_encounter_state()
    for name, n in before:
        encounter, _ = add_monsters(
            encounter, STABBER if name == "Bogling Stabber" else SLINGER, n, "director"
        )
    _, brought = add_monsters(encounter, monster, count, "director")
    assert (brought.names, brought.squad) == (names, squad)


def test_a_name_squad_and_group_can_be_given() -> None:
    encounter, brought = add_monsters(
        new_encounter_state(), SLINGER, 2, "director", name="Sniper", squad="Rooftops", group="Ambush"
    )
    assert brought.names == ("Sniper 1", "Sniper 2") and brought.squad == "Rooftops"
    encounter, _ = add_monsters(encounter, STABBER, 1, "director", group="Ambush")
    assert [e.group for e in encounter.turns.entries] == ["Ambush", "Ambush"]


def test_the_bog_ambush_resolves_every_slot_by_id() -> None:
    """Its slots: 3 Bogling Stabbers (horde), a group of 4 Bogling Slingers and one of 4 Bogling Cleavers
    (minions: a slot's count is in fours), a Bogling Chief."""
    encounter, brought = add_encounter_file(new_encounter_state(), AMBUSH, BOGLINGS, "director")
    summary = [(b.monster, len(b.names), b.squad) for b in brought]
    assert summary[:4] == [
        ("Bogling Stabber", 3, None),
        ("Bogling Slinger", 4, "Bogling Slinger squad"),
        ("Bogling Cleaver", 4, "Bogling Cleaver squad"),
        ("Bogling Chief", 1, None),
    ]
    assert len(encounter.creatures) == sum(
        s.creatures(BOGLINGS[s.monster_id].organization) for s in AMBUSH.slots
    )


def test_an_encounter_with_ids_the_bestiary_lacks_names_exactly_those_and_adds_nothing() -> None:
    known = {k: v for k, v in BOGLINGS.items() if k not in ("bogling-1", "bogling-5")}
    start = new_encounter_state()
    with pytest.raises(UnresolvedMonsters) as refused:
        add_encounter_file(start, AMBUSH, known, "director")
    assert refused.value.ids == ("bogling-1", "bogling-5")
    message = str(refused.value)
    assert "`bogling-1`, `bogling-5`" in message and "\n" not in message and "/monster import" in message
    assert "bogling-3" not in message


def test_a_creature_with_abilities_round_trips_and_one_without_leaves_them_out() -> None:
    """The encounter state round-trips through the codec; a field holding its default is left out."""
    encounter, _ = add_monsters(new_encounter_state(), WYRM, 1, "director")
    encounter, _ = add_monsters(encounter, SLINGER, 2, "director")
    assert load(Encounter, to_data(encounter)) == encounter
    plain = Creature.create("Goblin", "Goblin", 10)
    assert "abilities" not in to_data(plain) and "abilities" in to_data(encounter.creature("Cinder Wyrm"))
    assert load(Creature, to_data(dataclasses.replace(plain, abilities=WYRM.abilities))).abilities == (
        WYRM.abilities
    )


@settings(deadline=None, max_examples=40)
@given(
    adds=st.lists(
        st.tuples(
            st.sampled_from([SLINGER, STABBER, WYRM]), st.integers(1, 6), st.sampled_from([None, "Gob"])
        ),
        max_size=8,
    )
)
def test_monsters_brought_in_one_after_another_always_get_names_of_their_own(
    adds: list[tuple[Monster, int, str | None]],
) -> None:
    """Whatever comes in, in whatever order and under whatever name: no name is refused as taken, each
    monster brings `count` creatures (minions as one squad), and every creature's id is its own."""
    encounter = new_encounter_state()
    for monster, count, name in adds:
        before = len(encounter.creatures)
        encounter, brought = add_monsters(encounter, monster, count, "director", name=name)
        assert len(encounter.creatures) == before + count == before + len(brought.names)
        assert (brought.squad is not None) == (monster is SLINGER)
    ids = [fold(c.id) for c in encounter.creatures] + [
        fold(e.id) for e in encounter.turns.entries if e.members
    ]
    assert len(ids) == len(set(ids))
    assert load(Encounter, to_data(encounter)) == encounter


@pytest.mark.parametrize(
    ("monster", "size"),
    [
        pytest.param(WYRM, "3", id="the wyrm, size 3"),
        pytest.param(SLINGER, "1S", id="a bogling, 1S"),
        pytest.param(dataclasses.replace(STABBER, size="huge"), "1M", id="a hand-typed size naming none: 1M"),
    ],
)
def test_every_creature_keeps_its_stat_blocks_size(monster: Monster, size: str) -> None:
    """Size and Space: "A creature's size indicates how many squares they occupy during combat" (1T, 1S, 1M,
    1L, then 2, 3 ...); forced movement compares the sizes ("BIG VERSUS LITTLE")."""
    encounter, brought = add_monsters(new_encounter_state(), monster, 1, "director")
    creature = encounter.creature(brought.names[0])
    assert creature.size.format() == size
    assert load(Encounter, to_data(encounter)) == encounter
    assert ("size" in to_data(creature)) == (size != "1M")
