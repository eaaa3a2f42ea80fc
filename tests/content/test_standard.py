"""The standard abilities every creature has (Draw Steel, Combat, "Standard Free Strikes",
"Grab", "Knockback", "Charge")."""

from __future__ import annotations

import pytest

from bot.content.forgesteel.monster import read_monster
from bot.content.monster import monster_standard_abilities
from bot.rules.ability import ActionType
from bot.rules.characteristics import Characteristic, Characteristics
from bot.rules.conditions import Condition
from bot.rules.damage import DamageType
from bot.rules.forced import ForcedKind, ForcedMovement
from bot.rules.standard import (
    charge,
    grab,
    hero_free_strikes,
    hero_standard_abilities,
    knockback,
    monster_free_strike,
)
from bot.rules.tiers import parse_tier
from tests.content.forgesteel_files import invented_bytes


@pytest.mark.parametrize(
    ("index", "name", "distance", "amounts"),
    [
        (0, "Melee Weapon Free Strike", "Melee 1", (5, 8, 10)),
        (1, "Ranged Weapon Free Strike", "Ranged 5", (5, 7, 9)),
    ],
)
def test_hero_free_strikes(index: int, name: str, distance: str, amounts: tuple[int, int, int]) -> None:
    """ "≤11 2 + M or A damage; 12-16 5 + M or A damage; 17+ 7 + M or A damage" (melee), "2 / 4 / 6 + M or A"
    (ranged): with M 1 and A 3 the highest, 3, is added."""
    strike = hero_free_strikes()[index]
    assert (strike.name, strike.distance, strike.action) == (name, distance, ActionType.MAIN)
    assert strike.power_roll is not None
    assert strike.power_roll.characteristics == (Characteristic.MIGHT, Characteristic.AGILITY)
    scores = Characteristics(might=1, agility=3)
    got = []
    for tier in strike.power_roll.tiers:
        effect = parse_tier(tier)
        assert effect.fully_parsed and effect.damage is not None
        got.append(effect.damage.amount(scores))
    assert tuple(got) == amounts
    assert strike.has_keyword("weapon") and strike.has_keyword("strike")


def test_hero_free_strikes_take_the_kits_distance() -> None:
    """ "your kit can improve the standard options"."""
    melee, ranged = hero_free_strikes(melee_distance_bonus=1, ranged_distance_bonus=5)
    assert (melee.distance, ranged.distance) == ("Melee 2", "Ranged 10")
    assert melee.has_keyword("charge") and not ranged.has_keyword("charge")


def test_monster_free_strike_from_its_stat_block() -> None:
    """ "for a monster: its free-strike damage and type"."""
    slinger = read_monster(invented_bytes("Bogling Slinger.ds-monster"))
    strike, *_ = monster_standard_abilities(slinger)
    assert strike.distance == "Melee 1 or Ranged 10"
    assert strike.power_roll is not None
    for tier in strike.power_roll.tiers:
        effect = parse_tier(tier)
        assert effect.damage is not None and effect.damage.amount(slinger.characteristics) == 2
    fire = monster_free_strike(6, DamageType.FIRE)
    assert fire.power_roll is not None
    damages = [parse_tier(t).damage for t in fire.power_roll.tiers]
    assert [(d.base, d.dtype) if d else None for d in damages] == [(6, DamageType.FIRE)] * 3


def test_grab() -> None:
    """Grab: "Power Roll + Might: ≤11 No effect. ... 17+ The target is grabbed by you." """
    ability = grab()
    assert ability.action is ActionType.MANEUVER and ability.target == "One creature"
    assert ability.power_roll is not None and ability.power_roll.characteristics == (Characteristic.MIGHT,)
    low, middle, high = (parse_tier(t) for t in ability.power_roll.tiers)
    assert low.fully_parsed and not low.effects
    assert not middle.fully_parsed  # the grabber's choice: shown as written
    assert [e.conditions for e in high.effects] == [(Condition.GRABBED,)]
    assert "only one creature at a time" in ability.effect


def test_knockback() -> None:
    """Knockback: "≤11 Push 1; 12–16 Push 2; 17+ Push 3"."""
    ability = knockback()
    assert ability.power_roll is not None
    assert [parse_tier(t).forced for t in ability.power_roll.tiers] == [
        (ForcedMovement(ForcedKind.PUSH, n),) for n in (1, 2, 3)
    ]


def test_charge_and_the_sets() -> None:
    """Charge: "move up to their speed in a straight line without jumping, then make a melee free strike"."""
    assert charge().action is ActionType.MAIN and "straight line" in charge().effect
    assert [a.name for a in hero_standard_abilities()] == [
        "Melee Weapon Free Strike",
        "Ranged Weapon Free Strike",
        "Grab",
        "Knockback",
        "Charge",
    ]
    wyrm = read_monster(invented_bytes("Cinder Wyrm.ds-monster"))
    assert [a.name for a in monster_standard_abilities(wyrm)] == [
        "Free Strike",
        "Grab",
        "Knockback",
        "Charge",
    ]
