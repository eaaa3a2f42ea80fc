"""The tracker message of an encounter (/tracker): the extension `exts.tracker`. `_service` posts and edits
it after every commit, `_views` renders it, `_controls` gives the persistent buttons every feature's replies
carry (what a press does is registered with `set_handler`), `_objectives` the objectives and villain actions
as the tracker shows them, `_cog` the command.
"""

from __future__ import annotations

from bot.client import DrawSteelBot
from exts.tracker import _cog


async def setup(bot: DrawSteelBot) -> None:
    await _cog.setup(bot)
