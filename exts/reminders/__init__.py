"""Reminders that survive restarts (the nudges, the argument timer): the extension `exts.reminders`.
`_service` schedules and fires them, `_views` says them (and gives the argument timer's buttons), `_cog`
wires them to the bot.
"""

from __future__ import annotations

from bot.client import DrawSteelBot
from exts.reminders import _cog


async def setup(bot: DrawSteelBot) -> None:
    await _cog.setup(bot)
