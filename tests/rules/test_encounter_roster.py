"""Building an encounter (bot.rules.encounter.roster): adding creatures, squads and groups, and removing them,
with every refusal named (table-driven)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules.encounter import (
    COUNT_MAX,
    Encounter,
    NewCreatures,
    add_creatures,
    new_encounter_state,
    remove,
)
from bot.rules.encounter.model import CREATURES_MAX, EncounterError
from tests.rules.rules_kit import mixed_roster


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (NewCreatures("Orc", 5, "director", count=0), f"from 1 to {COUNT_MAX}"),
        (NewCreatures("Orc", 5, "director", count=COUNT_MAX + 1), f"from 1 to {COUNT_MAX}"),
        (NewCreatures("Orc", 0, "director"), "at least 1"),
        (NewCreatures("Orc", 5, "heroes", is_hero=True, owner_id=7, squad="S"), "Heroes can't be minions"),
        (NewCreatures("Orc", 5, "dragons"), "No side 'dragons'"),
        (NewCreatures("ash", 5, "director"), "already in this encounter"),
        (NewCreatures("Pack", 5, "director"), "already in this encounter"),
        (NewCreatures("Raiders", 5, "director"), "already in this encounter"),
        (NewCreatures("Orc", 5, "director", group="Goblin 1"), "already in this encounter"),
        (NewCreatures("Orc", 5, "director", count=2, squad="Rat 1"), "already in this encounter"),
        (NewCreatures("Bree", 20, "heroes", is_hero=True), "needs a player"),
    ],
)
def test_refused_additions_change_nothing(spec: NewCreatures, message: str) -> None:
    enc = mixed_roster()
    with pytest.raises(EncounterError, match=message):
        add_creatures(enc, spec)


def test_room_runs_out_at_the_creature_limit() -> None:
    enc = new_encounter_state()
    while len(enc.creatures) + COUNT_MAX <= CREATURES_MAX:
        spec = NewCreatures(f"Kobold {len(enc.creatures)}", 3, "director", count=COUNT_MAX)
        enc, _ = add_creatures(enc, spec)
    room = CREATURES_MAX - len(enc.creatures)
    with pytest.raises(EncounterError, match=f"room for {room} more"):
        add_creatures(enc, NewCreatures("Last", 3, "director", count=room + 1))
    enc, names = add_creatures(enc, NewCreatures("Last", 3, "director", count=room))
    assert len(enc.creatures) == CREATURES_MAX and len(names) == room


def test_numbered_names_squads_and_groups() -> None:
    enc = mixed_roster()
    assert [c.id for c in enc.creatures] == ["Ash", "Goblin 1", "Goblin 2", "Rat 1", "Rat 2", "Rat 3"]
    squad = enc.squad("Pack")
    assert squad is not None and squad.alive == ("Rat 1", "Rat 2", "Rat 3") and squad.pool == 12
    assert {e.group for e in enc.turns.entries if e.id.startswith("Goblin")} == {"Raiders"}


@pytest.mark.parametrize(
    ("name", "gone", "left"),
    [
        ("goblin 1", ("Goblin 1",), ["Ash", "Goblin 2", "Rat 1", "Rat 2", "Rat 3"]),
        ("PACK", ("Rat 1", "Rat 2", "Rat 3"), ["Ash", "Goblin 1", "Goblin 2"]),
        ("Ash", ("Ash",), ["Goblin 1", "Goblin 2", "Rat 1", "Rat 2", "Rat 3"]),
    ],
)
def test_remove_a_creature_or_a_whole_squad(name: str, gone: tuple[str, ...], left: list[str]) -> None:
    enc = dataclasses.replace(mixed_roster(), surges={"Ash": 2}, resources={"Ash": 3}, tokens_used=("Ash",))
    enc = dataclasses.replace(enc, roster={"Ash": "h1"})
    after, removed = remove(enc, name)
    assert removed == gone
    assert [c.id for c in after.creatures] == left
    assert not any(set(e.creature_ids) & set(gone) for e in after.turns.entries)
    if "Ash" in gone:
        assert (after.surges, after.resources, after.roster, after.tokens_used) == ({}, {}, {}, ())
    if "Rat 1" in gone:
        assert after.squads == ()


@pytest.mark.parametrize(
    ("name", "message"), [("Rat 2", "minion of Pack: remove the whole squad"), ("Nobody", "Nobody")]
)
def test_remove_refusals(name: str, message: str) -> None:
    with pytest.raises(EncounterError, match=message):
        remove(mixed_roster(), name)


def test_a_roster_hero_in_play_shows_the_encounters_stamina_and_recoveries() -> None:
    from bot.rules.encounter import add_hero, in_play
    from bot.rules.hero import new_sheet

    sheet = new_sheet(30, 8)
    enc, _ = add_hero(new_encounter_state(), "h1", 7, "Vex", sheet)
    vex = enc.creature("Vex")
    hurt = dataclasses.replace(vex, vitals=dataclasses.replace(vex.vitals, stamina=12, recoveries=5))
    enc = dataclasses.replace(enc, creatures=tuple(hurt if c.id == "Vex" else c for c in enc.creatures))
    live = in_play(enc, "h1", sheet)
    assert live is not None and (live.vitals.stamina, live.vitals.recoveries) == (12, 5)
    assert dataclasses.replace(live, vitals=sheet.vitals) == sheet  # only the vitals come from the encounter
    assert in_play(enc, "someone else", sheet) is None


def test_a_sheet_edited_mid_fight_goes_into_play_and_other_creatures_are_untouched() -> None:
    from bot.rules.characteristics import Characteristics
    from bot.rules.encounter import add_hero, in_play, into_play
    from bot.rules.hero import new_sheet

    sheet = new_sheet(30, 8)
    enc, _ = add_hero(mixed_roster(), "h1", 7, "Vex", sheet)
    live = in_play(enc, "h1", sheet)
    assert live is not None
    edited = dataclasses.replace(live, level=3, characteristics=Characteristics(might=2))
    after = into_play(enc, "h1", edited)
    vex = after.creature("Vex")
    assert (vex.level, vex.characteristics.might, vex.vitals) == (3, 2, live.vitals)
    assert [c for c in after.creatures if c.id != "Vex"] == [c for c in enc.creatures if c.id != "Vex"]
    assert into_play(enc, "not here", edited) == enc


def test_renaming_a_roster_hero_renames_their_creature_everywhere_the_encounter_names_it() -> None:
    """ "Renaming a hero renames its creature in the running encounter too" (a creature's id is its
    name, so every place that refers to it follows)."""
    from bot.rules import codec
    from bot.rules.conditions import Condition, Duration
    from bot.rules.dice import FixedDice
    from bot.rules.encounter import NameTaken, add_hero, rename_hero
    from bot.rules.encounter.flow import begin
    from bot.rules.encounter.harm import add_condition, gain_surges
    from bot.rules.hero import new_sheet

    enc, _ = add_hero(mixed_roster(), "h1", 7, "Vex", new_sheet(30, 8))
    enc, _ = add_condition(enc, "Vex", Condition.SLOWED, Duration.SAVE)
    enc, _ = add_condition(enc, "Goblin 1", Condition.TAUNTED, Duration.EOT, source="Vex")
    enc, _ = gain_surges(enc, "Vex", 2)
    enc = begin(enc, FixedDice([10])).encounter
    enc = dataclasses.replace(enc, tokens_used=("Vex",))
    renamed = rename_hero(enc, "h1", "  Vexa  ")
    assert "'Vex'" not in repr(codec.to_data(renamed))  # no reference to the old name is left
    vexa = renamed.creature("Vexa")
    assert (vexa.name, vexa.vitals) == ("Vexa", enc.creature("Vex").vitals)
    assert (
        renamed.roster == {"Vexa": "h1"}
        and renamed.surges == {"Vexa": 2}
        and renamed.tokens_used == ("Vexa",)
    )
    assert [c.creature_id for c in renamed.turns.conditions] == ["Vexa", "Goblin 1"]
    assert renamed.turns.conditions[1].source_id == "Vexa"
    assert codec.load(Encounter, codec.to_data(renamed)) == renamed
    assert rename_hero(enc, "not here", "Vexa") == enc
    with pytest.raises(NameTaken):
        rename_hero(enc, "h1", "goblin 1")
