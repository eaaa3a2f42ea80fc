"""The Director's Malice (/malice)."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DrawSteelBot


class MaliceCog(commands.Cog):
    """The Director's Malice (/malice)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(MaliceCog(bot))
