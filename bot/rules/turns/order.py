"""Who goes first and in what order: surprise (Draw Steel, Combat, "Determine Surprise"), the d10 for
the first side and the chooser's pick ("Determine Who Goes First"), the teams' initiative order
(Teams Combat, "Initiative and Rounds"), and the Agility variant's order and swaps
(Draw Steel, Combat, "Alternative Turn Order").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from bot.rules.conditions import Condition, ConditionInstance, Duration, apply_condition
from bot.rules.dice import Dice
from bot.rules.turns import errors as err
from bot.rules.turns.events import (
    AgilityRecorded,
    AgilitySwapped,
    ConditionAdded,
    FirstSideChosen,
    FirstTurnRolled,
    Transition,
)
from bot.rules.turns.model import Controller, FirstTurn, Initiative, Mode, Phase, TurnState
from bot.rules.turns.policy import policy
from bot.rules.turns.queries import controller_of
from bot.rules.turns.steps import find_entry, refuse_ended

DEFAULT_FIRST_THRESHOLD = 6


def mark_surprised(state: TurnState, entry_id: str) -> Transition:
    """Draw Steel, Combat, "Determine Surprise": at the start, a creature not ready for combat is
    surprised until the end of the first round (teams: the surprise round, round 0)."""
    if state.phase is not Phase.SETUP or (state.first is not None and policy(state.mode).rolls_first):
        raise err.WrongPhase("Mark surprise at the start of combat, before deciding who goes first.")
    entry = find_entry(state, entry_id)
    if entry.cannot_be_surprised:
        raise err.CannotBeSurprised(entry_id)
    inst = ConditionInstance(entry_id, Condition.SURPRISED, Duration.END_OF_FIRST_ROUND)
    conditions, kept = apply_condition(state.conditions, inst)
    return Transition(replace(state, conditions=conditions), (ConditionAdded(kept),))


def first_turn_threshold(lowered_to: Iterable[int] = ()) -> int:
    """The d10 result the players need to choose who goes first: 6, or the party's lowest feature value."""
    return min((DEFAULT_FIRST_THRESHOLD, *lowered_to))


def determine_first(state: TurnState, dice: Dice, threshold: int = DEFAULT_FIRST_THRESHOLD) -> Transition:
    """Draw Steel, Combat, "Determine Who Goes First": if every creature on one side is surprised, the
    other side goes first with no roll; otherwise roll a d10: `threshold` (6) or higher, the players choose
    the side that goes first, otherwise the Director does (then call `choose_first`)."""
    if not policy(state.mode).rolls_first:
        raise err.WrongPhase("In this turn structure nobody rolls for who goes first: start the round.")
    if state.phase is not Phase.SETUP:
        raise err.WrongPhase("Who goes first is decided at the start of combat.")
    if state.first is not None:
        raise err.FirstAlreadyDetermined()
    all_surprised = []
    for side in state.sides:
        living = [e for e in state.entries if e.side == side.id and not e.dead]
        if living and all(state.is_surprised(e.id) for e in living):
            all_surprised.append(side.id)
    if len(all_surprised) == 1:
        other = next(s.id for s in state.sides if s.id != all_surprised[0])
        first = FirstTurn(None, threshold, None, other)
        return Transition(replace(state, first=first), (FirstSideChosen(other, automatic=True),))
    roll = dice.randint(1, 10)
    chooser = Controller.PLAYERS if roll >= threshold else Controller.DIRECTOR
    first = FirstTurn(roll, threshold, chooser, None)
    return Transition(replace(state, first=first), (FirstTurnRolled(roll, threshold, chooser),))


def choose_first(state: TurnState, side_id: str, by: Controller) -> Transition:
    """The chooser named by the roll picks the side that goes first (in round 1 and every later round)."""
    if state.first is None or state.first.chooser is None:
        if state.first is not None:
            raise err.FirstAlreadyDetermined()
        raise err.FirstNotDetermined()
    if state.first.side is not None:
        raise err.FirstAlreadyDetermined()
    if by is not state.first.chooser:
        raise err.NotYourChoice(state.first.chooser.value)
    if state.side(side_id) is None:
        raise err.UnknownSide(side_id)
    new = replace(state, first=replace(state.first, side=side_id))
    return Transition(new, (FirstSideChosen(side_id, automatic=False),))


