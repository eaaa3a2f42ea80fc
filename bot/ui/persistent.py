"""Persistent components: buttons and selects whose custom id carries everything a press needs (the tracker's
controls, a roll's Downgrade and Reroll), so a press works after a restart.

They are `discord.ui.DynamicItem`s, registered with `bot.add_dynamic_items` as each cog is set up; discord.py
matches a press's custom id against their templates and runs the item made by `from_custom_id`. They travel
in a `PersistentView`, which holds nothing else (a view with ordinary items is a `bot.error_hook.BotView`).
An item's callback reads what a select chose from `interaction.data`.
"""

from __future__ import annotations

from typing import Any, Self

import discord
from discord.ui import DynamicItem, Item


class PersistentView(discord.ui.View):
    """The view of a message's persistent items (`DynamicItem`s only): it never times out."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def add_item(self, item: Item[Any]) -> Self:
        if not isinstance(item, DynamicItem):
            raise TypeError(f"a PersistentView holds DynamicItems only, not {type(item).__name__}")
        super().add_item(item)
        return self
