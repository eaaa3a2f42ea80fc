"""Dice sources and dice. Every rule that rolls takes a `Dice`, so tests can seed or fix the results.

Rules: Draw Steel, The Basics, "Dice", "D3s", "D100s".
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from d20 import diceast as d20ast
from lark.exceptions import LarkError

from bot.rules.errors import RuleError


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


class ReplayDice:
    """Dice that give the same results again after `rewind()`: a store change may run more than once (a lost
    race is retried on fresh data), and a retried strike must not reroll its damage. Results are replayed in
    order while the ranges asked for match; from the first that differs, the rest are rolled afresh."""

    def __init__(self, dice: Dice) -> None:
        self._dice = dice
        self._rolled: list[tuple[int, int, int]] = []
        self._next = 0

    def rewind(self) -> None:
        """Start again from the first result rolled."""
        self._next = 0

    def randint(self, low: int, high: int) -> int:
        if self._next < len(self._rolled):
            was_low, was_high, value = self._rolled[self._next]
            if (was_low, was_high) == (low, high):
                self._next += 1
                return value
            del self._rolled[self._next :]
        value = self._dice.randint(low, high)
        self._rolled.append((low, high, value))
        self._next += 1
        return value


def d10(dice: Dice) -> int:
    """One d10; a 0 face counts as 10 (Draw Steel, The Basics, "Dice")."""
    return dice.randint(1, 10)


def d6(dice: Dice) -> int:
    """One d6."""
    return dice.randint(1, 6)


def d3(dice: Dice) -> int:
    """One d3, rolled as a d6 read 1-2 → 1, 3-4 → 2, 5-6 → 3 (Draw Steel, The Basics, "D3s")."""
    return (d6(dice) + 1) // 2


def d100(dice: Dice) -> int:
    """A d100 from a tens d10 and a ones d10, 10 read as 0; both 0 → 100 (Draw Steel, The Basics, "D100s")."""
    tens = d10(dice) % 10
    ones = d10(dice) % 10
    value = tens * 10 + ones
    return 100 if value == 0 else value


def roll_die(dice: Dice, sides: int) -> int:
    """One die of `sides` sides: a d3 and a d100 are read as the basics say (`d3`, `d100`), others uniform."""
    if sides == 100:
        return d100(dice)
    if sides == 3:
        return d3(dice)
    return dice.randint(1, sides)


# --- /dice expressions ------------------------------------------------------------------------------------
# The text is parsed with the `d20` library (avrae's grammar); the tree is evaluated here so every die comes
# from the injected `Dice` (d20 rolls with the global `random` module and can't take a source).

EXPRESSION_MAX_LENGTH = 100
EXPRESSION_MAX_DICE = 100
EXPRESSION_MAX_SIDES = 1000
PARSED_CACHE_SIZE = 256
"""Distinct expressions whose parse trees are kept (least recently used first out)."""
_VALUE_LIMIT = 10**12
_USAGE = (
    "Dice must look like 3d6+2, 4d6kh3, 2d10-1 or d100 "
    f"(at most {EXPRESSION_MAX_DICE} dice of at most {EXPRESSION_MAX_SIDES} sides)."
)


class DiceExpressionError(RuleError):
    """A /dice expression that can't be rolled."""


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """One `NdS` term as rolled: each die's result and whether it was kept."""

    notation: str
    results: tuple[int, ...]
    kept: tuple[bool, ...]

    def format(self) -> str:
        shown = ", ".join(str(r) if k else f"({r})" for r, k in zip(self.results, self.kept, strict=True))
        return f"{self.notation} [{shown}]"


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """A rolled expression: its total, a readable breakdown (dropped dice in parentheses) and the groups."""

    expression: str
    total: int
    breakdown: str
    groups: tuple[DiceGroup, ...]


