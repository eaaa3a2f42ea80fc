"""The roster sheet keeps what a hero plays with: abilities, kit damage bonuses, stability,
speed, size, the recovery value's bonus and the heroic resource's gains; an older stored sheet still loads,
and a roster hero's creature carries the abilities and kit bonuses into the encounter."""

from __future__ import annotations

import dataclasses

import pytest

from bot.content.forgesteel.hero import read_hero
from bot.content.forgesteel.hero_sheet import to_sheet
from bot.rules import codec
from bot.rules.creature import Creature
from bot.rules.encounter import add_hero, creature_of_hero, in_play, into_play, new_encounter_state
from bot.rules.forced import Size
from bot.rules.hero import HeroSheet, new_sheet
from bot.rules.kit import KitDamageBonus, Reach
from bot.rules.resources import GainTrigger, ResourceGain
from bot.rules.stamina import Vitals
from tests.content.forgesteel_files import Reader, both, invented_bytes
from tests.content.forgesteel_hero_kit import bonus, hero, to_bytes
from tests.content.test_ability_entry import SPIKE_CARD as MIND_SPIKE  # the card /ability add makes

IRONCLAD = KitDamageBonus("Ironclad", Reach.MELEE, (0, 0, 4))
HEROES = both("expected-heroes.json", lambda e: [(h["name"], (h,)) for h in e["heroes"]])


def test_an_older_stored_sheet_still_loads() -> None:
    """Sheets stored before abilities existed have none of the new fields: each takes its default."""
    old = {
        "vitals": {"max_stamina": 30, "stamina": 30, "recoveries": 8, "max_recoveries": 8, "is_hero": True}
    }
    sheet = codec.load(HeroSheet, old)
    assert sheet.abilities == () and sheet.kit_bonuses == () and sheet.resource_gains == ()
    assert (sheet.stability, sheet.speed, sheet.size, sheet.forge_steel_id) == (0, 5, "1M", "")
    assert sheet.vitals.recovery_value == 10


def test_defaults_are_left_out_of_the_data() -> None:
    """A field holding its default is left out of the data (docs/architecture.md, the codec)."""
    data = codec.to_data(new_sheet(30, 8))
    for name in (
        "abilities",
        "kit_bonuses",
        "stability",
        "speed",
        "size",
        "resource_gains",
        "forge_steel_id",
    ):
        assert name not in data
    assert "recovery_bonus" not in data["vitals"]


def test_a_full_sheet_round_trips() -> None:
    sheet = dataclasses.replace(
        new_sheet(30, 8),
        abilities=(MIND_SPIKE,),
        kit_bonuses=(IRONCLAD,),
        stability=2,
        speed=6,
        size="1S",
        resource_gains=(ResourceGain(GainTrigger.START_OF_TURN, "1d3", "Start of your turn"),),
        forge_steel_id="abc",
        ancestry="Dwarf",
        class_name="Fury",
        subclass="Berserker",
    )
    assert codec.load(HeroSheet, codec.to_data(sheet)) == sheet
    assert sheet.description == "Dwarf Fury (Berserker)"


def test_the_recovery_value_takes_its_bonus() -> None:
    """ "Recoveries and Recovery Value": a third of the Stamina maximum, rounded down; a hero's features may
    raise it (a Bonus on Recovery Value), and the import keeps that bonus on the sheet."""
    found = read_hero(to_bytes(hero(1, [bonus("Stamina", 30), bonus("Recovery Value", 2)])))
    sheet = to_sheet(found)
    assert sheet.vitals.recovery_value == found.recovery_value == 12
    assert codec.load(HeroSheet, codec.to_data(sheet)).vitals.recovery_value == 12
    assert Vitals.fresh(30, 8, is_hero=True).recovery_value == 10


@pytest.mark.parametrize(("read", "want"), HEROES)
def test_the_import_fills_the_sheet(read: Reader, want: dict[str, object]) -> None:
    """The sheet takes what Forge Steel computes: recovery value, stability, speed, size, the kit damage
    bonuses, the heroic resource's gains and every ability."""
    sheet = to_sheet(read_hero(read(str(want["file"]))))
    assert sheet.vitals.recovery_value == want["recoveryValue"]
    assert sheet.stability == want["stability"]
    assert sheet.speed == want["speed"]["value"]  # type: ignore[index]
    size = want["size"]
    assert sheet.size == f"{size['value']}{size['mod'] if size['value'] == 1 else ''}"  # type: ignore[index]
    assert [(b.name, b.reach.value, b.tiers) for b in sheet.kit_bonuses] == [
        (b["name"], b["type"], (b["tier1"], b["tier2"], b["tier3"]))
        for b in want["kitDamageBonuses"]  # type: ignore[attr-defined]
    ]
    gains = want["heroicResources"][0]["gains"]  # type: ignore[index]
    assert [(g.text, g.value) for g in sheet.resource_gains] == [(g["trigger"], g["value"]) for g in gains]
    assert [a.name for a in sheet.abilities] == [a["name"] for a in want["abilities"]]  # type: ignore[attr-defined]
    assert sheet.forge_steel_id == want["id"]
    assert codec.load(HeroSheet, codec.to_data(sheet)) == sheet


