"""A strike by ability (bot/rules/encounter/ability_strike.py): the roll's characteristic and
bonus, criticals only on main actions, damage from the tier text with the kit bonus on Melee or Ranged Weapon
abilities, potency conditions landing, forced movement reduced by stability, the cost spent or refused, and
the standard abilities every creature has. Creatures are built directly: the fixture monsters from the
Forge Steel files, heroes with abilities read from the fixture heroes."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.content.bestiary import add_monsters
from bot.content.forgesteel.hero import read_hero
from bot.content.forgesteel.hero_abilities import HeroAbility
from bot.content.forgesteel.hero_sheet import to_sheet
from bot.content.forgesteel.monster import read_monster, read_monster_group
from bot.rules.ability import Ability, ActionType, PowerRollSpec
from bot.rules.characteristics import Characteristic, Characteristics
from bot.rules.conditions import Condition, Duration
from bot.rules.damage import DamageType
from bot.rules.dice import FixedDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, add_hero, new_encounter_state
from bot.rules.encounter.abilities import UnknownAbility, ability_names, find_ability
from bot.rules.encounter.ability_strike import (
    AbilityStrikeError,
    StrikeOptions,
    action_of,
    plan_ability,
    strike_with,
)
from bot.rules.forced import Size
from bot.rules.kit import KitDamageBonus, Reach, damage_bonuses
from bot.rules.power import PowerRoll, RollAction, roll_power
from bot.rules.resources import Malice
from bot.rules.standard import hero_free_strikes
from bot.rules.tiers import parse_tier
from tests.content.forgesteel_files import Reader, both, invented_bytes

BOGLINGS = {m.name: m for m in read_monster_group(invented_bytes("Bogling.ds-monster-group")).monsters}
WYRM = read_monster(invented_bytes("Cinder Wyrm.ds-monster"))
HEROES = {h: read_hero(invented_bytes(f"{h}.ds-hero")) for h in ("Brannoc", "Ysolde", "Marra")}
IRONCLAD = KitDamageBonus("Ironclad", Reach.MELEE, (0, 0, 4))
BOWS = KitDamageBonus("Bows", Reach.RANGED, (1, 1, 1))
M2_A2 = Characteristics.parse("M2 A2 R-1 I1 P1")


def roll(first: int, second: int, bonus: int = 0) -> PowerRoll:
    return roll_power(FixedDice([first, second]), bonus=bonus)


def card(
    name: str,
    tiers: tuple[str, str, str],
    *,
    action: ActionType = ActionType.MAIN,
    keywords: tuple[str, ...] = ("Melee", "Strike", "Weapon"),
    characteristics: tuple[Characteristic, ...] = (Characteristic.MIGHT,),
    bonus: int = 0,
    cost: int = 0,
) -> Ability:
    return Ability(name, action, keywords, cost=cost, power_roll=PowerRollSpec(characteristics, tiers, bonus))


def hero_abilities(name: str) -> tuple[Ability, ...]:
    return tuple(a.card for a in HEROES[name].abilities)


def table(*abilities: Ability, resource: int = 0, malice: int = 0) -> Encounter:
    """Brannoc (M2 A2, the hero striking with `abilities`), the Director's Ogre (M1, A0, I-1, stability 1) and
    Brute (M3, stability 0), the Bogling Cleavers as a squad of three minions, and the Cinder Wyrm."""
    enc = new_encounter_state()
    ogre = Characteristics.parse("M1 A0 R0 I-1 P0")
    for spec in (
        NewCreatures(
            "Brannoc", 30, "heroes", is_hero=True, owner_id=1, characteristics=M2_A2, abilities=abilities
        ),
        NewCreatures("Ogre", 40, "director", characteristics=ogre, stability=1),
        NewCreatures("Brute", 40, "director", characteristics=Characteristics.parse("M3 A3 R0 I2 P0")),
    ):
        enc, _ = add_creatures(enc, spec)
    enc, _ = add_monsters(enc, BOGLINGS["Bogling Cleaver"], 3, "director")
    enc, _ = add_monsters(enc, WYRM, 1, "director")
    return dataclasses.replace(enc, resources={"Brannoc": resource}, malice=Malice(malice))


# --- the roll --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ability", "scores", "characteristic", "bonus"),
    [
        # "2d10 plus the highest of the ability's characteristics, plus its stated bonus"
        (card("Slam", ("1 damage",) * 3), M2_A2, Characteristic.MIGHT, 2),
        (
            card("Rush", ("1 damage",) * 3, characteristics=(Characteristic.MIGHT, Characteristic.AGILITY)),
            Characteristics.parse("M1 A3"),
            Characteristic.AGILITY,
            3,
        ),
        (card("Bow", ("2 damage",) * 3, characteristics=(), bonus=2), M2_A2, None, 2),
        (card("Breath", ("9 poison damage",) * 3, bonus=1), WYRM.characteristics, Characteristic.MIGHT, 4),
    ],
)
def test_the_roll_adds_the_highest_listed_characteristic_and_the_stated_bonus(
    ability: Ability, scores: Characteristics, characteristic: Characteristic | None, bonus: int
) -> None:
    plan = plan_ability(ability, scores)
    assert (plan.characteristic, plan.roll_bonus) == (characteristic, bonus)


@pytest.mark.parametrize(
    ("action", "made_as", "critical"),
    [
        (ActionType.MAIN, RollAction.MAIN, True),
        (ActionType.MANEUVER, RollAction.MANEUVER, False),
        (ActionType.TRIGGERED, RollAction.TRIGGERED, False),
        (ActionType.FREE_TRIGGERED, RollAction.TRIGGERED, False),
        (ActionType.FREE_MANEUVER, RollAction.TRIGGERED, False),
        (ActionType.VILLAIN, RollAction.TRIGGERED, False),
    ],
)
def test_a_critical_only_when_the_ability_is_a_main_action(
    action: ActionType, made_as: RollAction, critical: bool
) -> None:
    """ "Critical: only when the ability is a main action." A natural 19 is tier 3 always."""
    ability = card("Swing", ("1 damage", "2 damage", "3 damage"), action=action)
    assert action_of(ability) is made_as
    _, done = strike_with(table(ability), roll(10, 9), "Brannoc", "Swing", ["Ogre"])
    assert done.strike.roll.critical is critical and done.strike.targets[0].tier == 3


def test_the_free_strike_is_made_as_a_free_strike_and_is_never_a_critical() -> None:
    enc = table()
    _, done = strike_with(enc, roll(10, 10), "Brannoc", "melee weapon free strike", ["Ogre"])
    assert done.plan.action is RollAction.FREE_STRIKE and not done.strike.roll.critical


# --- damage ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("keywords", "bonuses", "tier3"),
    [
        # "the kit damage bonus added to Melee or Ranged weapon abilities"
        (("Melee", "Strike", "Weapon"), (IRONCLAD,), 9 + 2 + 4),
        (("Area", "Melee", "Weapon"), (IRONCLAD,), 9 + 2 + 4),
        (("Melee", "Strike", "Magic"), (IRONCLAD,), 9 + 2),
        (("Ranged", "Strike", "Weapon"), (IRONCLAD,), 9 + 2),
        (("Ranged", "Strike", "Weapon"), (BOWS,), 9 + 2 + 1),
        (("Melee", "Ranged", "Weapon"), (IRONCLAD, BOWS), 9 + 2 + 4),
        (("Melee", "Strike", "Weapon"), (), 9 + 2),
    ],
)
def test_the_kit_bonus_goes_to_melee_or_ranged_weapon_abilities_only(
    keywords: tuple[str, ...], bonuses: tuple[KitDamageBonus, ...], tier3: int
) -> None:
    ability = card("Slam", ("3 + M damage", "6 + M damage", "9 + M damage"), keywords=keywords)
    plan = plan_ability(ability, M2_A2, bonuses)
    assert plan.damage is not None
    assert plan.damage.amount(3, M2_A2) == tier3


def test_the_hero_free_strike_takes_the_kit_bonus_exactly_once() -> None:
    """Standard.py's free strikes carry raw tiers ("2 / 5 / 7 + M or A"): the kit adds +0/+0/+4 once."""
    melee, ranged = hero_free_strikes()
    plan = plan_ability(melee, M2_A2, (IRONCLAD,))
    assert plan.damage is not None and [plan.damage.amount(t, M2_A2) for t in (1, 2, 3)] == [4, 7, 13]
    plan = plan_ability(ranged, M2_A2, (IRONCLAD,))
    assert plan.damage is not None and [plan.damage.amount(t, M2_A2) for t in (1, 2, 3)] == [4, 6, 8]


