"""`Database`: the store's gateway to its database — the engine, the write transaction every change goes
through, the reads, the waits bounded by the wait limit, and on SQLite the connections used on the event
loop's thread and the WAL checkpoints.

Every other part of the store reaches the database through it, with plain functions over a synchronous
SQLAlchemy `Connection` (`transaction(work)`, `select(work)`): on SQLite they run on the event loop's thread
when they can, on PostgreSQL through `AsyncConnection.run_sync` on the pool (docs/store.md, *Performance*).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any, TypeVar, cast

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.engine import POSTGRES_POOL_SIZE, WRITE_OPTION, create_sqlite_reader_engine, sqlite_file
from bot.store.errors import (
    AlreadyApplied,
    AlreadyDone,
    EncounterExists,
    InvalidValue,
    StaleState,
    StoreError,
)
from bot.store.faults import RETRYABLE_SQLSTATES, STATEMENT_GRACE, Waits, busy_timeout_ms, cannot_save
from bot.store.writer import Attempt, SQLiteWriter

T = TypeVar("T")
log = logging.getLogger("bot.store")

#: SQLite: checkpoint the WAL in the background after this many commits of this process. Each round's PASSIVE
#: checkpoint flushes the WAL to the disk, which slows the commands in flight while it runs (the disk and the
#: other core are busy): small rounds keep each slowdown short.
CHECKPOINT_EVERY = 200
#: SQLite: how long the checkpoint that lets the WAL start over waits for readers on older snapshots (writes
#: wait while it does).
CHECKPOINT_WAIT = 0.1
#: SQLite: WAL frames (pages of 4 KiB: 64 MiB) from which a checkpoint round also starts the WAL over (a
#: RESTART, which this process's writes wait for). Below it the round's PASSIVE checkpoint, which no write
#: waits for, is all: whenever it catches up (any lull in the load) the next write starts the WAL over by
#: itself, so the WAL reaches this length only under a load that never pauses.
WAL_RESTART_FRAMES = 16_384


class Database:
    """The engine and the ways through it: `transaction`, `select`, `repeatable`; `waits` bounds them."""

    def __init__(self, engine: AsyncEngine, waits: Waits) -> None:
        self.engine = engine
        self.waits = waits
        #: True on SQLite (one writer at a time; the file's connections on the event loop's thread).
        self.sqlite = engine.dialect.name == "sqlite"
        self._writer = engine.execution_options(**{WRITE_OPTION: True})
        # SQLite has one writer at a time: while a write of this process runs on the writer's thread, the
        # others wait here rather than in the busy handler, and then all try again at once (`_write`).
        self.idle = asyncio.Event()
        self.idle.set()
        # PostgreSQL: admit as many writers as the pool has connections, first come first served (the pool's
        # own queue lets a returning task barge ahead of waiting ones, which starves some channels).
        self._write_gate = asyncio.Semaphore(POSTGRES_POOL_SIZE)
        # SQLite: the write connections, inline or on a thread of their own (bot.store.writer)
        self.sqlite_writer = (
            SQLiteWriter(engine.url, busy_timeout_ms=busy_timeout_ms(waits.wait_limit))
            if self.sqlite
            else None
        )
        # SQLite file: the read connection used on the event loop's thread (None: not open yet), and
        # `select`'s SQLAlchemy connection over it
        self.probe_file = sqlite_file(engine.url) if self.sqlite else None
        self._probe: sqlite3.Connection | None = None
        self.reader_engine = None
        if self.probe_file is not None:
            self.reader_engine = create_sqlite_reader_engine(engine.url, self.probe)
        self._reader: Connection | None = None
        self._commits_since_checkpoint = 0
        #: The WAL checkpoint running in the background (SQLite), if one was started.
        self.checkpoint_task: asyncio.Task[None] | None = None

    # -- writes -------------------------------------------------------------------------------------------
    async def transaction(
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
        deadline = self.waits.deadline() if deadline is None else deadline
        attempt = attempt if attempt is not None else Attempt()
        try:
            result = await self._write(work, deadline, attempt)
        except IntegrityError as error:
            refusal = _refusal(error)
            if refusal is None:
                raise StaleState() from error
            raise refusal from None
        except DBAPIError as error:
            if _lost_race(error):
                raise StaleState() from error
            self._refuse(error)
            raise
        except sqlite3.Error as error:  # the writer's own statements run on sqlite3 directly
            self._refuse(error)
            raise
        self.waits.saved()
        return result

    def _refuse(self, error: Exception) -> None:
        """Raise the `CannotSave` a database that refuses every write means, if `error` is one."""
        refused = cannot_save(error)
        if refused is not None:
            raise self.waits.refused(refused, error) from None

    async def repeatable(self, work: Callable[[Connection], T], deadline: float | None = None) -> T:
        """`transaction(work)`, run again while the database does not answer: for a write that is safe to
        repeat (an upsert, a delete, a guarded update)."""
        deadline = self.waits.deadline() if deadline is None else deadline

        async def write() -> T:
            return await self.transaction(work, deadline)

        return await self.waits.retrying(write, deadline)

    async def _write(self, work: Callable[[Connection], T], deadline: float, attempt: Attempt) -> T:
        """`transaction`'s write.

        SQLite: the write runs at once on the event loop's thread when SQLite's lock is free
        (`SQLiteWriter.try_inline`, which never awaits); only when it is taken (another process, a
        checkpoint) does the write go to the writer's thread, and while it is there this process's other
        writes wait for it (`idle`) instead of polling for the lock in SQLite's busy handler, then all try
        again at once. An `asyncio.Lock` here, handed from one waiter to the next, cost every command a loop
        turn once it had had a waiter, and drained its waiters one loop turn each."""
        writer = self.sqlite_writer
        if writer is None:
            await self.waits.within(self._write_gate.acquire(), deadline)
            try:
                async with asyncio.timeout_at(deadline + STATEMENT_GRACE):
                    async with self._writer.connect() as connection, connection.begin():
                        result = await connection.run_sync(work)
                        attempt.committing = True
                    return result
            finally:
                self._write_gate.release()
        while not self.idle.is_set():
            await self.waits.within(self.idle.wait(), deadline)
        began, inline = writer.try_inline(work, attempt)
        if began:
            return cast(T, inline)
        self.idle.clear()
        try:
            return await writer.run(work, deadline, attempt)
        finally:
            self.idle.set()

    def insert(self, table: sa.Table) -> Any:
        """An INSERT in this database's dialect (for `on_conflict_do_nothing` / `_do_update`)."""
        return sqlite_dialect.insert(table) if self.sqlite else pg_dialect.insert(table)

    # -- reads --------------------------------------------------------------------------------------------
    async def select(self, work: Callable[[Connection], T], deadline: float | None = None) -> T:
        """Run `work` (a plain function over a synchronous connection that only reads) in one read
        transaction and return its result.

        On a SQLite file it runs right here, on the event loop's thread, through the read connection kept
        for it (`probe`; never waiting for a lock: in WAL mode readers don't wait for writers): a read of a
        few rows costs microseconds there, where through the pool every statement is a round trip to a
        database thread that, under load, waits for the busy event loop at each step. If it fails there, and
        on PostgreSQL, the pool reads: it waits, retries and tells an outage from a fault."""
        if self.reader_engine is not None:
            try:
                if self._reader is None:
                    self._reader = self.reader_engine.connect()
                with self._reader.begin():
                    return work(self._reader)
            except DBAPIError:
                self.drop_probe()

        async def read() -> T:
            async with self.engine.connect() as connection:
                return await connection.run_sync(work)

        return await self.waits.retrying(read, self.waits.deadline() if deadline is None else deadline)

    def probe(self) -> sqlite3.Connection:
        """The SQLite file's read connection on the event loop's thread, opened on first use."""
        if self._probe is None:
            assert self.probe_file is not None
            self._probe = open_probe(self.probe_file)
        return self._probe

    def drop_probe(self) -> None:
        """Close the SQLite read connection of the event loop's thread, and `select`'s wrapping of it (a
        failed one is not trusted again; `close` ends it too)."""
        reader, self._reader = self._reader, None
        if reader is not None:
            with suppress(Exception):
                reader.invalidate()
                reader.close()
        if self.reader_engine is not None:
            self.reader_engine.dispose()
        probe, self._probe = self._probe, None
        if probe is not None:
            with suppress(sqlite3.Error):
                probe.close()

    # -- the SQLite file's upkeep -------------------------------------------------------------------------
    def committed(self) -> None:
        """Called after each commit of this process: on SQLite, checkpoint the WAL in the background every
        `CHECKPOINT_EVERY` commits.

        Connections run with `wal_autocheckpoint = 0`, so no command pays for a checkpoint (and its fsync)
        inside its commit; the checkpoint runs on the writer's thread instead (`_checkpoint`)."""
        if not self.sqlite:
            return
        self._commits_since_checkpoint += 1
        if self._commits_since_checkpoint < CHECKPOINT_EVERY:
            return
        if self.checkpoint_task is not None and not self.checkpoint_task.done():
            return
        self._commits_since_checkpoint = 0
        self.checkpoint_task = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        """Copy the WAL into the database file, and start the WAL over once it has grown long.

        SQLite starts a WAL over only when a writer begins right after a checkpoint that copied every frame;
        while commands keep committing, a checkpoint running alongside never catches up, and the WAL grew
        without end. So: a PASSIVE checkpoint first, which copies nearly everything without stopping the
        writer; then, once the WAL holds `WAL_RESTART_FRAMES`, a RESTART one, which holds the write lock to
        copy the few frames committed meanwhile and lets the next write start the WAL over. Both run on the
        writer's thread; while the RESTART runs, this process's writes wait for it (`idle`) and then all go
        on at once: racing it, they kept it from the lock. It waits at most `CHECKPOINT_WAIT` for readers on
        older snapshots; one that can't finish is simply tried again `CHECKPOINT_EVERY` commits later."""
        writer = self.sqlite_writer
        assert writer is not None
        try:
            frames = await writer.checkpoint("PASSIVE")
            if frames < WAL_RESTART_FRAMES:
                return
            while not self.idle.is_set():  # a write on the writer's thread goes first
                await self.idle.wait()
            self.idle.clear()  # this process's writes wait for the RESTART, instead of racing it
            try:
                await writer.checkpoint("RESTART", int(CHECKPOINT_WAIT * 1000))
            finally:
                self.idle.set()
        except Exception:  # a failed checkpoint only delays the next one
            log.warning("WAL checkpoint failed", exc_info=True)

    async def close(self) -> None:
        """Close every connection (after a last WAL checkpoint on SQLite)."""
        if self.checkpoint_task is not None:
            with suppress(Exception):
                await self.checkpoint_task
        if self.sqlite:
            await self._checkpoint()
        self.drop_probe()
        if self.sqlite_writer is not None:
            await self.idle.wait()  # a write on the writer's thread finishes first
            await self.sqlite_writer.close()
        await self.engine.dispose()


def _refusal(error: IntegrityError) -> StoreError | None:
    """The `StoreError` a unique index's refusal means (None: none of the store's own, a lost race)."""
    text = str(error.orig).lower()
    if "one_active" in text or "encounters.channel_id" in text:
        return EncounterExists()
    if "name_key" in text:
        return InvalidValue("There is already a hero with that name in this campaign.")
    if "interaction_id" in text:
        return AlreadyApplied()
    if "once_key" in text:
        return AlreadyDone()
    return None


def _lost_race(error: DBAPIError) -> bool:
    """A driver error that means another transaction got there first (SQLite's stale snapshot, PostgreSQL's
    serialization failure or deadlock)."""
    if isinstance(error, OperationalError):
        return "snapshot" in str(error.orig).lower()
    return getattr(error.orig, "sqlstate", None) in RETRYABLE_SQLSTATES


def open_probe(path: Path) -> sqlite3.Connection:
    """A read-only-by-pragma connection to the store's SQLite file that never waits for a lock."""
    probe = sqlite3.connect(path, isolation_level=None)
    try:
        probe.execute("PRAGMA busy_timeout = 0")
        probe.execute("PRAGMA query_only = ON")
    except sqlite3.Error:
        probe.close()
        raise
    return probe
