"""Characteristics: Might, Agility, Reason, Intuition, Presence.

Rules: Draw Steel, The Basics, "Characteristics" and "Characteristic Scores" (each creature has five
characteristics, written M/A/R/I/P in abilities).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from bot.rules.errors import RuleError

# The range `Characteristics.parse` accepts. The basics give heroes' scores as −5..+5; up to +10 is accepted
# so monsters and homebrew fit.
CHARACTERISTIC_MIN = -5
CHARACTERISTIC_MAX = 10


class CharacteristicError(RuleError):
    """Characteristics text that can't be read."""


class Characteristic(enum.Enum):
    """One of the five characteristics (Draw Steel, The Basics, "Characteristics")."""

    MIGHT = "might"
    AGILITY = "agility"
    REASON = "reason"
    INTUITION = "intuition"
    PRESENCE = "presence"

    @property
    def letter(self) -> str:
        """The one-letter abbreviation the rules use: M, A, R, I or P."""
        return self.value[0].upper()

    @classmethod
    def from_text(cls, text: str) -> Characteristic:
        """Read `M`, `might`, `Might` ... into a characteristic."""
        key = text.strip().lower()
        for c in cls:
            if key in (c.value, c.value[0]):
                return c
        raise CharacteristicError(
            f"`{text}` isn't a characteristic: use M, A, R, I or P (or might, agility, reason, intuition, "
            "presence)."
        )


_TOKEN = re.compile(r"([A-Za-z]+)\s*[:=]?\s*([+\-−]?\s*\d+)")
_SEPARATORS = re.compile(r"[\s,;/]*")
_USAGE = "Characteristics must look like M2 A1 R0 I-1 P1 (each from -5 to +10)."


@dataclass(frozen=True, slots=True)
class Characteristics:
    """A creature's five characteristic scores, each 0 unless given (Draw Steel, The Basics, "Characteristic
    Scores"), from `CHARACTERISTIC_MIN` to `CHARACTERISTIC_MAX`."""

    might: int = 0
    agility: int = 0
    reason: int = 0
    intuition: int = 0
    presence: int = 0

    def __post_init__(self) -> None:
        for c in Characteristic:
            value = self.get(c)
            if not CHARACTERISTIC_MIN <= value <= CHARACTERISTIC_MAX:
                raise CharacteristicError(
                    f"{c.letter} {value} is out of range: each characteristic runs from "
                    f"{CHARACTERISTIC_MIN} to +{CHARACTERISTIC_MAX}."
                )

    def get(self, characteristic: Characteristic) -> int:
        """The score for `characteristic`."""
        value: int = getattr(self, characteristic.value)
        return value

    @property
    def highest(self) -> int:
        """The highest of the five scores (used by surges and potency)."""
        return max(self.might, self.agility, self.reason, self.intuition, self.presence)

    @classmethod
    def parse(cls, text: str) -> Characteristics:
        """Read "M2 A1 R0 I-1 P1" (letters or names, any order, missing = 0, each −5..+10)."""
        values: dict[str, int] = {}
        pos = 0
        text = text.strip()
        while pos < len(text):
            sep = _SEPARATORS.match(text, pos)
            if sep is not None:
                pos = sep.end()
            if pos >= len(text):
                break
            m = _TOKEN.match(text, pos)
            if m is None:
                raise CharacteristicError(_USAGE)
            c = Characteristic.from_text(m.group(1))
            raw = m.group(2).replace("−", "-").replace(" ", "")
            value = int(raw)
            if c.value in values:
                raise CharacteristicError(f"{c.letter} is given twice. {_USAGE}")
            values[c.value] = value
            pos = m.end()
        return cls(**values)

    def format(self) -> str:
        """The compact form `parse` reads back, e.g. "M2 A1 R0 I-1 P1"."""
        return " ".join(f"{c.letter}{self.get(c)}" for c in Characteristic)
