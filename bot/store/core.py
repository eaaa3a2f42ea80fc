"""`StoreCore`: what every part of the `Store` shares — its connections, its memory, and the one write
transaction (`_transaction`) every change goes through.

The `Store` (bot/store/store.py) is assembled from parts, one concern each: `reads`, `rows` and `writes`
(the write path), `campaigns`, `undo`, `settings`, `history` (trackers, the log, export), `prune`,
`bestiary` (the servers' monsters). Its SQLite file's upkeep (the read connection kept on the event loop's
thread, WAL checkpoints) lives in store.py itself.
"""

from __future__ import annotations

import asyncio
import sqlite3
import weakref
from collections import OrderedDict
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store import validate
from bot.store.engine import POSTGRES_POOL_SIZE, WRITE_OPTION, create_sqlite_reader_engine, sqlite_file
from bot.store.errors import AlreadyApplied, AlreadyDone, EncounterExists, InvalidValue, StaleState
from bot.store.faults import (
    RETRYABLE_SQLSTATES,
    STATEMENT_GRACE,
    WAIT_LIMIT,
    Waits,
    busy_timeout_ms,
    cannot_save,
)
from bot.store.snapshot import Loaded
from bot.store.table import ChannelKey, GuildSettings
from bot.store.writer import Attempt, SQLiteWriter

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

#: How many channels' last committed tables are kept in memory (a hit skips the read; the version
#: compare-and-set still catches another process's write).
CACHE_SIZE = 4096


def utc_now() -> datetime:
    return datetime.now(UTC)


def keep_recent(kept: OrderedDict[K, V], key: K, value: V) -> None:
    """Put `value` in a least-recently-used memory of `CACHE_SIZE` entries."""
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > CACHE_SIZE:
        kept.popitem(last=False)


def check_key(key: ChannelKey) -> None:
    validate.snowflake(key.guild_id, "guild id")
    validate.snowflake(key.channel_id, "channel id")


