"""The party's hero tokens (/tokens)."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DrawSteelBot


class Tokens(commands.Cog):
    """The party's hero tokens (/tokens)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Tokens(bot))
