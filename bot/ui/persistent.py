"""Persistent components: buttons and selects whose custom id carries everything a press needs (the tracker's
controls, a roll's Downgrade and Reroll), so a press works after a restart.

They are `discord.ui.DynamicItem`s registered with `bot.add_dynamic_items`, sent in a `PersistentView`
(which holds nothing else). Custom ids come from the client: every number in one is read by `number` (ASCII
digits, within 64 bits; templates match `NUMBER`), and a bad field gets the one-line `ForgedId` answer.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord.ui import DynamicItem, Item

from bot.replies import UserError

#: A number field of a custom id in a template: ASCII digits only (`\d` also matches other scripts' digits).
NUMBER = "[0-9]{1,20}"
#: The largest number a custom id may carry: ids are Discord snowflakes or store keys (signed 64-bit).
NUMBER_MAX = 2**63 - 1
_DIGITS = re.compile(NUMBER)


class ForgedId(UserError):
    """A custom id whose fields the bot never wrote (tampered with, or from an older bot)."""

    def __init__(self) -> None:
        super().__init__("This button can't be read any more: use the slash command instead.")


def number(text: str | None) -> int:
    """A custom id field as a number: ASCII digits only, at most `NUMBER_MAX`; `ForgedId` otherwise.

    `str.isdigit` is no check: it takes "²", which `int` refuses, and `int` takes "٣" and " 3"."""
    if text is None or _DIGITS.fullmatch(text) is None or int(text) > NUMBER_MAX:
        raise ForgedId()
    return int(text)


def optional_number(text: str | None) -> int | None:
    """`number`, or None for a field left out (empty)."""
    return None if not text else number(text)


class PersistentView(discord.ui.View):
    """The view of a message's persistent items (`DynamicItem`s only): it never times out."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def add_item(self, item: Item[Any]) -> Self:
        if not isinstance(item, DynamicItem):
            raise TypeError(f"a PersistentView holds DynamicItems only, not {type(item).__name__}")
        super().add_item(item)
        return self
