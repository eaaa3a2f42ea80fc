"""SQLite's write connections: a write transaction runs at once on the event loop's thread when the write
lock is free, else in one hop to a thread that may wait for it.

The store hands the writer a plain function over a synchronous connection (what PostgreSQL runs through
`run_sync`); the whole transaction runs in one piece, inline (busy timeout 0) or on the writer's thread when
the lock is taken or after a slow inline write (`SLOW_INLINE`, `SLOW_PAUSE_FACTOR`, `SLOW_PAUSE`). The WAL
checkpoint runs on the writer's thread too. Why: docs/store.md, *Performance notes*.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from typing import Literal, TypeVar, cast

from sqlalchemy.engine import URL, Connection

from bot.store.engine import create_sqlite_writer_engine
from bot.store.errors import StoreError
from bot.store.faults import is_locked

T = TypeVar("T")

#: An inline transaction that held the event loop longer than this (a stalled disk) sends the next ones to
#: the writer's thread for a while, so a slow disk delays writes but never stops the loop again: for
#: `SLOW_PAUSE_FACTOR` times as long as it held the loop, at most `SLOW_PAUSE` seconds. The pause grows with
#: the hiccup because under load the thread's path is far slower (each write waits for the GIL behind the
#: busy event loop): a lone hiccup (a cold database's first writes) costs a few seconds of it, a disk that
#: stays stalled the whole pause.
SLOW_INLINE = 0.1
SLOW_PAUSE_FACTOR = 20.0
SLOW_PAUSE = 30.0


@dataclass(slots=True)
class Attempt:
    """One write transaction: `committing` turns True once its body ran and COMMIT is under way."""

    committing: bool = False


class SQLiteWriter:
    """This process's SQLite write connections: one used on the event loop's thread, one on a thread of its
    own (writers are queued by the store, so one transaction runs at a time, on one or the other)."""

    def __init__(self, url: URL, busy_timeout_ms: int) -> None:
        self._engine = create_sqlite_writer_engine(url, busy_timeout_ms)
        self._inline_engine = create_sqlite_writer_engine(url, 0)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._connection: Connection | None = None
        self._busy_ms: int | None = None  # the busy timeout last set on the connection
        self._inline: Connection | None = None  # the event loop thread's connection (None: not open)
        self._inline_after = float("-inf")  # monotonic time before which writes go to the thread

    async def run(self, work: Callable[[Connection], T], deadline: float, attempt: Attempt) -> T:
        """Run `work` in one write transaction, waiting for another process's write lock no later than
        `deadline` (event-loop time, which is `time.monotonic()`). If the caller is cancelled while it waits
        on the thread, the transaction still finishes there (a statement can't be stopped half-way); the
        store's version compare-and-set then tells the next command that its cached table is stale."""
        began, result = self.try_inline(work, attempt)
        if began:
            return cast(T, result)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self._transaction, work, deadline, attempt)

    def try_inline(self, work: Callable[[Connection], T], attempt: Attempt) -> tuple[bool, T | None]:
        """Run `work` right here, on the event loop's thread, if the write lock is free and the disk has
        not stalled lately: (True, its result); else (False, None), and nothing was done. It never awaits,
        so a caller may try it without a place in any queue of this process's writers."""
        now = time.monotonic()
        if now < self._inline_after:
            return False, None
        began, result = self._run_inline(work, attempt)
        held = time.monotonic() - now
        if held > SLOW_INLINE:
            self._inline_after = time.monotonic() + min(SLOW_PAUSE, SLOW_PAUSE_FACTOR * held)
        return began, result

    def _run_inline(self, work: Callable[[Connection], T], attempt: Attempt) -> tuple[bool, T | None]:
        """Run `work` right here if the write lock is free: (True, its result); (False, None) when the
        transaction could not begin at once, so nothing was done. Once begun, it fails as the thread's
        would."""
        try:
            if self._inline is None:
                self._inline = self._inline_engine.connect()
            transaction = self._inline.begin()  # BEGIN IMMEDIATE, which fails at once if the lock is taken
        except Exception as error:
            if not is_locked(error):
                self._drop_inline()  # the thread's connection tries, waits and reports
            return False, None
        try:
            with transaction:
                result = work(self._inline)
                attempt.committing = True
            return True, result
        except StoreError:
            raise
        except BaseException:
            self._drop_inline()
            raise

    def _drop_inline(self) -> None:
        connection, self._inline = self._inline, None
        _discard(connection)

    def _transaction(self, work: Callable[[Connection], T], deadline: float, attempt: Attempt) -> T:
        # On the writer thread. SQLite waits for the lock in 100 ms steps of what is left, so the pragma is
        # rarely re-sent.
        left_ms = int((deadline - time.monotonic()) * 1000) // 100 * 100
        if left_ms <= 0:
            raise TimeoutError("no time left to wait for the SQLite write lock")
        try:
            if self._connection is None:
                self._connection = self._engine.connect()
            connection = self._connection
            if left_ms != self._busy_ms:
                # on the driver's connection: through SQLAlchemy it would begin a transaction first
                driver = connection.connection.dbapi_connection
                assert driver is not None
                driver.execute(f"PRAGMA busy_timeout = {left_ms}")
                self._busy_ms = left_ms
            with connection.begin():
                result = work(connection)
                attempt.committing = True
            return result
        except StoreError:
            raise
        except BaseException:
            self._drop()  # a connection that failed is not trusted again
            raise

    async def checkpoint(self, mode: Literal["PASSIVE", "RESTART"], wait_ms: int = 0) -> int:
        """One WAL checkpoint on the writer's thread: PASSIVE (copy what it can without stopping writers) or
        RESTART (hold the write lock to copy the rest, waiting at most `wait_ms` for the lock and for
        readers on older snapshots, so that the next write starts the WAL over); the number of frames the
        WAL holds. The store runs a PASSIVE one, then a RESTART one when the WAL has grown long
        (`Store._checkpoint`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self._checkpoint, mode, wait_ms)

    def _checkpoint(self, mode: str, wait_ms: int) -> int:
        try:
            if self._connection is None:
                self._connection = self._engine.connect()
            driver = self._connection.connection.dbapi_connection
            assert driver is not None
            if wait_ms != self._busy_ms:
                driver.execute(f"PRAGMA busy_timeout = {wait_ms}")
                self._busy_ms = wait_ms
            _busy, frames, _copied = driver.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
            return int(frames)
        except BaseException:
            self._drop()
            raise

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        self._busy_ms = None
        _discard(connection)

    async def close(self) -> None:
        """Close the connection (after any transaction still on the thread) and stop the thread."""
        loop = asyncio.get_running_loop()
        with suppress(Exception):  # a database that went away must not stop the shutdown
            await loop.run_in_executor(self._thread, self._close)
        self._thread.shutdown(wait=False)

    def _close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()
        self._engine.dispose()
        inline, self._inline = self._inline, None
        if inline is not None:
            inline.close()
        self._inline_engine.dispose()


def _discard(connection: Connection | None) -> None:
    """Close a connection that failed (it is not trusted again)."""
    if connection is not None:
        with suppress(Exception):
            connection.invalidate()
            connection.close()
