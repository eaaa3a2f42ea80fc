"""A server's settings (/settings): the extension `exts.settings`. `_cog` has the command, `_views` renders
the settings.
"""

from __future__ import annotations

from bot.client import DrawSteelBot
from exts.settings import _cog


async def setup(bot: DrawSteelBot) -> None:
    await _cog.setup(bot)
