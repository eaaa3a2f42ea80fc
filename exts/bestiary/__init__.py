"""The server's bestiary (/monster import | list | show | remove): the extension `exts.bestiary`. `_cog` has
the commands, `_service` the glue between the store's bestiary and the encounter (also used by
`/encounter add monster:` and `/encounter import`), `_views` the stat blocks as shown.
"""

from __future__ import annotations

from bot.client import DrawSteelBot
from exts.bestiary import _cog


async def setup(bot: DrawSteelBot) -> None:
    await _cog.setup(bot)
