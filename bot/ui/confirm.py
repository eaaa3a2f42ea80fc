"""A one-time confirmation (Confirm / Keep) for a destructive command, e.g. /hero delete: only the member who
asked may press it; pressing Confirm runs the command's `on_confirm`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.error_hook import BotView
from bot.replies import send

#: Seconds the buttons stay live.
CONFIRM_TIMEOUT = 120.0

Press = Callable[[discord.Interaction[Any]], Awaitable[None]]


class _Choice(discord.ui.Button["ConfirmView"]):
    """One of the two buttons: pressing it closes the view and runs `press`."""

    def __init__(self, label: str, style: discord.ButtonStyle, press: Press) -> None:
        super().__init__(label=label[:80], style=style)
        self.press = press

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.view is not None:
            self.view.stop()
        await self.press(interaction)


class ConfirmView(BotView):
    """Two buttons: `label` (danger) runs `on_confirm`; Keep answers that nothing changed."""

    def __init__(self, user_id: int, label: str, on_confirm: Press) -> None:
        super().__init__(timeout=CONFIRM_TIMEOUT)
        self.user_id = user_id
        self.add_item(_Choice(label, discord.ButtonStyle.danger, on_confirm))
        self.add_item(_Choice("Keep", discord.ButtonStyle.secondary, _keep))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if not await super().interaction_check(interaction):
            return False
        if interaction.user.id != self.user_id:
            await send(interaction, content="Only the member who asked can confirm this.", ephemeral=True)
            return False
        return True


async def _keep(interaction: discord.Interaction[Any]) -> None:
    await send(interaction, content="Nothing changed.", ephemeral=True)
