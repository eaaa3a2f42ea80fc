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
from tests.content.forgesteel_files import fixture_bytes

GOBLINS = {m.id: m for m in read_monster_group(fixture_bytes("Goblin.ds-monster-group")).monsters}
SNIPER = GOBLINS["goblin-2"]
ASSASSIN = GOBLINS["goblin-5"]
DRAGON = read_monster(fixture_bytes("Thorn Dragon.ds-monster"))
AMBUSH = read_encounter(fixture_bytes("Goblin Ambush.ds-encounter"))


def test_minions_brought_in_together_are_one_squad_sharing_their_stamina() -> None:
    """Monsters: "minions become one squad per group of `count` with the shared pool" (issue 20 §5)."""
    encounter, brought = add_monsters(new_encounter_state(), SNIPER, 4, "director")
    assert brought.squad == "Goblin Sniper squad"
    assert brought.names == tuple(f"Goblin Sniper {n}" for n in range(1, 5))
    squad = encounter.squad("Goblin Sniper squad")
    assert squad is not None and squad.pool == 4 * SNIPER.stamina and squad.minion_stamina == SNIPER.stamina
    (entry,) = encounter.turns.entries
    assert entry.id == "Goblin Sniper squad" and entry.members == brought.names
    assert all(encounter.creature(n).squad_id == "Goblin Sniper squad" for n in brought.names)


def test_a_solo_takes_two_turns_a_round() -> None:
    """Thorn Dragon, "Solo Turns": "The thorn dragon can take two turns each round." """
    encounter, brought = add_monsters(new_encounter_state(), DRAGON, 1, "director")
    assert brought.names == ("Thorn Dragon",)
    assert encounter.entry_of("Thorn Dragon").turns_per_round == 2
    encounter, goblin = add_monsters(encounter, ASSASSIN, 1, "director")
    assert encounter.entry_of(goblin.names[0]).turns_per_round == 1


def test_every_creature_keeps_its_stat_block_and_abilities() -> None:
    """Stamina, level, characteristics, immunities (the dragon's poison 5), stability and abilities, the Free
    Strike (its free-strike damage and type) first."""
    encounter, _ = add_monsters(new_encounter_state(), DRAGON, 1, "director")
    dragon = encounter.creature("Thorn Dragon")
    assert dragon.vitals.max_stamina == 250 and dragon.level == 2 and dragon.stability == 6
    assert dragon.characteristics == DRAGON.characteristics
    poison = dragon.modifiers.immunity_for(DamageType.POISON)
    assert dragon.modifiers == DRAGON.modifiers and poison is not None and poison.value == 5
    assert dragon.abilities == carried_abilities(DRAGON)
    strike, *own = dragon.abilities
    assert strike.name == "Free Strike" and strike.power_roll is not None
    assert strike.power_roll.tiers == ("5 damage",) * 3
    assert tuple(own) == DRAGON.abilities and own


def test_every_creature_of_a_squad_and_a_horde_carries_the_abilities() -> None:
    encounter, squad = add_monsters(new_encounter_state(), SNIPER, 3, "director")
    encounter, horde = add_monsters(encounter, ASSASSIN, 2, "director")
    assert horde.names == ("Goblin Assassin 1", "Goblin Assassin 2") and horde.squad is None
    for name in (*squad.names, *horde.names):
        creature = encounter.creature(name)
        monster = SNIPER if creature.squad_id else ASSASSIN
        assert creature.abilities == carried_abilities(monster)
        assert creature.vitals.max_stamina == monster.stamina