@pytest.mark.parametrize(
    ("read", "hero"), both("expected-heroes.json", lambda e: [(h["name"], (h,)) for h in e["heroes"]])
)
def test_every_fixture_hero_ability_deals_what_forge_steel_computes(
    read: Reader, hero: dict[str, Any]
) -> None:
    """Ground truth: expected-heroes.json's `computed` tiers are the damage Forge Steel shows, kit and
    characteristic added."""
    checked = 0
    imported = read_hero(read(hero["file"]))
    bonuses = damage_bonuses(imported.kits)
    for raw in hero["abilities"]:
        roll_json = raw.get("powerRoll")
        if roll_json is None:
            continue
        plan = plan_ability(find_card(imported.abilities, raw["name"]), imported.characteristics, bonuses)
        assert plan.roll_bonus == roll_json["powerRollBonus"], raw["name"]
        for tier in (1, 2, 3):
            shown = parse_tier(roll_json["computed"][f"tier{tier}"]).damage
            assert plan.damage is not None and shown is not None
            assert plan.damage.amount(tier, imported.characteristics) == shown.base, (raw["name"], tier)
            checked += 1
    assert checked >= 9  # each fixture hero has three or more abilities with a power roll


COUP_DE_GRACE = card(
    "Coup de Grâce",
    ("2d6 + 7 + A damage", "2d6 + 11 + A damage", "2d6 + 16 + A damage"),
    keywords=("Melee", "Ranged", "Strike", "Weapon"),
    characteristics=(Characteristic.AGILITY,),
)


