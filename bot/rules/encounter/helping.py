"""Helping another creature: the Heal main action, and every effect that lets a creature spend a Recovery.

Rules: Draw Steel, Combat, "Heal", "Dying and Death", "No Recoveries".
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.rules import stamina as st
from bot.rules.conditions import Condition
from bot.rules.dice import Dice
from bot.rules.encounter import saves
from bot.rules.encounter.condition_changes import SaveResult
from bot.rules.encounter.model import Encounter
from bot.rules.encounter.sync import Healing, change_vitals, target, use_on_turn
from bot.rules.errors import RuleError
from bot.rules.turns import Phase, current, main_kind


class HelpError(RuleError):
    """Help the rules refuse."""


class HealUse(enum.StrEnum):
    """What the target of Heal does: spend a Recovery, or make a saving throw."""

    RECOVERY = "recovery"
    SAVE = "save"


@dataclass(frozen=True, slots=True)
class HealOutcome:
    """The Heal main action: who healed whom, and the Stamina regained or the save made."""

    healer: str
    target: str
    healing: Healing | None = None
    save: SaveResult | None = None


def spend_recovery(encounter: Encounter, name: str, extra: int = 0) -> tuple[Encounter, Healing]:
    """Another creature's help (Heal, an ability) lets `name` spend a Recovery and regain its recovery value
    (+ `extra`): allowed while dying; a Director creature regains a third of its Stamina maximum instead.

    Draw Steel, Combat:
    - "Dying and Death": "While you are dying, ... your allies can help you spend Recoveries in combat" -- so
      a dying hero may spend a Recovery through Heal or an ally's ability, though not through Catch Breath.
    - "No Recoveries": "a Director-controlled creature regains Stamina equal to one-third of their Stamina
      maximum" when an ability would have it spend a Recovery (`bot.rules.stamina.spend_recovery`).
    """
    creature = target(encounter, name)
    if creature.squad_id is not None:
        raise HelpError(f"{creature.id} is a minion: minions don't regain Stamina.")
    if creature.vitals.dead:
        raise HelpError(f"{creature.id} is dead: a dead creature can't regain Stamina.")
    return change_vitals(encounter, creature, st.spend_recovery(creature.vitals, extra))


def heal_action(
    encounter: Encounter,
    dice: Dice,
    healer: str,
    name: str,
    use: HealUse,
    condition: Condition | None = None,
    custom_text: str = "",
) -> tuple[Encounter, HealOutcome]:
    """`healer` uses the Heal main action on `name` (on the healer's turn it uses their main action; while
    the table enforces the action economy in a round, it is refused off that turn, as every main action
    is): the target spends a Recovery, or makes one extra saving throw against the condition named (or its
    only "save ends" condition).

    Draw Steel, Combat, "Heal": "A creature who uses the Heal main action employs medicine or inspiring words
    to make an adjacent creature feel better and stay in the fight. The target creature can spend a Recovery
    to regain Stamina, or can make a saving throw against one effect they are suffering that is ended by a
    saving throw." (Being adjacent is the table's to judge.)
    """
    helper = target(encounter, healer)
    patient = target(encounter, name)
    if helper.vitals.dead or helper.vitals.knocked_out:
        raise HelpError(f"{helper.id} can't take main actions now: another creature must Heal.")
    if helper.id == patient.id:
        raise HelpError(
            "Heal helps another creature: to spend your own Recovery, Catch Breath with /recover."
        )
    turns = encounter.turns
    now = current(turns)
    own_turn = now is not None and now.entry == encounter.entry_of(helper.id).id
    if turns.enforce_actions and turns.phase is Phase.IN_ROUND and not own_turn:
        # a main action is taken on the creature's own turn; help off it is an ability's (a triggered action)
        entry = encounter.entry_of(helper.id).id
        raise HelpError(f"Heal is a main action, taken on {entry}'s own turn: start it with /turn act first.")
    encounter = use_on_turn(encounter, helper.id, main_kind(turns.mode))
    if use is HealUse.RECOVERY:
        updated, healing = spend_recovery(encounter, patient.id)
        return updated, HealOutcome(helper.id, patient.id, healing=healing)
    granted, owed = saves.grant_save(encounter, patient.id, condition, custom_text)
    updated, result = saves.roll_owed(granted, dice, patient.id, owed.condition, owed.custom_text)
    return updated, HealOutcome(helper.id, patient.id, save=result)
