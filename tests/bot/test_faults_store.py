"""Faults: the database locked or unreachable for a few seconds.

The store gives up waiting after its wait limit with `StoreUnavailable` ("The database is busy — try again
in a moment."), writes nothing half-way, retries while PostgreSQL is unreachable, and never applies a change
twice — also when the connection dies with COMMIT in flight. SQLite runs always; PostgreSQL runs when
`TEST_DATABASE_URL` is set (a throwaway schema, reached through a TCP proxy the test cuts: the shared
server itself is never touched).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from bot.error_hook import REGISTRY
from bot.store import Change, ChannelKey, SaveUncertain, Store, StoreUnavailable, Table
from bot.store.models import events
from tests.wire.faults import SqliteLock, TcpProxy, postgres_behind_proxy

KEY = ChannelKey(guild_id=10, channel_id=20)
DIRECTOR, PLAYER = 111, 222
LIMIT = 0.5  # the store's wait limit in these tests (production: WAIT_LIMIT)
BUSY = "The database is busy — try again in a moment."


def start(table: Table) -> Change[None]:
    table.begin_encounter("Ambush", DIRECTOR, {"counter": 0})
    return Change("start", None)


def increment(table: Table) -> Change[int]:
    encounter = table.require_encounter()
    encounter.state["counter"] += 1
    return Change(f"counter {encounter.state['counter']}", encounter.state["counter"])


async def log_of(store: Store, encounter_id: int) -> list[tuple[int, str]]:
    return [(e.seq, e.summary) for e in await store.events(encounter_id, guild_id=KEY.guild_id)]


async def assert_intact(store: Store, encounter_id: int, counter: int) -> None:
    """State, version and log agree: one event per increment, seqs 1..n with no gap and no repeat."""
    table = await store.view(KEY)
    assert table.encounter is not None and table.encounter.state == {"counter": counter}
    assert table.version == counter + 1
    assert await log_of(store, encounter_id) == [(1, "start")] + [
        (n + 1, f"counter {n}") for n in range(1, counter + 1)
    ]


# ------------------------------------------------------------------------------------------- SQLite


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[tuple[Store, Path]]:
    path = tmp_path / "bot.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}", wait_limit=LIMIT)
    try:
        yield store, path
    finally:
        await store.close()


async def test_locked_sqlite_answers_busy_and_writes_nothing(sqlite_store: tuple[Store, Path]) -> None:
    store, path = sqlite_store
    encounter_id = (await store.mutate(KEY, DIRECTOR, "start", start)).encounter_id
    assert encounter_id is not None
    await store.mutate(KEY, PLAYER, "inc", increment)

    with SqliteLock(path):
        with pytest.raises(StoreUnavailable) as raised:
            await store.mutate(KEY, PLAYER, "inc", increment)
        assert str(raised.value) == BUSY
        assert REGISTRY.message_for(raised.value) == BUSY  # what the user is told, ephemerally
        await assert_intact(store, encounter_id, 1)  # reads carry on (WAL) and see nothing half-written
        with pytest.raises(StoreUnavailable):
            await store.undo(KEY, DIRECTOR)
        with pytest.raises(StoreUnavailable):
            await store.update_settings(KEY.guild_id, turn_pings=False)

    assert (await store.mutate(KEY, PLAYER, "inc", increment)).seq == 3  # the next command just works
    await assert_intact(store, encounter_id, 2)
    assert (await store.get_settings(KEY.guild_id)).turn_pings is True


async def test_a_lock_shorter_than_the_wait_limit_is_waited_out(sqlite_store: tuple[Store, Path]) -> None:
    store, path = sqlite_store
    encounter_id = (await store.mutate(KEY, DIRECTOR, "start", start)).encounter_id
    assert encounter_id is not None
    lock = SqliteLock(path)
    writing = asyncio.create_task(store.mutate(KEY, PLAYER, "inc", increment))
    await asyncio.sleep(0)  # the write starts and waits on SQLite's lock
    # Release from another thread once the writer is blocked in SQLite's busy handler.
    await asyncio.to_thread(_release_when_waiting, lock)
    committed = await writing
    assert committed.value == 1 and committed.seq == 2
    await assert_intact(store, encounter_id, 1)


def _release_when_waiting(lock: SqliteLock) -> None:
    # The writer's BEGIN IMMEDIATE waits behind the lock; give it a moment to start waiting, then let go.
    time.sleep(LIMIT / 5)
    lock.release()


async def test_commands_queued_during_an_outage_give_up_together(sqlite_store: tuple[Store, Path]) -> None:
    store, path = sqlite_store
    encounter_id = (await store.mutate(KEY, DIRECTOR, "start", start)).encounter_id
    assert encounter_id is not None
    with SqliteLock(path):
        # Twenty commands on one channel queue behind each other; without the fail-fast they would each
        # wait the full limit in turn (10 s); the bound below is a hang guard, not a speed measurement.
        async with asyncio.timeout(LIMIT * 8):
            results = await asyncio.gather(
                *(store.mutate(KEY, PLAYER, "inc", increment) for _ in range(20)), return_exceptions=True
            )
    assert all(isinstance(r, StoreUnavailable) for r in results), results
    await assert_intact(store, encounter_id, 0)
    assert (await store.mutate(KEY, PLAYER, "inc", increment)).seq == 2


# --------------------------------------------------------------------------------------- PostgreSQL


@pytest.fixture
async def pg(tmp_path: Path) -> AsyncIterator[tuple[Store, TcpProxy, str]]:
    """A store on a fresh schema, connected through a proxy the test controls."""
    async with postgres_behind_proxy("the PostgreSQL fault tests") as (url, admin, proxy):
        schema = f"t_faults_{uuid.uuid4().hex[:16]}"
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        proxied = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
        store = await Store.open(proxied, schema=schema, wait_limit=LIMIT)
        try:
            yield store, proxy, schema
        finally:
            await proxy.restore()
            await store.close()
            await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


async def count_events(store: Store, **where: Any) -> int:
    async with store.engine.connect() as connection:
        query = sa.select(sa.func.count()).select_from(events)
        for column, value in where.items():
            query = query.where(events.c[column] == value)
        return int((await connection.execute(query)).scalar_one())


async def test_unreachable_postgres_answers_busy_then_recovers(pg: tuple[Store, TcpProxy, str]) -> None:
    store, proxy, _ = pg
    encounter_id = (await store.mutate(KEY, DIRECTOR, "start", start)).encounter_id
    assert encounter_id is not None
    await store.mutate(KEY, PLAYER, "inc", increment)

    await proxy.cut()  # pooled connections die; new ones are refused
    with pytest.raises(StoreUnavailable) as raised:
        await store.mutate(KEY, PLAYER, "inc", increment)
    assert REGISTRY.message_for(raised.value) == BUSY
    with pytest.raises(StoreUnavailable):
        await store.view(KEY)

    await proxy.restore()
    assert (await store.mutate(KEY, PLAYER, "inc", increment)).seq == 3  # dead pooled connections replaced
    await assert_intact(store, encounter_id, 2)


async def test_a_short_outage_is_retried_within_the_limit(pg: tuple[Store, TcpProxy, str]) -> None:
    store, proxy, _ = pg
    encounter_id = (await store.mutate(KEY, DIRECTOR, "start", start)).encounter_id
    assert encounter_id is not None
    await proxy.cut()
    writing = asyncio.create_task(store.mutate(KEY, PLAYER, "inc", increment))
    await asyncio.sleep(LIMIT / 4)
    assert not writing.done()  # retrying, not failed
    await proxy.restore()
    assert (await writing).seq == 2
    await assert_intact(store, encounter_id, 1)


@pytest.mark.parametrize("forward", [True, False], ids=["commit-reached-server", "commit-lost"])
async def test_connection_lost_at_commit_applies_the_change_exactly_once(
    pg: tuple[Store, TcpProxy, str], forward: bool
) -> None:
    store, proxy, _ = pg
    encounter_id = (await store.mutate(KEY, DIRECTOR, "start", start)).encounter_id
    assert encounter_id is not None
    proxy.drop_at(b"COMMIT", forward=forward)
    committed = await store.mutate(KEY, PLAYER, "inc", increment)
    assert proxy.dropped == [b"COMMIT"]  # the fault really happened
    assert (committed.value, committed.seq) == (1, 2)
    await assert_intact(store, encounter_id, 1)
    assert (await store.mutate(KEY, PLAYER, "inc", increment)).seq == 3
    await assert_intact(store, encounter_id, 2)


async def test_commit_lost_and_database_gone_says_check_before_retrying(
    pg: tuple[Store, TcpProxy, str],
) -> None:
    store, proxy, _ = pg
    encounter_id = (await store.mutate(KEY, DIRECTOR, "start", start)).encounter_id
    assert encounter_id is not None
    # The COMMIT goes through, its reply never comes back, and the database stays unreachable while the
    # store tries to ask whether it was saved.
    proxy.drop_at(b"COMMIT", forward=True, then_cut=True)
    with pytest.raises(SaveUncertain) as raised:
        await store.mutate(KEY, PLAYER, "inc", increment)
    assert proxy.dropped == [b"COMMIT"]
    message = REGISTRY.message_for(raised.value)
    assert message is not None and "check" in message and "before trying again" in message
    await proxy.restore()
    await assert_intact(store, encounter_id, 1)  # it was saved, once


async def test_a_hung_postgres_is_given_up_on_in_time(pg: tuple[Store, TcpProxy, str]) -> None:
    store, proxy, _ = pg
    encounter_id = (await store.mutate(KEY, DIRECTOR, "start", start)).encounter_id
    assert encounter_id is not None
    proxy.stall()  # connections stay open, nothing comes back
    # The bound is a hang guard (asyncpg would wait for TCP to time out: minutes), not a speed measurement.
    async with asyncio.timeout(LIMIT * 8):
        with pytest.raises(StoreUnavailable):
            await store.mutate(KEY, PLAYER, "inc", increment)
        with pytest.raises(StoreUnavailable):
            await store.view(KEY)
    await proxy.restore()
    assert (await store.mutate(KEY, PLAYER, "inc", increment)).seq == 2
    await assert_intact(store, encounter_id, 1)
