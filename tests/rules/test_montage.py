"""Montage tests (Draw Steel Heroes ch. 11, "Montage Tests"): each rule quoted from the rules as numbers, then
checked against `bot.rules.montage`."""

from __future__ import annotations

import pytest

from bot.rules import codec
from bot.rules.dice import FixedDice
from bot.rules.montage import (
    Challenge,
    Montage,
    MontageDifficulty,
    MontageError,
    MontageHero,
    MontageOutcome,
    add_challenge,
    assist,
    close,
    end_early,
    limits,
    next_round,
    remove_challenge,
    reroll_last,
    start,
    try_challenge,
    write_outcome,
)
from bot.rules.power import Difficulty, NetEdge, TestOutcome

EASY, MODERATE, HARD = MontageDifficulty.EASY, MontageDifficulty.MODERATE, MontageDifficulty.HARD
# dice for a test at medium difficulty (no bonus): 10+10 a success, 1+1 a failure
WIN, LOSE = (10, 9), (1, 1)


def heroes(n: int) -> list[MontageHero]:
    return [MontageHero(f"Hero{i}", owner_id=100 + i) for i in range(1, n + 1)]


def montage(difficulty: MontageDifficulty = MODERATE, n: int = 5, uses: int | None = None) -> Montage:
    return add_challenge(start("Chase", difficulty, heroes(n)), Challenge("Run", uses=uses))


def play(m: Montage, *results: tuple[int, int]) -> Montage:
    """Each hero still waiting tests in turn with the next dice."""
    for dice in results:
        m, _ = try_challenge(m, FixedDice(dice), m.waiting()[0].name, "Run")
    return m


# "For 5 heroes: easy 5/5, moderate 6/4, hard 7/3."
@pytest.mark.parametrize(
    ("difficulty", "successes", "failures"), [(EASY, 5, 5), (MODERATE, 6, 4), (HARD, 7, 3)]
)
def test_limits_for_five_heroes(difficulty: MontageDifficulty, successes: int, failures: int) -> None:
    got = limits(difficulty, 5)
    assert (got.successes, got.failures) == (successes, failures)


# "For each hero fewer than 5, both limits drop by 1; for each hero more than 5, both rise by 1."
def test_limits_follow_the_number_of_heroes() -> None:
    assert (limits(MODERATE, 4).successes, limits(MODERATE, 4).failures) == (5, 3)
    assert (limits(MODERATE, 7).successes, limits(MODERATE, 7).failures) == (8, 6)
    assert (limits(EASY, 3).successes, limits(EASY, 3).failures) == (3, 3)


# "Neither goes below 2."
def test_limits_never_below_two() -> None:
    assert (limits(HARD, 3).successes, limits(HARD, 3).failures) == (5, 2)
    assert (limits(HARD, 1).successes, limits(HARD, 1).failures) == (3, 2)
    assert (limits(EASY, 1).successes, limits(EASY, 1).failures) == (2, 2)


def test_a_montage_needs_heroes() -> None:
    with pytest.raises(MontageError, match="at least one hero"):
        start("Chase", EASY, [])
    with pytest.raises(MontageError, match="each hero once"):
        start("Chase", EASY, [MontageHero("Ash"), MontageHero("ash")])


# "A montage runs for at most 2 rounds. In each round every hero either makes one test ... or assists another
# hero's test, or does nothing."
def test_each_hero_acts_once_a_round_and_the_round_moves_on() -> None:
    m = montage(EASY, 3)
    m, _ = try_challenge(m, FixedDice(WIN), "Hero1", "Run")
    assert m.acted() == ("Hero1",)
    with pytest.raises(MontageError, match="already acted in round 1"):
        try_challenge(m, FixedDice(WIN), "hero1", "Run")
    m, _ = assist(m, FixedDice(WIN), "Hero2", "Hero3")
    with pytest.raises(MontageError, match="already acted"):
        assist(m, FixedDice(WIN), "Hero2", "Hero1")
    m = play(m, LOSE)
    assert m.round == 2 and m.acted() == () and len(m.waiting()) == 3


def test_the_director_ends_a_round_for_heroes_doing_nothing() -> None:
    m = play(montage(EASY, 3), WIN)
    m = next_round(m)
    assert m.round == 2 and m.successes == 1
    m = next_round(m)  # after the second round: the montage is over
    assert m.outcome is MontageOutcome.TOTAL_FAILURE and m.waiting() == ()


# "The Director may give a challenge's difficulty, its characteristics or skills, and how many times it can
# be used."
def test_a_challenge_has_a_difficulty_and_uses() -> None:
    m = start("Chase", EASY, heroes(3))
    m = add_challenge(m, Challenge("Wall", uses=1, difficulty=Difficulty.HARD))
    m, attempt = try_challenge(m, FixedDice((7, 7)), "Hero1", "wall")
    assert attempt.difficulty is Difficulty.HARD and attempt.outcome is TestOutcome.FAILURE
    with pytest.raises(MontageError, match="used up"):
        try_challenge(m, FixedDice(WIN), "Hero2", "Wall")
    _, attempt = try_challenge(add_challenge(m, Challenge("Gate")), FixedDice((7, 7)), "Hero2", "Gate")
    assert attempt.difficulty is Difficulty.MEDIUM and attempt.outcome is TestOutcome.SUCCESS_WITH_CONSEQUENCE
    with pytest.raises(MontageError, match="already"):
        add_challenge(m, Challenge("WALL"))
    m, gone = remove_challenge(m, "wall")
    assert gone.name == "Wall" and m.challenges == () and m.failures == 1


