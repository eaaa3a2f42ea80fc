"""Taking turns (/turn)."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DrawSteelBot


class Turn(commands.Cog):
    """Taking turns (/turn)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Turn(bot))
