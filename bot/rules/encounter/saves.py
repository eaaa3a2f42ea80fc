"""Saving throws an encounter owes: when they fall due, how many, and the hero token that turns a failure.

State: `Encounter.saves_due` (owed saves, oldest first) and `Encounter.failed_saves` (heroes' failures still
open to a hero token). Every function is pure: a refusal raises a `RuleError` and changes nothing.
Rules: Draw Steel, Combat, "Heal" and the conditions chapter it points to; The Basics, "Spending Hero Tokens".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from bot.rules.conditions import Condition, ConditionInstance, Duration
from bot.rules.dice import Dice
from bot.rules.encounter.harm import SaveResult, target
from bot.rules.encounter.model import Encounter
from bot.rules.encounter.save_state import FailedSave, SaveOwed
from bot.rules.errors import RuleError
from bot.rules.turns import Controller, TurnState, roll_save, succeed_save
from bot.rules.turns.events import Event, SaveDue, SaveRolled
from bot.rules.turns.queries import controller_of


class SaveError(RuleError):
    """A saving throw the rules don't allow now."""


def _moment(turns: TurnState) -> tuple[int, int, int]:
    """Where the turn engine stands: it changes whenever a turn starts or ends, or a round starts."""
    return turns.round, len(turns.turns), sum(1 for t in turns.turns if t.ended)


def _save_ends(encounter: Encounter, owed: SaveOwed) -> ConditionInstance | None:
    """The "save ends" condition `owed` is against, when the creature still has it."""
    return next(
        (
            c
            for c in encounter.turns.conditions_of(owed.creature_id)
            if c.duration is Duration.SAVE and owed.against(c)
        ),
        None,
    )


def due(encounter: Encounter, creature_id: str | None = None) -> tuple[SaveOwed, ...]:
    """The saves still owed (to `creature_id`, or to anyone): those whose condition is still in force."""
    return tuple(
        s
        for s in encounter.saves_due
        if (creature_id is None or s.creature_id == creature_id) and _save_ends(encounter, s) is not None
    )


def _pruned(encounter: Encounter) -> Encounter:
    """Forget owed saves whose condition ended some other way (removed, the creature gone, the encounter
    over)."""
    kept = due(encounter)
    return encounter if kept == encounter.saves_due else dataclasses.replace(encounter, saves_due=kept)


def owe_turn_end_saves(encounter: Encounter, events: Iterable[Event]) -> Encounter:
    """The saves a turn's end brought due (the engine's `SaveDue` events) are owed until rolled. The one
    call where a turn ends (`bot.rules.encounter.flow`).

    Draw Steel, Combat, and the conditions chapter it points to: a "save ends" condition gets one saving
    throw (d10, 6 or higher ends it) at the end of each of the affected creature's turns. A save that falls
    due stays due until it is rolled, whatever starts in between (the next turn, the next round).
    """
    new = tuple(SaveOwed(e.creature, e.condition, e.custom_text) for e in events if isinstance(e, SaveDue))
    if not new:
        return encounter
    return _pruned(dataclasses.replace(encounter, saves_due=(*encounter.saves_due, *new)))


def _instance(
    encounter: Encounter, creature_id: str, condition: Condition | None, custom_text: str
) -> ConditionInstance:
    """The creature's "save ends" condition named (or its only one)."""
    saves = [c for c in encounter.turns.conditions_of(creature_id) if c.duration is Duration.SAVE]
    if not saves:
        raise SaveError(f"{creature_id} has no condition a save ends: nothing to save against.")
    if condition is None:
        if len(saves) > 1:
            labels = ", ".join(c.label for c in saves)
            raise SaveError(f"{creature_id} can save against {labels}: pick the condition.")
        return saves[0]
    key = (creature_id, condition, custom_text.strip().casefold())
    found = next((c for c in saves if c.key == key), None)
    if found is None:
        label = custom_text.strip() or condition.value
        raise SaveError(f"{creature_id} has no {label} that a save ends: pick one it has.")
    return found


def grant_save(
    encounter: Encounter, name: str, condition: Condition | None = None, custom_text: str = ""
) -> tuple[Encounter, SaveOwed]:
    """An extra saving throw (the Heal main action, or an ability that grants one) against one of the
    creature's "save ends" conditions: the one named, or its only one. Draw Steel, Combat, "Heal": "The target
    creature ... can make a saving throw against one effect they are suffering that is ended by a saving
    throw"."""
    creature = target(encounter, name)
    instance = _instance(encounter, creature.id, condition, custom_text)
    owed = SaveOwed(creature.id, instance.condition, instance.custom_text, extra=True)
    return dataclasses.replace(encounter, saves_due=(*due(encounter), owed)), owed


