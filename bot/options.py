"""Checks of a command's typed options, shared by the exts (what Discord's own limits don't cover).

Each refuses the command with `bot.replies.fail` and a one-line reason that says what to type instead.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.replies import fail
from bot.rules.conditions import Condition

CUSTOM_MAX = 60
#: The conditions a command names (surprise is set up with /encounter surprise).
CONDITIONS = [c for c in Condition if c is not Condition.SURPRISED]
CONDITION_CHOICES = [app_commands.Choice(name=c.value, value=c.value) for c in CONDITIONS]


def check_text(value: str | None, what: str, limit: int) -> None:
    """Refuse a text option longer than `limit` characters (None passes: the option was left out)."""
    if value is not None and len(value) > limit:
        fail(_too_long(what, limit))


def _too_long(what: str, limit: int) -> str:
    return f"The {what} can be at most {limit} characters: type a shorter one."


def check_range(value: int, low: int, high: int, what: str) -> None:
    """Refuse a number option outside `low`..`high`."""
    if not low <= value <= high:
        fail(f"{what} must be a number from {low} to {high}.")


def read_condition(text: str, custom: str | None) -> tuple[Condition, str]:
    """The condition and its custom text (required for custom, refused for the others)."""
    key = text.strip().lower()
    condition = next((c for c in CONDITIONS if c.value == key), None)
    if condition is None:
        fail("Pick a condition from the list: " + ", ".join(c.value for c in CONDITIONS) + ".")
    words = (custom or "").strip()
    check_text(words, "custom condition's name", CUSTOM_MAX)
    if condition is Condition.CUSTOM and not words:
        fail("Name the custom condition with the text option, e.g. text: marked.")
    if condition is not Condition.CUSTOM and words:
        fail("The text option names a custom condition: pick condition: custom, or leave the text out.")
    return condition, words


class Text(app_commands.Transformer):
    """A text option (`app_commands.Transform[str, Text(...)]`) of at most `limit` characters: a longer one is
    refused in one line before the command runs ("The name can be at most 100 characters: ...", or
    `refusal`). The limit is the bot's, not declared to Discord as `app_commands.Range` would: the synced
    command stays as it is, and an overlong name typed or pasted gets the bot's hint of what to type
    instead."""

    def __init__(self, what: str, limit: int, refusal: str | None = None) -> None:
        self.limit = limit
        self.refusal = refusal if refusal is not None else _too_long(what, limit)

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> str:
        text = str(value)
        if len(text) > self.limit:
            fail(self.refusal)
        return text


Suggest = Callable[[discord.Interaction[Any], str], Awaitable[list[app_commands.Choice[str]]]]
"""An autocomplete callback: the choices for what was typed so far."""


class SuggestedText(Text):
    """A `Text` option whose values the bot suggests as they are typed (`suggest`): the option carries its
    autocomplete, so every command naming, say, a creature offers the same names."""

    def __init__(self, what: str, limit: int, suggest: Suggest) -> None:
        super().__init__(what, limit)
        self.suggest = suggest

    async def autocomplete(
        self, interaction: discord.Interaction[Any], value: int | float | str, /
    ) -> list[app_commands.Choice[Any]]:
        return await self.suggest(interaction, str(value))


class SuggestedRange(SuggestedText):
    """A `SuggestedText` of `low` to `high` characters told to Discord, as `app_commands.Range[str, low,
    high]` does (Discord refuses another length before the command runs)."""

    def __init__(self, what: str, low: int, high: int, suggest: Suggest) -> None:
        super().__init__(what, high, suggest)
        self.low = low

    @property
    def min_value(self) -> int:
        return self.low

    @property
    def max_value(self) -> int:
        return self.limit


class Bounded(app_commands.Transformer):
    """A whole-number option from `low` to `high`, refused in one line (`check_range`) before the command
    runs. The bounds are the bot's, not told to Discord, so the refusal says what to type instead."""

    def __init__(self, what: str, low: int, high: int) -> None:
        self.what = what
        self.low = low
        self.high = high

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    async def transform(self, interaction: discord.Interaction[Any], value: int) -> int:
        check_range(value, self.low, self.high, self.what)
        return value
