"""Situational edges and banes named by the table: flanking, high ground, cover, concealment, being squeezed.

Rules: Draw Steel, Combat, "Flanking", "High Ground", "Cover", "Concealment" and "Squeezing" (the
paragraph on being squeezed into another creature's space). The bot can't see the map, so the player names
the situation; the table below says what each gives and which rolls it applies to, and a situation named on
a roll it doesn't apply to is refused with a hint.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.errors import RuleError


class SituationError(RuleError):
    """A situation the bot doesn't know, or one named on a roll it doesn't apply to."""


class Situation(enum.StrEnum):
    FLANKING = "flanking"
    HIGH_GROUND = "high ground"
    COVER = "cover"
    CONCEALMENT = "concealment"
    SQUEEZED = "squeezed"


class AppliesTo(enum.StrEnum):
    """Which power rolls a situation changes, in the rules text's words."""

    MELEE_STRIKES = "melee strikes"
    STRIKES = "strikes"
    DAMAGING_ABILITIES = "damage-dealing abilities"
    ABILITY_ROLLS = "ability rolls against the target"
    ABILITY_ROLLS_AND_TESTS = "ability rolls and tests"


@dataclass(frozen=True, slots=True)
class SituationRule:
    """One situation: the edges or banes it gives, what it applies to, and the sentence that says so."""

    situation: Situation
    edges: int
    banes: int
    applies_to: AppliesTo
    section: str
    source: str

    @property
    def effect(self) -> str:
        """`edge` / `bane` (what the reply shows beside the name)."""
        return "edge" if self.edges else "bane"


SITUATIONS: dict[Situation, SituationRule] = {
    rule.situation: rule
    for rule in (
        SituationRule(
            Situation.FLANKING,
            1,
            0,
            AppliesTo.MELEE_STRIKES,
            "Flanking",
            "While flanking an enemy, you gain an edge on melee strikes against them.",
        ),
        SituationRule(
            Situation.HIGH_GROUND,
            1,
            0,
            AppliesTo.ABILITY_ROLLS,
            "High Ground",
            "Whenever a creature uses an ability to target a creature or object while standing on the ground "
            "and occupying a space that is fully above the target's space, they gain an edge on the power "
            "roll against that target.",
        ),
        SituationRule(
            Situation.COVER,
            0,
            1,
            AppliesTo.DAMAGING_ABILITIES,
            "Cover",
            "You take a bane on damage-dealing abilities used against creatures or objects that have cover "
            "from you.",
        ),
        SituationRule(
            Situation.CONCEALMENT,
            0,
            1,
            AppliesTo.STRIKES,
            "Concealment",
            "However, strikes against such targets take a bane.",
        ),
        SituationRule(
            Situation.SQUEEZED,
            0,
            1,
            AppliesTo.ABILITY_ROLLS_AND_TESTS,
            "Squeezing",
            "When you are squeezed into the same space as another creature whose size is within 1 of yours, "
            "your ability rolls and tests take a bane.",
        ),
    )
}
"""Draw Steel, Combat: each situation the table can name."""

_ALIASES = {"high": Situation.HIGH_GROUND, "highground": Situation.HIGH_GROUND, "flanked": Situation.FLANKING}


@dataclass(frozen=True, slots=True)
class RollUse:
    """What the bot knows of a power roll: a test or an ability roll, and (None: not known, the player
    vouches for it) whether it is a strike, a melee strike, and whether the ability deals damage."""

    test: bool = False
    strike: bool | None = None
    melee: bool | None = None
    damaging: bool | None = None


def _refusal(rule: SituationRule, use: RollUse) -> str | None:
    """Why `rule` doesn't apply to `use`, or None when it does (or may: the bot doesn't know)."""
    name = rule.situation.value
    if use.test and rule.applies_to is not AppliesTo.ABILITY_ROLLS_AND_TESTS:
        return f"{name} changes {rule.applies_to.value}, not tests: leave it out of this test."
    if rule.applies_to in (AppliesTo.MELEE_STRIKES, AppliesTo.STRIKES) and use.strike is False:
        return f"{name} changes {rule.applies_to.value} only: leave it out of this roll."
    if rule.applies_to is AppliesTo.MELEE_STRIKES and use.melee is False:
        return f"{name} changes melee strikes only: add melee:true if this strike is melee."
    if rule.applies_to is AppliesTo.DAMAGING_ABILITIES and use.damaging is False:
        return f"{name} changes damage-dealing abilities only: give the damage, or leave {name} out."
    return None


def parse_situations(text: str | None) -> tuple[Situation, ...]:
    """`flanking, high ground` -> the situations in the order given (each once); `SituationError` names the
    ones it knows when a name isn't one of them."""
    if text is None or not text.strip():
        return ()
    found: list[Situation] = []
    for part in text.split(","):
        key = " ".join(part.strip().casefold().replace("-", " ").split())
        if not key:
            continue
        situation = next((s for s in Situation if s.value == key), None) or _ALIASES.get(key.replace(" ", ""))
        if situation is None:
            names = ", ".join(s.value for s in Situation)
            raise SituationError(f"`{part.strip()[:40]}` isn't a situation the bot knows: use {names}.")
        if situation not in found:
            found.append(situation)
    return tuple(found)


def situation_modifiers(situations: Sequence[Situation], use: RollUse) -> tuple[int, int]:
    """(edges, banes) the named situations give a roll (raw counts: the power roll caps and cancels them);
    `SituationError` when one doesn't apply to this kind of roll."""
    edges = banes = 0
    for situation in situations:
        rule = SITUATIONS[situation]
        reason = _refusal(rule, use)
        if reason is not None:
            raise SituationError(reason)
        edges += rule.edges
        banes += rule.banes
    return edges, banes
