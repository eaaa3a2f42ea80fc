"""Dice sources. Every rule that rolls takes a `Dice`, so tests can seed or fix the results."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol


class Dice(Protocol):
    """A source of uniform integers; the only randomness the rules core uses."""

    def randint(self, low: int, high: int) -> int:
        """Return an integer N with low <= N <= high."""
        ...


class SystemDice:
    """Production dice: the operating system's secure randomness."""

    def __init__(self) -> None:
        self._rng = random.SystemRandom()

    def randint(self, low: int, high: int) -> int:
        return self._rng.randint(low, high)


class SeededDice:
    """Deterministic dice for tests and replays."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        return self._rng.randint(low, high)


class FixedDice:
    """Dice that return the given results in order (each must lie in the requested range)."""

    def __init__(self, results: Iterable[int]) -> None:
        self._results = list(results)
        self._next = 0

    def randint(self, low: int, high: int) -> int:
        if self._next >= len(self._results):
            raise IndexError("FixedDice ran out of results")
        value = self._results[self._next]
        self._next += 1
        if not low <= value <= high:
            raise ValueError(f"fixed result {value} is outside {low}..{high}")
        return value


def d10(dice: Dice) -> int:
    """One d10; a 0 face counts as 10 (draw-steel-basics.md, "Dice")."""
    return dice.randint(1, 10)


def d6(dice: Dice) -> int:
    """One d6."""
    return dice.randint(1, 6)


def d3(dice: Dice) -> int:
    """One d3, rolled as a d6 read 1-2 → 1, 3-4 → 2, 5-6 → 3 (draw-steel-basics.md, "D3s")."""
    return (d6(dice) + 1) // 2


def d100(dice: Dice) -> int:
    """A d100 from a tens d10 and a ones d10, 10 read as 0; both 0 → 100 (draw-steel-basics.md, "D100s")."""
    tens = d10(dice) % 10
    ones = d10(dice) % 10
    value = tens * 10 + ones
    return 100 if value == 0 else value
