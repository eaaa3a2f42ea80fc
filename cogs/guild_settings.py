"""Per-server settings (/settings)."""

from __future__ import annotations

from discord.ext import commands

from bot.client import DrawSteelBot


class GuildSettingsCog(commands.Cog):
    """Per-server settings (/settings)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(GuildSettingsCog(bot))
