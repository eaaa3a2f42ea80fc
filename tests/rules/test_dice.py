"""Dice: d10/d6/d3/d100 (Draw Steel, The Basics, "Dice", "D3s", "D100s") and /dice expressions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.codec import load, to_data
from bot.rules.dice import (
    PARSED_CACHE_SIZE,
    DiceExpressionError,
    DiceRoll,
    FixedDice,
    ReplayDice,
    SeededDice,
    SystemDice,
    _parse,
    d3,
    d6,
    d10,
    d100,
    roll_expression,
)


def test_d10_and_d6_faces() -> None:
    """ "Dice": a 0 counts as 10, so a d10 reads 1..10."""
    assert d10(FixedDice([10])) == 10
    assert d6(FixedDice([6])) == 6
    with pytest.raises(ValueError):
        d10(FixedDice([11]))


# Draw Steel, The Basics, "D3s": a d6 read 1-2 → 1, 3-4 → 2, 5-6 → 3.
@pytest.mark.parametrize(("face", "value"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_d3(face: int, value: int) -> None:
    assert d3(FixedDice([face])) == value


# Draw Steel, The Basics, "D100s": tens then ones; a 10 counts as 0; both 0/10 → 100; 10 and 9 → 09.
@pytest.mark.parametrize(
    ("tens", "ones", "value"), [(5, 3, 53), (10, 9, 9), (10, 10, 100), (1, 10, 10), (9, 9, 99)]
)
def test_d100(tens: int, ones: int, value: int) -> None:
    assert d100(FixedDice([tens, ones])) == value


def test_fixed_dice_runs_out() -> None:
    with pytest.raises(IndexError):
        FixedDice([]).randint(1, 6)


def test_system_and_seeded_dice_in_range() -> None:
    for source in (SystemDice(), SeededDice(3)):
        assert all(1 <= d10(source) <= 10 for _ in range(100))


# /dice expressions: (text, fixed dice, total, breakdown)
EXPRESSIONS = [
    ("3d6+2", [1, 2, 3], 8, "3d6 [1, 2, 3] + 2 = 8"),
    ("4d6kh3", [6, 1, 5, 3], 14, "4d6kh3 [6, (1), 5, 3] = 14"),
    ("4d6kl1", [6, 1, 5, 3], 1, "4d6kl1 [(6), 1, (5), (3)] = 1"),
    ("4d6pl1", [6, 1, 5, 3], 14, "4d6pl1 [6, (1), 5, 3] = 14"),
    ("4d6ph1", [6, 1, 5, 3], 9, "4d6ph1 [(6), 1, 5, 3] = 9"),
    ("4d6kh1kl1", [6, 1, 5, 3], 7, "4d6kh1kl1 [6, 1, (5), (3)] = 7"),
    ("d100", [10, 10], 100, "1d100 [100] = 100"),
    ("1d%", [2, 10], 20, "1d% [20] = 20"),
    ("2d3", [1, 6], 4, "2d3 [1, 3] = 4"),
    ("2d10 - 1", [10, 4], 13, "2d10 [10, 4] - 1 = 13"),
    ("(1d4+2)*3", [4], 18, "(1d4 [4] + 2) * 3 = 18"),
    ("-1d4", [2], -2, "-1d4 [2] = -2"),
    ("+5", [], 5, "+5 = 5"),
    ("10/3", [], 3, "10 / 3 = 3"),
    ("7//2", [], 3, "7 // 2 = 3"),
    ("1d6 [fire]", [4], 4, "1d6 [4] [fire] = 4"),
    ("  2d6   +  1 ", [3, 3], 7, "2d6 [3, 3] + 1 = 7"),
]


@pytest.mark.parametrize(("text", "faces", "total", "breakdown"), EXPRESSIONS)
def test_roll_expression(text: str, faces: list[int], total: int, breakdown: str) -> None:
    result = roll_expression(FixedDice(faces), text)
    assert (result.total, result.breakdown) == (total, breakdown)
    assert load(DiceRoll, to_data(result)) == result


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Dice must look like"),
        ("x" * 101, "under 100 characters"),
        ("101d6", "too many dice"),
        ("60d6+41d6", "too many dice"),
        ("1d1001", "1 to 1000 sides"),
        ("1d0", "1 to 1000 sides"),
        ("0d6", "at least 1 die"),
        ("1.5", "whole numbers"),
        ("1d6>3", "Use only"),
        ("5%2", "Use only"),
        ("(1,2)", "Sets"),
        ("1d6e6", "kh/kl"),
        ("4d6k3", "kh/kl"),
        ("1/0", "divide by 0"),
        ("1d6+", "Dice must look like"),
        ("hello", "Dice must look like"),
        ("1000000*1000000*1000000", "too large"),
    ],
)
def test_expression_errors(text: str, message: str) -> None:
    with pytest.raises(DiceExpressionError, match=message):
        roll_expression(SeededDice(1), text)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 20),
    st.sampled_from([3, 4, 6, 8, 10, 12, 20, 100]),
    st.integers(-10, 10),
    st.integers(0, 99),
)
def test_expression_total_in_range(count: int, sides: int, bonus: int, seed: int) -> None:
    result = roll_expression(SeededDice(seed), f"{count}d{sides}{bonus:+d}")
    assert count + bonus <= result.total <= count * sides + bonus
    assert len(result.groups) == 1 and len(result.groups[0].results) == count


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list("0123456789d%+-*/()khlpe ,[]<>=.mirao")), max_size=30))
def test_any_text_rolls_or_gives_a_rule_error(text: str) -> None:
    """Whatever is typed, /dice either rolls or answers with a one-line DiceExpressionError."""
    try:
        result = roll_expression(SeededDice(1), text)
    except DiceExpressionError as error:
        assert "\n" not in str(error)
    else:
        assert result.breakdown.endswith(f"= {result.total}")


PARSE_TEXTS = ("4d6kh3+2", "2d10-1", "d100", "3d3*2", "(1d8+4)/2", "6d6pl2", "1d20kh1kl1", "2 + 3")


@pytest.mark.parametrize("text", PARSE_TEXTS)
def test_a_kept_parse_rolls_as_a_fresh_one(text: str) -> None:
    """Each expression is parsed once and its tree shared: rolling it again (from the kept tree) gives what a
    fresh parse gives, for the same dice, and rolling never alters the kept tree."""
    _parse.cache_clear()
    fresh = [roll_expression(SeededDice(seed), text) for seed in range(20)]
    assert _parse.cache_info().currsize == 1
    kept = [roll_expression(SeededDice(seed), text) for seed in range(20)]
    assert kept == fresh
    assert _parse.cache_info().hits >= 20
    _parse.cache_clear()
    assert [roll_expression(SeededDice(seed), text) for seed in range(20)] == fresh


def test_kept_parses_are_bounded_and_bad_texts_still_refused() -> None:
    _parse.cache_clear()
    for i in range(PARSED_CACHE_SIZE + 50):
        roll_expression(SeededDice(i), f"1d6+{i}")
    assert _parse.cache_info().currsize == PARSED_CACHE_SIZE
    for _ in range(2):  # a text that doesn't parse is refused every time (nothing is kept for it)
        with pytest.raises(DiceExpressionError):
            roll_expression(SeededDice(1), "2d6+")


def test_replay_dice_give_the_same_results_after_a_rewind() -> None:
    """A store change run again (a lost race) rolls what it rolled the first time; from the first die asked
    for with another range, the rest are rolled afresh."""
    dice = ReplayDice(FixedDice([3, 5, 6, 2]))
    assert [dice.randint(1, 6), dice.randint(1, 6)] == [3, 5]
    dice.rewind()
    assert [dice.randint(1, 6), dice.randint(1, 6)] == [3, 5]
    dice.rewind()
    assert [dice.randint(1, 6), dice.randint(1, 10), dice.randint(1, 6)] == [3, 6, 2]
