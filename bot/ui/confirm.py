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


class ConfirmView(BotView):
    """Two buttons: `label` (danger) runs `on_confirm`; Keep answers that nothing changed."""

    def __init__(
        self, user_id: int, label: str, on_confirm: Callable[[discord.Interaction[Any]], Awaitable[None]]
    ) -> None:
        super().__init__(timeout=CONFIRM_TIMEOUT)
        self.user_id = user_id
        self.on_confirm = on_confirm
        confirm: discord.ui.Button[ConfirmView] = discord.ui.Button(
            label=label[:80], style=discord.ButtonStyle.danger
        )
        keep: discord.ui.Button[ConfirmView] = discord.ui.Button(
            label="Keep", style=discord.ButtonStyle.secondary
        )
        confirm.callback = self._confirm  # type: ignore[method-assign]
        keep.callback = self._keep  # type: ignore[method-assign]
        self.add_item(confirm)
        self.add_item(keep)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if not await super().interaction_check(interaction):
            return False
        if interaction.user.id != self.user_id:
            await send(interaction, content="Only the member who asked can confirm this.", ephemeral=True)
            return False
        return True

    async def _confirm(self, interaction: discord.Interaction[Any]) -> None:
        self.stop()
        await self.on_confirm(interaction)

    async def _keep(self, interaction: discord.Interaction[Any]) -> None:
        self.stop()
        await send(interaction, content="Nothing changed.", ephemeral=True)
