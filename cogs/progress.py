"""Victories and respites (/victories, /respite)."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DrawSteelBot


class Progress(commands.Cog):
    """Victories and respites (/victories, /respite)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Progress(bot))
