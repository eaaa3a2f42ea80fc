"""The steps every turn-engine transition shares: looking an entry up, the phase guards, conditions expired,
and the round ended as soon as nobody can act (`settle`).

The transitions are pure functions `f(state, ...) -> Transition(new_state, events)` shared by every mode; a
refused request raises a typed `TurnError` and changes nothing (states are immutable, so undo is exact).
The design decisions they follow: docs/architecture.md, *The turn engine*.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from bot.rules.conditions import Condition, ConditionInstance, Duration
from bot.rules.turns import errors as err
from bot.rules.turns.events import ConditionExpired, Event, RoundEnded, Transition
from bot.rules.turns.model import Controller, Entry, Mode, Phase, TurnState
from bot.rules.turns.policy import policy
from bot.rules.turns.queries import controller_of, current, round_over


def find_entry(state: TurnState, entry_id: str) -> Entry:
    entry = state.entry(entry_id)
    if entry is None:
        raise err.UnknownEntry(entry_id)
    return entry


def side_name(state: TurnState, side_id: str) -> str:
    side = state.side(side_id)
    assert side is not None
    if side.controller is Controller.DIRECTOR and state.mode is not Mode.TEAMS:
        return "Director's side"
    return f"{side.name or side.id} side" if state.mode is not Mode.TEAMS else f"team {side.name or side.id}"


def refuse_ended(state: TurnState) -> None:
    if state.phase is Phase.ENDED:
        raise err.WrongPhase("This encounter is over: start a new one.")


def require_round(state: TurnState) -> None:
    if state.phase is not Phase.IN_ROUND:
        raise err.NotInRound(between_rounds=state.phase is Phase.BETWEEN_ROUNDS)


def refuse_turn(state: TurnState) -> None:
    cur = current(state)
    if cur is not None:
        raise err.TurnInProgress(cur.entry)


def expire(state: TurnState, gone: Iterable[ConditionInstance], reason: str) -> Transition:
    """The conditions `gone` end for `reason`: a `ConditionExpired` each, in order."""
    gone_t = tuple(gone)
    if not gone_t:
        return Transition(state)
    kept = tuple(c for c in state.conditions if c not in gone_t)
    events = tuple(ConditionExpired(c.creature_id, c.condition, c.custom_text, reason) for c in gone_t)
    return Transition(replace(state, conditions=kept), events)


def surprise_round(state: TurnState) -> int:
    return 0 if policy(state.mode).surprise_round else 1


def close_round(state: TurnState, early: bool) -> Transition:
    """End the round; end-of-round effects resolve players' creatures first, then the Director's
    (Shadow of the Demon Lord, Combat, "End of the Round"): here, surprise ending after the first round."""
    events: list[Event] = [RoundEnded(state.round, early)]
    new = replace(state, phase=Phase.BETWEEN_ROUNDS)
    if state.round == surprise_round(state):
        owner = {cid: controller_of(state, e) for e in state.entries for cid in e.creature_ids}
        surprised = [c for c in state.conditions if c.condition is Condition.SURPRISED]
        surprised.sort(key=lambda c: owner.get(c.creature_id) is not Controller.PLAYERS)
        expired = expire(new, surprised, Duration.END_OF_FIRST_ROUND.value)
        new = expired.state
        events += expired.events
    return Transition(new, tuple(events))


def settle(state: TurnState, events: list[Event]) -> Transition:
    """Finish a transition: end the round when nobody can act any more."""
    if round_over(state):
        closed = close_round(state, early=False)
        state = closed.state
        events = [*events, *closed.events]
    return Transition(state, tuple(events))
