"""/strike ability: through SimCord: the fixture heroes' abilities with their kit bonuses, the
fixture monsters' abilities and free strikes, potency conditions landing on the tracker, forced movement
after stability, heroic resources and Malice spent or refused, a squad of minions, the options beside
`ability`, the autocomplete and hostile ability names."""

from __future__ import annotations

import dataclasses

import pytest

from bot.content.bestiary import add_monsters
from bot.content.monster import Organization
from bot.rules.ability import Ability, ActionType, PowerRollSpec
from bot.rules.conditions import Condition, Duration
from bot.rules.encounter import Encounter
from tests.bot import ability_kit as kit
from tests.bot import harm_kit
from tests.bot.conftest import Table
from tests.bot.encounter_kit import ok, refused
from tests.bot.roll_kit import Loaded


@pytest.fixture
def dice() -> Loaded:
    return Loaded()


async def test_a_heros_ability_adds_its_characteristic_and_kit_bonus(table: Table, dice: Loaded) -> None:
    """ "Roll: 2d10 plus the highest of the ability's characteristics" and "the kit damage bonus added to
    Melee or Ranged weapon abilities": Brannoc's Crushing Blow, tier 3,
    8 + M2 + Wolfpelt 3 = 13; push 3 against the wyrm's stability 4 moves it 0."""
    await kit.start(table)
    dice.load(9, 8)
    text = await harm_kit.strike(table, table.alice, ability="Crushing Blow", targets="Cinder Wyrm")
    lines = text.splitlines()
    assert lines[0] == "⚔️ **Brannoc** uses **Crushing Blow** (6/9/13 damage · Might · kit +1/+2/+3)"
    assert lines[1] == "Dice: 9 + 8 · bonus +2 · Total: 19 · Tier 3"
    assert lines[2].startswith("**Cinder Wyrm** — Tier 3: 13 damage")
    assert lines[3] == "↳ push 3 → 0, stability 4"
    enc = await kit.current(table)
    assert enc.creature("Cinder Wyrm").vitals.stamina == 220 - 13


async def test_a_size_2_monster_pushes_a_1m_hero_one_square_farther(table: Table, dice: Loaded) -> None:
    """Draw Steel, Combat, "BIG VERSUS LITTLE": "When a larger creature force moves a smaller target with a
    melee weapon ability, the distance of the forced movement is increased by 1." A size 2 cleaver's Hook Axe
    (Melee, Strike, Weapon), tier 2 "push 3", against Brannoc (1M, stability 2): 3 + 1 - 2 = 2 squares.
    Knockback (Melee, no Weapon keyword) gets no +1."""
    hulk = dataclasses.replace(
        kit.BOGLINGS["Bogling Cleaver"],
        name="Hulking Cleaver",
        size="2",
        organization=Organization.ELITE,
    )
    await kit.start(table)
    await harm_kit.edit(table, lambda enc: add_monsters(enc, hulk, 1, "director")[0])
    dice.load(6, 6, 6, 6)  # 12 + 2: tier 2 both times
    text = await harm_kit.strike(
        table, table.director, attacker="Hulking Cleaver", ability="Hook Axe", targets="Brannoc"
    )
    assert "**Brannoc** — Tier 2:" in text
    assert "↳ push 3 → 2 (larger, melee weapon), stability 2" in text
    shove = await harm_kit.strike(
        table, table.director, attacker="Hulking Cleaver", ability="Knockback", targets="Brannoc"
    )
    assert "↳ push 2 → 0, stability 2" in shove


async def test_encounter_add_takes_a_size(table: Table) -> None:
    """`/encounter add size:` gives a creature added by hand its size (Size and Space: 1T, 1S, 1M, 1L, then
    2, 3 ...); a size that names none is refused in one line, and a stat block brings its own."""
    await kit.start(table)
    ok(
        await table.director.slash(
            table.channel, "encounter add", name="Ogre", stamina=40, side="director", size="2"
        )
    )
    assert (await kit.current(table)).creature("Ogre").size.format() == "2"
    text = refused(
        await table.director.slash(
            table.channel, "encounter add", name="Pixie", stamina=5, side="director", size="tiny"
        )
    )
    assert text == "A size is 1T, 1S, 1M, 1L or a number of squares from 2, e.g. size: 2."


async def test_a_natural_19_is_a_critical_only_on_a_main_action(table: Table, dice: Loaded) -> None:
    """ "Critical: only when the ability is a main action." Knockback is a maneuver."""
    await kit.start(table)
    dice.load(10, 9, 10, 9)
    main = await harm_kit.strike(table, table.alice, ability="Lunging Bite", targets="Bogling Brawler")
    maneuver = await harm_kit.strike(table, table.alice, ability="knockback", targets="Bogling Stabber")
    assert "Tier 3 · Critical" in main
    assert "Tier 3" in maneuver and "Critical" not in maneuver
    assert "↳ push 3" in maneuver