def roll_owed(
    encounter: Encounter,
    dice: Dice,
    name: str,
    condition: Condition | None = None,
    custom_text: str = "",
) -> tuple[Encounter, SaveResult]:
    """Roll one owed save of the creature (against the condition named, or the only one it is owed a save
    against); refused when it is owed none (no other saves: a creature rolls only the saves it is owed). A
    hero's failure stays open to a hero token (`token_save`)."""
    creature = target(encounter, name)
    owed = due(encounter, creature.id)
    if condition is not None:
        chosen = _instance(encounter, creature.id, condition, custom_text)
        owed = tuple(s for s in owed if s.against(chosen))
    if not owed:
        raise SaveError(
            f"{creature.id} has no save due now: a save comes at the end of each of its turns, or from Heal."
        )
    labels = {_label(s) for s in owed}
    if len(labels) > 1:
        raise SaveError(
            f"{creature.id} has saves due against {', '.join(sorted(labels))}: pick the condition."
        )
    return _roll(encounter, dice, owed[0], hero=creature.is_hero)


def _roll(encounter: Encounter, dice: Dice, owed: SaveOwed, *, hero: bool) -> tuple[Encounter, SaveResult]:
    """Roll `owed` (`bot.rules.turns.roll_save`), using it up; a hero's failure is recorded."""
    rest = list(encounter.saves_due)
    rest.remove(owed)
    transition = roll_save(encounter.turns, dice, owed.creature_id, owed.condition, owed.custom_text)
    rolled = next(e for e in transition.events if isinstance(e, SaveRolled))
    result = SaveResult(owed.creature_id, _label(owed), rolled.roll, rolled.success)
    updated = _pruned(dataclasses.replace(encounter.with_turns(transition.state), saves_due=tuple(rest)))
    if not result.success and hero:
        round_, turns, ended = _moment(updated.turns)
        failure = FailedSave(owed.creature_id, owed.condition, owed.custom_text, round_, turns, ended)
        kept = tuple(f for f in updated.failed_saves if f.creature_id != owed.creature_id)
        updated = dataclasses.replace(updated, failed_saves=(*kept, failure))
    return updated, result


def _label(owed: SaveOwed) -> str:
    return owed.custom_text if owed.condition is Condition.CUSTOM else owed.condition.value


def roll_all(
    encounter: Encounter, dice: Dice, creature_ids: Sequence[str]
) -> tuple[Encounter, list[SaveResult]]:
    """Roll every save owed to these creatures (the tracker's Save button, the Director's automatic saves)."""
    results: list[SaveResult] = []
    for creature_id in creature_ids:
        hero = any(c.id == creature_id and c.is_hero for c in encounter.creatures)
        for owed in due(encounter, creature_id):
            if owed not in encounter.saves_due:  # an earlier save against the same condition ended it
                continue
            encounter, result = _roll(encounter, dice, owed, hero=hero)
            results.append(result)
    return encounter, results


def director_creatures(encounter: Encounter) -> tuple[str, ...]:
    """The creatures the Director's sides control, in the encounter's order."""
    turns = encounter.turns
    out: list[str] = []
    for entry in turns.entries:
        if controller_of(turns, entry) is Controller.DIRECTOR:
            out.extend(entry.creature_ids)
    return tuple(out)


def open_failures(encounter: Encounter, creature_id: str | None = None) -> tuple[FailedSave, ...]:
    """Heroes' failed saves a hero token can still turn into a success: failed since the turn engine last
    moved, against a condition still in force."""
    now = _moment(encounter.turns)
    return tuple(
        f
        for f in encounter.failed_saves
        if (creature_id is None or f.creature_id == creature_id)
        and (f.round, f.turns, f.ended) == now
        and _save_ends(encounter, SaveOwed(f.creature_id, f.condition, f.custom_text)) is not None
    )


def token_save(encounter: Encounter, creature_id: str) -> tuple[Encounter, str]:
    """A hero token turns the hero's save that just failed into a success: the condition ends
    (Draw Steel, The Basics, "Spending Hero Tokens": "You can spend a hero token when you fail a saving
    throw, letting you succeed on the save instead."), only right after the failure: until the turn engine
    moves on (a turn starts or ends; `open_failures`). Returns the condition's label. Spending the token is
    `bot.hero_tokens.spend_benefit`'s job."""
    failures = open_failures(encounter, creature_id)
    if not failures:
        raise SaveError(
            f"No save of {creature_id}'s has just failed: a hero token turns a failed saving throw into a "
            "success, right after the roll."
        )
    failure = failures[-1]
    transition = succeed_save(encounter.turns, creature_id, failure.condition, failure.custom_text)
    kept = tuple(f for f in encounter.failed_saves if f != failure)
    updated = dataclasses.replace(encounter.with_turns(transition.state), failed_saves=kept)
    label = failure.custom_text if failure.condition is Condition.CUSTOM else failure.condition.value
    return _pruned(updated), label
