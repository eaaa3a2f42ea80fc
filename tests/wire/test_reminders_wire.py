"""Reminders across real processes (nudges across a restart, and exactly once with
two processes on PostgreSQL), with `python -m bot` against the loopback fake Discord.

- A command moves nothing but makes the tracker refresh; the bot sets the nudge in the database. The bot is
  killed (SIGKILL) and the nudge's due time moved into the past (the interval went by while it was down);
  the restarted bot sends the nudge at start, once; killed and restarted again after the second interval,
  it tells the Director and sends no second nudge.
- Two processes (shards 0 and 1 of two) start together on one PostgreSQL database holding reminders that
  fell due while nobody ran: every reminder is sent exactly once.

The interval is the shortest the setting allows (15 minutes): the test moves due times instead of waiting.
Every wait is bounded and waits on a condition.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.rules import codec
from bot.rules.encounter import Encounter
from bot.store import ChannelKey, Store
from bot.store.models import reminders
from exts.reminders._service import turn_key
from tests.wire.faults import FaultyDiscord
from tests.wire.harness import BOT_ARGV, BotProcess, encounter_state, seed_encounters
from tests.wire.harness import bot_env as harness_env
from tests.wire.test_faults import Running, ephemeral
from tests.wire.test_scale import fresh_database

NUDGE_AFTER = 15 * 60
START_WITHIN = 30.0
WITHIN = 15.0
NUDGE = "⏰ Still waiting"
NOTE = "still no pick after"
PG_URL = os.environ.get("TEST_DATABASE_URL", "").strip()


async def until(condition: Callable[[], Awaitable[bool]], within: float = WITHIN) -> None:
    """Until `condition()` holds (checked every 50 ms, at most `within` seconds)."""
    for _ in range(int(within / 0.05)):
        if await condition():
            return
        await asyncio.sleep(0.05)  # the database changes without a request to wait on
    raise TimeoutError(f"not within {within} s")


async def rows(url: str) -> list[dict[str, object]]:
    store = await Store.open(url, migrate=False)
    try:
        async with store.engine.connect() as connection:
            found = (await connection.execute(sa.select(reminders))).mappings().all()
        return [dict(row) for row in found]
    finally:
        await store.close()


async def move_due(url: str, when: datetime) -> None:
    """The reminders' due times moved to `when` (as if the interval had gone by)."""
    store = await Store.open(url, migrate=False)
    try:
        async with store.engine.begin() as connection:
            await connection.execute(sa.update(reminders).values(due_at=when))
    finally:
        await store.close()


def posted(fake: FaultyDiscord, text: str, channel_id: int | None = None) -> list[dict[str, object]]:
    """The bot's channel messages (not interaction replies) whose content contains `text`."""
    return [
        r.json
        for r in fake.requests
        if r.method == "POST"
        and r.path.endswith("/messages")
        and r.path.startswith("/channels/")
        and (channel_id is None or r.path == f"/channels/{channel_id}/messages")
        and text in str((r.json or {}).get("content") or "")
    ]


def mentioned(message: dict[str, object]) -> list[int]:
    """Who a message may ping (its allowed mentions' users)."""
    allowed = message.get("allowed_mentions")
    users = allowed.get("users") if isinstance(allowed, dict) else None
    return [int(u) for u in users or []]


@pytest.fixture
async def seeded(tmp_path: Path) -> Running:
    fake = FaultyDiscord()
    await fake.start()
    db = tmp_path / "db" / "bot.db"
    url = f"sqlite+aiosqlite:///{db}"
    guild = fake.guild
    key = ChannelKey(guild.id, guild.channel.id)
    await seed_encounters(url, [key], fake.owner.id, fake.member("alice").user.id)
    store = await Store.open(url, migrate=False)
    await store.update_settings(guild.id, nudge_after=NUDGE_AFTER)
    await store.close()
    return Running(fake, None, db, tmp_path / "bot")  # type: ignore[arg-type]