def set_team_order(state: TurnState, side_ids: Iterable[str]) -> Transition:
    """Teams Combat, "Initiative and Rounds": the team that started combat first, the attacked team next,
    the rest in the order the GM sets. Only before combat starts."""
    if state.phase is not Phase.SETUP:
        raise err.WrongPhase("Set the team order before the first round.")
    order = tuple(side_ids)
    if sorted(order) != sorted(s.id for s in state.sides):
        raise err.BadSetup("Name every team exactly once, in initiative order.")
    sides = tuple(next(s for s in state.sides if s.id == sid) for sid in order)
    return Transition(replace(state, sides=sides))


# --- Agility variant -------------------------------------------------------------------------------------


def _units(state: TurnState) -> dict[str, str]:
    """unit id -> side id."""
    return {e.unit: e.side for e in state.entries}


def record_agility(
    state: TurnState, totals: Mapping[str, int], dice: Dice, modifiers: Mapping[str, int] | None = None
) -> Transition:
    """Draw Steel, Combat, "Alternative Turn Order": record each hero's, enemy's and enemy group's Agility
    test total; creatures on the same side with tied totals reroll (2d10 + their Agility modifier) among
    themselves until the tie is broken."""
    if state.mode is not Mode.AGILITY:
        raise err.WrongPhase("Agility totals are only used in the Agility turn order.")
    refuse_ended(state)
    units = _units(state)
    for unit in totals:
        if unit not in units:
            raise err.UnknownEntry(unit)
    mods = modifiers or {}
    scores = {i.unit: i for i in state.initiative}
    for unit, total in totals.items():
        scores[unit] = Initiative(unit, total)
    changed = set(totals)
    while True:
        ties: dict[tuple[str, tuple[int, ...]], list[str]] = {}
        for unit in units:
            if unit in scores:
                ties.setdefault((units[unit], scores[unit].sort_key), []).append(unit)
        tied = [group for group in ties.values() if len(group) > 1]
        if not tied:
            break
        for group in tied:
            for unit in group:
                reroll = dice.randint(1, 10) + dice.randint(1, 10) + mods.get(unit, 0)
                scores[unit] = replace(scores[unit], tiebreaks=(*scores[unit].tiebreaks, reroll))
                changed.add(unit)
    ordered = tuple(scores[u] for u in units if u in scores)
    events = tuple(AgilityRecorded(i.unit, i.total, i.tiebreaks) for i in ordered if i.unit in changed)
    return Transition(replace(state, initiative=ordered), events)


def roll_agility(state: TurnState, dice: Dice, modifiers: Mapping[str, int]) -> Transition:
    """Roll the Agility test (2d10 + Agility) for each unit named in `modifiers`, then `record_agility`."""
    totals = {u: dice.randint(1, 10) + dice.randint(1, 10) + m for u, m in modifiers.items()}
    return record_agility(state, totals, dice, modifiers)


def swap_agility(state: TurnState, first: str, second: str) -> Transition:
    """At the start of a new round, at the Director's discretion, a hero swaps places in the order with a
    willing hero (Draw Steel, Combat, "Alternative Turn Order"). Only before anyone acts in the round."""
    if state.mode is not Mode.AGILITY:
        raise err.WrongPhase("Swapping places is part of the Agility turn order.")
    if state.phase is Phase.ENDED or (state.phase is Phase.IN_ROUND and state.turns):
        raise err.WrongPhase("Heroes swap places at the start of a new round, before anyone acts.")
    a, b = find_entry(state, first), find_entry(state, second)
    scores = {i.unit: i for i in state.initiative}
    for e in (a, b):
        if controller_of(state, e) is not Controller.PLAYERS or e.group is not None:
            raise err.NotAHero(f"{e.id} isn't a hero: only heroes swap places in the Agility order.")
        if e.id not in scores:
            raise err.NotAHero(f"{e.id} has no Agility total yet: record it first.")
    sa, sb = scores[a.id], scores[b.id]
    swapped = {
        a.id: Initiative(a.id, sb.total, sb.tiebreaks),
        b.id: Initiative(b.id, sa.total, sa.tiebreaks),
    }
    initiative = tuple(swapped.get(i.unit, i) for i in state.initiative)
    return Transition(replace(state, initiative=initiative), (AgilitySwapped(a.id, b.id),))
