"""`/help`, every command with an example: the extension `exts.help`. Each cog declares its lines as
`bot.help.HelpEntry`s; `_cog` pages them.
"""

from __future__ import annotations

from bot.client import DrawSteelBot
from exts.help import _cog


async def setup(bot: DrawSteelBot) -> None:
    await _cog.setup(bot)
