"""Acting on creatures (/strike, /stamina, /move, /condition, /malice, the rescue button): the extension
`exts.combat`. One private module per command family, `_ability_strike_views` and `_move_views` their
renderers (the shared harm replies are `bot.ui.combat`).
"""

from __future__ import annotations

from bot.client import DrawSteelBot
from exts.combat import _conditions, _malice, _move, _rescue, _stamina, _strike


async def setup(bot: DrawSteelBot) -> None:
    # the exts in the order /help lists them
    for module in (_strike, _stamina, _move, _rescue, _conditions, _malice):
        await module.setup(bot)
