"""Derived queries: who picks next, who may act, who has acted. Nothing here is stored in the state.

Rules: Draw Steel, Combat, "Creatures Take Turns" (alternation; when one side has no one left the other
side's creatures act one after another) and "End of Round" (the side that went first in round 1 goes first in
every round); Draw Steel, Combat, "Enemies Act In Groups"; "Alternative Turn Order"; Teams Combat,
"Initiative and Rounds"; Shadow of the Demon Lord, Combat, "Anatomy of a Round". Solo creatures (Draw Steel:
Monsters, "Solo Turns") never take two turns in a row -- unless no other creature can act, so the round can
finish.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from bot.rules.conditions import ConditionInstance, situational_modifiers
from bot.rules.turns.model import Controller, Entry, Initiative, Mode, Phase, Speed, TurnRecord, TurnState
from bot.rules.turns.policy import policy

R = TypeVar("R")

MEMO_SIZE = 64
"""Turn states whose shared answers (who is able, who picks) each memoised query keeps."""


def _per_state(query: Callable[[TurnState], R]) -> Callable[[TurnState], R]:
    """Keep `query`'s answers for the last `MEMO_SIZE` states asked about: one command asks the same state
    who picks, who waits and whether the round is over several times. A `TurnState` is immutable all the way
    down (tuples of frozen dataclasses), so an answer never goes stale; answers must be immutable too. Keyed
    by identity (hashing a state costs more than the query): a kept answer holds its state, so the id can't
    be reused while it is kept. When full the memory starts over (one atomic `clear`, safe from any thread).
    """
    kept: dict[int, tuple[TurnState, R]] = {}

    @functools.wraps(query)
    def answer(state: TurnState) -> R:
        hit = kept.get(id(state))
        if hit is not None and hit[0] is state:
            return hit[1]
        value = query(state)
        if len(kept) >= MEMO_SIZE:
            kept.clear()
        kept[id(state)] = (state, value)
        return value

    return answer


@dataclass(frozen=True, slots=True)
class Pick:
    """Who picks now: the side(s) whose creatures may start a turn, their controller, the entries they may
    pick, and (fast/slow) the part of the round. `group` is set while an enemy group is still acting."""

    sides: tuple[str, ...]
    controller: Controller
    entries: tuple[str, ...]
    speed: Speed | None = None
    group: str | None = None


def current(state: TurnState) -> TurnRecord | None:
    """The turn in progress, if any."""
    if state.phase is Phase.IN_ROUND and state.turns and not state.turns[-1].ended:
        return state.turns[-1]
    return None


def turns_taken(state: TurnState, entry_id: str, speed: Speed | None = None) -> int:
    """Turns the entry has taken (or started) this round; in a given fast/slow part when `speed` is given."""
    return sum(1 for t in state.turns if t.entry == entry_id and (speed is None or t.speed is speed))


def acted(state: TurnState, entry_id: str) -> bool:
    """True once the entry has taken at least one turn this round."""
    return turns_taken(state, entry_id) > 0


def remaining_turns(state: TurnState, entry: Entry) -> int:
    """Turns the entry may still take this round (0 when skipped). In fast/slow, a creature with both a fast
    and a slow turn loses its fast turn once it declines it (chooses slow) or has taken its slow turn."""
    if entry.id in state.skipped:
        return 0
    if state.mode is Mode.FAST_SLOW and entry.turns_per_round >= 2:
        return int(_fast_turn_left(state, entry)) + int(turns_taken(state, entry.id, Speed.SLOW) == 0)
    return max(0, entry.turns_per_round - turns_taken(state, entry.id))


def _fast_turn_left(state: TurnState, e: Entry) -> bool:
    return (
        e.speed is not Speed.SLOW
        and not slow_part_started(state)
        and turns_taken(state, e.id, Speed.FAST) == 0
        and turns_taken(state, e.id, Speed.SLOW) == 0
    )


def slow_part_started(state: TurnState) -> bool:
    """Fast/slow: once a slow turn has been picked normally, the fast turns of this round are over."""
    return any(t.speed is Speed.SLOW and not t.override for t in state.turns)


def controller_of(state: TurnState, entry: Entry) -> Controller:
    side = state.side(entry.side)
    assert side is not None
    return side.controller


def surprise_blocks(state: TurnState, entry: Entry) -> bool:
    """True when surprise keeps the entry from acting this round (teams round 0, fast/slow round 1)."""
    blocked_round = policy(state.mode).surprised_cant_act_in_round
    return blocked_round is not None and state.round == blocked_round and state.is_surprised(entry.id)


def able(state: TurnState, entry: Entry) -> bool:
    """Alive, conscious, not kept out by surprise, with a turn left this round."""
    return (
        not entry.dead
        and not entry.unconscious
        and not surprise_blocks(state, entry)
        and remaining_turns(state, entry) > 0
    )


def _fast_ok(state: TurnState, e: Entry) -> bool:
    if e.turns_per_round >= 2:
        return _fast_turn_left(state, e)
    return e.speed is not Speed.SLOW and not slow_part_started(state)


def _slow_ok(state: TurnState, e: Entry) -> bool:
    """Anyone with a turn left may act in the slow part (a creature revived after the fast part too)."""
    return e.turns_per_round < 2 or turns_taken(state, e.id, Speed.SLOW) == 0


def _last(state: TurnState) -> TurnRecord | None:
    return state.turns[-1] if state.turns else None


def _last_pick(state: TurnState) -> TurnRecord | None:
    return next((t for t in reversed(state.turns) if not t.override), None)


def first_side(state: TurnState) -> str:
    """The side that picks first in every round: the chosen side (Draw Steel, Agility) or the first team."""
    if state.first is not None and state.first.side is not None:
        return state.first.side
    return state.sides[0].id


@_per_state
def _able_entries(state: TurnState) -> tuple[Entry, ...]:
    """The entries `able` to act this round, in order."""
    return tuple(e for e in state.entries if able(state, e))


def _candidates(state: TurnState) -> tuple[Entry, ...]:
    """Entries that could act now, after the no-two-turns-in-a-row rule."""
    cands = _able_entries(state)
    last = _last(state)
    if not policy(state.mode).rotates_sides or last is None:
        return cands
    if any(e.id != last.entry for e in cands):
        cands = tuple(e for e in cands if e.id != last.entry)
    return cands


def agility_order(state: TurnState, side_id: str) -> tuple[str, ...]:
    """Units (entry ids and group ids) of a side in Agility order: highest total first, tie-breaks after;
    units without a total come last, in the order they were added."""
    units: list[str] = []
    for e in state.entries:
        if e.side == side_id and e.unit not in units:
            units.append(e.unit)
    scores: dict[str, Initiative] = {i.unit: i for i in state.initiative}

    def key(u: str) -> tuple[int, tuple[int, ...], int]:
        s = scores.get(u)
        return (0, s.sort_key, units.index(u)) if s is not None else (1, (), units.index(u))

    return tuple(sorted(units, key=key))


@_per_state
def picking(state: TurnState) -> Pick | None:
    """Who may pick the next turn now, or None (no round running, a turn in progress, or nobody can act)."""
    if state.phase is not Phase.IN_ROUND or current(state) is not None:
        return None
    cands = _candidates(state)
    if not cands:
        return None
    pol = policy(state.mode)
    last_pick = _last_pick(state)
    if pol.rotates_sides and last_pick is not None and last_pick.group is not None:
        members = [e for e in cands if e.group == last_pick.group and not acted(state, e.id)]
        if members:
            side = state.side(members[0].side)
            assert side is not None
            return Pick((side.id,), side.controller, tuple(e.id for e in members), group=last_pick.group)
    if pol.fast_slow_parts:
        return _fast_slow_pick(state, cands)
    ids = [s.id for s in state.sides]
    start = ids.index(last_pick.side) + 1 if last_pick is not None and last_pick.side in ids else None
    if start is None:
        start = ids.index(first_side(state))
    for side_id in ids[start:] + ids[:start]:
        mine = [e for e in cands if e.side == side_id]
        if not mine:
            continue
        if pol.ordered_within_side:
            units = {e.unit for e in mine}
            head = next(u for u in agility_order(state, side_id) if u in units)
            mine = [e for e in mine if e.unit == head]
        side = state.side(side_id)
        assert side is not None
        return Pick((side_id,), side.controller, tuple(e.id for e in mine))
    raise AssertionError("unreachable: candidates belong to known sides")  # pragma: no cover


def _fast_slow_pick(state: TurnState, cands: tuple[Entry, ...]) -> Pick | None:
    for speed, ok in ((Speed.FAST, _fast_ok), (Speed.SLOW, _slow_ok)):
        part = [e for e in cands if ok(state, e)]
        for controller in (Controller.PLAYERS, Controller.DIRECTOR):
            mine = [e for e in part if controller_of(state, e) is controller]
            if mine:
                sides = tuple(dict.fromkeys(e.side for e in mine))
                return Pick(sides, controller, tuple(e.id for e in mine), speed=speed)
    return None


def eligible(state: TurnState) -> tuple[str, ...]:
    """Entry ids that may start a turn now by a normal pick."""
    pick = picking(state)
    return pick.entries if pick is not None else ()


def picking_side(state: TurnState) -> str | None:
    """The side (team) that picks now; in fast/slow the first of the controller's sides."""
    pick = picking(state)
    return pick.sides[0] if pick is not None else None


