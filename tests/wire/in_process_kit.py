"""The production bot in the test's own process against the loopback fake Discord, for wire tests that force
the dice, seed the store or add test commands (the real `python -m bot` process is in `harness.py`).

    async with wire(tmp_path, monkeypatch) as live:            # the fake, settings, a migrated store
        await seed(live.store)                                   # before the bot starts, if needed
        async with bot_running(live, FixedDice([10, 9])):        # connected and ready; closed after the block
            sent = await live.fake.slash("roll", {"bonus": 2})
            body = await answered(live.fake, sent)               # the callback's JSON
    async with running(tmp_path, monkeypatch) as fake: ...       # both at once, seeded dice

After the block the store closes and the bot must have called no route the fake doesn't know.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl
from discord import app_commands

from bot.client import DrawSteelBot, create_bot
from bot.rules.dice import Dice, SeededDice
from bot.settings import Settings
from bot.store import Store
from tests.bot.conftest import TEST_WAIT_LIMIT
from tests.wire.fake_discord import FakeDiscord, Json

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GwIrE0.in-process-wire-test"
WITHIN = 5.0


@dataclass
class Wire:
    """What a bot process would be given: the fake Discord it talks to, its settings and its store."""

    fake: FakeDiscord
    settings: Settings
    store: Store


@contextlib.asynccontextmanager
async def wire(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Wire]:
    """A fake Discord that discord.py's HTTP and gateway talk to, and a migrated store on a temp SQLite file;
    a test may run several bots on it one after the other (a restart on the same database)."""
    async with FakeDiscord() as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
        settings = Settings(token=TOKEN, database_url=f"sqlite+aiosqlite:///{tmp_path}/bot.db")
        store = await Store.open(settings.database_url, migrate=True, wait_limit=TEST_WAIT_LIMIT)
        try:
            yield Wire(fake, settings, store)
        finally:
            await store.close()
        assert fake.unknown_routes == []


@contextlib.asynccontextmanager
async def bot_running(
    live: Wire, dice: Dice, *commands: app_commands.Command[Any, Any, Any]
) -> AsyncIterator[DrawSteelBot]:
    """One bot process's life on `live`, with `commands` added to its tree: connect, wait until the fake saw
    it ready, serve the block, close."""
    bot = create_bot(live.settings, store=live.store, dice=dice)
    for command in commands:
        bot.tree.add_command(command)
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        await live.fake.wait_until_ready(within=WITHIN)
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, WITHIN)


@contextlib.asynccontextmanager
async def running(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *commands: app_commands.Command[Any, Any, Any],
) -> AsyncIterator[FakeDiscord]:
    """`wire` and one `bot_running` on seeded dice, for tests that need neither the store nor the dice."""
    async with wire(tmp_path, monkeypatch) as live, bot_running(live, SeededDice(3), *commands):
        yield live.fake


async def answered(fake: FakeDiscord, interaction_id: int) -> Json:
    """The callback body the bot sent for that interaction (fails the test on an empty one)."""
    callback = await fake.wait_for_callback(interaction_id, within=WITHIN)
    body: Json = callback.json or {}
    assert body
    return body