def test_dice_damage_in_a_tier_is_rolled_with_the_characteristic_and_kit_added() -> None:
    """The Shadow's Coup de Grâce, "2d6 + 11 + A damage" at tier 2: Brannoc (A2, a +1 ranged kit) rolls 3
    and 5: 3 + 5 + 11 + 2 + 1 = 22 damage to the Ogre."""
    enc = table(COUP_DE_GRACE)
    keth = dataclasses.replace(
        enc.creature("Brannoc"), kit_bonuses=(KitDamageBonus("Bows", Reach.RANGED, (1, 1, 1)),)
    )
    enc = enc.with_creature(keth)
    plan = plan_ability(COUP_DE_GRACE, M2_A2, keth.kit_bonuses)
    assert plan.damage is not None and plan.damage.format() == "2d6+10/2d6+14/2d6+19"
    after, done = strike_with(enc, roll(5, 5), "Brannoc", "Coup de Grâce", ["Ogre"], dice=FixedDice([3, 5]))
    (target,) = done.strike.targets
    assert target.tier == 2 and target.rolled is not None
    assert target.rolled.format() == "2d6 [3, 5] + 14 = 22"
    assert target.hit is not None and target.hit.dealt == 22
    assert after.creature("Ogre").vitals.stamina == 40 - 22


def find_card(abilities: tuple[HeroAbility, ...], name: str) -> Ability:
    return next(a.card for a in abilities if a.card.name == name)


@pytest.mark.parametrize(("keywords", "killed"), [(("Area", "Magic"), 2), (("Ranged", "Magic"), 3)])
def test_the_damage_type_comes_from_the_text_and_area_damage_is_capped_per_minion(
    keywords: tuple[str, ...], killed: int
) -> None:
    """ "the Area keyword makes a minion squad's damage capped per minion": 9 poison damage to
    two Cleavers (Stamina 3 each, a pool of 9) kills those two; without Area the pool takes it all."""
    breath = card("Breath", ("9 poison damage",) * 3, keywords=keywords, characteristics=())
    enc = table(breath)
    one, two, _ = enc.squads[0].alive
    _, done = strike_with(enc, roll(5, 5), "Brannoc", "Breath", [one, two])
    assert done.plan.area is ("Area" in keywords) and done.strike.damage is not None
    assert done.strike.damage.dtype is DamageType.POISON
    hit = done.strike.targets[0].hit
    assert hit is not None and hit.dtype is DamageType.POISON and len(hit.killed) == killed
    assert all(e.dead for e in done.effects)