async def test_a_potency_condition_lands_and_the_cost_is_spent(table: Table, dice: Loaded) -> None:
    """ "a potency condition lands when the target's characteristic is below the potency, and is added to the
    tracker with its duration" and "the heroic-resource ... cost is spent": Blood Price
    (5 Rage), tier 2: M < [average] = 1 against the brawler's M -1."""
    await kit.start(table, resources={"Brannoc": 6})
    dice.load(6, 6)
    text = await harm_kit.strike(table, table.alice, ability="Blood Price", targets="Bogling Brawler")
    assert "💠 5 Rage spent · 1 left" in text
    assert "↳ M < 1: bleeding (save ends), weakened (save ends) — lands (M -1)" in text
    enc = await kit.current(table)
    held = {c.condition: c for c in enc.turns.conditions_of("Bogling Brawler")}
    assert set(held) == {Condition.BLEEDING, Condition.WEAKENED}
    assert (
        held[Condition.BLEEDING].duration is Duration.SAVE and held[Condition.BLEEDING].source_id == "Brannoc"
    )
    assert enc.resources["Brannoc"] == 1


async def test_not_enough_heroic_resource_or_malice_refuses_in_one_line(table: Table, dice: Loaded) -> None:
    """ "the strike is refused when there isn't enough": nothing changes."""
    await kit.start(table, malice=2, resources={"Brannoc": 4})
    before = await kit.current(table)
    hero = refused(
        await table.alice.slash(table.channel, "strike", ability="Blood Price", targets="Bogling Brawler")
    )
    assert hero == "Blood Price costs 5 Rage and Brannoc has 4: gain more first, or pick another ability."
    director = refused(
        await table.director.slash(
            table.channel, "strike", attacker="Bogling Stabber", ability="Mud Chains", targets="Marra"
        )
    )
    assert "Mud Chains costs 3 Malice and the Director has 2" in director
    assert await kit.current(table) == before


async def test_a_monster_ability_spends_malice_and_its_written_potency_lands(
    table: Table, dice: Loaded
) -> None:
    """Mud Chains, 2d10 + 2, tier 1: "3 corruption damage; A<0 restrained (save ends)": Marra's A -1 is
    below 0; Brannoc's A 1 isn't."""
    await kit.start(table, malice=5)
    dice.load(3, 3)
    text = await harm_kit.strike(
        table, table.director, attacker="Bogling Stabber", ability="Mud Chains", targets="Marra, Brannoc"
    )
    assert "Dice: 3 + 3 · bonus +2 · Total: 8 · Tier 1" in text
    assert "😈 3 Malice spent · 2 left" in text
    assert "**Marra** — Tier 1: 3 corruption damage" in text
    assert "↳ A < 0: restrained (save ends) — lands (A -1)" in text
    assert "↳ A < 0: restrained (save ends) — resisted (A 1)" in text
    enc = await kit.current(table)
    assert [c.condition for c in enc.turns.conditions_of("Marra")] == [Condition.RESTRAINED]
    assert enc.turns.conditions_of("Brannoc") == () and enc.malice.value == 2


async def test_a_squad_of_minions_and_area_damage_capped_per_minion(table: Table, dice: Loaded) -> None:
    """ "the Area keyword makes a minion squad's damage capped per minion": Sweep Back (Area
    Melee Weapon, 3 Rage) tier 1 deals 2 + M2 + Wolfpelt 1 = 5 to two slingers of Stamina 3: the two die,
    the third lives."""
    await kit.start(table, resources={"Brannoc": 3})
    dice.load(1, 2)
    text = await harm_kit.strike(
        table, table.alice, ability="Sweep Back", targets="Bogling Slinger 1, Bogling Slinger 2"
    )
    assert "(5/8/11 damage · Might · kit +1/+2/+3 · area)" in text
    assert "2 minions killed: Bogling Slinger 1, Bogling Slinger 2" in text
    enc = await kit.current(table)
    squad = enc.squad("Bogling Slinger squad")
    assert squad is not None and squad.alive == ("Bogling Slinger 3",)


async def test_a_minion_strikes_with_its_squads_ability(table: Table, dice: Loaded) -> None:
    await kit.start(table)
    dice.load(6, 6)
    text = await harm_kit.strike(
        table, table.director, attacker="Bogling Slinger 1", ability="Sling", targets="Brannoc"
    )
    assert "Dice: 6 + 6 · bonus +2 · Total: 14 · Tier 2" in text and "**Brannoc** — Tier 2: 4 damage" in text


async def test_the_free_strikes(table: Table, dice: Loaded) -> None:
    """ "Free Strike: for a hero: melee and ranged, with the kit's damage and distance; for a monster: its
    free-strike damage and type." Never a critical: a free strike isn't an ability used as a
    main action."""
    await kit.start(table)
    dice.load(10, 10, 4, 4)
    hero = await harm_kit.strike(
        table, table.alice, ability="Melee Weapon Free Strike", targets="Bogling Stabber"
    )
    wyrm = await harm_kit.strike(
        table, table.director, attacker="Cinder Wyrm", ability="free strike", targets="Brannoc"
    )
    assert "(5/9/12 damage · Might · kit +1/+2/+3)" in hero and "Tier 3" in hero and "Critical" not in hero
    assert "**Brannoc** — Tier 1: 5 fire damage" in wyrm


