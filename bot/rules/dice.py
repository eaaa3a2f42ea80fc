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
