"""Rolling (/roll power rolls and tests, /dice expressions): the extension `exts.rolls`. `_cog` is /roll
with its reroll and downgrade buttons, `_dice` is /dice, `_views` renders both.
"""

from __future__ import annotations

from bot.client import DrawSteelBot
from exts.rolls import _cog, _dice


async def setup(bot: DrawSteelBot) -> None:
    # the exts in the order /help lists them
    for module in (_dice, _cog):
        await module.setup(bot)