async def test_options_beside_ability_override_and_add(table: Table, dice: Loaded) -> None:
    """ "Options: damage, bonus, edges, banes and surges still work beside ability, as overrides and
    extras"."""
    await kit.start(table)
    await harm_kit.edit(table, lambda enc: dataclasses.replace(enc, surges={"Brannoc": 3}))
    dice.load(5, 5)
    text = await harm_kit.strike(
        table,
        table.alice,
        ability="Crushing Blow",
        targets="Cinder Wyrm",
        bonus=1,
        edges=1,
        surges=1,
        damage="1/2/30",
        type="cold",
    )
    # 5 + 5 + M2 + 1 + edge 2 = 15: tier 2; the typed damage replaces the card's, the surge adds A/M 2
    assert "Dice: 5 + 5 · bonus +3 · edge (+2) · Total: 15 · Tier 2" in text
    assert "4 cold damage (of 4 with surges +2)" in text and "↳ push 2 → 0, stability 4" in text
    assert (await kit.current(table)).surges == {"Brannoc": 2}


async def test_raise_potency_spends_two_surges(table: Table, dice: Loaded) -> None:
    await kit.start(table, resources={"Brannoc": 5})
    await harm_kit.edit(table, lambda enc: dataclasses.replace(enc, surges={"Brannoc": 2}))
    dice.load(9, 9)  # tier 3: M < [strong] = 2, raised to 3: the wyrm's M 3 still resists
    text = await harm_kit.strike(
        table, table.alice, ability="Blood Price", targets="Cinder Wyrm", raise_potency=True
    )
    assert "2 surges raise the potency against **Cinder Wyrm**" in text
    assert "↳ M < 3: bleeding, weakened (save ends) — resisted (M 3)" in text
    assert (await kit.current(table)).surges == {}
    again = refused(
        await table.alice.slash(table.channel, "strike", targets="Cinder Wyrm", raise_potency=True)
    )
    assert "name the ability with ability" in again


async def test_unknown_abilities_and_abilities_without_a_roll_are_refused(table: Table, dice: Loaded) -> None:
    await kit.start(table)
    text = refused(
        await table.alice.slash(table.channel, "strike", ability="Fireball", targets="Bogling Brawler")
    )
    assert text.startswith("Brannoc has no ability named 'Fireball': pick one from the list (Crushing Blow,")
    text = refused(
        await table.alice.slash(table.channel, "strike", ability="Stand Firm", targets="Bogling Brawler")
    )
    assert text.startswith("Stand Firm has no power roll")


async def test_the_ability_autocomplete_offers_the_strikers_abilities_then_the_standard_ones(
    table: Table,
) -> None:
    await kit.start(table)
    mine = await table.alice.autocomplete(table.channel, "strike", "ability", "")
    names = [c["value"] for c in mine]
    assert names[:2] == ["Crushing Blow", "Lunging Bite"]
    assert names[-5:] == [
        "Melee Weapon Free Strike",
        "Ranged Weapon Free Strike",
        "Grab",
        "Knockback",
        "Charge",
    ]
    wyrm = await table.director.autocomplete(
        table.channel, "strike", "ability", "cinder", attacker="Cinder Wyrm"
    )
    assert [c["value"] for c in wyrm] == ["Cinder Breath", "Cinder Storm"]
    squad = await table.director.autocomplete(
        table.channel, "strike", "ability", "", attacker="Bogling Slinger squad"
    )
    assert [c["value"] for c in squad] == ["Free Strike", "Sling", "Grab", "Knockback", "Charge"]
    assert await table.director.autocomplete(table.channel, "strike", "ability", "") == []


async def test_hostile_ability_texts_are_shown_inert(table: Table, dice: Loaded) -> None:
    """Every user-supplied string shown goes through `inert`: a hand-made card's name and tier text."""
    hostile = Ability(
        "**Boom** @everyone",
        ActionType.MAIN,
        ("Magic",),
        power_roll=PowerRollSpec((), ("1 damage; <@123> *dances*",) * 3),
    )

    def give(enc: Encounter) -> Encounter:
        return enc.with_creature(dataclasses.replace(enc.creature("Bogling Brawler"), abilities=(hostile,)))

    await kit.start(table)
    await harm_kit.edit(table, give)
    text = await harm_kit.strike(
        table, table.director, attacker="Bogling Brawler", ability="**Boom** @everyone", targets="Brannoc"
    )
    assert "@everyone" not in text and "<@123>" not in text
    assert "\\*\\*Boom\\*\\*" in text and "\\*dances\\*" in text
