"""Answering in time: Discord drops an interaction that is not acknowledged within 3 seconds of being sent.

Every interaction the bot handles is watched from its arrival (`watch`: the command tree's and views'
`interaction_check`, `guarded` items): one still unanswered `DEFER_AFTER` seconds after it arrived is
deferred, whatever it waits on. A command defers with "thinking…" (its reply then fills that message); a
component interaction as an update of its message. A command whose answer must follow that deferral runs
its work through `InTime(interaction).run(work)`, and `bot.replies.send` waits for a deferral under way, so
nothing is ever acknowledged twice. The watch ends when the outcome is logged (`unwatch`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

T = TypeVar("T")
log = logging.getLogger("bot.in_time")

#: Seconds after an interaction arrived at which it is deferred if it has not answered yet. The other 1.5 s
#: are for the network both ways and for an event loop running behind under load (the interaction may have
#: waited in the socket before the bot read it).
DEFER_AFTER = 1.5
#: Where an interaction keeps the time it arrived (`stamp`) and its watch.
RECEIVED_AT = "received_at"
_WATCH = "in_time"
#: The deferrals under way (the event loop keeps only weak references to tasks).
_DEFERRING: set[asyncio.Task[None]] = set()


def stamp(interaction: discord.Interaction[Any]) -> None:
    """Remember when the interaction arrived (first stamp wins)."""
    interaction.extras.setdefault(RECEIVED_AT, time.perf_counter())


class _Watch:
    """One interaction's timer, and the deferral it started."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction
        #: True: a component defers as an update of its message; False: with "thinking…"; None: by its type.
        self.update: bool | None = None
        self.deferring: asyncio.Task[None] | None = None
        stamp(interaction)
        left = DEFER_AFTER - (time.perf_counter() - interaction.extras[RECEIVED_AT])
        self.timer = asyncio.get_running_loop().call_later(max(0.0, left), self._start)

    def _start(self) -> None:
        if self.deferring is None and not self.interaction.response.is_done():
            self.deferring = asyncio.get_running_loop().create_task(self._defer())
            _DEFERRING.add(self.deferring)
            self.deferring.add_done_callback(_DEFERRING.discard)

    async def _defer(self) -> None:
        interaction = self.interaction
        log.info("interaction %s still running: deferring it", interaction.id)
        update = self.update
        if update is None:
            update = interaction.type is discord.InteractionType.component
        with contextlib.suppress(discord.HTTPException, discord.InteractionResponded):
            if update:
                await interaction.response.defer()
            else:
                await interaction.response.defer(thinking=True)


def watch(interaction: discord.Interaction[Any]) -> None:
    """Defer `interaction` if it is still unanswered `DEFER_AFTER` seconds after its arrival (once; never
    again after `unwatch`). Autocomplete cannot be deferred and is left alone."""
    _watch_of(interaction)


def _watch_of(interaction: discord.Interaction[Any]) -> _Watch | None:
    if interaction.type is discord.InteractionType.autocomplete:
        return None
    if _WATCH in interaction.extras:
        kept = interaction.extras[_WATCH]
        return kept if isinstance(kept, _Watch) else None
    started = _Watch(interaction)
    interaction.extras[_WATCH] = started
    return started


def unwatch(interaction: discord.Interaction[Any]) -> None:
    """End the watch (the interaction's outcome is logged: nothing answers any more)."""
    kept = interaction.extras.get(_WATCH)
    if isinstance(kept, _Watch):
        kept.timer.cancel()
    interaction.extras[_WATCH] = None


async def settled(interaction: discord.Interaction[Any]) -> None:
    """Wait for a deferral the watch has under way, so an answer follows it rather than racing it."""
    kept = interaction.extras.get(_WATCH)
    if isinstance(kept, _Watch) and kept.deferring is not None:
        await kept.deferring


class InTime:
    """`await InTime(interaction).run(work)`: wait for `work` (in the caller's task), then for the deferral
    the interaction's watch started meanwhile, so the reply follows it. With `update`, a component
    interaction defers as an update of its message (the reply edits it); without, with "thinking…"."""

    def __init__(self, interaction: discord.Interaction[Any], *, update: bool = False) -> None:
        self.interaction = interaction
        kept = _watch_of(interaction)
        if kept is not None:
            kept.update = update

    async def run(self, work: Awaitable[T]) -> T:
        try:
            return await work
        finally:
            await settled(self.interaction)
