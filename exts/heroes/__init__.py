"""The campaign's heroes (/hero, /ability, /campaign, /progress, /tokens, /resource): the extension
`exts.heroes`. One private module per command family (`_cog` is /hero), `_import` reads a Forge Steel hero
into the roster, `_views`, `_abilities_views` and `_campaign_views` render them.
"""

from __future__ import annotations

from bot.client import DrawSteelBot
from exts.heroes import _abilities, _campaign, _cog, _progress, _resource, _tokens


async def setup(bot: DrawSteelBot) -> None:
    # the exts in the order /help lists them
    for module in (_tokens, _resource, _cog, _abilities, _campaign, _progress):
        await module.setup(bot)