# --- per target ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("tier_text", "target", "lands"),
    [
        # "a potency condition lands when the target's characteristic is below the potency";
        # Brannoc's highest is 2: weak 0, average 1, strong 2
        ("2 damage; M < [weak] slowed (EoT)", "Ogre", False),  # M1 vs 0
        ("2 damage; M < [strong] slowed (EoT)", "Ogre", True),  # M1 vs 2
        ("2 damage; I < [weak] slowed (EoT)", "Ogre", True),  # I-1 vs 0
        ("2 damage; M < [strong] slowed (EoT)", "Brute", False),  # M3 vs 2
        ("2 damage; A<1 slowed (EoT)", "Ogre", True),  # A0 vs the number written
        ("2 damage; A<1 slowed (EoT)", "Brute", False),
    ],
)
def test_a_potency_condition_lands_only_below_the_potency(tier_text: str, target: str, lands: bool) -> None:
    enc = table(card("Hex", (tier_text,) * 3))
    after, done = strike_with(enc, roll(5, 5), "Brannoc", "Hex", [target])
    (landed,) = done.effects[0].conditions
    assert landed.lands is lands
    held = [c.condition for c in after.turns.conditions_of(target)]
    assert (Condition.SLOWED in held) is lands
    if lands:
        (instance,) = landed.added
        assert instance.duration is Duration.EOT and instance.source_id == "Brannoc"


def test_two_surges_raise_the_potency_against_the_first_target() -> None:
    """Surges: "spending 2 surges on one target raises [potency] by 1 for that target"."""
    enc = table(card("Hex", ("M < [average] weakened (save ends)",) * 3))
    enc = dataclasses.replace(enc, surges={"Brannoc": 2})
    after, done = strike_with(enc, roll(5, 5), "Brannoc", "Hex", ["Ogre"], StrikeOptions(raise_potency=True))
    (landed,) = done.effects[0].conditions
    assert landed.check is not None and landed.check.potency == 2 and landed.lands
    assert after.surges == {} and done.potency_raised == "Ogre"
    with pytest.raises(AbilityStrikeError, match="has 0 surge"):
        strike_with(after, roll(5, 5), "Brannoc", "Hex", ["Ogre"], StrikeOptions(raise_potency=True))


def test_conditions_without_potency_land_and_grabbed_lasts_until_removed() -> None:
    enc = table(*hero_abilities("Marra"))
    striker = dataclasses.replace(enc.creature("Brannoc"), characteristics=Characteristics.parse("M3"))
    enc = dataclasses.replace(enc.with_creature(striker), resources={"Brannoc": 5})
    after, done = strike_with(enc, roll(5, 5), "Brannoc", "Bind", ["Ogre"])
    (landed,) = done.effects[0].conditions
    (instance,) = landed.added
    assert instance.condition is Condition.GRABBED and instance.duration is Duration.UNTIL_REMOVED
    assert instance.source_id == "Brannoc" and after.resources["Brannoc"] == 0


@pytest.mark.parametrize(("target", "squares"), [("Ogre", 1), ("Brute", 2), ("Cinder Wyrm", 0)])
def test_forced_movement_is_reduced_by_the_targets_stability(target: str, squares: int) -> None:
    """ "forced movement is shown reduced by the target's stability ("push 2 → 1, stability 1")" """
    enc = table(card("Shove", ("1 damage; push 2",) * 3))
    _, done = strike_with(enc, roll(5, 5), "Brannoc", "Shove", [target])
    (moved,) = done.effects[0].forced
    assert (moved.movement.distance, moved.squares) == (2, squares)


MELEE_WEAPON = ("Melee", "Strike", "Weapon")
RANGED_WEAPON = ("Ranged", "Strike", "Weapon")
MELEE_MAGIC = ("Magic", "Melee", "Strike")

