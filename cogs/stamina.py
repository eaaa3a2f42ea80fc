"""Stamina changes and Catch Breath (/stamina, /recover)."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DrawSteelBot


class Stamina(commands.Cog):
    """Stamina changes and Catch Breath (/stamina, /recover)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Stamina(bot))
