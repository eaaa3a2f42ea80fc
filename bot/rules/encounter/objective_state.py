"""What an encounter remembers about its objectives and villain actions (the rules are
`bot.rules.encounter.objectives`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Outcome(enum.StrEnum):
    OPEN = "open"
    ACHIEVED = "achieved"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Objective:
    """One objective: its text, the rounds left on its counter (None: no counter) and its outcome."""

    text: str
    left: int | None = None
    outcome: Outcome = Outcome.OPEN

    @property
    def due(self) -> bool:
        """Its counter ran out and the Director hasn't resolved it."""
        return self.outcome is Outcome.OPEN and self.left == 0


@dataclass(frozen=True, slots=True)
class VillainActions:
    """A creature's villain actions named by the Director (none: its stat block's) and those used."""

    named: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
