"""Faults through SimCord: what a user sees when the database is locked, and the watch that acknowledges
any command still running `DEFER_AFTER` seconds after it arrived (`bot.in_time`).

The throwaway commands `/wait-for-it` and `/quick` are test-only, added in this module's `simcord_bot`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from simcord.env import Env
from sqlalchemy.exc import OperationalError

from bot import in_time
from bot.client import DrawSteelBot
from bot.error_hook import APOLOGY, REGISTRY
from bot.replies import fail, send
from bot.rules.dice import Dice
from bot.settings import Settings
from bot.store import ChannelKey, Store
from tests.bot.conftest import Table, build_bot
from tests.wire.faults import SqliteLock

BUSY = "The database is busy — try again in a moment."
LIMIT = 0.5

HANG = 30.0  # seconds (SimCord's virtual time) the slow test command takes


@app_commands.command(name="wait-for-it", description="test: takes far longer than Discord's 3 seconds")
async def wait_for_it(interaction: discord.Interaction[Any]) -> None:
    await asyncio.sleep(HANG)  # e.g. a store or an API call that hangs
    await send(interaction, content="done at last", ephemeral=True)


@app_commands.command(name="quick", description="test: answers at once")
async def quick(interaction: discord.Interaction[Any]) -> None:
    await send(interaction, content="quick answer")


@pytest.fixture
async def store(settings: Settings) -> AsyncIterator[Store]:
    """The real store with a short wait limit, so a locked database answers quickly."""
    opened = await Store.open(settings.database_url, migrate=True, wait_limit=LIMIT)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def simcord_bot(settings: Settings, store: Store, dice: Dice) -> DrawSteelBot:
    bot = build_bot(settings, store, dice)
    bot.tree.add_command(wait_for_it)
    bot.tree.add_command(quick)
    bot.tree.add_command(slow_refusal)
    return bot


def db_path(settings: Settings) -> Path:
    return Path(settings.database_url.removeprefix("sqlite+aiosqlite:///"))


def callbacks(env: Env) -> list[int]:
    """The response types of every interaction callback the bot sent, in order."""
    return [
        int(r.json["type"])
        for r in env.http_requests
        if r.method == "POST" and r.path.startswith("/interactions/") and isinstance(r.json, dict)
    ]


async def test_locked_database_gets_a_busy_reply_and_stores_nothing(table: Table, settings: Settings) -> None:
    key = ChannelKey(table.guild.id, table.channel.id)
    with SqliteLock(db_path(settings)):
        result = await table.alice.slash(table.channel, "hero create", name="Vex", stamina=30, recoveries=8)
        assert result.ephemeral
        assert result.response is not None and result.response.content == BUSY
        assert (await table.store.view(key)).heroes == {}

    again = await table.alice.slash(table.channel, "hero create", name="Vex", stamina=30, recoveries=8)
    assert not again.ephemeral, again.response
    stored = await table.store.view(key)
    assert [h.name for h in stored.heroes.values()] == ["Vex"]
    assert stored.version == 1  # one change, stored once


async def test_a_command_still_running_is_deferred_in_time(table: Table, simcord_env: Env) -> None:
    started = simcord_env.now()
    result = await table.alice.slash(table.channel, "wait-for-it")  # returns once it is acknowledged
    deferred_at = simcord_env.now()
    assert callbacks(simcord_env) == [5]  # "thinking…"
    assert in_time.DEFER_AFTER - 0.1 < (deferred_at - started).total_seconds() < 3  # virtual time
    assert result.followups == []
    await simcord_env.advance_time(HANG)
    assert callbacks(simcord_env) == [5]  # the answer fills the deferred message: no second acknowledgement
    assert result.response is not None and result.response.content == "done at last"
    assert result.followups == []


async def test_a_quick_command_is_never_deferred(table: Table, simcord_env: Env) -> None:
    result = await table.alice.slash(table.channel, "quick")
    assert result.response is not None and result.response.content == "quick answer"
    await simcord_env.advance_time(in_time.DEFER_AFTER * 2)
    assert callbacks(simcord_env) == [4]


def test_driver_errors_that_escape_the_store_are_busy_or_a_bug() -> None:
    locked = OperationalError("INSERT ...", {}, Exception("database is locked"))
    assert REGISTRY.message_for(locked) == BUSY
    broken = OperationalError("SELECT ...", {}, Exception("no such table: events"))
    assert REGISTRY.message_for(broken) is None  # a bug: logged, and the user gets the apology
    assert APOLOGY.startswith("Sorry")


@app_commands.command(name="slow-refusal", description="test: refuses after taking too long")
async def slow_refusal(interaction: discord.Interaction[Any]) -> None:
    await asyncio.sleep(HANG)
    fail("That creature is not in this encounter.")


async def test_a_refusal_after_the_auto_defer_stays_private(table: Table, simcord_env: Env) -> None:
    result = await table.alice.slash(table.channel, "slow-refusal")
    assert callbacks(simcord_env) == [5]  # the public "thinking…" (the auto-defer)
    await simcord_env.advance_time(HANG)
    after = [(r.method, r.path.split("/")[-1], r.json) for r in simcord_env.http_requests][-3:]
    assert [(m, tail) for m, tail, _ in after] == [
        ("GET", "@original"),  # still "thinking…"?
        ("DELETE", "@original"),  # then it goes, rather than being filled with the refusal for all to see
        ("POST", after[2][1]),  # and the refusal follows up, ephemeral
    ]
    body = after[2][2]
    assert isinstance(body, dict)
    assert body["content"] == "That creature is not in this encounter."
    assert body["flags"] & 64  # ephemeral
    assert result.response is None
