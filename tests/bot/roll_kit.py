"""Dice a test loads, and the reading of a roll's reply: shared by the SimCord tests that force the dice."""

from __future__ import annotations

from simcord.results import InteractionResult, ResponseMessage

from bot.rules.dice import FixedDice
from tests.bot.conftest import Table


class LoadedDice:
    """The bot's dice for these tests: each test loads the faces it needs (`FixedDice` underneath)."""

    def __init__(self) -> None:
        self.faces = FixedDice([])

    def load(self, *faces: int) -> None:
        self.faces = FixedDice(faces)

    def randint(self, low: int, high: int) -> int:
        return self.faces.randint(low, high)


class Loaded:
    """Dice that roll what a test loads, then 5s."""

    def __init__(self) -> None:
        self.queue: list[int] = []

    def load(self, *values: int) -> None:
        self.queue.extend(values)

    def randint(self, low: int, high: int) -> int:
        if not self.queue:
            return min(high, max(low, 5))
        value = self.queue.pop(0)
        assert low <= value <= high, f"loaded {value} for a d{high}"
        return value


def loaded(table: Table) -> Loaded:
    """The `Loaded` dice the table's bot rolls with (its `dice` fixture returned them)."""
    dice = table.env.bot.dice  # type: ignore[attr-defined]
    assert isinstance(dice, Loaded)
    return dice


def reply(result: InteractionResult) -> ResponseMessage:
    assert result.response is not None
    return result.response


def description(message: ResponseMessage) -> list[str]:
    (embed,) = message.embeds
    return (embed.description or "").splitlines()