@pytest.mark.parametrize(
    ("before", "monster", "count", "names", "squad"),
    [
        ((), ASSASSIN, 1, ("Goblin Assassin",), None),
        ((("Goblin Assassin", 1),), ASSASSIN, 1, ("Goblin Assassin 2",), None),
        ((("Goblin Assassin", 2),), ASSASSIN, 2, ("Goblin Assassin 3", "Goblin Assassin 4"), None),
        ((("Goblin Assassin", 2),), ASSASSIN, 1, ("Goblin Assassin 3",), None),
        ((("Goblin Sniper", 2),), SNIPER, 2, ("Goblin Sniper 3", "Goblin Sniper 4"), "Goblin Sniper squad 2"),
        (
            (("Goblin Sniper", 1), ("Goblin Sniper", 1)),
            SNIPER,
            1,
            ("Goblin Sniper 3",),
            "Goblin Sniper squad 3",
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
            encounter, ASSASSIN if name == "Goblin Assassin" else SNIPER, n, "director"
        )
    _, brought = add_monsters(encounter, monster, count, "director")
    assert (brought.names, brought.squad) == (names, squad)


def test_a_name_squad_and_group_can_be_given() -> None:
    encounter, brought = add_monsters(
        new_encounter_state(), SNIPER, 2, "director", name="Sniper", squad="Rooftops", group="Ambush"
    )
    assert brought.names == ("Sniper 1", "Sniper 2") and brought.squad == "Rooftops"
    encounter, _ = add_monsters(encounter, ASSASSIN, 1, "director", group="Ambush")
    assert [e.group for e in encounter.turns.entries] == ["Ambush", "Ambush"]


def test_the_goblin_ambush_resolves_every_slot_by_id() -> None:
    """Its slots: 2 Goblin Assassins (horde), a group of 4 Goblin Snipers and one of 4 Goblin Spinecleavers
    (minions: a slot's count is in fours), a Goblin Underboss."""
    encounter, brought = add_encounter_file(new_encounter_state(), AMBUSH, GOBLINS, "director")
    summary = [(b.monster, len(b.names), b.squad) for b in brought]
    assert summary[:4] == [
        ("Goblin Assassin", 2, None),
        ("Goblin Sniper", 4, "Goblin Sniper squad"),
        ("Goblin Spinecleaver", 4, "Goblin Spinecleaver squad"),
        ("Goblin Underboss", 1, None),
    ]
    assert len(encounter.creatures) == sum(
        s.creatures(GOBLINS[s.monster_id].organization) for s in AMBUSH.slots
    )


def test_an_encounter_with_ids_the_bestiary_lacks_names_exactly_those_and_adds_nothing() -> None:
    known = {k: v for k, v in GOBLINS.items() if k not in ("goblin-2", "goblin-8")}
    start = new_encounter_state()
    with pytest.raises(UnresolvedMonsters) as refused:
        add_encounter_file(start, AMBUSH, known, "director")
    assert refused.value.ids == ("goblin-2", "goblin-8")
    message = str(refused.value)
    assert "`goblin-2`, `goblin-8`" in message and "\n" not in message and "/monster import" in message
    assert "goblin-5" not in message


def test_a_creature_with_abilities_round_trips_and_one_without_leaves_them_out() -> None:
    """The encounter state round-trips through the codec; a field holding its default is left out."""
    encounter, _ = add_monsters(new_encounter_state(), DRAGON, 1, "director")
    encounter, _ = add_monsters(encounter, SNIPER, 2, "director")
    assert load(Encounter, to_data(encounter)) == encounter
    plain = Creature.create("Goblin", "Goblin", 10)
    assert "abilities" not in to_data(plain) and "abilities" in to_data(encounter.creature("Thorn Dragon"))
    assert load(Creature, to_data(dataclasses.replace(plain, abilities=DRAGON.abilities))).abilities == (
        DRAGON.abilities
    )


@settings(deadline=None, max_examples=40)
@given(
    adds=st.lists(
        st.tuples(
            st.sampled_from([SNIPER, ASSASSIN, DRAGON]), st.integers(1, 6), st.sampled_from([None, "Gob"])
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
        assert (brought.squad is not None) == (monster is SNIPER)
    ids = [fold(c.id) for c in encounter.creatures] + [
        fold(e.id) for e in encounter.turns.entries if e.members
    ]
    assert len(ids) == len(set(ids))
    assert load(Encounter, to_data(encounter)) == encounter


@pytest.mark.parametrize(
    ("monster", "size"),
    [
        pytest.param(DRAGON, "3", id="the dragon, size 3"),
        pytest.param(SNIPER, "1S", id="a goblin, 1S"),
        pytest.param(
            dataclasses.replace(ASSASSIN, size="huge"), "1M", id="a hand-typed size naming none: 1M"
        ),
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
