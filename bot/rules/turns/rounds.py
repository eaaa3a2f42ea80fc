"""Rounds in the turn engine: the next round started, the Director ending one early, a side's remaining turns
skipped, and the encounter's end (Draw Steel, Combat, "End of Round"; Draw Steel, Combat, "End of
Combat": conditions end except those until removed).
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.conditions import Condition, Duration
from bot.rules.turns import errors as err
from bot.rules.turns.events import EncounterEnded, RoundStarted, SideSkipped, Transition
from bot.rules.turns.model import Phase, TurnState
from bot.rules.turns.policy import policy
from bot.rules.turns.queries import remaining_turns
from bot.rules.turns.steps import close_round, expire, refuse_ended, refuse_turn, require_round, settle


def next_round(state: TurnState) -> Transition:
    """Start the next round (round 1 from setup; teams with a surprise start with round 0, the surprise
    round). Emits RoundStarted(round) -- the hook for Malice and heroic-resource gains."""
    if state.phase is Phase.IN_ROUND:
        refuse_turn(state)
        raise err.WrongPhase("This round is still running: finish it, or skip the rest with /turn skip.")
    refuse_ended(state)
    if state.phase is Phase.SETUP:
        if policy(state.mode).rolls_first and (state.first is None or state.first.side is None):
            raise err.FirstNotDetermined()
        surprise = policy(state.mode).surprise_round and any(
            c.condition is Condition.SURPRISED for c in state.conditions
        )
        number = 0 if surprise else 1
    else:
        number = state.round + 1
    entries = tuple(replace(e, speed=None) for e in state.entries)
    new = replace(
        state, phase=Phase.IN_ROUND, round=number, turns=(), skipped=(), reacted=(), entries=entries
    )
    return settle(new, [RoundStarted(number)])


def end_round(state: TurnState) -> Transition:
    """The Director ends the round early (remaining turns are lost)."""
    require_round(state)
    refuse_turn(state)
    return close_round(state, early=True)


def skip_side(state: TurnState, side_id: str) -> Transition:
    """The Director skips a side's remaining turns this round (a turn in progress finishes normally; a solo
    creature in its first turn loses its second)."""
    require_round(state)
    if state.side(side_id) is None:
        raise err.UnknownSide(side_id)
    skip = tuple(
        e.id
        for e in state.entries
        if e.side == side_id and e.id not in state.skipped and remaining_turns(state, e) > 0
    )
    new = replace(state, skipped=(*state.skipped, *skip))
    return settle(new, [SideSkipped(side_id, skip)])


def end_encounter(state: TurnState) -> Transition:
    """End combat: conditions that last until the end of the encounter (and shorter ones) end; conditions
    'until removed' stay (Draw Steel, Combat, "End of Combat")."""
    refuse_ended(state)
    expired = expire(
        state, [c for c in state.conditions if c.duration is not Duration.UNTIL_REMOVED], "encounter"
    )
    return Transition(
        replace(expired.state, phase=Phase.ENDED), (*expired.events, EncounterEnded(state.round))
    )