# (striker's size, target's size, the card's keywords, the target's stability, squares, the +1 given)
BIG_VERSUS_LITTLE = [
    pytest.param("2", "1M", MELEE_WEAPON, 0, 3, 1, id="larger, melee weapon: +1"),
    pytest.param("1L", "1S", MELEE_WEAPON, 0, 3, 1, id="1L moves 1S: larger"),
    pytest.param("1M", "1M", MELEE_WEAPON, 0, 2, 0, id="same size: no change"),
    pytest.param("1S", "2", MELEE_WEAPON, 0, 2, 0, id="smaller moves larger: no change"),
    pytest.param("2", "1M", RANGED_WEAPON, 0, 2, 0, id="ranged weapon: no change"),
    pytest.param("2", "1M", MELEE_MAGIC, 0, 2, 0, id="melee, not a weapon: no change"),
    pytest.param("3", "1T", MELEE_WEAPON, 2, 1, 1, id="+1, then stability 2 reduces it"),
    pytest.param("2", "1M", MELEE_WEAPON, 5, 0, 1, id="stability still floors it at 0"),
]


@pytest.mark.parametrize(
    ("striker", "target", "keywords", "stability", "squares", "larger"), BIG_VERSUS_LITTLE
)
def test_a_larger_striker_with_a_melee_weapon_ability_moves_a_smaller_target_farther(
    striker: str, target: str, keywords: tuple[str, ...], stability: int, squares: int, larger: int
) -> None:
    """Draw Steel, Combat, "BIG VERSUS LITTLE": "When a larger creature force moves a smaller target with a
    melee weapon ability, the distance of the forced movement is increased by 1. If a smaller creature force
    moves a larger target with a melee weapon ability, the distance doesn't change." "STABILITY": "When a
    creature is force moved, they can reduce that movement up to a number of squares equal to their
    stability." """
    enc = table(card("Shove", ("1 damage; push 2",) * 3, keywords=keywords))
    keth = dataclasses.replace(enc.creature("Brannoc"), size=Size.parse(striker))
    brute = dataclasses.replace(enc.creature("Brute"), size=Size.parse(target), stability=stability)
    enc = enc.with_creature(keth).with_creature(brute)
    _, done = strike_with(enc, roll(5, 5), "Brannoc", "Shove", ["Brute"])
    (moved,) = done.effects[0].forced
    assert (moved.movement.distance, moved.stability, moved.squares, moved.larger) == (
        2,
        stability,
        squares,
        larger,
    )


def test_the_rest_of_the_text_is_kept_and_a_dead_target_gets_no_effects() -> None:
    tiers = ("50 damage; M < [strong] slowed (EoT)",) * 2 + ("1 damage; the target shifts 1",)
    enc = table(card("Cut", tiers))
    after, done = strike_with(enc, roll(1, 1), "Brannoc", "Cut", ["Ogre"])
    assert done.effects[0].dead and after.turns.conditions_of("Ogre") == ()
    _, done = strike_with(after, roll(10, 10), "Brannoc", "Cut", ["Brute"])
    assert done.effects[0].rest == ("the target shifts 1",)


# --- the cost --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("striker", "resource", "malice", "refused", "left"),
    [
        ("Brannoc", 2, 9, "costs 3 heroic resource and Brannoc has 2", None),
        ("Brannoc", 3, 0, None, 0),
        ("Bogling Cleaver 1", 9, 2, "costs 3 Malice and the Director has 2", None),
        ("Bogling Cleaver 1", 0, 5, None, 2),
    ],
)
def test_the_cost_is_spent_or_the_strike_refused(
    striker: str, resource: int, malice: int, refused: str | None, left: int | None
) -> None:
    """ "Cost: the heroic-resource or Malice cost is spent, and the strike is refused when there isn't
    enough." """
    ability = card("Big One", ("3 damage",) * 3, cost=3)
    enc = table(ability, resource=resource, malice=malice)
    enc = enc.with_creature(dataclasses.replace(enc.creature(striker), abilities=(ability,)))
    if refused is not None:
        with pytest.raises(AbilityStrikeError, match=refused):
            strike_with(enc, roll(5, 5), striker, "big one", ["Brute"])
        return
    after, done = strike_with(enc, roll(5, 5), striker, "big one", ["Brute"])
    assert done.paid is not None and done.paid.left == left
    assert (after.resources["Brannoc"] if striker == "Brannoc" else after.malice.value) == left


