"""Dice a test loads, and the reading of a roll's reply: shared by the /roll and power-option tests."""

from __future__ import annotations

from simcord.results import InteractionResult, ResponseMessage

from bot.rules.dice import FixedDice


class LoadedDice:
    """The bot's dice for these tests: each test loads the faces it needs (`FixedDice` underneath)."""

    def __init__(self) -> None:
        self.faces = FixedDice([])

    def load(self, *faces: int) -> None:
        self.faces = FixedDice(faces)

    def randint(self, low: int, high: int) -> int:
        return self.faces.randint(low, high)


def reply(result: InteractionResult) -> ResponseMessage:
    assert result.response is not None
    return result.response


def description(message: ResponseMessage) -> list[str]:
    (embed,) = message.embeds
    return (embed.description or "").splitlines()
