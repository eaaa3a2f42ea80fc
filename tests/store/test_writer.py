"""bot/store/writer.py: SQLite's write transactions, each run at once on the event loop's thread when the
write lock is free, else in one hop to the write connection's own thread."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

from bot.store import Change, ChannelKey, Store, Table
from bot.store import writer as writer_module
from bot.store.models import channels
from bot.store.writer import Attempt, SQLiteWriter

KEY = ChannelKey(1, 2)


def insert(channel_id: int) -> sa.Insert:
    return sa.insert(channels).values(
        id=channel_id, guild_id=1, tokens=0, version=1, updated_at=sa.func.now()
    )


def stored(sqlite_path: Path) -> list[int]:
    with sqlite3.connect(sqlite_path) as connection:
        return [row[0] for row in connection.execute("SELECT id FROM channels ORDER BY id")]


async def test_a_transaction_runs_whole_at_once_on_the_loop_thread_when_the_lock_is_free(
    sqlite_path: Path,
) -> None:
    writer = SQLiteWriter(sa.make_url(f"sqlite:///{sqlite_path}"), busy_timeout_ms=1000)
    seen: list[str] = []
    other_ran: list[bool] = []

    def work(connection: Connection) -> int:
        seen.append(threading.current_thread().name)
        connection.execute(insert(5))
        connection.execute(insert(6))
        return 7

    async def other() -> None:
        other_ran.append(True)

    attempt = Attempt()
    try:
        task = asyncio.get_running_loop().create_task(other())
        assert await writer.run(work, time.monotonic() + 1, attempt) == 7
        assert not other_ran  # nothing else ran in between: the loop was never yielded to
        await task
    finally:
        await writer.close()
    assert seen == [threading.current_thread().name]
    assert attempt.committing and stored(sqlite_path) == [5, 6]


async def test_while_another_process_writes_it_waits_on_the_writer_thread(sqlite_path: Path) -> None:
    writer = SQLiteWriter(sa.make_url(f"sqlite:///{sqlite_path}"), busy_timeout_ms=5000)
    holder = sqlite3.connect(sqlite_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's write lock
    seen: list[str] = []

    def work(connection: Connection) -> None:
        seen.append(threading.current_thread().name)
        connection.execute(insert(5))

    try:
        task = asyncio.get_running_loop().create_task(writer.run(work, time.monotonic() + 3, Attempt()))
        await asyncio.sleep(0.2)  # the event loop goes on meanwhile
        assert not task.done() and stored(sqlite_path) == []
        holder.execute("ROLLBACK")
        await asyncio.wait_for(task, 3)
    finally:
        holder.close()
        await writer.close()
    assert len(seen) == 1 and seen[0].startswith("sqlite-writer")
    assert stored(sqlite_path) == [5]


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("SLOW_PAUSE", 0.3),  # a 0.2 s stall: the longest pause
        ("SLOW_PAUSE_FACTOR", 1.5),  # a 0.2 s stall: a pause 1.5 times as long, far less than SLOW_PAUSE
    ],
)
async def test_after_a_slow_inline_transaction_writes_go_to_the_thread_for_a_while(
    sqlite_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str, value: float
) -> None:
    """After an inline transaction held the loop (a stalled disk), writes go to the writer's thread for
    `SLOW_PAUSE_FACTOR` times as long, at most `SLOW_PAUSE`; then inline again."""
    monkeypatch.setattr(writer_module, setting, value)
    writer = SQLiteWriter(sa.make_url(f"sqlite:///{sqlite_path}"), busy_timeout_ms=1000)
    seen: list[str] = []

    def work(channel_id: int, stall: float = 0.0) -> Callable[[Connection], None]:
        def run(connection: Connection) -> None:
            seen.append(threading.current_thread().name)
            connection.execute(insert(channel_id))
            time.sleep(stall)  # a stalled disk

        return run

    here = threading.current_thread().name
    try:
        await writer.run(work(5, stall=writer_module.SLOW_INLINE * 2), time.monotonic() + 1, Attempt())
        await writer.run(work(6), time.monotonic() + 1, Attempt())
        await asyncio.sleep(0.35)
        await writer.run(work(7), time.monotonic() + 1, Attempt())
    finally:
        await writer.close()
    assert seen[0] == here and seen[1].startswith("sqlite-writer") and seen[2] == here
    assert stored(sqlite_path) == [5, 6, 7]


async def test_a_loop_connection_that_cannot_begin_hands_over_to_the_writer_thread(
    sqlite_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = SQLiteWriter(sa.make_url(f"sqlite:///{sqlite_path}"), busy_timeout_ms=1000)

    def broken() -> Connection:
        raise OperationalError("PRAGMA", {}, sqlite3.OperationalError("disk I/O error"))

    monkeypatch.setattr(writer._inline_engine, "connect", broken)
    seen: list[str] = []

    def work(connection: Connection) -> None:
        seen.append(threading.current_thread().name)
        connection.execute(insert(5))

    try:
        await writer.run(work, time.monotonic() + 1, Attempt())
    finally:
        await writer.close()
    assert len(seen) == 1 and seen[0].startswith("sqlite-writer")
    assert stored(sqlite_path) == [5]


async def test_a_failed_transaction_leaves_nothing_and_the_next_one_works(sqlite_path: Path) -> None:
    writer = SQLiteWriter(sa.make_url(f"sqlite:///{sqlite_path}"), busy_timeout_ms=1000)

    def failing(connection: Connection) -> None:
        connection.execute(insert(5))
        raise RuntimeError("boom")

    try:
        with pytest.raises(RuntimeError):
            await writer.run(failing, time.monotonic() + 1, Attempt())
        assert stored(sqlite_path) == []
        await writer.run(lambda connection: connection.execute(insert(6)), time.monotonic() + 1, Attempt())
    finally:
        await writer.close()
    assert stored(sqlite_path) == [6]


async def test_another_process_lock_is_waited_for_only_until_the_deadline(sqlite_path: Path) -> None:
    writer = SQLiteWriter(sa.make_url(f"sqlite:///{sqlite_path}"), busy_timeout_ms=10_000)
    holder = sqlite3.connect(sqlite_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's write lock
    try:
        began = time.monotonic()
        with pytest.raises(OperationalError, match="locked"):
            await writer.run(lambda connection: connection.execute(insert(5)), began + 0.3, Attempt())
        assert time.monotonic() - began < 1.5  # not the connection's 10 s busy timeout
        with pytest.raises(TimeoutError):  # no time left: not even tried
            await writer.run(lambda connection: connection.execute(insert(5)), time.monotonic(), Attempt())
        holder.execute("ROLLBACK")
        await writer.run(lambda connection: connection.execute(insert(5)), time.monotonic() + 1, Attempt())
    finally:
        holder.close()
        await writer.close()
    assert stored(sqlite_path) == [5]


async def test_the_store_writes_through_it_and_closes_it(sqlite_path: Path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{sqlite_path}")
    before = {t.name for t in threading.enumerate()}
    await store.mutate(KEY, 3, "tokens", gain_tokens)  # inline
    holder = sqlite3.connect(sqlite_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        task = asyncio.get_running_loop().create_task(store.mutate(KEY, 3, "tokens", gain_tokens))
        await asyncio.sleep(0.1)
        assert any(t.name.startswith("sqlite-writer") for t in threading.enumerate())
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (await task).version == 2
    await store.close()
    for _ in range(200):  # the thread ends once it has seen the shutdown
        if {t.name for t in threading.enumerate() if t.name.startswith("sqlite-writer")} <= before:
            break
        await asyncio.sleep(0.01)
    else:
        pytest.fail("the writer thread is still running after close()")


def gain_tokens(table: Table) -> Change[None]:
    table.tokens += 2
    return Change("tokens", None)