async def test_a_nudge_that_fell_due_while_the_bot_was_down_is_sent_once_after_a_restart(
    seeded: Running,
) -> None:
    run, fake = seeded, seeded.fake
    channel_id = fake.guild.channel.id
    try:
        await run.start()
        callback = await run.command("malice", "gain", amount=1)  # the tracker refreshes: the wait is seen
        assert not ephemeral(callback), callback.json
        await until(lambda: _has_rows(run.url))
        [row] = await rows(run.url)
        assert (row["kind"], row["step"], row["claimed"]) == ("nudge", 0, None)
        assert posted(fake, NUDGE) == []
        await run.bot.kill()

        await move_due(run.url, datetime.now(UTC) - timedelta(minutes=1))
        await run.start()
        await run.bot.unless_it_exits(
            fake.wait_until(lambda: len(posted(fake, NUDGE, channel_id)) == 1, within=WITHIN)
        )
        [nudge] = posted(fake, NUDGE, channel_id)
        assert mentioned(nudge) == [fake.member("alice").user.id]
        assert "Jump to the tracker" in str(nudge["content"])
        await until(lambda: _step_is(run.url, 1))
        await run.bot.kill()

        await move_due(run.url, datetime.now(UTC) - timedelta(minutes=1))
        await run.start()
        await run.bot.unless_it_exits(fake.wait_until(lambda: len(posted(fake, NOTE)) == 1, within=WITHIN))
        await until(lambda: _claimed(run.url))
        assert len(posted(fake, NUDGE, channel_id)) == 1  # the nudge was not sent again
        [note] = posted(fake, NOTE)
        assert mentioned(note) == [fake.owner.id]
    finally:
        if run.bot is not None:
            await run.bot.stop()
        assert fake.unknown_routes == [], fake.unknown_routes
        await fake.stop()


async def _has_rows(url: str) -> bool:
    return bool(await rows(url))


async def _step_is(url: str, step: int) -> bool:
    return all(r["step"] == step and r["claimed"] is None for r in await rows(url))


async def _claimed(url: str) -> bool:
    return all(r["claimed"] is not None for r in await rows(url))


async def test_two_processes_on_postgresql_send_each_due_reminder_once(tmp_path: Path) -> None:
    """ "Several processes on PostgreSQL never send a reminder twice." """
    if not PG_URL:
        pytest.skip("PostgreSQL tests skipped: TEST_DATABASE_URL is not set")
    async with fresh_database() as url:
        fake = FaultyDiscord(shard_count=2)
        await fake.start()
        procs: list[BotProcess] = []
        try:
            keys = []
            for guild in fake.guilds:
                for index in range(5):
                    channel = fake.add_channel(f"table-{index}", guild)
                    keys.append(ChannelKey(guild.id, channel.id))
            owner, alice = fake.owner.id, fake.member("alice").user.id
            await seed_encounters(url, keys, owner, alice)
            wait = turn_key(codec.load(Encounter, encounter_state(alice)))
            assert wait is not None
            store = await Store.open(url, migrate=False)
            past = datetime.now(UTC) - timedelta(minutes=1)
            try:
                for guild in fake.guilds:
                    await store.update_settings(guild.id, nudge_after=NUDGE_AFTER)
                for key in keys:
                    table = await store.view(key)
                    assert table.encounter is not None and table.encounter.id is not None
                    await store.set_reminders(
                        table.encounter.id,
                        guild_id=key.guild_id,
                        channel_id=key.channel_id,
                        version=table.version,
                        turn_key=wait,
                        due={"nudge": past},
                    )
            finally:
                await store.close()
            for index in range(2):
                env = harness_env(fake, url, SHARD_COUNT="2", SHARD_IDS=str(index))
                procs.append(await BotProcess.spawn(BOT_ARGV, env, tmp_path / f"bot-{index}"))
            await fake.wait_for_shards({0, 1}, within=START_WITHIN)
            await until(lambda: _step_is(url, 1), within=START_WITHIN)
            for proc in procs:
                assert await proc.stop() == 0, proc.output()[-3000:]
            for key in keys:
                assert len(posted(fake, NUDGE, key.channel_id)) == 1, key
            assert fake.unknown_routes == [], fake.unknown_routes
        finally:
            for proc in procs:
                await proc.kill()
            await fake.stop()
