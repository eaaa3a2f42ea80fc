"""Running an encounter (/encounter)."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DrawSteelBot


class EncounterCog(commands.Cog):
    """Running an encounter (/encounter)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(EncounterCog(bot))
