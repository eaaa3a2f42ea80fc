"""Table-driven refusals: every illegal request raises its typed error, with a one-line message, and changes
nothing. Also the action economy (Draw Steel, Combat, "Taking a Turn"; fast/slow; teams)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.rules.codec import to_data
from bot.rules.conditions import Condition, Duration
from bot.rules.dice import FixedDice
from bot.rules.errors import RuleError
from bot.rules.turns import (
    ActionKind,
    Entry,
    Mode,
    Side,
    Speed,
    Transition,
    TurnState,
    add_condition,
    add_entry,
    budget,
    choose_first,
    current,
    determine_first,
    end_round,
    end_turn,
    fast_slow_part,
    mark_surprised,
    next_round,
    picking_side,
    remove_entry,
    set_flags,
    skip_side,
    start_turn,
    use_action,
    waiting,
)
from bot.rules.turns import errors as err
from bot.rules.turns.events import ActionUsed
from tests.rules.test_turns_support import D, H, encounter, take_turn


def setup() -> TurnState:
    return encounter(("h1", "h2"), ("e1", "e2", "e3"))


def all_heroes_surprised() -> TurnState:
    state = mark_surprised(mark_surprised(setup(), "h1").state, "h2").state
    return determine_first(state, FixedDice([])).state


def rolled() -> TurnState:
    return determine_first(setup(), FixedDice([3])).state


def in_round() -> TurnState:
    return next_round(choose_first(rolled(), "heroes", D).state).state


def mid_turn() -> TurnState:
    return start_turn(in_round(), "h1", H).state


def after_h1() -> TurnState:
    return take_turn(in_round(), "h1").state


def between() -> TurnState:
    state = in_round()
    for who in ("h1", "e1", "h2", "e2", "e3"):
        state = take_turn(state, who).state
    return state


Case = tuple[Callable[[], TurnState], Callable[[TurnState], Transition], type[RuleError]]

CASES: list[Case] = [
    (setup, lambda s: add_entry(s, Entry("x", "nowhere")), err.UnknownSide),
    (setup, lambda s: add_entry(s, Entry("h1", "heroes")), err.DuplicateEntry),
    (setup, lambda s: add_entry(s, Entry("x", "heroes", turns_per_round=0)), err.BadSetup),
    (
        lambda: add_entry(setup(), Entry("g1", "director", group="g")).state,
        lambda s: add_entry(s, Entry("g2", "heroes", group="g")),
        err.BadSetup,
    ),
    (setup, lambda s: add_entry(s, Entry("x", "director", group="h1")), err.BadSetup),
    (setup, lambda s: add_entry(s, Entry("x", "director", group="x")), err.BadSetup),
    (
        lambda: add_entry(setup(), Entry("g1", "director", group="g")).state,
        lambda s: add_entry(s, Entry("g", "director")),
        err.BadSetup,
    ),
    (setup, lambda s: remove_entry(s, "nobody"), err.UnknownEntry),
    (mid_turn, lambda s: remove_entry(s, "h1"), err.TurnInProgress),
    (setup, lambda s: set_flags(s, "nobody", dead=True), err.UnknownEntry),
    (setup, lambda s: set_flags(s, "h1", turns_per_round=0), err.BadSetup),
    (setup, lambda s: next_round(s), err.FirstNotDetermined),
    (rolled, lambda s: next_round(s), err.FirstNotDetermined),
    (rolled, lambda s: determine_first(s, FixedDice([9])), err.FirstAlreadyDetermined),
    (rolled, lambda s: mark_surprised(s, "e1"), err.WrongPhase),
    (setup, lambda s: choose_first(s, "heroes", D), err.FirstNotDetermined),
    (rolled, lambda s: choose_first(s, "heroes", H), err.NotYourChoice),
    (rolled, lambda s: choose_first(s, "nowhere", D), err.UnknownSide),
    (
        lambda: choose_first(rolled(), "heroes", D).state,
        lambda s: choose_first(s, "director", D),
        err.FirstAlreadyDetermined,
    ),
    (in_round, lambda s: determine_first(s, FixedDice([9])), err.WrongPhase),
    (
        lambda: encounter(("a",), ("b",), mode=Mode.TEAMS, sides=(Side("x", H), Side("y", D))),
        lambda s: determine_first(s, FixedDice([9])),
        err.WrongPhase,
    ),
    (all_heroes_surprised, lambda s: choose_first(s, "heroes", D), err.FirstAlreadyDetermined),
    (setup, lambda s: start_turn(s, "h1", H), err.NotInRound),
    (between, lambda s: start_turn(s, "h1", H), err.NotInRound),
    (mid_turn, lambda s: start_turn(s, "h2", H), err.TurnInProgress),
    (in_round, lambda s: start_turn(s, "nobody", H), err.UnknownEntry),
    (in_round, lambda s: start_turn(s, "e1", D), err.WrongSide),
    (after_h1, lambda s: start_turn(s, "e1", H), err.NotYourPick),
    (after_h1, lambda s: start_turn(s, "h1", H, override=True), err.AlreadyActed),
    (after_h1, lambda s: start_turn(s, "h2", H), err.WrongSide),
    (
        lambda: set_flags(in_round(), "h2", dead=True).state,
        lambda s: start_turn(s, "h2", H, override=True),
        err.NotEligible,
    ),
    (in_round, lambda s: end_turn(s), err.NoTurnInProgress),
    (setup, lambda s: end_turn(s), err.NotInRound),
    (mid_turn, lambda s: end_round(s), err.TurnInProgress),
    (between, lambda s: end_round(s), err.NotInRound),
    (mid_turn, lambda s: next_round(s), err.TurnInProgress),
    (in_round, lambda s: next_round(s), err.WrongPhase),
    (in_round, lambda s: skip_side(s, "nowhere"), err.UnknownSide),
    (setup, lambda s: skip_side(s, "heroes"), err.NotInRound),
    (in_round, lambda s: use_action(s, "nobody", ActionKind.MAIN), err.UnknownEntry),
    (in_round, lambda s: use_action(s, "h1", ActionKind.MAIN), err.ActionNotAvailable),
    (mid_turn, lambda s: use_action(s, "h1", ActionKind.MAIN, cost=0), err.ActionNotAvailable),
    (mid_turn, lambda s: use_action(s, "h1", ActionKind.ACTION), err.ActionNotAvailable),
]


@pytest.mark.parametrize(("build", "call", "error"), CASES)
def test_refusals_are_typed_and_change_nothing(
    build: Callable[[], TurnState], call: Callable[[TurnState], Transition], error: type[RuleError]
) -> None:
    state = build()
    before = to_data(state)
    with pytest.raises(error) as info:
        call(state)
    message = str(info.value)
    assert message and "\n" not in message
    assert to_data(state) == before


def test_wrong_side_message_names_the_directors_side() -> None:
    with pytest.raises(err.WrongSide, match="It's the Director's side's pick: wait for them"):
        start_turn(after_h1(), "h2", H)


def test_teams_messages_name_the_team() -> None:
    sides = (Side("red", H, "Red"), Side("blue", D, "Blue"))
    state = next_round(encounter(("r1",), ("b1",), mode=Mode.TEAMS, sides=sides)).state
    with pytest.raises(err.WrongSide, match="team Red"):
        start_turn(state, "b1", D)
    state = take_turn(state, "r1").state
    with pytest.raises(err.NotYourPick, match="team Blue"):
        start_turn(state, "b1", H)


def test_players_side_named_in_messages() -> None:
    sides = (Side("pcs", H, "Heroes"), Side("gm", D))
    state = encounter(("p1", "p2"), ("g1",), sides=sides)
    state = next_round(choose_first(determine_first(state, FixedDice([9])).state, "gm", H).state).state
    state = take_turn(state, "g1").state
    assert picking_side(state) == "pcs"
    with pytest.raises(err.AlreadyActed):
        start_turn(state, "g1", D)


# --- action economy ----------------------------------------------------------------------------------------

A = ActionKind


def use_all(state: TurnState, entry: str, kinds: list[ActionKind]) -> TurnState:
    for k in kinds:
        state = use_action(state, entry, k).state
    return state


def ds_turn(enforce: bool = True) -> TurnState:
    state = encounter(("h1", "h2"), ("e1",), enforce_actions=enforce)
    state = next_round(choose_first(determine_first(state, FixedDice([9])).state, "heroes", H).state).state
    return start_turn(state, "h1", H).state


@pytest.mark.parametrize(
    ("used", "next_kind", "ok"),
    [
        ([A.MAIN, A.MANEUVER], A.MOVE, True),
        ([A.MANEUVER, A.MOVE], A.MANEUVER, True),  # the main action becomes a maneuver
        ([A.MANEUVER, A.MOVE], A.MOVE, True),  # ...or a move action
        ([A.MOVE, A.MOVE], A.MAIN, False),
        ([A.MANEUVER, A.MANEUVER], A.MANEUVER, False),
        ([A.MAIN], A.MAIN, False),
        ([A.MAIN, A.MANEUVER, A.MOVE], A.FREE_MANEUVER, True),
        ([A.MAIN, A.MANEUVER, A.MOVE], A.FREE_TRIGGERED, True),
    ],
)
def test_draw_steel_turn_budget(used: list[ActionKind], next_kind: ActionKind, ok: bool) -> None:
    state = use_all(ds_turn(), "h1", used)
    if ok:
        assert use_action(state, "h1", next_kind).events == (ActionUsed("h1", next_kind),)
    else:
        with pytest.raises(err.ActionNotAvailable):
            use_action(state, "h1", next_kind)


def test_over_budget_is_tracked_not_refused_when_enforcement_is_off() -> None:
    state = use_action(ds_turn(enforce=False), "h1", A.MAIN).state
    t = use_action(state, "h1", A.MAIN)
    assert t.events == (ActionUsed("h1", A.MAIN, over_budget=True),)
    cur = current(t.state)
    assert cur is not None and cur.used == (A.MAIN, A.MAIN)


def test_one_triggered_action_per_round_on_or_off_turn() -> None:
    state = ds_turn()
    state = use_action(state, "e1", A.TRIGGERED).state  # off-turn
    with pytest.raises(err.ActionNotAvailable, match="already used"):
        use_action(state, "e1", A.TRIGGERED)
    state = use_action(state, "e1", A.FREE_TRIGGERED).state  # doesn't count
    with pytest.raises(err.ActionNotAvailable, match="turn"):
        use_action(state, "e1", A.MANEUVER)
    state = end_turn(state).state
    for who in ("e1", "h2"):
        state = take_turn(state, who).state
    state = next_round(state).state
    assert use_action(state, "e1", A.TRIGGERED).events  # a new round: a new triggered action


def test_dazed_and_surprised_limits() -> None:
    state = add_condition(ds_turn(), "h1", Condition.DAZED, Duration.EOT).state
    state = use_action(state, "h1", A.MOVE).state
    for k in (A.MAIN, A.MANEUVER, A.FREE_MANEUVER, A.TRIGGERED, A.FREE_TRIGGERED):
        with pytest.raises(err.ActionNotAvailable):
            use_action(state, "h1", k)
    assert budget(state, "h1").available == ()
    assert budget(state, "h1").summary == "Nothing left to use this turn."
    state = encounter(("h1",), ("e1", "e2"), enforce_actions=True)
    state = mark_surprised(state, "e1").state
    state = next_round(choose_first(determine_first(state, FixedDice([9])).state, "heroes", H).state).state
    for k in (A.TRIGGERED, A.FREE_TRIGGERED):
        with pytest.raises(err.ActionNotAvailable, match="surprised"):
            use_action(state, "e1", k)
    surprised = budget(start_turn(state, "e1", D, override=True).state, "e1").summary
    assert surprised == "Not available now: triggered action, free triggered action."
    unconscious = set_flags(state, "e2", unconscious=True).state
    with pytest.raises(err.ActionNotAvailable, match="can't act"):
        use_action(unconscious, "e2", A.TRIGGERED)


def test_budget_summary_for_the_acting_player() -> None:
    state = use_action(ds_turn(), "h1", A.MAIN).state
    b = budget(state, "h1")
    assert A.MAIN not in b.available and A.MANEUVER in b.available and A.MOVE in b.available
    assert b.summary == "Not available now: main action."
    assert budget(ds_turn(), "h1").summary == ""  # a fresh turn: nothing to say
    other = budget(state, "e1")
    assert set(other.available) == {A.TRIGGERED, A.FREE_TRIGGERED}
    with pytest.raises(err.UnknownEntry):
        budget(state, "nobody")


def fast_slow_turn(speed: Speed) -> TurnState:
    state = encounter(
        ("a",), ("m",), mode=Mode.FAST_SLOW, sides=(Side("p", H), Side("g", D)), enforce_actions=True
    )
    return start_turn(next_round(state).state, "a", H, override=True, speed=speed).state


def test_fast_turn_is_an_action_or_a_move_and_slow_turn_both() -> None:
    fast = use_action(fast_slow_turn(Speed.FAST), "a", A.ACTION).state
    assert fast_slow_part(fast) is Speed.FAST
    with pytest.raises(err.ActionNotAvailable, match="OR"):
        use_action(fast, "a", A.MOVE)
    slow = use_all(fast_slow_turn(Speed.SLOW), "a", [A.MOVE, A.ACTION])
    with pytest.raises(err.ActionNotAvailable, match="slow turn"):
        use_action(slow, "a", A.ACTION)
    with pytest.raises(err.ActionNotAvailable):
        use_action(slow, "a", A.MAIN)
    extra = use_action(slow, "m", A.TRIGGERED).state  # one extra action a round
    with pytest.raises(err.ActionNotAvailable):
        use_action(extra, "m", A.TRIGGERED)


def test_teams_three_actions_and_one_reaction_recovered_each_turn() -> None:
    sides = (Side("p", H), Side("g", D))
    state = next_round(encounter(("a",), ("b",), mode=Mode.TEAMS, sides=sides, enforce_actions=True)).state
    state = start_turn(state, "a", H).state
    state = use_action(state, "a", A.ACTION, cost=2).state
    state = use_action(state, "a", A.MOVE).state
    with pytest.raises(err.ActionNotAvailable, match="three actions"):
        use_action(state, "a", A.ACTION)
    state = use_action(state, "b", A.REACTION).state
    with pytest.raises(err.ActionNotAvailable, match="reaction"):
        use_action(state, "b", A.REACTION)
    state = end_turn(state).state
    state = start_turn(state, "b", D).state  # recovered at the start of b's turn
    state = use_action(state, "b", A.REACTION).state
    state = use_action(state, "b", A.MOVE).state
    with pytest.raises(err.ActionNotAvailable, match="once"):
        use_action(state, "b", A.MOVE)
    assert waiting(state) == ()


def test_cannot_be_surprised_set_later_ends_the_surprise_and_no_change_is_a_no_op() -> None:
    state = mark_surprised(setup(), "e1").state
    t = set_flags(state, "e1", cannot_be_surprised=True)
    assert [type(e).__name__ for e in t.events] == ["EntryChanged", "ConditionExpired"]
    assert not t.state.is_surprised("e1")
    same = set_flags(t.state, "e1", cannot_be_surprised=True)
    assert same.events == () and same.state == t.state
