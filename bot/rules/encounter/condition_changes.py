"""Conditions on the encounter aggregate: imposing a condition and ending one; and `SaveResult`, what a saving
throw came to (the saves themselves, when they fall due and how they are rolled: `bot.rules.encounter.saves`).

Rules (Draw Steel, Combat): conditions without stacking (`bot.rules.conditions`) — through
`bot.rules.turns.add_condition` and `remove_condition`; Draw Steel, Combat, "Dying and Death" (the bleeding
of a dying hero can't be removed while they are dying).

Public API: `SaveResult`, `add_condition`, `remove_condition`; `CONDITIONS_MAX`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.conditions import Condition, ConditionInstance, Duration
from bot.rules.encounter.model import Encounter
from bot.rules.encounter.sync import HarmError, target
from bot.rules.names import clean_name
from bot.rules.turns import add_condition as _add_condition
from bot.rules.turns import remove_condition as _remove_condition
from bot.rules.turns.events import ConditionAdded

CONDITIONS_MAX = 20
"""Most conditions one creature holds at once (a bound, not a rule: the encounter's saved state must stay
small enough that every later change to it can still be saved)."""


@dataclass(frozen=True, slots=True)
class SaveResult:
    """A saving throw: the creature, the condition's label, the d10 and whether the condition ended."""

    target: str
    label: str
    roll: int
    success: bool


def add_condition(
    encounter: Encounter,
    name: str,
    condition: Condition,
    duration: Duration,
    *,
    custom_text: str = "",
    source: str | None = None,
) -> tuple[Encounter, ConditionInstance | None]:
    """Impose a condition (no stacking; `bot.rules.turns.add_condition`); returns the instance now in force,
    or None when an existing one already covers it. A `source` is looked up as a creature of the encounter.
    A custom condition's text is a name (`clean_name`: invisible characters dropped, compared by
    `name_key`); a creature holds at most `CONDITIONS_MAX` conditions."""
    creature = target(encounter, name)
    source_id = target(encounter, source).id if source is not None else None
    if condition is Condition.CUSTOM and custom_text.strip():
        custom_text = clean_name(custom_text)
    transition = _add_condition(
        encounter.turns, creature.id, condition, duration, source_id=source_id, custom_text=custom_text
    )
    added = next((e.instance for e in transition.events if isinstance(e, ConditionAdded)), None)
    held = len(transition.state.conditions_of(creature.id))
    if held > CONDITIONS_MAX and held > len(encounter.turns.conditions_of(creature.id)):
        raise HarmError(
            f"{creature.id} already has {CONDITIONS_MAX} conditions, the most a creature can hold: "
            "remove one with /condition remove first."
        )
    return encounter.with_turns(transition.state), added


def remove_condition(
    encounter: Encounter, name: str, condition: Condition, custom_text: str = ""
) -> tuple[Encounter, str]:
    """End a condition now (`bot.rules.turns.remove_condition`); returns the creature id."""
    creature = target(encounter, name)
    stored = any(c.condition is Condition.BLEEDING for c in encounter.turns.conditions_of(creature.id))
    if condition is Condition.BLEEDING and not stored and creature.vitals.dying:
        # Draw Steel, Combat, "Dying and Death": "this instance of the condition can't be negated or removed
        # in any way until you are no longer dying" (`bot.rules.encounter.bleeding`)
        raise HarmError(
            f"{creature.id} bleeds because they are dying: it ends when their Stamina is above 0."
        )
    transition = _remove_condition(encounter.turns, creature.id, condition, custom_text.strip())
    return encounter.with_turns(transition.state), creature.id