class StoreCore(Waits):
    """The state every part of the `Store` shares, and its one write transaction."""

    #: Check that a `mutate(shared=True)` change left the store's memory as it found it (the test suites
    #: turn this on: it costs two encodings of the channel per command).
    verify_shared: bool = False

    def __init__(self, engine: AsyncEngine, *, wait_limit: float = WAIT_LIMIT) -> None:
        if not wait_limit > 0:
            raise ValueError("wait_limit must be positive")
        #: Seconds a store call may wait for the database before `StoreUnavailable` (see `WAIT_LIMIT`).
        self.wait_limit = wait_limit
        self._engine = engine
        self._writer = engine.execution_options(**{WRITE_OPTION: True})
        self._sqlite = engine.dialect.name == "sqlite"
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # SQLite has one writer at a time: while a write of this process runs on the writer's thread, the
        # others wait here rather than in the busy handler, and then all try again at once (`_write`).
        self._sqlite_idle = asyncio.Event()
        self._sqlite_idle.set()
        # PostgreSQL: admit as many writers as the pool has connections, first come first served (the pool's
        # own queue lets a returning task barge ahead of waiting ones, which starves some channels).
        self._write_gate = asyncio.Semaphore(POSTGRES_POOL_SIZE)
        self._cache: OrderedDict[int, Loaded] = OrderedDict()
        self._settings: OrderedDict[int, tuple[float, GuildSettings]] = OrderedDict()
        # SQLite: the write connections, inline or on a thread of their own (bot.store.writer)
        self._sqlite_writer = (
            SQLiteWriter(engine.url, busy_timeout_ms=busy_timeout_ms(wait_limit)) if self._sqlite else None
        )
        # SQLite: `_stored_version`'s own connection, used on the event loop's thread (None: not open yet)
        self._probe_file = sqlite_file(engine.url) if self._sqlite else None
        self._probe: sqlite3.Connection | None = None
        # SQLite: `_select`'s SQLAlchemy connection over that same `sqlite3` connection (None: not open yet)
        self._reader_engine = None
        if self._probe_file is not None:
            self._reader_engine = create_sqlite_reader_engine(engine.url, self._probe_connection)
        self._reader: Connection | None = None
        # PostgreSQL: a pooled connection kept for `_stored_version`, used one read at a time
        self._pg_probe: AsyncConnection | None = None
        self._pg_probe_lock = asyncio.Lock()
        self._discarding: set[asyncio.Task[None]] = set()
        self._outage_at = float("-inf")  # loop time of the last wait for the database that gave up
        self._refusing = None  # the database refused every write last time (logged once)
        self._commits_since_checkpoint = 0
        self._checkpoint_task: asyncio.Task[None] | None = None

    async def _transaction(
        self, work: Callable[[Connection], T], deadline: float | None = None, attempt: Attempt | None = None
    ) -> T:
        """Run `work` (a plain function over a synchronous connection) as one write transaction and return
        its result; driver-level races become `StaleState`, refusals their `StoreError`.

        SQLite has one writer at a time: a write runs at once on the event loop's thread when it can, else
        whole in one hop on the writer's thread, the process's other writes waiting for it (`_write`,
        `SQLiteWriter`). PostgreSQL writers share the pool and run `work` through `run_sync`. Waiting (for the
        queue, SQLite's lock) ends at `deadline`; PostgreSQL work (the pool, the queries) is cut off
        `STATEMENT_GRACE` after it; a database that does not answer raises its driver error (see
        `is_unavailable`); `attempt.committing` tells whether COMMIT had started when that happened.
        """
        deadline = self._deadline() if deadline is None else deadline
        attempt = attempt if attempt is not None else Attempt()
        try:
            result = await self._write(work, deadline, attempt)
        except IntegrityError as error:
            text = str(error.orig).lower()
            if "one_active" in text or "encounters.channel_id" in text:
                raise EncounterExists() from None
            if "name_key" in text:
                raise InvalidValue("There is already a hero with that name in this campaign.") from None
            if "interaction_id" in text:
                raise AlreadyApplied() from None
            if "once_key" in text:
                raise AlreadyDone() from None
            raise StaleState() from error
        except OperationalError as error:
            if "snapshot" in str(error.orig).lower():
                raise StaleState() from error
            refused = cannot_save(error)
            if refused is not None:
                raise self._cannot_save(refused, error) from None
            raise
        except DBAPIError as error:
            if getattr(error.orig, "sqlstate", None) in RETRYABLE_SQLSTATES:
                raise StaleState() from error
            refused = cannot_save(error)
            if refused is not None:
                raise self._cannot_save(refused, error) from None
            raise
        except sqlite3.Error as error:  # the writer's own statements run on sqlite3 directly
            refused = cannot_save(error)
            if refused is not None:
                raise self._cannot_save(refused, error) from None
            raise
        if self._refusing is not None:
            self._saved()
        return result

    async def _write(self, work: Callable[[Connection], T], deadline: float, attempt: Attempt) -> T:
        """`_transaction`'s write.

        SQLite: the write runs at once on the event loop's thread when SQLite's lock is free
        (`SQLiteWriter.try_inline`, which never awaits); only when it is taken (another process, a
        checkpoint) does the write go to the writer's thread, and while it is there this process's other
        writes wait for it (`_sqlite_idle`) instead of polling for the lock in SQLite's busy handler, then
        all try again at once. An `asyncio.Lock` here, handed from one waiter to the next, cost every
        command a loop turn once it had had a waiter (under a steady load it always had one: busy channels
        took turns, each command waiting out every other's); and with writes that can run at once let past
        it, it drained its waiters one loop turn each (at 100 channels in flight, p99 ×3)."""
        writer = self._sqlite_writer
        if writer is None:
            await self._within(self._write_gate.acquire(), deadline)
            try:
                async with asyncio.timeout_at(deadline + STATEMENT_GRACE):
                    async with self._writer.connect() as connection, connection.begin():
                        result = await connection.run_sync(work)
                        attempt.committing = True
                    return result
            finally:
                self._write_gate.release()
        while not self._sqlite_idle.is_set():
            await self._within(self._sqlite_idle.wait(), deadline)
        began, inline = writer.try_inline(work, attempt)
        if began:
            return cast(T, inline)
        self._sqlite_idle.clear()
        try:
            return await writer.run(work, deadline, attempt)
        finally:
            self._sqlite_idle.set()

    async def _select(self, work: Callable[[Connection], T], deadline: float | None = None) -> T:
        """Run `work` (a plain function over a synchronous connection that only reads) in one read
        transaction and return its result.

        On a SQLite file it runs right here, on the event loop's thread, through the connection the version
        check uses (`_probe_connection`; never waiting for a lock: in WAL mode readers don't wait for
        writers): a read of a few rows costs
        microseconds there, where through the pool every statement is a round trip to a database thread
        that, under load, waits for the busy event loop (and the GIL) at each step, with five connections
        for everyone: a hundred channels' first turn pings, each reading its tracker's id, waited half a
        second in the wire benchmark. If it fails there, and on PostgreSQL, the pool reads: it waits,
        retries and tells an outage from a fault."""
        if self._reader_engine is not None:
            try:
                if self._reader is None:
                    self._reader = self._reader_engine.connect()
                with self._reader.begin():
                    return work(self._reader)
            except DBAPIError:
                self._drop_probe()

        async def read() -> T:
            async with self._engine.connect() as connection:
                return await connection.run_sync(work)

        return await self._retrying(read, self._deadline() if deadline is None else deadline)

    def _insert(self, table: sa.Table) -> Any:
        return sqlite_dialect.insert(table) if self._sqlite else pg_dialect.insert(table)

    def _probe_connection(self) -> sqlite3.Connection:
        """The SQLite connection for reads on the event loop's thread (`Store._probe_connection`)."""
        raise NotImplementedError

    def _drop_probe(self) -> None:
        """Close the SQLite read connection of the event loop's thread, and `_select`'s wrapping of it (a
        failed one is not trusted again; `close` ends it too)."""
        reader, self._reader = self._reader, None
        if reader is not None:
            with suppress(Exception):
                reader.invalidate()
                reader.close()
        if self._reader_engine is not None:
            self._reader_engine.dispose()
        probe, self._probe = self._probe, None
        if probe is not None:
            with suppress(sqlite3.Error):
                probe.close()

    def _after_sqlite_commit(self) -> None:
        """Called after each SQLite commit of this process (`Store._after_sqlite_commit`: checkpoints)."""
        raise NotImplementedError
