"""/strike ability: through SimCord (issue 20 §3): the fixture heroes' abilities with their kit bonuses, the
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
from tests.bot.ability_kit import Loaded
from tests.bot.conftest import Table
from tests.bot.encounter_kit import ok, refused


@pytest.fixture
def dice() -> Loaded:
    return Loaded()


async def test_a_heros_ability_adds_its_characteristic_and_kit_bonus(table: Table, dice: Loaded) -> None:
    """ "Roll: 2d10 plus the highest of the ability's characteristics" and "the kit damage bonus added to
    Melee or Ranged weapon abilities" (issue 20 §3): Keth's Brutal Slam, tier 3, 9 + M2 + Panther 4 = 15;
    push 4 against the dragon's stability 6 moves it 0."""
    await kit.start(table)
    dice.load(9, 8)
    text = ok(await table.alice.slash(table.channel, "strike", ability="Brutal Slam", targets="Thorn Dragon"))
    lines = text.splitlines()
    assert lines[0] == "⚔️ **Keth** uses **Brutal Slam** (5/8/15 damage · Might · kit +0/+0/+4)"
    assert lines[1] == "Dice: 9 + 8 · bonus +2 · Total: 19 · Tier 3"
    assert lines[2].startswith("**Thorn Dragon** — Tier 3: 15 damage")
    assert lines[3] == "↳ push 4 → 0, stability 6"
    enc = await kit.current(table)
    assert enc.creature("Thorn Dragon").vitals.stamina == 250 - 15


