"""Taking turns (/turn act | end | pass | skip | speed | swap | aid | defend | heal | save): the extension
`exts.turn`. `_cog` has the commands and the tracker's turn buttons, `_actions`/`_heal`/`_order` the bigger
subcommands, `_glue` what the turn commands, buttons and encounter share, `_replies` and `_pings` the replies
that move the turns on (who is pinged, once per moment), `_falls` the ping of a fallen hero's player, `_views`
the turn and round texts.
"""

from __future__ import annotations

from bot.client import DrawSteelBot
from exts.turn import _cog


async def setup(bot: DrawSteelBot) -> None:
    await _cog.setup(bot)
