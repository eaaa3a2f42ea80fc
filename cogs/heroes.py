"""The channel's hero roster (/hero)."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DrawSteelBot


class Heroes(commands.Cog):
    """The channel's hero roster (/hero)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Heroes(bot))
