"""Bleeding on the encounter aggregate: who bleeds, and the Stamina a bleeding creature loses.

Rules: Draw Steel, Combat, "Dying and Death"; Heroes ch. 5 "Bleeding".
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.rules.conditions import BleedingTrigger, Condition, bleeding_damage_due
from bot.rules.damage import bleeding_damage
from bot.rules.dice import Dice
from bot.rules.encounter.model import Encounter
from bot.rules.encounter.sync import sync
from bot.rules.power import RollAction
from bot.rules.squads import Squad, damage_squad
from bot.rules.stamina import Vitals, lose_stamina_outright


@dataclass(frozen=True, slots=True)
class Bleed:
    """Stamina a bleeding creature lost: the d6, its level, the loss, and its vitals (or, for a minion, its
    squad) before and after."""

    target: str
    trigger: BleedingTrigger
    roll: int
    level: int
    lost: int
    before: Vitals | None = None
    after: Vitals | None = None
    squad_before: Squad | None = None
    squad_after: Squad | None = None
    killed: tuple[str, ...] = ()


def bleeding_while_dying(encounter: Encounter, creature_id: str) -> bool:
    """The creature is a dying hero, and so bleeding.

    Draw Steel, Combat, "Dying and Death": "When your Stamina is 0 or lower, you are dying. ... Additionally,
    you are bleeding, and this instance of the condition can't be negated or removed in any way until you are
    no longer dying." So a dying hero bleeds without a stored condition: the bleeding is read from their
    Stamina, begins when they start dying and ends when they stop, and undo needs nothing more. Removing it
    is refused by `bot.rules.encounter.harm.remove_condition`.
    """
    return encounter.creature(creature_id).vitals.dying


def is_bleeding(encounter: Encounter, creature_id: str) -> bool:
    """Bleeding: the condition, or dying."""
    conditions = encounter.turns.conditions_of(creature_id)
    return any(c.condition is Condition.BLEEDING for c in conditions) or bleeding_while_dying(
        encounter, creature_id
    )


def strike_trigger(action: RollAction) -> BleedingTrigger | None:
    """The bleeding trigger of a strike made as `action`: a main action (a free strike on one's own turn is
    one too), or a triggered action; a maneuver's roll counts only by its characteristic, which a strike
    doesn't name, so none."""
    return {
        RollAction.MAIN: BleedingTrigger.MAIN_ACTION,
        RollAction.FREE_STRIKE: BleedingTrigger.MAIN_ACTION,
        RollAction.TRIGGERED: BleedingTrigger.TRIGGERED_ACTION,
        RollAction.MANEUVER: None,
    }[action]


def bleed(
    encounter: Encounter, dice: Dice, creature_id: str, trigger: BleedingTrigger
) -> tuple[Encounter, Bleed | None]:
    """A creature did `trigger`; once it is resolved, a bleeding creature loses 1d6 + its level Stamina
    (None and the encounter unchanged when it isn't bleeding, or is dead already).

    Heroes ch. 5 "Bleeding": "whenever a bleeding creature uses a main action or a triggered action, or makes
    a test or ability roll using Might or Agility, it loses Stamina equal to 1d6 + its level once that is
    resolved. Nothing prevents this loss." Hence `bot.rules.conditions.bleeding_damage_due`,
    `bot.rules.damage.bleeding_damage` and `bot.rules.stamina.lose_stamina_outright` (no immunity, no
    temporary Stamina). A minion's loss comes out of its squad's pool.
    """
    creature = encounter.creature(creature_id)
    squad = encounter.squad(creature.squad_id) if creature.squad_id is not None else None
    gone = creature.id not in squad.alive if squad is not None else creature.vitals.dead
    conditions = encounter.turns.conditions_of(creature.id)
    if gone or not bleeding_damage_due(conditions, trigger, dying=creature.vitals.dying):
        return encounter, None
    lost = bleeding_damage(dice, creature.level)
    roll = lost - max(0, creature.level)
    if squad is not None:
        record = damage_squad(squad, lost, [creature.id])  # no modifiers: nothing prevents the loss
        updated = sync(encounter.with_squad(record.after), creature.id)
        return updated, Bleed(
            creature.id,
            trigger,
            roll,
            creature.level,
            lost,
            squad_before=squad,
            squad_after=record.after,
            killed=record.killed,
        )
    after = lose_stamina_outright(creature.vitals, lost)
    updated = sync(encounter.with_creature(dataclasses.replace(creature, vitals=after)), creature.id)
    killed = (creature.id,) if after.dead else ()
    return updated, Bleed(
        creature.id, trigger, roll, creature.level, lost, creature.vitals, after, killed=killed
    )
