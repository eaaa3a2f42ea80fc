"""Action economy per turn: shown to the acting player, tracked in the turn record, and refused only when the
table turns enforcement on (`TurnState.enforce_actions`).

Rules (applied by `_refusal`): Draw Steel, Combat, "Taking a Turn", "Triggered Actions and Free Triggered
Actions", "Free Maneuvers"; Shadow of the Demon Lord, Combat, "Fast Turns", "Slow Turns", "Extra Actions";
Teams Combat, "Actions in Combat".
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.rules.conditions import Restrictions, restrictions
from bot.rules.turns import errors as err
from bot.rules.turns.events import ActionUsed, Transition
from bot.rules.turns.model import ActionKind, Entry, Mode, Speed, TurnRecord, TurnState
from bot.rules.turns.queries import current

ON_TURN = frozenset(
    {ActionKind.MAIN, ActionKind.MANEUVER, ActionKind.MOVE, ActionKind.FREE_MANEUVER, ActionKind.ACTION}
)
PER_ROUND = frozenset({ActionKind.TRIGGERED, ActionKind.REACTION})

_KINDS: dict[Mode, frozenset[ActionKind]] = {
    Mode.DRAW_STEEL: frozenset(
        {
            ActionKind.MAIN,
            ActionKind.MANEUVER,
            ActionKind.MOVE,
            ActionKind.FREE_MANEUVER,
            ActionKind.TRIGGERED,
            ActionKind.FREE_TRIGGERED,
        }
    ),
    Mode.FAST_SLOW: frozenset({ActionKind.ACTION, ActionKind.MOVE, ActionKind.TRIGGERED}),
    Mode.TEAMS: frozenset({ActionKind.ACTION, ActionKind.MOVE, ActionKind.REACTION}),
}
_KINDS[Mode.AGILITY] = _KINDS[Mode.DRAW_STEEL]


def main_kind(mode: Mode) -> ActionKind:
    """What an ability used on a creature's turn costs: Draw Steel's main action (Draw Steel, Combat,
    "Taking a Turn"), the other games' action (Shadow of the Demon Lord, Combat, Teams Combat)."""
    return ActionKind.MAIN if ActionKind.MAIN in _KINDS[mode] else ActionKind.ACTION


def maneuver_kind(mode: Mode) -> ActionKind:
    """What a maneuver (Catch Breath) costs: Draw Steel's maneuver (Draw Steel, Combat, "Maneuvers"); the
    other games have no maneuvers, so an action."""
    return ActionKind.MANEUVER if ActionKind.MANEUVER in _KINDS[mode] else ActionKind.ACTION


#: Each kind as the books name it (Draw Steel, Combat, "Taking a Turn", "Free Maneuvers", "Triggered Actions
#: and Free Triggered Actions"; Shadow of the Demon Lord's actions; Teams Combat's reactions).
ACTION_NAMES: dict[ActionKind, str] = {
    ActionKind.MAIN: "main action",
    ActionKind.MANEUVER: "maneuver",
    ActionKind.MOVE: "move action",
    ActionKind.FREE_MANEUVER: "free maneuver",
    ActionKind.TRIGGERED: "triggered action",
    ActionKind.FREE_TRIGGERED: "free triggered action",
    ActionKind.ACTION: "action",
    ActionKind.REACTION: "reaction",
}


@dataclass(frozen=True, slots=True)
class ActionBudget:
    """What an entry may still do: the kinds available now, those its turn structure has but it may not use
    now, and a one-line summary for the player naming only those ("" when everything is available)."""

    entry: str
    available: tuple[ActionKind, ...]
    unavailable: tuple[ActionKind, ...]
    summary: str


def _limits(state: TurnState, entry: Entry) -> Restrictions:
    """What the conditions on the entry (and, for a squad, on its minions) forbid it now."""
    conds = [c for cid in entry.creature_ids for c in state.conditions_of(cid)]
    return restrictions(conds, unconscious=entry.unconscious)


