"""SQLite's write connection, on a thread of its own: one write transaction is one hop to that thread.

Through SQLAlchemy's async layer and aiosqlite every statement of a transaction is a round trip between the
event loop and aiosqlite's thread (three or four each: cursor, execute, fetch, close), about thirteen for a
command's write; each costs a thread wake-up and an event-loop iteration. Here the store hands the writer a
plain function over a synchronous connection (the same function PostgreSQL runs through `run_sync`), and the
whole transaction — `BEGIN IMMEDIATE`, its statements, `COMMIT` — runs on the writer's thread at once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy.engine import URL, Connection

from bot.store.engine import create_sqlite_writer_engine
from bot.store.errors import StoreError

T = TypeVar("T")


@dataclass(slots=True)
class Attempt:
    """One write transaction: `committing` turns True once its body ran and COMMIT is under way."""

    committing: bool = False


class SQLiteWriter:
    """This process's one SQLite write connection and the thread that uses it (writers are queued by the
    store, so transactions reach the thread one at a time)."""

    def __init__(self, url: URL, busy_timeout_ms: int) -> None:
        self._engine = create_sqlite_writer_engine(url, busy_timeout_ms)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._connection: Connection | None = None
        self._busy_ms: int | None = None  # the busy timeout last set on the connection

    async def run(self, work: Callable[[Connection], T], deadline: float, attempt: Attempt) -> T:
        """Run `work` in one write transaction, waiting for another process's write lock no later than
        `deadline` (event-loop time, which is `time.monotonic()`). If the caller is cancelled meanwhile, the
        transaction still finishes on the thread (a statement can't be stopped half-way); the store's version
        compare-and-set then tells the next command that its cached table is stale."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self._transaction, work, deadline, attempt)

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

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        self._busy_ms = None
        if connection is not None:
            with suppress(Exception):
                connection.invalidate()
                connection.close()

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