class _Evaluator:
    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.groups: list[DiceGroup] = []
        self.count = 0

    def eval(self, node: Any) -> tuple[int, str]:
        if isinstance(node, d20ast.Expression):
            return self.eval(node.roll)
        if isinstance(node, d20ast.AnnotatedNumber):
            value, text = self.eval(node.value)
            return value, f"{text} {''.join(node.annotations)}".rstrip()
        if isinstance(node, d20ast.Literal):
            if not isinstance(node.value, int) or isinstance(node.value, bool):
                raise DiceExpressionError(f"Use whole numbers only. {_USAGE}")
            return self._bound(node.value), str(node.value)
        if isinstance(node, d20ast.Parenthetical):
            value, text = self.eval(node.value)
            return value, f"({text})"
        if isinstance(node, d20ast.UnOp):
            value, text = self.eval(node.value)
            return (value if node.op == "+" else -value), f"{node.op}{text}"
        if isinstance(node, d20ast.BinOp):
            return self._binop(node)
        if isinstance(node, d20ast.OperatedDice):
            return self._dice(node.value, node.operations)
        if isinstance(node, d20ast.Dice):
            return self._dice(node, [])
        raise DiceExpressionError(f"Sets and comparisons aren't supported. {_USAGE}")

    def _bound(self, value: int) -> int:
        if abs(value) > _VALUE_LIMIT:
            raise DiceExpressionError(f"That number is too large. {_USAGE}")
        return value

    def _binop(self, node: Any) -> tuple[int, str]:
        left, ltext = self.eval(node.left)
        right, rtext = self.eval(node.right)
        op = node.op
        if op == "+":
            value = left + right
        elif op == "-":
            value = left - right
        elif op == "*":
            value = left * right
        elif op in ("/", "//"):
            if right == 0:
                raise DiceExpressionError("You can't divide by 0.")
            value = left // right
        else:
            raise DiceExpressionError(f"Use only + - * and /. {_USAGE}")
        return self._bound(value), f"{ltext} {op} {rtext}"

    def _roll_one(self, size: int | str) -> int:
        return roll_die(self.dice, 100 if size == "%" else int(size))

    def _dice(self, node: Any, operations: list[Any]) -> tuple[int, str]:
        num, size = node.num, node.size
        if num < 1:
            raise DiceExpressionError(f"Roll at least 1 die. {_USAGE}")
        if size != "%" and not 1 <= size <= EXPRESSION_MAX_SIDES:
            raise DiceExpressionError(f"Dice need 1 to {EXPRESSION_MAX_SIDES} sides. {_USAGE}")
        self.count += num
        if self.count > EXPRESSION_MAX_DICE:
            raise DiceExpressionError(f"That's too many dice. {_USAGE}")
        results = [self._roll_one(size) for _ in range(num)]
        kept = [True] * num
        notation = str(node)
        for operation in operations:
            notation += str(operation)
            kept = self._select(operation, results, kept)
        group = DiceGroup(notation, tuple(results), tuple(kept))
        self.groups.append(group)
        return sum(r for r, k in zip(results, kept, strict=True) if k), group.format()

    @staticmethod
    def _select(operation: Any, results: list[int], kept: list[bool]) -> list[bool]:
        """Apply one keep (k) or drop (p) operation; several selectors (k h3 l1) select their union."""
        live = [i for i, k in enumerate(kept) if k]
        chosen: set[int] = set()
        for selector in operation.sels:
            if operation.op not in ("k", "p") or selector.cat not in ("h", "l"):
                raise DiceExpressionError(f"Only kh/kl (keep) and ph/pl (drop) are supported. {_USAGE}")
            ordered = sorted(live, key=lambda i: results[i], reverse=selector.cat == "h")
            chosen.update(ordered[: selector.num])
        if operation.op == "k":
            return [i in chosen for i in range(len(results))]
        return [k and i not in chosen for i, k in enumerate(kept)]


@lru_cache(maxsize=PARSED_CACHE_SIZE)
def _parse(expression: str) -> Any:
    """The d20 syntax tree of a (normalised) expression. Parsing is the slow part of a roll, and the same few
    texts come back (heroic resource gains, a table's usual dice), so each tree is kept and shared: the
    evaluator only reads it. A text that doesn't parse raises `LarkError` (not kept)."""
    return d20ast.parser.parse(expression, start="expr")


def roll_expression(dice: Dice, text: str) -> DiceRoll:
    """Roll a /dice expression such as "3d6+2", "4d6kh3", "2d10-1" or "d100".

    d3 is the basics' d6 read 1-2/3-4/5-6 (`d3`); d100 and d% use two d10s (`d100`); other dice are uniform.
    Supported: + - * / (division rounds down), parentheses, kh/kl/ph/pl. Bounded: at most 100 characters,
    100 dice and 1000 sides.
    """
    expression = " ".join(text.split())
    if not expression:
        raise DiceExpressionError(_USAGE)
    if len(expression) > EXPRESSION_MAX_LENGTH:
        raise DiceExpressionError(f"Keep it under {EXPRESSION_MAX_LENGTH} characters. {_USAGE}")
    try:
        tree = _parse(expression)
    except LarkError:
        raise DiceExpressionError(_USAGE) from None
    evaluator = _Evaluator(dice)
    total, breakdown = evaluator.eval(tree)
    return DiceRoll(expression, total, f"{breakdown} = {total}", tuple(evaluator.groups))
