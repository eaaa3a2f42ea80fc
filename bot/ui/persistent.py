"""Persistent components: buttons and selects whose custom id carries everything a press needs (the tracker's
controls, a roll's Downgrade and Reroll), answered by the bot itself rather than by discord.py's view store.

They are `discord.ui.DynamicItem`s, and a press works after a restart, as with discord.py. But discord.py
answers a press on a `DynamicItem` by first rebuilding the view of the whole message it is on
(`View.from_message`), only to swap the pressed item into it; these items use nothing of that view, and the
rebuild was an eighth of a tracker click's CPU (docs/performance.md). So:

- the bot keeps its `DynamicItem` classes in a `Router` (`DrawSteelBot.add_dynamic_items` puts them there,
  not in discord.py's store), which matches a component interaction's custom id against their templates and
  runs the item's callback, made by its `from_custom_id`;
- the items travel in a `PersistentView`, which is finished from the start, so that discord.py never stores
  it: it would register its items' templates in its own store, and each press would be answered twice.

An item's callback reads what a select chose from `interaction.data` (no view state is restored for it).

Custom ids come from the client, so a press may carry any text: every number in one is read by `number` (ASCII
digits only, within the store's 64-bit range; templates match them with `NUMBER`), and a field that isn't one
gets the one-line answer of `ForgedId`, never an unexpected error.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any, Self

import discord
from discord.ui import DynamicItem, Item

from bot.error_hook import reply_safely
from bot.replies import UserError

log = logging.getLogger("bot.ui.persistent")

Factory = type[DynamicItem[Any]]

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
    """The view of a message's persistent items (`DynamicItem`s only), answered by the bot's `Router`."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_finished(self) -> bool:
        """Always: discord.py stores a view that is not finished when it is sent, and must not store this
        one (the router answers its items)."""
        return True

    def add_item(self, item: Item[Any]) -> Self:
        if not isinstance(item, DynamicItem):
            raise TypeError(f"a PersistentView holds DynamicItems only, not {type(item).__name__}")
        super().add_item(item)
        return self


class Router:
    """The bot's `DynamicItem` classes by template; `route` answers a press on one."""

    def __init__(self) -> None:
        self._factories: dict[re.Pattern[str], Factory] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def add(self, *factories: Factory) -> None:
        for factory in factories:
            if not (isinstance(factory, type) and issubclass(factory, DynamicItem)):
                raise TypeError(f"expected a subclass of DynamicItem, not {factory!r}")
            self._factories[factory.__discord_ui_compiled_template__] = factory

    def remove(self, *factories: Factory) -> None:
        for factory in factories:
            self._factories.pop(factory.__discord_ui_compiled_template__, None)

    def route(self, interaction: discord.Interaction[Any]) -> None:
        """Start answering `interaction` if it is a press on one of the items (the first template its custom
        id matches: the bot's templates do not overlap)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        if not isinstance(custom_id, str):
            return
        for pattern, factory in self._factories.items():
            match = pattern.fullmatch(custom_id)
            if match is not None:
                task = asyncio.get_running_loop().create_task(
                    self._press(factory, interaction, match), name=f"press-{factory.__name__}-{custom_id}"
                )
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
                return

    async def _press(
        self, factory: Factory, interaction: discord.Interaction[Any], match: re.Match[str]
    ) -> None:
        try:
            try:
                item = await factory.from_custom_id(interaction, _pressed(interaction), match)
            except UserError as refused:  # a forged custom id: one line, seen only by its presser
                await reply_safely(interaction, str(refused))
                return
            await item.callback(interaction)
        except Exception:  # the items' callbacks report their own errors (`bot.error_hook.guarded`)
            log.exception("press on %s failed", factory.__name__)


def _pressed(interaction: discord.Interaction[Any]) -> Item[Any]:
    """The pressed component as far as the interaction tells (`from_custom_id`'s `item`)."""
    data: Any = interaction.data
    if data["component_type"] == discord.ComponentType.button.value:
        return discord.ui.Button(custom_id=data["custom_id"])
    return discord.ui.Select(custom_id=data["custom_id"])