def test_the_imports_gains_are_read_for_the_encounter() -> None:
    """Brannoc's Rage: "You take damage: 1" and "You become winded or are dying: 1d3" are gains the bot
    applies when it sees them happen (`bot.rules.encounter.heroic`); the start-of-turn one is the turn's
    gain."""
    sheet = to_sheet(read_hero(invented_bytes("Brannoc.ds-hero")))
    assert [(g.trigger, g.value) for g in sheet.resource_gains] == [
        (GainTrigger.START_OF_TURN, "1d3"),
        (GainTrigger.TAKE_DAMAGE, "1"),
        (GainTrigger.WINDED_OR_DYING, "1d3"),
    ]
    assert sheet.turn_gain == "1d3"


def _sheet() -> HeroSheet:
    return dataclasses.replace(
        new_sheet(30, 8), abilities=(MIND_SPIKE,), kit_bonuses=(IRONCLAD,), stability=2
    )


def test_a_roster_hero_brings_abilities_and_kit_bonuses_into_the_encounter() -> None:
    encounter, creature_id = add_hero(new_encounter_state(), "h1", 7, "Ash", _sheet())
    creature = encounter.creature(creature_id)
    assert creature.abilities == (MIND_SPIKE,)
    assert creature.kit_bonuses == (IRONCLAD,)
    assert creature.stability == 2


def test_a_kit_that_lengthens_the_free_strikes_brings_them_first() -> None:
    """ "your kit can improve the standard options": a kit's distance bonus lengthens the free strikes, so the
    creature carries its own (otherwise the standard ones are every hero's)."""
    sheet = dataclasses.replace(_sheet(), melee_distance_bonus=1, ranged_distance_bonus=5)
    encounter, creature_id = add_hero(new_encounter_state(), "h1", 7, "Ash", sheet)
    melee, ranged, spike = encounter.creature(creature_id).abilities
    assert (melee.distance, ranged.distance, spike) == ("Melee 2", "Ranged 10", MIND_SPIKE)


def test_into_play_carries_a_changed_sheet() -> None:
    encounter, _ = add_hero(new_encounter_state(), "h1", 7, "Ash", new_sheet(30, 8))
    live = in_play(encounter, "h1", new_sheet(30, 8))
    assert live is not None
    updated = into_play(
        encounter, "h1", dataclasses.replace(live, abilities=(MIND_SPIKE,), kit_bonuses=(IRONCLAD,))
    )
    creature = updated.creature(creature_of_hero(updated, "h1") or "")
    assert (creature.abilities, creature.kit_bonuses) == ((MIND_SPIKE,), (IRONCLAD,))


def test_a_creature_without_kit_bonuses_leaves_them_out_of_the_data() -> None:
    creature = Creature.create("Goblin", "Goblin", 10)
    assert "kit_bonuses" not in codec.to_data(creature)
    with_bonus = dataclasses.replace(creature, kit_bonuses=(IRONCLAD,))
    assert codec.load(Creature, codec.to_data(with_bonus)) == with_bonus


def test_a_roster_hero_brings_the_sheets_size_and_a_changed_sheet_carries_it() -> None:
    """Size and Space ("for creatures of size 1, that size is further broken down as 1T, 1S, 1M, or 1L"): the
    sheet's size (from the import) is the creature's, for forced movement's "BIG VERSUS LITTLE"; 1M, the
    default, is left out of the data."""
    encounter, creature_id = add_hero(new_encounter_state(), "h1", 7, "Ash", new_sheet(30, 8))
    assert encounter.creature(creature_id).size == Size.parse("1M")
    assert "size" not in codec.to_data(encounter.creature(creature_id))
    small, _ = add_hero(
        new_encounter_state(), "h1", 7, "Ash", dataclasses.replace(new_sheet(30, 8), size="1S")
    )
    assert small.creature(creature_id).size == Size.parse("1S")
    grown = into_play(encounter, "h1", dataclasses.replace(new_sheet(30, 8), size="2"))
    creature = grown.creature(creature_id)
    assert creature.size == Size.parse("2") and codec.load(Creature, codec.to_data(creature)) == creature
