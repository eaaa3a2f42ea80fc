"""Objectives with round counters and villain actions (bot/rules/encounter/objectives.py).

Draw Steel, Combat, "Objective Endings": "HOLD THEM OFF ... protect a particular position for a number of
rounds determined by you"; "STOP THE ACTION ... Objectives in this category have a timer associated with
them."
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import codec
from bot.rules.ability import Ability, ActionType
from bot.rules.dice import FixedDice, SeededDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, flow, new_encounter_state, remove
from bot.rules.encounter.objectives import (
    OBJECTIVE_TEXT_MAX,
    OBJECTIVES_MAX,
    Objective,
    ObjectiveError,
    Outcome,
    add_objective,
    count_down,
    name_villain_action,
    remind_villain,
    resolve,
    use_villain_action,
    villain_actions,
    villain_round,
    villain_used,
)
from bot.rules.turns import Controller, eligible

NO_DICE = FixedDice([])


def _setup() -> Encounter:
    enc = new_encounter_state()
    heroes, foes = enc.turns.sides[0].id, enc.turns.sides[1].id
    enc, _ = add_creatures(enc, NewCreatures("Ash", 30, heroes, is_hero=True, owner_id=1))
    enc, _ = add_creatures(enc, NewCreatures("Goblin", 10, foes))
    return enc


def _begin(enc: Encounter) -> Encounter:
    return flow.begin(enc, SeededDice(5), first=enc.turns.sides[0].id).encounter


def _round(enc: Encounter) -> flow.Flow:
    """Play the round out: every creature acts in turn; the next round starts."""
    start = enc.turns.round
    result = flow.Flow(enc)
    while result.encounter.turns.round == start:
        pick = eligible(result.encounter.turns)[0]
        entry = result.encounter.turns.entry(pick)
        assert entry is not None
        side = result.encounter.turns.side(entry.side)
        assert side is not None
        started = flow.act(result.encounter, pick, side.controller, NO_DICE).encounter
        result = flow.end_turn(started)
    return result


def test_a_counter_set_before_round_1_shows_its_rounds_left_as_rounds_pass() -> None:
    """`objective add text:Hold the bridge rounds:5`: round 1 is its first round, so after two rounds 3 are
    left; at the start of round 6 it hits 0 and is due."""
    enc = add_objective(_setup(), "Hold the bridge", 5)
    enc = _begin(enc)
    assert enc.objectives[0].left == 5
    enc = _round(enc).encounter
    enc = _round(enc).encounter
    assert enc.turns.round == 3 and enc.objectives[0].left == 3
    for _ in range(2):
        enc = _round(enc).encounter
    last = _round(enc)
    assert last.encounter.turns.round == 6
    assert last.due == ("Hold the bridge",) and last.encounter.objectives[0].due


def test_a_counter_set_during_a_round_counts_that_round_as_its_first() -> None:
    enc = _round(_begin(_setup())).encounter  # round 2
    enc = add_objective(enc, "Stop the ritual", 1)
    assert enc.objectives[0].left == 1
    result = _round(enc)
    assert result.due == ("Stop the ritual",) and result.encounter.objectives[0].left == 0
    # it stays at 0 (due) and is not announced again
    again = _round(result.encounter)
    assert again.due == () and again.encounter.objectives[0].left == 0


def test_an_objective_without_a_counter_never_comes_due() -> None:
    enc = _begin(add_objective(_setup(), "Stop the ritual"))
    for _ in range(3):
        result = _round(enc)
        enc = result.encounter
        assert result.due == () and enc.objectives == (Objective("Stop the ritual"),)


def test_a_resolved_objective_no_longer_counts_down() -> None:
    enc = _begin(add_objective(_setup(), "Hold the bridge", 2))
    enc, done = resolve(enc, "hold the BRIDGE", Outcome.ACHIEVED)
    assert done.outcome is Outcome.ACHIEVED
    for _ in range(3):
        result = _round(enc)
        enc = result.encounter
        assert result.due == ()
    assert enc.objectives[0].left == 2


@pytest.mark.parametrize(
    ("key", "found"), [("1", "Hold the bridge"), ("2", "Stop the ritual"), ("stop", "Stop the ritual")]
)
def test_an_objective_is_named_by_its_number_its_text_or_the_start_of_it(key: str, found: str) -> None:
    enc = add_objective(add_objective(_setup(), "Hold the bridge", 5), "Stop the ritual")
    _, done = resolve(enc, key, Outcome.FAILED)
    assert done.text == found and done.outcome is Outcome.FAILED


def test_refusals_are_one_line_and_change_nothing() -> None:
    enc = add_objective(_setup(), "Hold the bridge", 5)
    cases = [
        lambda: add_objective(enc, "x" * (OBJECTIVE_TEXT_MAX + 1)),
        lambda: add_objective(enc, "   "),
        lambda: add_objective(enc, "Ok", 0),
        lambda: add_objective(enc, "hold  the bridge"),
        lambda: resolve(enc, "Save the cat", Outcome.ACHIEVED),
        lambda: resolve(resolve(enc, "1", Outcome.ACHIEVED)[0], "1", Outcome.FAILED),
    ]
    for case in cases:
        with pytest.raises(ObjectiveError) as refused:
            case()
        assert "\n" not in str(refused.value)
    full = enc
    for n in range(OBJECTIVES_MAX - 1):
        full = add_objective(full, f"Objective {n}")
    with pytest.raises(ObjectiveError, match=f"at most {OBJECTIVES_MAX}"):
        add_objective(full, "One too many")


@settings(deadline=None, max_examples=40)
@given(
    rounds=st.lists(st.one_of(st.none(), st.integers(1, 6)), min_size=1, max_size=4),
    passed=st.integers(0, 10),
)
def test_a_counter_never_goes_below_0_and_hits_0_once(rounds: list[int | None], passed: int) -> None:
    enc = _setup()
    for i, count in enumerate(rounds):
        enc = add_objective(enc, f"Objective {i}", count)
    due: list[str] = []
    for round_number in range(1, passed + 2):
        enc, hit = count_down(enc, round_number)
        due += hit
    for objective, count in zip(enc.objectives, rounds, strict=True):
        if count is None:
            assert objective.left is None
        else:
            assert objective.left == max(0, count - passed)
    expected = [o.text for o, c in zip(enc.objectives, rounds, strict=True) if c is not None and c <= passed]
    assert sorted(due) == expected  # each once
    assert codec.load(Encounter, codec.to_data(enc)) == enc


def test_objectives_round_trip_and_defaults_are_left_out() -> None:
    plain = _setup()
    assert "objectives" not in codec.to_data(plain) and "villains" not in codec.to_data(plain)
    enc = add_objective(add_objective(plain, "Hold the bridge", 5), "Stop the ritual")
    enc = resolve(enc, "2", Outcome.FAILED)[0]
    data = codec.to_data(enc)
    assert data["objectives"] == [
        {"text": "Hold the bridge", "left": 5},
        {"text": "Stop the ritual", "outcome": "failed"},
    ]
    assert codec.load(Encounter, data) == enc


# --- villain actions ---------------------------------------------------------------------------------------

VILLAIN = [Ability(n, ActionType.VILLAIN) for n in ("Hit and Run", "Rally", "Ruin")]


def _with_leader(abilities: tuple[Ability, ...] = ()) -> Encounter:
    enc = _setup()
    enc, _ = add_creatures(enc, NewCreatures("Ajax", 80, enc.turns.sides[1].id, abilities=abilities))
    return enc


def test_a_stat_blocks_villain_actions_are_each_used_once_per_encounter() -> None:
    enc = _with_leader((Ability("Strike", ActionType.MAIN), *VILLAIN))
    ajax = enc.find("Ajax")
    assert villain_actions(enc, ajax) == ("Hit and Run", "Rally", "Ruin")
    enc, used = use_villain_action(enc, ajax, "rally")
    assert used == "Rally" and villain_used(enc, ajax) == ("Rally",)
    with pytest.raises(ObjectiveError, match="already used Rally this encounter"):
        use_villain_action(enc, ajax, "Rally")
    with pytest.raises(ObjectiveError, match="no villain action 'Strike'"):
        use_villain_action(enc, ajax, "Strike")
    with pytest.raises(ObjectiveError, match="stat block has its villain actions"):
        name_villain_action(enc, ajax, "Something")
    assert codec.load(Encounter, codec.to_data(enc)) == enc


def test_the_director_names_up_to_three_villain_actions_for_a_creature_without_them() -> None:
    enc = _with_leader()
    ajax = enc.find("Ajax")
    with pytest.raises(ObjectiveError, match="no villain actions: name them"):
        use_villain_action(enc, ajax, "Rally")
    for name in ("Hit and Run", "Rally", "Ruin"):
        enc, _ = name_villain_action(enc, ajax, name)
    with pytest.raises(ObjectiveError, match="already has 3 villain actions"):
        name_villain_action(enc, ajax, "Fourth")
    with pytest.raises(ObjectiveError, match="Only the Director's"):
        name_villain_action(enc, enc.find("Ash"), "Heroic")
    enc, _ = use_villain_action(enc, ajax, "Ruin")
    assert villain_used(enc, ajax) == ("Ruin",)
    assert villain_actions(dataclasses.replace(enc, villains={}), ajax) == ()


def test_a_removed_creature_takes_its_villain_actions_with_it() -> None:
    """A new creature under the same name starts with none used."""
    enc = _with_leader()
    enc, _ = name_villain_action(enc, enc.find("Ajax"), "Rally")
    enc, _ = remove(enc, "Ajax")
    assert enc.villains == {}


def test_one_villain_action_a_round_counting_one_used_before_a_new_rounds_first_turn_in_the_last() -> None:
    """ "No more than one villain action can be used per round", "at the end of any other creature's turn":
    used after round 1's last turn ended (the bot has started round 2, nobody has acted in it), it counts in
    round 1, so round 2 still has its own; a second in round 2 is refused."""
    enc = _begin(_with_leader((*VILLAIN,)))
    ajax = enc.find("Ajax")
    enc = _round(enc).encounter
    assert enc.turns.round == 2 and villain_round(enc) == 1
    enc, _ = use_villain_action(enc, ajax, "Rally")
    assert enc.villain_round == 1
    started = flow.act(enc, "Ash", Controller.PLAYERS, NO_DICE).encounter
    assert villain_round(started) == 2
    enc, _ = use_villain_action(started, ajax, "Ruin")
    with pytest.raises(ObjectiveError, match="already used this round"):
        use_villain_action(enc, ajax, "Hit and Run")
    assert codec.load(Encounter, codec.to_data(enc)) == enc


def test_the_director_is_reminded_at_another_creatures_turn_end_once_a_round() -> None:
    enc = _begin(_with_leader((*VILLAIN,)))
    ash = flow.end_turn(flow.act(enc, "Ash", Controller.PLAYERS, NO_DICE).encounter)
    assert ash.villain_reminder and ash.encounter.villain_reminded == 1
    assert remind_villain(ash.encounter, ("Goblin",), 1) == (ash.encounter, False)
    # the villain's own turn ending is no moment for its villain action
    assert remind_villain(enc, ("Ajax",), 1) == (enc, False)
    # nor once one was used this round
    used = dataclasses.replace(enc, villain_round=1)
    assert remind_villain(used, ("Ash",), 1) == (used, False)
