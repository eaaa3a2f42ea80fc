"""The live tracker message of each encounter (no commands of its own): the cog only creates the bot's
`TrackerService` (`_service`), registers it as a commit listener, so every committed change refreshes the
channel's tracker, tells it about each interaction in a channel (its scroll heuristic), and refreshes a
guild's trackers after `/settings` (which is no encounter change, but decides whether monster Stamina
shows)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import BotCog, DrawSteelBot
from bot.store import ChannelKey
from exts.tracker._service import TrackerService, tracker_for


class Tracker(BotCog):
    """The live tracker message of each encounter (no commands of its own)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        super().__init__(bot)
        self.service: TrackerService = tracker_for(bot)

    async def cog_load(self) -> None:
        if self.service.on_commit not in self.bot.commit_listeners:
            self.bot.commit_listeners.append(self.service.on_commit)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Count interactions that leave a message in the channel (not autocomplete, not pings)."""
        if interaction.type in (discord.InteractionType.autocomplete, discord.InteractionType.ping):
            return
        if interaction.guild_id is not None and interaction.channel_id is not None:
            self.service.note_interaction(ChannelKey(interaction.guild_id, interaction.channel_id))

    @commands.Cog.listener()
    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: app_commands.Command[Any, ..., Any] | Any
    ) -> None:
        if getattr(command, "qualified_name", "") == "settings" and interaction.guild_id is not None:
            self.service.schedule_guild(interaction.guild_id)

    async def cog_unload(self) -> None:
        if self.service.on_commit in self.bot.commit_listeners:
            self.bot.commit_listeners.remove(self.service.on_commit)
        await self.service.close()


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Tracker(bot))
