"""The live tracker message of each encounter (no commands of its own)."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DrawSteelBot


class Tracker(commands.Cog):
    """The live tracker message of each encounter (no commands of its own)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Tracker(bot))