def round_over(state: TurnState) -> bool:
    """True in a round when no turn is in progress and nobody can act any more."""
    return state.phase is Phase.IN_ROUND and current(state) is None and not _candidates(state)


def fast_slow_part(state: TurnState) -> Speed | None:
    """Fast/slow: the part of the round now running (None outside fast/slow or when the round is over)."""
    if state.mode is not Mode.FAST_SLOW:
        return None
    cur = current(state)
    if cur is not None:
        return cur.speed
    pick = picking(state)
    return pick.speed if pick is not None else None


def waiting(state: TurnState) -> tuple[str, ...]:
    """Entries that haven't used all their turns and could still act this round (for the tracker display)."""
    return tuple(e.id for e in _able_entries(state))


def power_roll_modifiers(
    state: TurnState,
    attacker_id: str,
    target_id: str | None,
    *,
    is_ability_roll: bool = True,
    is_strike: bool = False,
    is_melee: bool = False,
    ability_targets: tuple[str, ...] = (),
) -> tuple[int, int]:
    """(edges, banes) the conditions in this encounter give one power roll against one target (surprised,
    prone, restrained, frightened, grabbed, taunted, weakened, unconscious): the per-target edges and banes
    for the power-roll module. Ids may be entries or minions of a squad."""
    target = _holder(state, target_id) if target_id is not None else None
    return situational_modifiers(
        _conditions(state, attacker_id, _holder(state, attacker_id)),
        _conditions(state, target_id, target) if target_id is not None else (),
        attacker_id=attacker_id,
        target_id=target_id,
        is_ability_roll=is_ability_roll,
        is_strike=is_strike,
        is_melee=is_melee,
        ability_targets=ability_targets,
        target_unconscious=target is not None and target.unconscious,
    )


def _holder(state: TurnState, creature_id: str) -> Entry | None:
    """The entry a creature is (or belongs to, for a squad's minion): the first with it in `creature_ids`."""
    return next((e for e in state.entries if e.id == creature_id or creature_id in e.members), None)


def _conditions(state: TurnState, creature_id: str, holder: Entry | None) -> tuple[ConditionInstance, ...]:
    """A creature's conditions plus, for a squad's minion, the squad's (e.g. the squad is surprised); `holder`
    is its `_holder`."""
    own = state.conditions_of(creature_id)
    if holder is None or holder.id == creature_id:
        return own
    return own + state.conditions_of(holder.id)