# "Each test's outcome is read as any test's is, by its difficulty ... A success, with or without a
# consequence or a reward, adds 1 success; a failure, with or without a consequence, adds 1 failure."
@pytest.mark.parametrize(
    ("dice", "difficulty", "outcome", "success"),
    [
        ((1, 2), Difficulty.EASY, TestOutcome.SUCCESS_WITH_CONSEQUENCE, True),
        ((10, 9), Difficulty.EASY, TestOutcome.SUCCESS_WITH_REWARD, True),
        ((6, 6), Difficulty.MEDIUM, TestOutcome.SUCCESS_WITH_CONSEQUENCE, True),
        ((1, 2), Difficulty.MEDIUM, TestOutcome.FAILURE, False),
        ((1, 2), Difficulty.HARD, TestOutcome.FAILURE_WITH_CONSEQUENCE, False),
        ((6, 6), Difficulty.HARD, TestOutcome.FAILURE, False),
        ((9, 8), Difficulty.HARD, TestOutcome.SUCCESS, True),
    ],
)
def test_any_success_counts_one_success_any_failure_one_failure(
    dice: tuple[int, int], difficulty: Difficulty, outcome: TestOutcome, success: bool
) -> None:
    m, attempt = try_challenge(montage(), FixedDice(dice), "Hero1", "Run", difficulty=difficulty)
    assert attempt.outcome is outcome
    assert (m.successes, m.failures) == ((1, 0) if success else (0, 1))


def test_the_heros_characteristic_is_added() -> None:
    _, attempt = try_challenge(montage(), FixedDice((5, 5)), "Hero1", "Run", bonus=2)
    assert attempt.roll.total == 12 and attempt.success


# Heroes, "Assist a Test": the assisting test's tier gives a bane (tier 1), an edge (2) or a double edge (3);
# an assist counts nothing by itself.
def test_an_assist_gives_a_bane_an_edge_or_a_double_edge_by_its_tier() -> None:
    m, given = assist(montage(), FixedDice((6, 7)), "Hero1", "Hero2")  # 13: tier 2
    assert given.edges == 1 and not given.bane and (m.successes, m.failures) == (0, 0)
    m, attempt = try_challenge(m, FixedDice((5, 5)), "Hero2", "Run")
    assert attempt.roll.net is NetEdge.EDGE and attempt.roll.total == 12 and attempt.assisted_by == ("Hero1",)
    m, given = assist(m, FixedDice(LOSE), "Hero3", "Hero4")
    assert given.bane and given.edges == 0
    m, attempt = try_challenge(m, FixedDice((6, 6)), "Hero4", "Run")
    assert attempt.roll.net is NetEdge.BANE and not attempt.success
    m = next_round(m)
    m, given = assist(m, FixedDice((9, 9)), "Hero1", "Hero2")  # 18: tier 3
    assert given.edges == 2
    m, attempt = try_challenge(m, FixedDice((5, 5)), "Hero2", "Run")  # 10, a double edge: tier 1 up to 2
    assert attempt.roll.net is NetEdge.DOUBLE_EDGE and attempt.roll.tier == 2


def test_an_assist_comes_before_the_test_and_not_to_oneself() -> None:
    m = play(montage(), WIN)
    with pytest.raises(MontageError, match="already made this round's test"):
        assist(m, FixedDice(WIN), "Hero2", "Hero1")
    with pytest.raises(MontageError, match="someone else"):
        assist(m, FixedDice(WIN), "Hero2", "hero2")


# "The montage ends as soon as: the successes reach the success limit, for a total success"
def test_total_success_at_the_success_limit() -> None:
    m = play(montage(EASY, 3), WIN, WIN)
    assert m.outcome is None
    m = play(m, WIN)
    assert m.outcome is MontageOutcome.TOTAL_SUCCESS and m.waiting() == ()
    with pytest.raises(MontageError, match="over"):
        try_challenge(m, FixedDice(WIN), "Hero1", "Run")


# "or the failures reach the failure limit, or the two rounds are over. Then, if the successes are at least
# 2 more than the failures, it is a partial success; otherwise it is a total failure."
def test_after_two_rounds_two_more_successes_is_a_partial_success() -> None:
    m = play(montage(MODERATE, 5), WIN, WIN, WIN, LOSE, LOSE)  # round 1: 3 and 2 (limits 6 and 4)
    m = play(m, WIN, WIN)  # 5 and 2
    assert m.round == 2 and m.outcome is None
    m = next_round(m)
    assert m.round == 3 and (m.successes, m.failures) == (5, 2)
    assert m.outcome is MontageOutcome.PARTIAL_SUCCESS


