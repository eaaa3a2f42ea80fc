"""The live tracker message of each encounter (no commands of its own): the cog only creates the bot's
`TrackerService` (bot/tracker.py) and registers it as a commit listener, so every committed change
refreshes the channel's tracker."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DrawSteelBot
from bot.tracker import TrackerService, tracker_for


class Tracker(commands.Cog):
    """The live tracker message of each encounter (no commands of its own)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot
        self.service: TrackerService = tracker_for(bot)

    async def cog_load(self) -> None:
        if self.service.on_commit not in self.bot.commit_listeners:
            self.bot.commit_listeners.append(self.service.on_commit)

    async def cog_unload(self) -> None:
        if self.service.on_commit in self.bot.commit_listeners:
            self.bot.commit_listeners.remove(self.service.on_commit)
        await self.service.close()


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Tracker(bot))
