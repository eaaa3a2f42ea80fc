"""Persistent components: buttons and selects whose custom id carries everything a press needs (the tracker's
controls, a roll's Downgrade and Reroll), so a press works after a restart.

They are `discord.ui.DynamicItem`s registered with `bot.add_dynamic_items`, sent in a `PersistentView`
(which holds nothing else). Custom ids come from the client: every number in one is read by `number` (ASCII
digits, within 64 bits; templates match `NUMBER`), and a bad field gets the one-line `ForgedId` answer.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Self

import discord
from discord.ui import DynamicItem, Item

from bot.error_hook import guarded
from bot.replies import UserError, fail

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


Handler = Callable[[discord.Interaction[Any], int, int, str], Awaitable[None]]
"""What a press does: `handler(interaction, encounter id, version, argument)`."""


class Presses:
    """What the presses of one family of persistent items do, by action: the extension's `setup` registers
    each handler (`set`), so the views' modules stay free of the store; a press with none registered is
    refused in one line (`refusal(action)`: what to use instead, e.g. a slash command)."""

    def __init__(self, refusal: Callable[[str], str]) -> None:
        self.refusal = refusal
        self.handlers: dict[str, Handler] = {}

    def set(self, action: str, handler: Handler) -> None:
        self.handlers[action] = handler

    async def press(
        self, interaction: discord.Interaction[Any], action: str, encounter_id: int, version: int, arg: str
    ) -> None:
        handler = self.handlers.get(action)
        if handler is None:
            fail(self.refusal(action))
        await handler(interaction, encounter_id, version, arg)


class ActionButton(DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A persistent button, `<prefix>:<action>:<encounter id>:<version>[~<moment>][:<argument>]`: a subclass
    names its `prefix`, its `presses`, its default `labels` and its own template (this one matches nothing;
    a `moment` group, when it has one, reads the moment back). The handler checks the state it was pressed
    for against the newest."""

    prefix: ClassVar[str]
    presses: ClassVar[Presses]
    labels: ClassVar[dict[str, str]] = {}

    def __init__(
        self,
        action: str,
        encounter_id: int,
        version: int,
        arg: str = "",
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        at: str = "",
    ) -> None:
        suffix = f":{arg}" if arg else ""
        when = f"~{at}" if at else ""
        custom_id = f"{self.prefix}:{action}:{encounter_id}:{version}{when}{suffix}"[:100]
        text = (label or self.labels.get(action, action))[:80]
        super().__init__(discord.ui.Button(label=text, style=style, custom_id=custom_id, disabled=disabled))
        self.action, self.encounter_id, self.version, self.arg = action, encounter_id, version, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        eid, ver = number(match["eid"]), number(match["ver"])
        label = getattr(item, "label", None)
        at = match.groupdict().get("moment") or ""
        return cls(match["action"], eid, ver, match["arg"] or "", label=label, at=at)

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await self.presses.press(interaction, self.action, self.encounter_id, self.version, self.arg)