def _refusal(
    state: TurnState, entry: Entry, kind: ActionKind, used: tuple[ActionKind, ...], limits: Restrictions
) -> str | None:
    """Why `kind` would break the budget now (`limits`: the entry's `_limits`), or None when it fits.

    - Draw Steel / Agility (Draw Steel, Combat, "Taking a Turn", "Triggered Actions and Free Triggered
      Actions", "Free Maneuvers"): a main action, a maneuver and a move action; the main action can become a
      maneuver or a move action; free maneuvers as you like; one triggered action per round (on or off your
      turn); free triggered actions don't count. Surprised: no triggered or free triggered actions. Dazed:
      only one of main action, maneuver or move action, and no triggered actions, free triggered actions or
      free maneuvers.
    - Fast/slow (Shadow of the Demon Lord, Combat, "Fast Turns", "Slow Turns", "Extra Actions"): fast turn an
      action OR a move; slow turn an action AND a move; one extra action (TRIGGERED) per round.
    - Teams (Teams Combat, "Actions in Combat"): three actions per turn (move at most once), one reaction per
      round, recovered at the start of each of the creature's turns.
    """
    if kind not in _KINDS[state.mode]:
        names = ", ".join(sorted(ACTION_NAMES[k] for k in _KINDS[state.mode]))
        return f"This turn structure has no {ACTION_NAMES[kind]}: use one of {names}."
    if entry.unconscious or entry.dead:
        return f"{entry.id} can't act now."
    if kind in (ActionKind.TRIGGERED, ActionKind.FREE_TRIGGERED) and limits.no_triggered:
        return f"{entry.id} can't take triggered actions now ({'; '.join(limits.reasons)})."
    if kind in PER_ROUND:
        if entry.id in state.reacted:
            word = "reaction" if kind is ActionKind.REACTION else "triggered action"
            return f"{entry.id} has already used their {word} this round."
        return None
    if kind is ActionKind.FREE_TRIGGERED:
        return None
    if kind is ActionKind.FREE_MANEUVER:
        return f"{entry.id} can't take free maneuvers while dazed." if limits.no_free_maneuvers else None
    after = (*used, kind)
    main, man, mov = (after.count(k) for k in (ActionKind.MAIN, ActionKind.MANEUVER, ActionKind.MOVE))
    actions = after.count(ActionKind.ACTION)
    if state.mode in (Mode.DRAW_STEEL, Mode.AGILITY):
        if limits.one_action_only and main + man + mov > 1:
            return f"{entry.id} is dazed: only one of main action, maneuver or move action this turn."
        if main + max(0, man - 1) + max(0, mov - 1) > 1:
            return "No main action left (it can become one extra maneuver or move action): end your turn."
        return None
    if state.mode is Mode.FAST_SLOW:
        cur = current(state)
        fast = cur is not None and cur.speed is Speed.FAST
        if fast and actions + mov > 1:
            return "A fast turn is an action OR a move: end your turn."
        if actions > 1 or mov > 1:
            return "A slow turn is one action and one move: end your turn."
        return None
    if mov > 1:
        return "You can move once per turn."
    if actions + mov > 3:
        return "You have used all three actions this turn: end your turn."
    return None


def use_action(state: TurnState, entry_id: str, kind: ActionKind, cost: int = 1) -> Transition:
    """Track one use of `kind` (`cost` actions for teams' multi-action activities). On-turn kinds need the
    entry's turn in progress; triggered actions and reactions may be used on anyone's turn. Over budget is
    refused with ActionNotAvailable only when enforcement is on; otherwise recorded and flagged."""
    entry = state.entry(entry_id)
    if entry is None:
        raise err.UnknownEntry(entry_id)
    if cost < 1:
        raise err.ActionNotAvailable("An action costs at least 1.")
    cur = current(state)
    if kind in ON_TURN and (cur is None or cur.entry != entry_id):
        raise err.ActionNotAvailable(f"It isn't {entry_id}'s turn: that action needs their turn.")
    used: tuple[ActionKind, ...] = cur.used if cur is not None and cur.entry == entry_id else ()
    over = False
    limits = _limits(state, entry)
    for _ in range(cost):
        reason = _refusal(state, entry, kind, used, limits)
        if reason is not None:
            if state.enforce_actions or kind not in _KINDS[state.mode]:
                raise err.ActionNotAvailable(reason)
            over = True
        used = (*used, kind)
    new = state
    if kind in ON_TURN:
        assert cur is not None
        record: TurnRecord = replace(cur, used=used)
        new = replace(new, turns=(*state.turns[:-1], record))
    if kind in PER_ROUND and entry_id not in state.reacted:
        new = replace(new, reacted=(*state.reacted, entry_id))
    return Transition(new, (ActionUsed(entry_id, kind, over),))


def budget(state: TurnState, entry_id: str) -> ActionBudget:
    """The kinds `entry_id` may still use now, with a summary line to show the acting player: what is not
    available (a fresh turn, with nothing used and no condition in the way, says nothing)."""
    entry = state.entry(entry_id)
    if entry is None:
        raise err.UnknownEntry(entry_id)
    cur = current(state)
    mine = cur is not None and cur.entry == entry_id
    used = cur.used if cur is not None and mine else ()
    limits = _limits(state, entry)
    available = tuple(
        k
        for k in ActionKind
        if k in _KINDS[state.mode]
        and (mine or k not in ON_TURN)
        and _refusal(state, entry, k, used, limits) is None
    )
    unavailable = tuple(k for k in ActionKind if k in _KINDS[state.mode] and k not in available)
    if not unavailable:
        summary = ""
    elif not available:
        summary = "Nothing left to use this turn."
    else:
        summary = "Not available now: " + ", ".join(ACTION_NAMES[k] for k in unavailable) + "."
    return ActionBudget(entry_id, available, unavailable, summary)
