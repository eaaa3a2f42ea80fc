"""Taking turns in the turn engine: picking a creature (Draw Steel, Combat, "Creatures Take Turns", the
Director's out-of-order turn, "Argument Timer"), ending its turn (end-of-turn conditions end and "save ends"
ones prompt a save: `bot.rules.conditions`), and the fast/slow variant's speed choices and passes
(Shadow of the Demon Lord, Combat).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from bot.rules.conditions import Duration
from bot.rules.turns import errors as err
from bot.rules.turns.events import Event, SaveDue, SpeedChosen, Transition, TurnEnded, TurnStarted
from bot.rules.turns.model import Controller, Entry, Mode, Speed, TurnRecord, TurnState
from bot.rules.turns.queries import (
    acted,
    controller_of,
    current,
    picking,
    remaining_turns,
    slow_part_started,
    surprise_blocks,
    turns_taken,
)
from bot.rules.turns.steps import expire, find_entry, refuse_turn, require_round, settle, side_name


def _refuse_pick(state: TurnState, entry: Entry, by: Controller) -> None:
    """Raise the most useful error for a normal pick of `entry`, or return if the pick is allowed."""
    pick = picking(state)
    assert pick is not None  # the entry is able, so somebody can pick
    if entry.id in pick.entries:
        if by is not Controller.DIRECTOR and by is not pick.controller:
            raise err.NotYourPick(side_name(state, pick.sides[0]))
        return
    last = state.turns[-1] if state.turns else None
    if pick.group is not None:
        raise err.GroupInProgress(pick.group)
    if state.mode is Mode.FAST_SLOW:
        if pick.speed is not None and turns_taken(state, entry.id, pick.speed) > 0:
            raise err.WrongPart(f"{entry.id} has had their {pick.speed.value} turn: wait for the next part.")
        if entry.speed is not None and entry.speed is not pick.speed:
            raise err.WrongPart(
                f"{entry.id} chose a {entry.speed.value} turn: wait for the {entry.speed.value} turns."
            )
        if pick.controller is Controller.PLAYERS:
            raise err.WrongPart("The players' creatures act first in each part of the round: wait for them.")
        raise err.WrongPart("The players are done with this part: the GM's creatures act now.")
    if entry.side not in pick.sides:
        raise err.WrongSide(side_name(state, pick.sides[0]))
    if last is not None and last.entry == entry.id:
        raise err.TwiceInARow(entry.id)
    raise err.OutOfOrder(find_entry(state, pick.entries[0]).unit)


def start_turn(
    state: TurnState,
    entry_id: str,
    by: Controller,
    *,
    override: bool = False,
    speed: Speed | None = None,
) -> Transition:
    """Start `entry_id`'s turn. A normal pick must come from the picking side (the Director may pick for any
    side, e.g. after the argument timer). `override=True` lets a feature or the Director have the entry act
    right now, out of order: it uses up the entry's turn but doesn't change whose pick is next. In fast/slow,
    `speed` is the part for an override (a normal pick takes the running part)."""
    require_round(state)
    refuse_turn(state)
    entry = find_entry(state, entry_id)
    if entry.dead:
        raise err.NotEligible(f"{entry_id} is dead and takes no turns.")
    if entry.unconscious:
        raise err.NotEligible(
            f"{entry_id} is unconscious: revive them first, then they act at the next chance."
        )
    if surprise_blocks(state, entry):
        raise err.NotEligible(f"{entry_id} is surprised and can't act in round {state.round}.")
    if remaining_turns(state, entry) == 0:
        raise err.AlreadyActed(entry_id)
    part: Speed | None = None
    if override:
        if by is not Controller.DIRECTOR and by is not controller_of(state, entry):
            raise err.NotYourCreature(entry_id)
        if state.mode is Mode.FAST_SLOW:
            pick = picking(state)
            part = speed or (pick.speed if pick is not None else None) or Speed.SLOW
    else:
        _refuse_pick(state, entry, by)
        pick = picking(state)
        assert pick is not None
        part = pick.speed
    record = TurnRecord(entry.id, entry.side, entry.group, override, part)
    reacted = state.reacted
    if state.mode is Mode.TEAMS:  # Teams Combat: reactions are recovered at the start of each turn
        reacted = tuple(r for r in reacted if r not in entry.creature_ids)
    new_entry = replace(entry, speed=part) if part is not None else entry
    new = replace(state.with_entry(new_entry), turns=(*state.turns, record), reacted=reacted)
    return Transition(new, (TurnStarted(entry.id, entry.side, state.round, override, part),))


def end_turn(state: TurnState) -> Transition:
    """End the turn in progress. At the end of the affected creature's turn its EoT conditions end and each
    'save ends' condition prompts a saving throw (SaveDue). Ends the round when nobody can act any more."""
    require_round(state)
    cur = current(state)
    if cur is None:
        raise err.NoTurnInProgress()
    new = replace(state, turns=(*state.turns[:-1], replace(cur, ended=True)))
    events: list[Event] = [TurnEnded(cur.entry, state.round)]
    entry = state.entry(cur.entry)
    creatures = entry.creature_ids if entry is not None else (cur.entry,)
    mine = [c for c in new.conditions if c.creature_id in creatures]
    expired = expire(new, [c for c in mine if c.duration is Duration.EOT], Duration.EOT.value)
    new = expired.state
    events += expired.events
    events += [
        SaveDue(c.creature_id, c.condition, c.custom_text) for c in mine if c.duration is Duration.SAVE
    ]
    return settle(new, events)


def set_speed(state: TurnState, entry_id: str, speed: Speed) -> Transition:
    """Shadow of the Demon Lord, Combat, "Anatomy of a Round": "players who want to take a turn (fast or slow)
    do so in that part of the round": choose a fast turn (action OR move) or a slow turn (action AND move) for
    this round; SLOW also means "wait for the slow turns". No fast turn once the slow turns have begun."""
    if state.mode is not Mode.FAST_SLOW:
        raise err.WrongPhase("Fast and slow turns are only used in the fast/slow turn structure.")
    require_round(state)
    entry = find_entry(state, entry_id)
    if acted(state, entry_id) and entry.turns_per_round < 2:
        raise err.AlreadyActed(entry_id)
    if speed is Speed.FAST and slow_part_started(state):
        raise err.WrongPart(f"The fast turns are over this round: {entry_id} takes a slow turn.")
    new_entry = replace(entry, speed=speed)
    return settle(state.with_entry(new_entry), [SpeedChosen(entry_id, speed)])


def pass_part(state: TurnState, controller: Controller, entries: Collection[str] | None = None) -> Transition:
    """Fast/slow: the controller's creatures that haven't chosen wait for slow turns (players: "we're done
    with fast turns"; GM: "the rest of the rats wait"); only those of `entries` when given (one player's
    creatures: a player passes for their own creatures, not for everyone's)."""
    if state.mode is not Mode.FAST_SLOW:
        raise err.WrongPhase("Passing a part is only used in the fast/slow turn structure.")
    require_round(state)
    cur = current(state)
    new = state
    events: list[Event] = []
    for e in state.entries:
        if (
            controller_of(state, e) is controller
            and (entries is None or e.id in entries)
            and e.speed is None
            and turns_taken(state, e.id, Speed.FAST) == 0
            and (cur is None or cur.entry != e.id)
        ):
            new = new.with_entry(replace(e, speed=Speed.SLOW))
            events.append(SpeedChosen(e.id, Speed.SLOW))
    return settle(new, events)
