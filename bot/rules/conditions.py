"""Draw Steel conditions: what they are, how long they last, and the edges and banes they give.

Rules: Draw Steel, Combat, "Determine Surprise", "Triggered Actions and Free Triggered Actions", "Free
Maneuvers", "UNCONSCIOUS"; Draw Steel, The Basics, "Spending Hero Tokens"; the published Draw Steel
conditions (Heroes, Chapter 5 "Conditions").
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ParamSpec

from bot.rules.dice import Dice
from bot.rules.names import name_key

_P = ParamSpec("_P")

SAVE_TARGET = 6
"""A saving throw succeeds on a d10 roll of 6 or higher."""


class Condition(enum.StrEnum):
    """The published Draw Steel conditions (Heroes, Chapter 5 "Conditions") for bleeding, dazed, frightened,
    grabbed, prone, restrained, slowed, taunted and weakened; surprised (Draw Steel, Combat, "Determine
    Surprise"); and a custom condition named by its text."""

    BLEEDING = "bleeding"
    DAZED = "dazed"
    FRIGHTENED = "frightened"
    GRABBED = "grabbed"
    PRONE = "prone"
    RESTRAINED = "restrained"
    SLOWED = "slowed"
    TAUNTED = "taunted"
    WEAKENED = "weakened"
    SURPRISED = "surprised"
    CUSTOM = "custom"


class Duration(enum.StrEnum):
    """How long a condition lasts. EoT ends at the end of the affected creature's next turn (or of the current
    turn if imposed during it) -- i.e. at the first end of the affected creature's turn after it was imposed;
    "save ends" prompts a saving throw (d10, 6 or higher ends it) at the end of each of the affected
    creature's turns; end of encounter; until removed; and surprise, which ends at the end of the first round
    (Draw Steel, Combat, "Determine Surprise")."""

    EOT = "eot"
    END_OF_FIRST_ROUND = "end-of-first-round"
    SAVE = "save"
    ENCOUNTER = "encounter"
    UNTIL_REMOVED = "until-removed"


# Shortest to longest: EoT < end of first round < save ends < end of encounter < until removed.
_DURATION_RANK = {
    Duration.EOT: 0,
    Duration.END_OF_FIRST_ROUND: 1,
    Duration.SAVE: 2,
    Duration.ENCOUNTER: 3,
    Duration.UNTIL_REMOVED: 4,
}

REPLACED_BY_NEW_SOURCE = frozenset({Condition.FRIGHTENED, Condition.TAUNTED})
"""Conditions whose newest source replaces the old one instead of keeping the longer duration."""


@dataclass(frozen=True, slots=True)
class ConditionInstance:
    """One condition on one creature. `source_id` is the creature that imposed it (the fear's source, the
    taunter, the grabber), when there is one; `imposed_round` is the round it was imposed in (0 before
    combat)."""

    creature_id: str
    condition: Condition
    duration: Duration
    source_id: str | None = None
    custom_text: str = ""
    imposed_round: int = 0

    @property
    def key(self) -> tuple[str, Condition, str]:
        """What makes two instances "the same condition" on a creature (they don't stack)."""
        return (self.creature_id, self.condition, name_key(self.custom_text))

    @property
    def label(self) -> str:
        """A short user-facing name: the custom text for custom conditions."""
        return self.custom_text if self.condition is Condition.CUSTOM else self.condition.value


def longer(a: Duration, b: Duration) -> Duration:
    """The longer of two durations (the one kept when a condition is re-imposed)."""
    return a if _DURATION_RANK[a] >= _DURATION_RANK[b] else b


def apply_condition(
    current: tuple[ConditionInstance, ...], new: ConditionInstance
) -> tuple[tuple[ConditionInstance, ...], ConditionInstance]:
    """Add `new` to `current` without stacking; returns the new tuple and the instance now in force.

    The same condition (same custom text for CUSTOM) never stacks on one creature. Re-imposing it keeps the
    longer duration (EoT < end of first round < save ends < end of encounter < until removed). Frightened and
    taunted follow their own rule: a new source replaces the old one (a creature fears or is taunted by one
    creature at a time), taking the new duration. For the others, the instance whose duration is kept keeps
    its source."""
    for i, old in enumerate(current):
        if old.key != new.key:
            continue
        new_source = new.condition in REPLACED_BY_NEW_SOURCE and new.source_id != old.source_id
        kept = new if new_source or _DURATION_RANK[new.duration] > _DURATION_RANK[old.duration] else old
        return (*current[:i], kept, *current[i + 1 :]), kept
    return (*current, new), new


def save_succeeds(roll: int) -> bool:
    """A saving throw: a d10 result of 6 or higher ends the effect. A hero token turns a failed saving throw
    into a success (Draw Steel, The Basics, "Spending Hero Tokens"; `bot.rules.resources.TokenBenefit`)."""
    return roll >= SAVE_TARGET


def roll_save_die(dice: Dice) -> int:
    """Roll the d10 for a saving throw."""
    return dice.randint(1, 10)


# --- Edges and banes -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Modifier:
    """One reason for an edge (positive `edges`) or bane on a power roll."""

    reason: str
    edges: int = 0
    banes: int = 0


def _has(conditions: Iterable[ConditionInstance], condition: Condition) -> list[ConditionInstance]:
    return [c for c in conditions if c.condition is condition]


def explain_modifiers(
    attacker_conditions: Iterable[ConditionInstance],
    target_conditions: Iterable[ConditionInstance],
    *,
    attacker_id: str,
    target_id: str | None,
    is_ability_roll: bool = True,
    is_strike: bool = False,
    is_melee: bool = False,
    ability_targets: Iterable[str] = (),
    target_unconscious: bool = False,
    test_characteristic: str | None = None,
) -> tuple[Modifier, ...]:
    """Every edge and bane the conditions give one power roll against one target, with its reason.

    `ability_targets` are all the creatures the ability targets (for grabbed and taunted); when empty,
    `target_id` alone is assumed. `target_id` is None for power rolls without a target (tests), and
    `test_characteristic` names a test's characteristic ("might", "agility", ...). Taunted assumes the taunter
    is within line of effect. The counts are raw: capping at two and cancelling edges against banes is the
    power roll's job.

    Ability rolls made against a surprised creature gain an edge (Draw Steel, Combat, "Determine Surprise");
    ability rolls against an unconscious creature have a double edge (Draw Steel, Combat, "UNCONSCIOUS")."""
    a = tuple(attacker_conditions)
    t = tuple(target_conditions)
    if not a and not t and not target_unconscious:  # the usual case: nothing below applies
        return ()
    targets = set(ability_targets) or ({target_id} if target_id is not None else set())
    mods: list[Modifier] = []
    if _has(a, Condition.WEAKENED):
        mods.append(Modifier("you are weakened", banes=1))
    if (test_characteristic or "").casefold() in ("might", "agility") and _has(a, Condition.RESTRAINED):
        mods.append(Modifier("restrained: Might and Agility tests take a bane", banes=1))
    if is_ability_roll:
        if _has(a, Condition.RESTRAINED):
            mods.append(Modifier("you are restrained", banes=1))
        if is_strike and _has(a, Condition.PRONE):
            mods.append(Modifier("you strike while prone", banes=1))
        if target_id is not None and any(c.source_id == target_id for c in _has(a, Condition.FRIGHTENED)):
            mods.append(Modifier("you are frightened of the target", banes=1))
        grabbers = {c.source_id for c in _has(a, Condition.GRABBED) if c.source_id is not None}
        if grabbers and not grabbers & targets:
            mods.append(Modifier("you are grabbed and don't target the grabber", banes=1))
        taunters = {c.source_id for c in _has(a, Condition.TAUNTED) if c.source_id is not None}
        if taunters and not taunters & targets:
            mods.append(Modifier("you are taunted and don't target the taunter", banes=2))
    if is_ability_roll and target_id is not None:
        if _has(t, Condition.SURPRISED):
            mods.append(Modifier("the target is surprised", edges=1))
        if is_melee and _has(t, Condition.PRONE):
            mods.append(Modifier("melee against a prone target", edges=1))
        if _has(t, Condition.RESTRAINED):
            mods.append(Modifier("the target is restrained", edges=1))
        if any(c.source_id == attacker_id for c in _has(t, Condition.FRIGHTENED)):
            mods.append(Modifier("the target is frightened of you", edges=1))
        if target_unconscious:
            mods.append(Modifier("the target is unconscious", edges=2))
    return tuple(mods)


def _counted(explain: Callable[_P, tuple[Modifier, ...]]) -> Callable[_P, tuple[int, int]]:
    """`explain` with its modifiers counted: (edges, banes)."""

    def count(*args: _P.args, **kwargs: _P.kwargs) -> tuple[int, int]:
        mods = explain(*args, **kwargs)
        return sum(m.edges for m in mods), sum(m.banes for m in mods)

    return count


situational_modifiers = _counted(explain_modifiers)
"""(edges, banes) that conditions give one power roll against one target: `explain_modifiers`, counted."""


# --- What a creature may do -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Restrictions:
    """What conditions forbid a creature: triggered actions (and so free triggered actions), free maneuvers,
    and whether its turn allows only one of main action, maneuver or move action (Draw Steel, Combat,
    "Triggered Actions and Free Triggered Actions", "Free Maneuvers"). A surprised creature can't take
    triggered or free triggered actions (Draw Steel, Combat, "Determine Surprise")."""

    no_triggered: bool = False
    no_free_maneuvers: bool = False
    one_action_only: bool = False
    reasons: tuple[str, ...] = ()


def restrictions(conditions: Iterable[ConditionInstance], *, unconscious: bool = False) -> Restrictions:
    """The action restrictions conditions impose (surprised, dazed; unconscious allows nothing)."""
    cs = tuple(conditions)
    no_triggered = no_free = one_only = False
    reasons: list[str] = []
    if _has(cs, Condition.SURPRISED):
        no_triggered = True
        reasons.append("surprised: no triggered or free triggered actions")
    if _has(cs, Condition.DAZED):
        no_triggered = no_free = one_only = True
        reasons.append(
            "dazed: one of main action, maneuver or move action; no triggered actions or free maneuvers"
        )
    if unconscious:
        no_triggered = no_free = True
        reasons.append("unconscious: no actions")
    return Restrictions(no_triggered, no_free, one_only, tuple(reasons))


def effective_speed(base: int, conditions: Iterable[ConditionInstance], *, unconscious: bool = False) -> int:
    """Speed after conditions: grabbed, restrained or unconscious make it 0; slowed makes it 2 if higher."""
    cs = tuple(conditions)
    if unconscious or _has(cs, Condition.GRABBED) or _has(cs, Condition.RESTRAINED):
        return 0
    if _has(cs, Condition.SLOWED):
        return min(base, 2)
    return base


class BleedingTrigger(enum.StrEnum):
    """What makes a bleeding creature lose Stamina: "whenever a bleeding creature uses a main action or a
    triggered action, or makes a test or ability roll using Might or Agility" (Heroes ch. 5
    "Bleeding")."""

    MAIN_ACTION = "main-action"
    TRIGGERED_ACTION = "triggered-action"
    MIGHT_OR_AGILITY_TEST = "might-or-agility-test"
    MIGHT_OR_AGILITY_ABILITY_ROLL = "might-or-agility-ability-roll"


def roll_trigger(characteristic: str | None, *, test: bool) -> BleedingTrigger | None:
    """The bleeding trigger of a test or ability roll using `characteristic` ("might", "agility", ...): only
    Might and Agility count."""
    if (characteristic or "").casefold() not in ("might", "agility"):
        return None
    return BleedingTrigger.MIGHT_OR_AGILITY_TEST if test else BleedingTrigger.MIGHT_OR_AGILITY_ABILITY_ROLL


def bleeding_damage_due(
    conditions: Iterable[ConditionInstance], trigger: BleedingTrigger, *, dying: bool = False
) -> bool:
    """True when a bleeding creature loses Stamina (rolled by the damage module) for doing `trigger`. A dying
    hero is bleeding whatever its conditions (Draw Steel, Combat, "Dying and Death": "Additionally, you are
    bleeding, and this instance of the condition can't be negated or removed in any way until you are no
    longer dying")."""
    del trigger  # every listed trigger costs Stamina; the parameter names which one for the record
    return dying or bool(_has(tuple(conditions), Condition.BLEEDING))