async def test_a_size_2_monster_pushes_a_1m_hero_one_square_farther(table: Table, dice: Loaded) -> None:
    """draw-steel-combat.txt "BIG VERSUS LITTLE": "When a larger creature force moves a smaller target with a
    melee weapon ability, the distance of the forced movement is increased by 1." A size 2 spinecleaver's Axe
    (Melee, Strike, Weapon), tier 2 "push 3", against Keth (1M, stability 2): 3 + 1 - 2 = 2 squares. Knockback
    (Melee, no Weapon keyword) gets no +1."""
    hulk = dataclasses.replace(
        kit.GOBLINS["Goblin Spinecleaver"],
        name="Hulking Spinecleaver",
        size="2",
        organization=Organization.ELITE,
    )
    await kit.start(table)
    await harm_kit.edit(table, lambda enc: add_monsters(enc, hulk, 1, "director")[0])
    dice.load(6, 6, 6, 6)  # 12 + 2: tier 2 both times
    text = ok(
        await table.director.slash(
            table.channel, "strike", attacker="Hulking Spinecleaver", ability="Axe", targets="Keth"
        )
    )
    assert "**Keth** — Tier 2:" in text
    assert "↳ push 3 → 2 (larger, melee weapon), stability 2" in text
    shove = ok(
        await table.director.slash(
            table.channel, "strike", attacker="Hulking Spinecleaver", ability="Knockback", targets="Keth"
        )
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
    """ "Critical: only when the ability is a main action." (issue 20 §3) Knockback is a maneuver."""
    await kit.start(table)
    dice.load(10, 9, 10, 9)
    main = ok(
        await table.alice.slash(table.channel, "strike", ability="Devastating Rush", targets="Goblin Warrior")
    )
    maneuver = ok(
        await table.alice.slash(table.channel, "strike", ability="knockback", targets="Goblin Assassin")
    )
    assert "Tier 3 · Critical" in main
    assert "Tier 3" in maneuver and "Critical" not in maneuver
    assert "↳ push 3" in maneuver


async def test_a_potency_condition_lands_and_the_cost_is_spent(table: Table, dice: Loaded) -> None:
    """ "a potency condition lands when the target's characteristic is below the potency, and is added to the
    tracker with its duration" and "the heroic-resource ... cost is spent" (issue 20 §3): Blood for Blood!
    (5 Ferocity), tier 2: M < [average] = 1 against the warrior's M -2."""
    await kit.start(table, resources={"Keth": 6})
    dice.load(6, 6)
    text = ok(
        await table.alice.slash(table.channel, "strike", ability="Blood for Blood!", targets="Goblin Warrior")
    )
    assert "💠 5 Ferocity spent · 1 left" in text
    assert "↳ M < 1: bleeding (save ends), weakened (save ends) — lands (M -2)" in text
    enc = await kit.current(table)
    held = {c.condition: c for c in enc.turns.conditions_of("Goblin Warrior")}
    assert set(held) == {Condition.BLEEDING, Condition.WEAKENED}
    assert held[Condition.BLEEDING].duration is Duration.SAVE and held[Condition.BLEEDING].source_id == "Keth"
    assert enc.resources["Keth"] == 1


async def test_not_enough_heroic_resource_or_malice_refuses_in_one_line(table: Table, dice: Loaded) -> None:
    """ "the strike is refused when there isn't enough" (issue 20 §3): nothing changes."""
    await kit.start(table, malice=2, resources={"Keth": 4})
    before = await kit.current(table)
    hero = refused(
        await table.alice.slash(table.channel, "strike", ability="Blood for Blood!", targets="Goblin Warrior")
    )
    assert (
        hero == "Blood for Blood! costs 5 Ferocity and Keth has 4: gain more first, or pick another ability."
    )
    director = refused(
        await table.director.slash(
            table.channel, "strike", attacker="Goblin Assassin", ability="Shadow Chains", targets="Jennet"
        )
    )
    assert "Shadow Chains costs 3 Malice and the Director has 2" in director
    assert await kit.current(table) == before


async def test_a_monster_ability_spends_malice_and_its_written_potency_lands(
    table: Table, dice: Loaded
) -> None:
    """Shadow Chains, 2d10 + 2, tier 1: "2 corruption damage; A<0 restrained (save ends)": Jennet's A -1 is
    below 0; Keth's A 2 isn't."""
    await kit.start(table, malice=5)
    dice.load(3, 3)
    text = ok(
        await table.director.slash(
            table.channel,
            "strike",
            attacker="Goblin Assassin",
            ability="Shadow Chains",
            targets="Jennet, Keth",
        )
    )
    assert "Dice: 3 + 3 · bonus +2 · Total: 8 · Tier 1" in text
    assert "😈 3 Malice spent · 2 left" in text
    assert "**Jennet** — Tier 1: 2 corruption damage" in text
    assert "↳ A < 0: restrained (save ends) — lands (A -1)" in text
    assert "↳ A < 0: restrained (save ends) — resisted (A 2)" in text
    enc = await kit.current(table)
    assert [c.condition for c in enc.turns.conditions_of("Jennet")] == [Condition.RESTRAINED]
    assert enc.turns.conditions_of("Keth") == () and enc.malice.value == 2


async def test_a_squad_of_minions_and_area_damage_capped_per_minion(table: Table, dice: Loaded) -> None:
    """ "the Area keyword makes a minion squad's damage capped per minion" (issue 20 §3): Back! (Area Melee
    Weapon, 3 Ferocity) tier 1 deals 5 to two snipers of Stamina 3: the two die, the third lives."""
    await kit.start(table, resources={"Keth": 3})
    dice.load(1, 2)
    text = ok(
        await table.alice.slash(
            table.channel, "strike", ability="Back!", targets="Goblin Sniper 1, Goblin Sniper 2"
        )
    )
    assert "(5/8/15 damage · Might · kit +0/+0/+4 · area)" in text
    assert "2 minions killed: Goblin Sniper 1, Goblin Sniper 2" in text
    enc = await kit.current(table)
    squad = enc.squad("Goblin Sniper squad")
    assert squad is not None and squad.alive == ("Goblin Sniper 3",)


async def test_a_minion_strikes_with_its_squads_ability(table: Table, dice: Loaded) -> None:
    await kit.start(table)
    dice.load(6, 6)
    text = ok(
        await table.director.slash(
            table.channel, "strike", attacker="Goblin Sniper 1", ability="Bow", targets="Keth"
        )
    )
    assert "Dice: 6 + 6 · bonus +2 · Total: 14 · Tier 2" in text and "**Keth** — Tier 2: 4 damage" in text


async def test_the_free_strikes(table: Table, dice: Loaded) -> None:
    """ "Free Strike: for a hero: melee and ranged, with the kit's damage and distance; for a monster: its
    free-strike damage and type." (issue 20 §3) Never a critical: a free strike isn't an ability used as a
    main action."""
    await kit.start(table)
    dice.load(10, 10, 4, 4)
    hero = ok(
        await table.alice.slash(
            table.channel, "strike", ability="Melee Weapon Free Strike", targets="Goblin Assassin"
        )
    )
    dragon = ok(
        await table.director.slash(
            table.channel, "strike", attacker="Thorn Dragon", ability="free strike", targets="Keth"
        )
    )
    assert "(4/7/13 damage · Might · kit +0/+0/+4)" in hero and "Tier 3" in hero and "Critical" not in hero
    assert "**Keth** — Tier 1: 5 damage" in dragon


async def test_options_beside_ability_override_and_add(table: Table, dice: Loaded) -> None:
    """ "Options: damage, bonus, edges, banes and surges still work beside ability, as overrides and extras"
    (issue 20 §3)."""
    await kit.start(table)
    await harm_kit.edit(table, lambda enc: dataclasses.replace(enc, surges={"Keth": 3}))
    dice.load(5, 5)
    text = ok(
        await table.alice.slash(
            table.channel,
            "strike",
            ability="Brutal Slam",
            targets="Thorn Dragon",
            bonus=1,
            edges=1,
            surges=1,
            damage="1/2/30",
            type="fire",
        )
    )
    # 5 + 5 + M2 + 1 + edge 2 = 15: tier 2; the typed damage replaces the card's, the surge adds A/M 2
    assert "Dice: 5 + 5 · bonus +3 · edge (+2) · Total: 15 · Tier 2" in text
    assert "4 fire damage (of 4 with surges +2)" in text and "↳ push 2 → 0, stability 6" in text
    assert (await kit.current(table)).surges == {"Keth": 2}


async def test_raise_potency_spends_two_surges(table: Table, dice: Loaded) -> None:
    await kit.start(table, resources={"Keth": 5})
    await harm_kit.edit(table, lambda enc: dataclasses.replace(enc, surges={"Keth": 2}))
    dice.load(9, 9)  # tier 3: M < [strong] = 2, raised to 3
    text = ok(
        await table.alice.slash(
            table.channel, "strike", ability="Blood for Blood!", targets="Thorn Dragon", raise_potency=True
        )
    )
    assert "2 surges raise the potency against **Thorn Dragon**" in text
    assert "↳ M < 3: bleeding (save ends), weakened (save ends) — lands (M 2)" in text
    assert (await kit.current(table)).surges == {}
    again = refused(
        await table.alice.slash(table.channel, "strike", targets="Thorn Dragon", raise_potency=True)
    )
    assert "name the ability with ability" in again


async def test_unknown_abilities_and_abilities_without_a_roll_are_refused(table: Table, dice: Loaded) -> None:
    await kit.start(table)
    text = refused(
        await table.alice.slash(table.channel, "strike", ability="Fireball", targets="Goblin Warrior")
    )
    assert text.startswith("Keth has no ability named 'Fireball': pick one from the list (Brutal Slam,")
    text = refused(
        await table.alice.slash(table.channel, "strike", ability="Charge", targets="Goblin Warrior")
    )
    assert text.startswith("Charge has no power roll")


async def test_the_ability_autocomplete_offers_the_strikers_abilities_then_the_standard_ones(
    table: Table,
) -> None:
    await kit.start(table)
    mine = await table.alice.autocomplete(table.channel, "strike", "ability", "")
    names = [c["value"] for c in mine]
    assert names[:2] == ["Brutal Slam", "Devastating Rush"]
    assert names[-5:] == [
        "Melee Weapon Free Strike",
        "Ranged Weapon Free Strike",
        "Grab",
        "Knockback",
        "Charge",
    ]
    dragon = await table.director.autocomplete(
        table.channel, "strike", "ability", "thorn", attacker="Thorn Dragon"
    )
    assert [c["value"] for c in dragon] == ["Thorny Scales", "Thorned Armor"]
    squad = await table.director.autocomplete(
        table.channel, "strike", "ability", "", attacker="Goblin Sniper squad"
    )
    assert [c["value"] for c in squad] == ["Free Strike", "Bow", "Grab", "Knockback", "Charge"]
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
        return enc.with_creature(dataclasses.replace(enc.creature("Goblin Warrior"), abilities=(hostile,)))

    await kit.start(table)
    await harm_kit.edit(table, give)
    text = ok(
        await table.director.slash(
            table.channel, "strike", attacker="Goblin Warrior", ability="**Boom** @everyone", targets="Keth"
        )
    )
    assert "@everyone" not in text and "<@123>" not in text
    assert "\\*\\*Boom\\*\\*" in text and "\\*dances\\*" in text