# --- options and standard abilities ----------------------------------------------------------------------
def test_options_override_the_damage_and_add_to_the_bonus() -> None:
    enc = table(card("Slam", ("3 + M damage; push 1", "6 + M damage; push 2", "9 + M damage; push 4")))
    fire = StrikeOptions(dtype=DamageType.FIRE)
    _, done = strike_with(enc, roll(5, 5, bonus=1), "Brannoc", "Slam", ["Brute"], fire)
    assert done.strike.roll.bonus == 3 and done.strike.targets[0].tier == 2
    hit = done.strike.targets[0].hit
    assert hit is not None and hit.dealt == 8 and hit.dtype is DamageType.FIRE
    assert done.effects[0].forced[0].movement.distance == 2


def test_every_creature_has_the_standard_abilities_and_a_monster_its_free_strike() -> None:
    enc = table(*hero_abilities("Brannoc"))
    assert ability_names(enc.creature("Brannoc"))[-5:] == [
        "Melee Weapon Free Strike",
        "Ranged Weapon Free Strike",
        "Grab",
        "Knockback",
        "Charge",
    ]
    assert ability_names(enc.creature("Cinder Wyrm"))[0] == "Free Strike"
    assert ability_names(enc.creature("Ogre")) == ["Grab", "Knockback", "Charge"]
    _, done = strike_with(enc, roll(5, 5), "Cinder Wyrm", "free strike", ["Brannoc"])
    hit = done.strike.targets[0].hit
    assert hit is not None and hit.dealt == 5
    _, done = strike_with(enc, roll(9, 9), "Brannoc", "Knockback", ["Ogre"])
    assert done.strike.damage is None and done.effects[0].forced[0].squares == 2
    # Charge strikes with the melee free strike; a creature with no free strike card strikes by hand
    _, charged = strike_with(enc, roll(5, 5), "Brannoc", "Charge", ["Ogre"])
    assert charged.charged and charged.plan.ability.name == "Melee Weapon Free Strike"
    with pytest.raises(UnknownAbility, match="Ogre has no free strike card to charge with"):
        strike_with(enc, roll(5, 5), "Ogre", "Charge", ["Brannoc"])
    with pytest.raises(UnknownAbility, match="Ogre has no ability named 'Fireball'"):
        find_ability(enc.creature("Ogre"), "Fireball")


@pytest.mark.parametrize(
    ("hero", "ability", "dice", "tier", "dealt", "cost"),
    [
        # Brannoc's Wolfpelt kit: melee +1/+2/+3 on Melee Weapon abilities (8 + M2 + 3 = 13)
        ("Brannoc", "Crushing Blow", (9, 9), 3, 13, 0),
        ("Brannoc", "Melee Weapon Free Strike", (9, 9), 3, 12, 0),  # 7 + M2 + 3
        ("Brannoc", "Ranged Weapon Free Strike", (9, 9), 3, 8, 0),
        ("Brannoc", "Sweep Back", (9, 9), 3, 11, 3),  # Area Melee Weapon: 6 + M2 + 3
        # Ysolde has no kit: 7 + A3
        ("Ysolde", "Stone Step", (9, 9), 3, 10, 0),
        # Marra's Bulwark kit, tier 2 takes +1: 5 + M3 + 1
        ("Marra", "Oathbound Strike", (5, 5), 2, 9, 0),
    ],
)
def test_a_roster_hero_strikes_with_the_sheets_abilities_and_kit(
    hero: str, ability: str, dice: tuple[int, int], tier: int, dealt: int, cost: int
) -> None:
    """A roster hero's creature carries the sheet's abilities and kit damage bonuses (the Forge Steel import):
    Crushing Blow's tier 3 deals what the expected file computes, 13."""
    sheet = to_sheet(HEROES[hero])
    enc, name = add_hero(table(), hero.lower(), 7, f"{hero} PC", sheet)
    enc = dataclasses.replace(enc, resources={name: 3})
    after, done = strike_with(enc, roll(*dice), name, ability, ["Brute"], resource_name=sheet.resource_name)
    (target,) = done.strike.targets
    assert target.tier == tier and target.hit is not None and target.hit.dealt == dealt
    assert after.resources[name] == 3 - cost
    if cost:
        assert done.paid is not None and done.paid.what == "Rage"
