"""Shared builders and a tiny driver for the turn-engine tests (no tests here)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.rules.turns import (
    Controller,
    Entry,
    Mode,
    Side,
    Transition,
    TurnState,
    add_entry,
    end_turn,
    new_encounter,
    start_turn,
)
from bot.rules.turns.events import Event

H = Controller.PLAYERS
D = Controller.DIRECTOR


def encounter(
    heroes: Iterable[str] = (),
    enemies: Iterable[str] = (),
    mode: Mode = Mode.DRAW_STEEL,
    sides: tuple[Side, ...] | None = None,
    enforce_actions: bool = False,
) -> TurnState:
    if sides is None:
        state = new_encounter(mode, enforce_actions=enforce_actions)
    else:
        state = new_encounter(mode, sides, enforce_actions=enforce_actions)
    for h in heroes:
        state = add_entry(state, Entry(h, state.sides[0].id)).state
    for e in enemies:
        state = add_entry(state, Entry(e, state.sides[1].id)).state
    return state


def add(state: TurnState, *entries: Entry) -> TurnState:
    for e in entries:
        state = add_entry(state, e).state
    return state


def take_turn(state: TurnState, entry_id: str, by: Controller | None = None, **kwargs: object) -> Transition:
    """Start and end one turn; the events of both."""
    if by is None:
        entry = state.entry(entry_id)
        assert entry is not None
        side = state.side(entry.side)
        assert side is not None
        by = side.controller
    started = start_turn(state, entry_id, by, **kwargs)  # type: ignore[arg-type]
    ended = end_turn(started.state)
    return Transition(ended.state, started.events + ended.events)


def kinds(events: Iterable[Event]) -> list[str]:
    return [type(e).__name__ for e in events]
