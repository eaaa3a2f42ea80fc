"""Reminders that survive restarts (no commands of their own: `/settings nudge_after` and `argument_timer`
set them). The cog creates the bot's `ReminderService` (exts/reminders/_service.py), lets it watch what the
tracker
shows (the tracker service's observers: scheduling never runs on a command's path), registers the argument
timer's persistent buttons and what a press does, and starts the loop that fires due reminders when the bot
runs as `python -m bot` (`DrawSteelBot.timers`)."""

from __future__ import annotations

from typing import Any

import discord

from bot.client import BotCog, DrawSteelBot
from bot.play import InTime, caller_of, channel_key, encounter_of
from bot.replies import fail
from bot.rules.turns import picking
from exts.reminders._service import ReminderService, reminders_for, turn_key
from exts.reminders._views import ArgumentPick, set_pick_handler
from exts.tracker._service import tracker_for
from exts.turn._cog import do_act


class Reminders(BotCog):
    """Nudges and the argument timer (no commands of their own)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        super().__init__(bot)
        self.service: ReminderService = reminders_for(bot)

    async def cog_load(self) -> None:
        observers = tracker_for(self.bot).observers
        if self.service.observe not in observers:
            observers.append(self.service.observe)
        if self.bot.timers:
            await self.service.start()

    async def cog_unload(self) -> None:
        observers = tracker_for(self.bot).observers
        if self.service.observe in observers:
            observers.remove(self.service.observe)
        await self.service.close()


async def on_argument_pick(interaction: discord.Interaction[Any], eid: int, wait: str, index: int) -> None:
    """An argument-timer button: the Director picks that candidate, if the players still haven't."""
    bot = interaction.client
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))
    who.require("arg:pick")
    table = await in_time.run(bot.store.view(channel_key(interaction), shared=True))
    doc = table.require_encounter()
    encounter = encounter_of(table)
    pick = picking(encounter.turns)
    if doc.id != eid or turn_key(encounter) != wait or pick is None or index >= len(pick.entries):
        fail("The players have picked already: carry on from the tracker.")
    await do_act(interaction, bot, pick.entries[index])


async def setup(bot: DrawSteelBot) -> None:
    set_pick_handler(on_argument_pick)
    bot.add_dynamic_items(ArgumentPick)
    await bot.add_cog(Reminders(bot))
