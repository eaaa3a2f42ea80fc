"""Ability rolls applied to creatures (/strike)."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DrawSteelBot


class Strike(commands.Cog):
    """Ability rolls applied to creatures (/strike)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Strike(bot))
