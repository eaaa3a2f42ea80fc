"""Conditions and saving throws (/condition, /save)."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DrawSteelBot


class Conditions(commands.Cog):
    """Conditions and saving throws (/condition, /save)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Conditions(bot))
