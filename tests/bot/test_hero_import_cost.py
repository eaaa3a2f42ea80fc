"""/hero import of a crafted file through SimCord: the bot keeps answering every other channel while the
file is read (off the event loop), and a file refused by the reader's caps or its CPU budget gets a one-line
ephemeral refusal and stores nothing.

The crafted files are `tests/content/hero_bomb.py`'s. SimCord runs one operation at a time, so the other
channel's `/roll`s go through `simcord.actors._slash` (the dispatch `slash` itself uses) while the import is
the running operation; a roll counts as answered when SimCord's backend has its interaction response."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from typing import Any

import pytest
from simcord import actors
from simcord.env import Env

from bot.content.forgesteel import files
from bot.content.forgesteel.files import MAX_BYTES
from bot.store import ChannelKey
from exts.heroes import _import as hero_import
from tests.bot.conftest import Table
from tests.bot.encounter_kit import ok
from tests.bot.files_kit import CdnServer, fixture, refusal
from tests.content.hero_bomb import multiplying, widest

#: The longest another channel's /roll may wait while a file is read.
ANSWER_MAX = 0.1
#: The pause between two of those rolls.
GAP = 0.05
BOMB = ("bomb.ds-hero", multiplying(MAX_BYTES - 4096))


async def _roster(table: Table) -> dict[str, Any]:
    stored = await table.store.view(ChannelKey(table.guild.id, table.channel.id))
    return {h.name: h.data for h in stored.heroes.values()}


async def _answer_time(env: Env, table: Table, channel: Any) -> float:
    """Dispatch a /roll in `channel` and wait (real time) until the bot has answered it."""
    dispatched: list[Any] = []
    stop = env._register_dispatch_observer(dispatched.append)
    try:
        start = time.perf_counter()
        rolling = asyncio.create_task(actors._slash(table.bob, channel, "roll", {"bonus": 1}))
        while not dispatched:  # noqa: ASYNC110 (SimCord's dispatch, polled: no event to wait on)
            await asyncio.sleep(0)
    finally:
        stop()
    record = dispatched[0]
    while not record.responded:  # noqa: ASYNC110 (the backend's record, polled: no event to wait on)
        await asyncio.sleep(0.001)
    answered = time.perf_counter() - start
    rolling.add_done_callback(lambda task: task.exception())
    return answered


def _answered(env: Env, interaction: Any) -> bool:
    """Whether the bot has sent a deferred interaction's follow-up (its answer after "thinking…")."""
    return any(r.method == "POST" and r.path.endswith(interaction.token) for r in env.http_requests)


async def test_another_channel_is_answered_while_a_crafted_hero_is_read(
    table: Table, cdn_server: CdnServer, simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worst file under 2 MB kept every channel waiting for minutes while it was read on the event loop.
    The first roll goes as the file is downloaded, the next as soon as it is in, then one every `GAP`
    seconds (a busy table, not a flood: the machine's own load must not be the test's) until the import has
    answered."""
    downloaded = asyncio.Event()
    real = hero_import.download

    async def watched(attachment: Any, *, what: str) -> bytes:
        data = await real(attachment, what=what)
        downloaded.set()
        return data

    # a hero first: the reader's process is started at the first import (as in a running bot, once)
    ok(await table.alice.slash(table.channel, "hero import", file=fixture("Brannoc.ds-hero")))
    monkeypatch.setattr(hero_import, "download", watched)
    tavern = table.guild.create_text_channel("tavern")
    await _answer_time(simcord_env, table, tavern)  # the channel's first command, cold: not the import's cost
    # the test process's heap, grown over the suite, is collected now rather than while the rolls are timed:
    # a full collection of its 350,000 objects stops everything for about a quarter of a second
    gc.collect()
    dispatched: list[Any] = []
    stop = simcord_env._register_dispatch_observer(dispatched.append)
    served = len(cdn_server.served)
    importing = asyncio.create_task(table.alice.slash(table.channel, "hero import", file=BOMB))
    while len(cdn_server.served) == served:  # noqa: ASYNC110 (SimCord's CDN state, polled: no event to wait on)
        await asyncio.sleep(0.001)
    stop()
    waits, while_reading = [await _answer_time(simcord_env, table, tavern)], 0
    rolled_since_download = False
    while not _answered(simcord_env, dispatched[0]):
        if rolled_since_download:
            await asyncio.sleep(GAP)
        else:  # a roll as soon as the file is in: on a fast machine its read takes less than a GAP
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(downloaded.wait(), GAP)
        reading = rolled_since_download = downloaded.is_set()
        waits.append(await _answer_time(simcord_env, table, tavern))
        while_reading += reading and not _answered(simcord_env, dispatched[0])
    result = await importing
    assert max(waits) <= ANSWER_MAX, waits
    assert while_reading >= 1, waits  # some were answered while the file was being read
    assert "more than" in refusal(simcord_env, result)


async def test_a_file_over_the_readers_caps_is_refused_and_stores_nothing(
    table: Table, cdn_server: CdnServer, simcord_env: Env
) -> None:
    result = await table.alice.slash(table.channel, "hero import", file=BOMB)
    text = refusal(simcord_env, result)
    assert "more than 60 abilities" in text or "more than 1000 features" in text
    assert "export it again" in text
    assert await _roster(table) == {}


async def test_a_file_over_the_cpu_budget_is_refused_and_stores_nothing(
    table: Table, cdn_server: CdnServer, simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the reader accepts, read on a budget it can't meet: refused in one line, nothing stored."""
    monkeypatch.setattr(files, "READ_CPU_SECONDS", 0.0)
    result = await table.alice.slash(table.channel, "hero import", file=("wide.ds-hero", widest(500_000)))
    text = refusal(simcord_env, result)
    assert text.startswith("That file takes far more work to read than any Forge Steel export")
    assert "export it again from Forge Steel" in text
    assert await _roster(table) == {}
