"""Power rolls: tiers, edges and banes, automatic tiers, criticals, downgrades, tests, opposed rolls."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.codec import load, to_data
from bot.rules.dice import FixedDice, SeededDice
from bot.rules.power import (
    Difficulty,
    Keep,
    NetEdge,
    PowerRoll,
    PowerRollError,
    RollKind,
    TestOutcome,
    capped,
    evaluate_targets,
    net_edge,
    opposed_total,
    reroll,
    roll_power,
    shared_roll,
    tier_for_total,
)


def dice_for(natural: int) -> tuple[int, int]:
    """Two d10 faces summing to `natural` (2..20)."""
    first = max(1, natural - 10)
    return (first, natural - first)


# --- The independent oracle, written from Draw Steel, The Basics, "Power Rolls"
# -------------------------------
def oracle_tier(edges: int, banes: int, natural: int, bonus: int, autos: tuple[int, ...]) -> int:
    """Draw Steel, The Basics: "Power Roll Outcomes", "Edges and Banes", "Rolling With Edges and Banes",
    "Automatic Tier Outcomes", "Natural Roll"."""
    # Natural Roll: a natural 19 or 20 is always tier 3 regardless of any modifiers.
    if natural in (19, 20):
        return 3
    # Automatic Tier Outcomes: the same outcome applies; different outcomes cancel and are all ignored.
    if autos and all(a == autos[0] for a in autos):
        return autos[0]
    # "We capped edges and banes at a maximum of two each."
    e = 2 if edges >= 2 else edges
    b = 2 if banes >= 2 else banes
    # Rolling With Edges and Banes.
    if e == b:
        e = b = 0  # an edge and a bane, or a double edge and a double bane: as usual
    elif e == 2 and b == 1:
        e, b = 1, 0  # double edge and one bane: one edge
    elif b == 2 and e == 1:
        e, b = 0, 1  # double bane and one edge: one bane
    total = natural + bonus
    if e == 1:
        total += 2
    if b == 1:
        total -= 2
    if total <= 11:
        tier = 1
    elif total <= 16:
        tier = 2
    else:
        tier = 3
    if e == 2 and tier < 3:
        tier += 1
    if b == 2 and tier > 1:
        tier -= 1
    return tier


AUTOS: list[tuple[int, ...]] = [(), (1,), (2,), (3,), (1, 1), (1, 3), (2, 3, 2), (3, 3)]


@pytest.mark.parametrize(("edges", "banes"), list(itertools.product(range(4), range(4))))
def test_whole_edge_bane_matrix(edges: int, banes: int) -> None:
    """Draw Steel, The Basics, "Power Rolls": 0–3 edges × 0–3 banes × naturals 2–20 × bonus −5..+5 × automatic
    tiers (none, 1, 2, 3, identical, conflicting) against the oracle above."""
    for natural in range(2, 21):
        for bonus in range(-5, 6):
            for autos in AUTOS:
                roll = PowerRoll(
                    dice=dice_for(natural), bonus=bonus, edges=edges, banes=banes, auto_tiers=autos
                )
                assert roll.natural == natural
                assert roll.tier == oracle_tier(edges, banes, natural, bonus, autos), (natural, bonus, autos)


# Draw Steel, The Basics, "Rolling With Edges and Banes" (each count capped at 2, "Why Cap?").
NET_TABLE = [
    (0, 0, NetEdge.NONE),
    (1, 0, NetEdge.EDGE),
    (2, 0, NetEdge.DOUBLE_EDGE),
    (3, 0, NetEdge.DOUBLE_EDGE),
    (0, 1, NetEdge.BANE),
    (0, 2, NetEdge.DOUBLE_BANE),
    (0, 5, NetEdge.DOUBLE_BANE),
    (1, 1, NetEdge.NONE),
    (2, 2, NetEdge.NONE),
    (3, 3, NetEdge.NONE),
    (2, 1, NetEdge.EDGE),
    (3, 1, NetEdge.EDGE),
    (1, 2, NetEdge.BANE),
    (1, 3, NetEdge.BANE),
]


@pytest.mark.parametrize(("edges", "banes", "expected"), NET_TABLE)
def test_net_edge(edges: int, banes: int, expected: NetEdge) -> None:
    assert net_edge(edges, banes) is expected
    assert PowerRoll((5, 5), edges=edges, banes=banes).net is expected


@pytest.mark.parametrize(("edges", "banes", "mod"), [(1, 0, 2), (0, 1, -2), (2, 0, 0), (0, 2, 0), (1, 1, 0)])
def test_modifier_and_total(edges: int, banes: int, mod: int) -> None:
    """ "Edge": +2; "Bane": −2; double edge/bane add nothing to the roll."""
    roll = PowerRoll(dice=(5, 5), bonus=3, edges=edges, banes=banes)
    assert roll.modifier == mod
    assert roll.total == 13 + mod


# Draw Steel, The Basics, "Power Roll Outcomes": ≤11 tier 1, 12–16 tier 2, ≥17 tier 3.
@pytest.mark.parametrize(("total", "tier"), [(-3, 1), (11, 1), (12, 2), (16, 2), (17, 3), (30, 3)])
def test_tier_for_total(total: int, tier: int) -> None:
    assert tier_for_total(total) == tier


def test_negative_edges_refused() -> None:
    with pytest.raises(PowerRollError):
        net_edge(-1, 0)
    with pytest.raises(PowerRollError):
        PowerRoll(dice=(1, 1), banes=-1)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"dice": (1,)},
        {"dice": (0, 5)},
        {"dice": (11, 5)},
        {"dice": (1, 2), "keep": Keep.HIGHEST},
        {"dice": (1, 2), "auto_tiers": (4,)},
        {"dice": (1, 2), "downgraded_to": 0},
        {"dice": (1, 2), "downgraded_to": 1},
        {"dice": (10, 10), "downgraded_to": 3},
    ],
)
def test_bad_rolls_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(PowerRollError):
        PowerRoll(**kwargs)  # type: ignore[arg-type]


def test_three_dice_keep_highest_and_lowest() -> None:
    """A 3d10 roll keeping two: the kept pair is the natural roll."""
    high = PowerRoll(dice=(3, 9, 7), keep=Keep.HIGHEST)
    low = PowerRoll(dice=(3, 9, 7), keep=Keep.LOWEST)
    assert (high.natural, low.natural) == (16, 10)
    rolled = roll_power(FixedDice([10, 1, 9]), keep=Keep.HIGHEST)
    assert rolled.natural == 19 and rolled.tier == 3


# Draw Steel, The Basics, "Natural Roll" and "Critical Hit" (ability roll as a main action).
CRIT_TABLE = [
    ((9, 10), RollKind.ABILITY, True, True),
    ((10, 10), RollKind.ABILITY, True, True),
    ((9, 9), RollKind.ABILITY, True, False),
    ((10, 10), RollKind.ABILITY, False, False),
    ((10, 10), RollKind.TEST, True, False),
]


@pytest.mark.parametrize(("dice", "kind", "main", "crit"), CRIT_TABLE)
def test_critical(dice: tuple[int, int], kind: RollKind, main: bool, crit: bool) -> None:
    assert PowerRoll(dice=dice, kind=kind, main_action=main).critical is crit


def test_natural_19_beats_double_bane_and_automatic_tier_1() -> None:
    """ "Natural Roll": always tier 3 regardless of any modifiers; "Automatic Tier Outcomes": you can still
    make the roll to see if you get the additional effect (the critical)."""
    roll = PowerRoll(dice=(9, 10), bonus=-5, banes=2, auto_tiers=(1,), main_action=True)
    assert roll.tier == 3 and roll.critical


def test_downgrade() -> None:
    """ "Downgrade a Power Roll": choose a lower tier; a downgraded critical keeps its extra action."""
    roll = PowerRoll(dice=(10, 10), main_action=True)
    down = roll.downgrade(2)
    assert down.tier == 2 and down.undowngraded_tier == 3 and down.critical
    assert down.downgrade(1).tier == 1
    with pytest.raises(PowerRollError):
        down.downgrade(2)
    with pytest.raises(PowerRollError):
        down.downgrade(1).downgrade(2)
    with pytest.raises(PowerRollError):
        roll.downgrade(3)
    with pytest.raises(PowerRollError):
        PowerRoll(dice=(1, 1)).downgrade(1)
    with pytest.raises(PowerRollError):
        roll.downgrade(4)


def test_per_target_evaluation_gives_different_tiers() -> None:
    """One roll, each target with its own edges and banes (e.g. one prone target, one with cover)."""
    roll = roll_power(FixedDice([6, 5]), bonus=2, main_action=True)  # natural 11, total 13 → tier 2
    results = evaluate_targets(roll, {"goblin": (2, 0), "ogre": (0, 2), "wolf": (1, 0), "orc": (0, 1)})
    assert {k: v.tier for k, v in results.items()} == {"goblin": 3, "ogre": 1, "wolf": 2, "orc": 1}
    assert results["wolf"].total == 15 and results["orc"].total == 11
    assert all(r.dice == roll.dice for r in results.values())
    down = roll.downgrade(1)
    assert down.with_target(0, 0).downgraded_to is None
    assert roll.with_target(0, 0, auto_tiers=(3,)).tier == 3


# Heroes ch. 11 "Tests": outcome by difficulty and tier.
TEST_TABLE = [
    (Difficulty.EASY, 1, TestOutcome.SUCCESS_WITH_CONSEQUENCE),
    (Difficulty.EASY, 2, TestOutcome.SUCCESS),
    (Difficulty.EASY, 3, TestOutcome.SUCCESS_WITH_REWARD),
    (Difficulty.MEDIUM, 1, TestOutcome.FAILURE),
    (Difficulty.MEDIUM, 2, TestOutcome.SUCCESS_WITH_CONSEQUENCE),
    (Difficulty.MEDIUM, 3, TestOutcome.SUCCESS),
    (Difficulty.HARD, 1, TestOutcome.FAILURE_WITH_CONSEQUENCE),
    (Difficulty.HARD, 2, TestOutcome.FAILURE),
    (Difficulty.HARD, 3, TestOutcome.SUCCESS),
]


@pytest.mark.parametrize(("difficulty", "tier", "expected"), TEST_TABLE)
def test_test_outcomes(difficulty: Difficulty, tier: int, expected: TestOutcome) -> None:
    roll = PowerRoll(dice=(5, 5), kind=RollKind.TEST, auto_tiers=(tier,))
    assert roll.tier == tier
    assert roll.outcome(difficulty) is expected


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_natural_19_test_is_success_with_reward(difficulty: Difficulty) -> None:
    roll = PowerRoll(dice=(10, 9), kind=RollKind.TEST, bonus=-5)
    assert roll.outcome(difficulty) is TestOutcome.SUCCESS_WITH_REWARD


@pytest.mark.parametrize(("difficulty", "tier", "expected"), [t for t in TEST_TABLE if t[1] < 3])
@pytest.mark.parametrize("dice", [(10, 9), (10, 10)])
def test_a_downgraded_natural_19_or_20_test_takes_the_lower_tier(
    dice: tuple[int, int], difficulty: Difficulty, tier: int, expected: TestOutcome
) -> None:
    """Draw Steel, The Basics, "Downgrade a Power Roll": "you can downgrade it to select the outcome of a
    lower tier" — a natural 19 or 20 test downgraded is no longer a success with a reward (a hard test
    downgraded to tier 2 fails); only a critical hit keeps its extra action after a downgrade."""
    roll = PowerRoll(dice=dice, kind=RollKind.TEST).downgrade(tier)
    assert roll.outcome(difficulty) is expected
    assert not roll.critical


def test_outcome_needs_a_test() -> None:
    with pytest.raises(PowerRollError):
        PowerRoll(dice=(5, 5)).outcome(Difficulty.EASY)


def test_reroll_keeps_new_roll() -> None:
    """Draw Steel, The Basics, "Spending Hero Tokens": reroll a test; you must use the new roll."""
    first = roll_power(FixedDice([1, 1]), bonus=1, kind=RollKind.TEST, edges=1)
    second = reroll(FixedDice([2, 3]), first)
    assert second.dice == (2, 3) and second.bonus == 1 and second.edges == 1
    second_lower = reroll(FixedDice([1, 1]), roll_power(FixedDice([9, 8]), kind=RollKind.TEST))
    assert second_lower.natural == 2  # worse, but kept
    with pytest.raises(PowerRollError):
        reroll(FixedDice([1, 1]), PowerRoll(dice=(1, 1), kind=RollKind.ABILITY))


# Heroes ch. 11 "Opposed Power Rolls": no tiers; double edge +4, double bane −4.
OPPOSED = [(0, 0, 12), (1, 0, 14), (2, 0, 16), (0, 1, 10), (0, 2, 8), (2, 1, 14), (1, 1, 12)]


@pytest.mark.parametrize(("edges", "banes", "total"), OPPOSED)
def test_opposed_total(edges: int, banes: int, total: int) -> None:
    assert opposed_total(PowerRoll(dice=(4, 6), bonus=2, edges=edges, banes=banes)) == total


# --- properties -------------------------------------------------------------------------------------------
rolls = st.builds(
    PowerRoll,
    dice=st.tuples(st.integers(1, 10), st.integers(1, 10)),
    bonus=st.integers(-20, 20),
    edges=st.integers(0, 4),
    banes=st.integers(0, 4),
    auto_tiers=st.lists(st.integers(1, 3), max_size=3).map(tuple),
    kind=st.sampled_from(RollKind),
    main_action=st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(rolls)
def test_tier_properties(roll: PowerRoll) -> None:
    """Tier always 1–3; natural 19/20 always tier 3; an extra edge never lowers it, an extra bane never
    raises it (checked against the cancellation rules: the net state is monotone in edges and banes)."""
    assert 1 <= roll.tier <= 3
    if roll.natural >= 19:
        assert roll.tier == 3
    assert roll.with_target(roll.edges + 1, roll.banes).tier >= roll.tier
    assert roll.with_target(roll.edges, roll.banes + 1).tier <= roll.tier


@settings(max_examples=100, deadline=None)
@given(rolls, st.integers(1, 3))
def test_codec_round_trip(roll: PowerRoll, down: int) -> None:
    assert load(PowerRoll, to_data(roll)) == roll
    if down < roll.tier:
        d = roll.downgrade(down)
        assert load(PowerRoll, to_data(d)) == d


def test_seeded_rolls_stay_in_range() -> None:
    dice = SeededDice(7)
    for _ in range(200):
        r = roll_power(dice, keep=Keep.LOWEST)
        assert 2 <= r.natural <= 20


def test_the_shared_roll_has_the_edges_and_banes_every_target_has() -> None:
    roll = PowerRoll(dice=(9, 8))
    restrained = [roll.with_target(0, 1), roll.with_target(1, 1), roll.with_target(0, 3)]
    shared = shared_roll(roll, restrained)
    assert (shared.edges, shared.banes) == (0, 1) and shared.total == 15
    assert shared_roll(roll, []) is roll


def test_capped_downgrades_only_a_higher_tier() -> None:
    high = PowerRoll(dice=(10, 10), main_action=True)
    assert capped(high, 2).tier == 2 and capped(high, 2).critical  # a critical keeps its extra action
    low = PowerRoll(dice=(3, 3))
    assert capped(low, 2) is low and capped(high, None) is high
