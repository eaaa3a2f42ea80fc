"""Situational edges and banes by name (bot.rules.situations), automatic tiers as typed, and what a roll is
made as (a critical hit needs a main action)."""

from __future__ import annotations

import pytest

from bot.rules.power import PowerRoll, PowerRollError, RollAction, parse_auto_tiers
from bot.rules.situations import (
    SITUATIONS,
    AppliesTo,
    RollUse,
    Situation,
    SituationError,
    parse_situations,
    situation_modifiers,
)

ABILITY = RollUse()
MELEE_STRIKE = RollUse(strike=True, melee=True, damaging=True)
RANGED_STRIKE = RollUse(strike=True, melee=False, damaging=True)
NO_DAMAGE_STRIKE = RollUse(strike=True, melee=True, damaging=False)
TEST = RollUse(test=True)

# (situation, the rule sentence it quotes, (edges, banes) on a damaging melee strike)
TABLE = [
    (
        Situation.FLANKING,
        "While flanking an enemy, you gain an edge on melee strikes against them.",
        (1, 0),
    ),
    (
        Situation.HIGH_GROUND,
        "they gain an edge on the power roll against that target.",
        (1, 0),
    ),
    (
        Situation.COVER,
        "You take a bane on damage-dealing abilities used against creatures or objects that have cover",
        (0, 1),
    ),
    (Situation.CONCEALMENT, "However, strikes against such targets take a bane.", (0, 1)),
    (Situation.SQUEEZED, "your ability rolls and tests take a bane.", (0, 1)),
]


@pytest.mark.parametrize(("situation", "sentence", "counts"), TABLE)
def test_each_situation_gives_what_its_text_says(
    situation: Situation, sentence: str, counts: tuple[int, int]
) -> None:
    """Draw Steel, Combat, "Flanking", "High Ground", "Cover", "Concealment", squeezing: each quoted in
    the table beside what it gives."""
    rule = SITUATIONS[situation]
    assert sentence in rule.source
    assert situation_modifiers((situation,), MELEE_STRIKE) == counts


# (situation, a roll it doesn't apply to, the hint's words)
REFUSED = [
    (Situation.FLANKING, RANGED_STRIKE, "melee:true"),  # "an edge on melee strikes against them"
    (Situation.FLANKING, TEST, "not tests"),
    (Situation.HIGH_GROUND, TEST, "not tests"),  # "uses an ability to target a creature or object"
    (Situation.COVER, NO_DAMAGE_STRIKE, "give the damage"),  # "a bane on damage-dealing abilities"
    (Situation.COVER, TEST, "not tests"),
    (Situation.CONCEALMENT, TEST, "not tests"),  # "strikes against such targets take a bane"
    (Situation.CONCEALMENT, RollUse(strike=False), "strikes only"),
]


@pytest.mark.parametrize(("situation", "use", "hint"), REFUSED)
def test_a_situation_is_refused_on_a_roll_it_does_not_apply_to(
    situation: Situation, use: RollUse, hint: str
) -> None:
    """Each situation applies to what its text names: flanking to melee strikes, cover to damage-dealing
    abilities, concealment to strikes, high ground to ability rolls against a target."""
    with pytest.raises(SituationError, match=hint):
        situation_modifiers((situation,), use)


def test_squeezed_applies_to_tests_too_and_unknown_rolls_are_vouched_for() -> None:
    """Squeezing: "your ability rolls and tests take a bane"; on a `/roll` the bot doesn't know whether the
    ability is a strike, so the player's word stands."""
    assert situation_modifiers((Situation.SQUEEZED,), TEST) == (0, 1)
    assert SITUATIONS[Situation.SQUEEZED].applies_to is AppliesTo.ABILITY_ROLLS_AND_TESTS
    everything = tuple(Situation)
    assert situation_modifiers(everything, ABILITY) == (2, 3)


def test_situations_are_read_by_name() -> None:
    assert parse_situations("Flanking,  high ground") == (Situation.FLANKING, Situation.HIGH_GROUND)
    assert parse_situations("high-ground, flanking, flanking") == (Situation.HIGH_GROUND, Situation.FLANKING)
    assert parse_situations(" ") == ()
    with pytest.raises(SituationError, match="flanking, high ground, cover, concealment, squeezed"):
        parse_situations("flanking, invisible")


@pytest.mark.parametrize(
    ("text", "tiers", "tier"),
    [("3", (3,), 3), ("3,1", (3, 1), 2), ("2, 2", (2, 2), 2), ("1,2,3", (1, 2, 3), 2)],
)
def test_automatic_tiers_from_several_effects(text: str, tiers: tuple[int, ...], tier: int) -> None:
    """Draw Steel, The Basics, "Automatic Tier Outcomes": "If you are under multiple effects that each grant
    you a different automatic outcome, those effects cancel each other out and all automatic outcomes are
    ignored. If multiple effects grant you the same automatic outcome, you obtain that outcome." (natural
    7 + 6 = 13: tier 2 when they cancel)."""
    assert parse_auto_tiers(text) == tiers
    assert PowerRoll(dice=(7, 6), auto_tiers=parse_auto_tiers(text)).tier == tier


@pytest.mark.parametrize("text", ["0", "4", "3;1", "3,,1", "1,1,1,1,1", "x"])
def test_bad_automatic_tiers_get_a_hint(text: str) -> None:
    with pytest.raises(PowerRollError, match="auto_tier:3,1"):
        parse_auto_tiers(text)


@pytest.mark.parametrize(
    ("text", "action", "critical"),
    [
        (None, RollAction.MAIN, True),
        ("main", RollAction.MAIN, True),
        ("maneuver", RollAction.MANEUVER, False),
        ("triggered", RollAction.TRIGGERED, False),
        ("free-strike", RollAction.FREE_STRIKE, False),
        ("Free Strike", RollAction.FREE_STRIKE, False),
    ],
)
def test_a_critical_hit_only_on_a_main_action(text: str | None, action: RollAction, critical: bool) -> None:
    """Draw Steel, The Basics, "Natural Roll": "on certain types of power rolls, this is a critical hit" — an
    ability roll made as a main action; a natural 19 or 20 on a free strike or a triggered action is tier 3
    and no critical."""
    made_as = RollAction.from_text(text)
    assert made_as is action
    roll = PowerRoll(dice=(10, 9), main_action=made_as.main_action)
    assert roll.tier == 3 and roll.critical is critical


def test_an_unknown_action_gets_a_hint() -> None:
    with pytest.raises(PowerRollError, match="action:triggered"):
        RollAction.from_text("reaction")