def test_after_two_rounds_fewer_is_a_total_failure() -> None:
    m = play(montage(MODERATE, 5), WIN, WIN, WIN, LOSE, LOSE)
    m = play(m, WIN, LOSE)  # 4 and 3: only 1 more
    m = next_round(m)
    assert m.outcome is MontageOutcome.TOTAL_FAILURE


def test_at_the_failure_limit_two_more_successes_is_a_partial_success() -> None:
    m = play(montage(HARD, 3), WIN, WIN, LOSE)  # limits 5 and 2
    m = play(m, WIN, WIN)
    assert m.outcome is None
    m = play(m, LOSE)  # the failure limit: 4 and 2
    assert m.outcome is MontageOutcome.PARTIAL_SUCCESS
    m = play(montage(MODERATE, 5), LOSE, LOSE, WIN, LOSE)
    m = play(m, LOSE)  # the failure limit: 1 and 4
    assert m.outcome is MontageOutcome.TOTAL_FAILURE


def test_the_director_may_end_it_early_as_if_the_rounds_were_over() -> None:
    m = play(montage(EASY, 5), WIN, WIN)
    assert end_early(m).outcome is MontageOutcome.PARTIAL_SUCCESS
    assert end_early(play(montage(EASY, 5), WIN)).outcome is MontageOutcome.TOTAL_FAILURE


# "Spending Hero Tokens": "You can spend a hero token to reroll a test. You must use the new roll."
def test_a_hero_token_rerolls_the_newest_test_and_the_count_follows() -> None:
    m = play(montage(EASY, 3), WIN, WIN)
    m, _ = try_challenge(m, FixedDice(LOSE), "Hero3", "Run")
    assert m.outcome is None and m.round == 2
    m, fresh = reroll_last(m, FixedDice(WIN), "hero3")
    assert fresh.success and m.outcome is MontageOutcome.TOTAL_SUCCESS
    with pytest.raises(MontageError, match="already rerolled"):
        reroll_last(m, FixedDice(WIN), "Hero3")
    with pytest.raises(MontageError, match="newest test"):
        reroll_last(m, FixedDice(WIN), "Hero1")


# "Outcome. The Director has written what each outcome means ... Victories at the Director's word"; "Failure
# and Malice ... The bot offers it as a Director's choice at the end."
def test_outcome_texts_and_the_close() -> None:
    m = write_outcome(montage(EASY, 3), MontageOutcome.TOTAL_SUCCESS, "You reach the pass.")
    with pytest.raises(MontageError, match="still running"):
        close(m, 1)
    m = play(m, WIN, WIN, WIN)
    m = close(m, 1, malice=2)
    assert m.closed and m.victories == 1 and m.malice == 2
    assert m.outcomes["total success"] == "You reach the pass."
    with pytest.raises(MontageError, match="closed already"):
        close(m, 1)


def test_the_state_round_trips_through_the_codec() -> None:
    m = play(montage(HARD, 4, uses=3), WIN)
    m, _ = assist(m, FixedDice(LOSE), "Hero2", "Hero3")
    m = write_outcome(m, MontageOutcome.PARTIAL_SUCCESS, "Half of them make it.")
    assert codec.load(Montage, codec.to_data(m)) == m


# "For each hero fewer than 5, both limits drop by 1; for each hero more than 5, both rise by 1. Neither goes
# below 2." — for every party size the bot takes, written out from the table by hand.
LIMITS_BY_HEROES = {
    EASY: {1: (2, 2), 2: (2, 2), 3: (3, 3), 4: (4, 4), 5: (5, 5), 6: (6, 6), 10: (10, 10), 12: (12, 12)},
    MODERATE: {1: (2, 2), 2: (3, 2), 3: (4, 2), 4: (5, 3), 5: (6, 4), 6: (7, 5), 10: (11, 9), 12: (13, 11)},
    HARD: {1: (3, 2), 2: (4, 2), 3: (5, 2), 4: (6, 2), 5: (7, 3), 6: (8, 4), 10: (12, 8), 12: (14, 10)},
}


@pytest.mark.parametrize(
    ("difficulty", "n", "expected"),
    [(d, n, got) for d, table in LIMITS_BY_HEROES.items() for n, got in table.items()],
)
def test_limits_for_any_number_of_heroes(
    difficulty: MontageDifficulty, n: int, expected: tuple[int, int]
) -> None:
    m = start("Chase", difficulty, heroes(n))
    assert (m.limits.successes, m.limits.failures) == expected


# "A montage runs for at most 2 rounds. In each round every hero either makes one test ...": a reroll that
# takes back the failure that ended the montage after everyone acted moves on to the next round, so the
# heroes can act again.
def test_a_reroll_that_reopens_the_montage_moves_the_finished_round_on() -> None:
    m = play(montage(HARD, 3), WIN, LOSE, LOSE)  # limits 5 and 2: the failure limit, in round 1
    assert m.outcome is MontageOutcome.TOTAL_FAILURE and m.round == 1
    m, _ = reroll_last(m, FixedDice(WIN), "Hero3")
    assert m.outcome is None and m.round == 2 and len(m.waiting()) == 3
