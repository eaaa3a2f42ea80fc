"""Conditions in the turn engine: imposed (no stacking: `bot.rules.conditions.apply_condition`), removed,
and saving throws (a d10, 6 or higher ends the condition: `bot.rules.conditions.save_succeeds`;
Draw Steel, The Basics, "Spending Hero Tokens": a token ends a save-ends condition).
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.conditions import (
    Condition,
    ConditionInstance,
    Duration,
    apply_condition,
    roll_save_die,
    save_succeeds,
)
from bot.rules.dice import Dice
from bot.rules.turns import errors as err
from bot.rules.turns.events import ConditionAdded, SaveRolled, Transition
from bot.rules.turns.model import TurnState
from bot.rules.turns.order import mark_surprised
from bot.rules.turns.steps import expire, refuse_ended


def _known_creature(state: TurnState, creature_id: str) -> None:
    if not any(creature_id in e.creature_ids for e in state.entries):
        raise err.UnknownEntry(creature_id)


def add_condition(
    state: TurnState,
    creature_id: str,
    condition: Condition,
    duration: Duration,
    *,
    source_id: str | None = None,
    custom_text: str = "",
) -> Transition:
    """Impose a condition (no stacking: see bot.rules.conditions). Surprise goes through `mark_surprised`."""
    refuse_ended(state)
    if condition is Condition.SURPRISED:
        return mark_surprised(state, creature_id)
    _known_creature(state, creature_id)
    if condition is Condition.CUSTOM and not custom_text.strip():
        raise err.BadSetup("Give the custom condition a name, e.g. 'marked'.")
    if duration is Duration.END_OF_FIRST_ROUND:
        raise err.BadSetup("Only surprise lasts until the end of the first round: pick another duration.")
    inst = ConditionInstance(
        creature_id, condition, duration, source_id, custom_text.strip(), imposed_round=state.round
    )
    conditions, kept = apply_condition(state.conditions, inst)
    if conditions == state.conditions:
        return Transition(state)
    return Transition(replace(state, conditions=conditions), (ConditionAdded(kept),))


def _find(state: TurnState, creature_id: str, condition: Condition, custom_text: str) -> ConditionInstance:
    probe = ConditionInstance(creature_id, condition, Duration.EOT, custom_text=custom_text)
    found = next((c for c in state.conditions if c.key == probe.key), None)
    if found is None:
        raise err.ConditionNotFound(creature_id, custom_text or condition.value)
    return found


def remove_condition(
    state: TurnState, creature_id: str, condition: Condition, custom_text: str = ""
) -> Transition:
    """End a condition now (Stand Up ends prone, Escape Grab ends grabbed, the Director removes it)."""
    inst = _find(state, creature_id, condition, custom_text)
    return expire(state, [inst], "removed")


def roll_save(
    state: TurnState, dice: Dice, creature_id: str, condition: Condition, custom_text: str = ""
) -> Transition:
    """A saving throw against a 'save ends' condition: d10, 6 or higher ends it. Usually prompted by SaveDue
    at the end of the creature's turn; some rules (the Heal main action) allow one at other times."""
    inst = _find(state, creature_id, condition, custom_text)
    if inst.duration is not Duration.SAVE:
        raise err.NoSave(creature_id, inst.label)
    roll = roll_save_die(dice)
    ok = save_succeeds(roll)
    rolled = SaveRolled(creature_id, condition, inst.custom_text, roll, ok)
    if not ok:
        return Transition(state, (rolled,))
    expired = expire(state, [inst], "save")
    return Transition(expired.state, (rolled, *expired.events))


def succeed_save(
    state: TurnState, creature_id: str, condition: Condition, custom_text: str = ""
) -> Transition:
    """A hero token turns a failed saving throw into a success (Draw Steel, The Basics, "Spending Hero
    Tokens"): the condition ends. Spending the token is the resources module's job."""
    inst = _find(state, creature_id, condition, custom_text)
    if inst.duration is not Duration.SAVE:
        raise err.NoSave(creature_id, inst.label)
    return expire(state, [inst], "token")
