"""`Store`: the one door to persistence — every state change goes through `mutate` (or `undo`).

Design (docs/store.md): a command's `change` edits a working copy of its channel (`Table`); the store
diffs before/after, writes only the changed rows, bumps the channel's `version` with a compare-and-set and
appends an event carrying the undo patch — one transaction. Commands on one channel are serialised in the
process by an `asyncio.Lock` per channel; across processes the compare-and-set turns a lost race into
`StaleState`, which `mutate` retries by re-reading and re-running the (pure) `change`.

The `Store` is assembled here from its parts, one concern each (`bot.store.core` lists them); this module
keeps the lifecycle (open, close) and the SQLite file's upkeep: the read connection on the event loop's
thread and the WAL checkpoints.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from contextlib import suppress
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.bestiary import Bestiary
from bot.store.engine import create_engine, is_sqlite, normalise_url
from bot.store.faults import STATEMENT_GRACE, WAIT_LIMIT, busy_timeout_ms, is_unavailable
from bot.store.history import History
from bot.store.prune import Pruning
from bot.store.reads import _READ_CHANNEL
from bot.store.reminders import ReminderAccess
from bot.store.rows import _CAS_VERSION, _INSERT_EVENT
from bot.store.settings import GuildSettingsAccess
from bot.store.snapshot import clone as _clone
from bot.store.undo import Undoing

__all__ = [
    "DEFAULT_URL",
    "STATEMENT_GRACE",
    "WAIT_LIMIT",
    "Store",
    "is_unavailable",
]

# the hot path's statements and the snapshot copy, for the store's tests
__all__ += ["_CAS_VERSION", "_INSERT_EVENT", "_READ_CHANNEL", "_clone"]

log = logging.getLogger("bot.store")

#: SQLite: checkpoint the WAL in the background after this many commits of this process. Each round's PASSIVE
#: checkpoint flushes the WAL to the disk, which slows the commands in flight while it runs (the disk and the
#: other core are busy): small rounds keep each slowdown short (at 10 channels in flight, 1,000-commit rounds
#: had a p99 about 10 % above 200-commit ones).
CHECKPOINT_EVERY = 200
#: SQLite: how long the checkpoint that lets the WAL start over waits for readers on older snapshots (writes
#: wait while it does).
CHECKPOINT_WAIT = 0.1
#: SQLite: WAL frames (pages of 4 KiB: 64 MiB) from which a checkpoint round also starts the WAL over (a
#: RESTART, which this process's writes wait for: 3–8 ms on a busy 2-core VM, mostly its fsyncs). Below it
#: the round's PASSIVE checkpoint, which no write waits for, is all: whenever it catches up (any lull in the
#: load) the next write starts the WAL over by itself, so the WAL reaches this length only under a load that
#: never pauses (the wire benchmark's: at 7 pages a commit, about one round in twelve).
WAL_RESTART_FRAMES = 16_384
#: SQLite file relative to the working directory; its folder is created on first start.
DEFAULT_URL = "sqlite+aiosqlite:///data/bot.db"


class Store(Undoing, GuildSettingsAccess, History, Pruning, Bestiary, ReminderAccess):
    """Persistence and concurrency for the bot. Open with `await Store.open(url)`; `await close()` at exit."""

    # -- lifecycle --------------------------------------------------------------------------------------
    @classmethod
    async def open(
        cls,
        url: str = DEFAULT_URL,
        *,
        migrate: bool = True,
        schema: str | None = None,
        wait_limit: float = WAIT_LIMIT,
    ) -> Store:
        """Open the database at `url` (SQLite via aiosqlite, PostgreSQL via asyncpg) and, with `migrate`,
        upgrade it to the newest revision. `schema` (PostgreSQL only) sets the search_path; `wait_limit`
        is how long each later call may wait for the database before `StoreUnavailable`."""
        parsed = normalise_url(url)
        engine = create_engine(
            parsed,
            schema=schema,
            busy_timeout_ms=busy_timeout_ms(wait_limit),
            connect_timeout=max(0.1, wait_limit),
        )
        try:
            if migrate:
                from bot.store.migrate import upgrade

                await upgrade(engine)
            else:
                async with engine.connect() as connection:
                    await connection.execute(sa.text("SELECT 1"))
        except BaseException:
            await engine.dispose()
            raise
        store = cls(engine, wait_limit=wait_limit)
        assert store._sqlite == is_sqlite(parsed)
        return store

    async def close(self) -> None:
        """Close every connection (after a last WAL checkpoint on SQLite)."""
        if self._checkpoint_task is not None:
            with suppress(Exception):
                await self._checkpoint_task
        if self._sqlite:
            await self._checkpoint()
        self._drop_probe()
        await self._discard_pg_probe()
        if self._discarding:
            await asyncio.gather(*self._discarding, return_exceptions=True)
        if self._sqlite_writer is not None:
            await self._sqlite_idle.wait()  # a write on the writer's thread finishes first
            await self._sqlite_writer.close()
        await self._engine.dispose()

    @property
    def engine(self) -> AsyncEngine:
        """The underlying engine (tests and tools)."""
        return self._engine

    def _probe_connection(self) -> sqlite3.Connection:
        """The SQLite connection for reads on the event loop's thread (`_open_probe`), opened on first use."""
        if self._probe is None:
            assert self._probe_file is not None
            self._probe = _open_probe(self._probe_file)
        return self._probe

    def _after_sqlite_commit(self) -> None:
        """Checkpoint the WAL in the background every `CHECKPOINT_EVERY` commits.

        Connections run with `wal_autocheckpoint = 0`, so no command pays for a checkpoint (and its fsync)
        inside its commit; the checkpoint runs on the writer's thread instead (`_checkpoint`).
        """
        self._commits_since_checkpoint += 1
        if self._commits_since_checkpoint < CHECKPOINT_EVERY:
            return
        if self._checkpoint_task is not None and not self._checkpoint_task.done():
            return
        self._commits_since_checkpoint = 0
        self._checkpoint_task = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        """Copy the WAL into the database file, and start the WAL over once it has grown long.

        SQLite starts a WAL over only when a writer begins right after a checkpoint that copied every frame;
        while commands keep committing, a checkpoint running alongside never catches up, and the WAL grew
        without end (100 MB in 3,000 commands), every commit appending to an ever longer file. So: a PASSIVE
        checkpoint first, which copies nearly everything without stopping the writer; then, once the WAL
        holds `WAL_RESTART_FRAMES`, a RESTART one, which holds the write lock to copy the few frames
        committed meanwhile and lets the next write start the WAL over. Both run on the writer's thread
        (`SQLiteWriter.checkpoint`); while the RESTART runs, this process's writes wait for it as for any
        write on that thread (`_write`) and then all go on at once: racing it, they kept it from the lock
        (its busy handler polls, their commits came every fraction of a millisecond), and the WAL grew on.
        It waits at most `CHECKPOINT_WAIT` for readers on older snapshots, and new writes wait while it does;
        one that can't finish is simply tried again `CHECKPOINT_EVERY` commits later. Every command in
        flight waits out a RESTART (at 10 channels in flight, ten at once), so one every round (it was)
        made those waits the p99 itself."""
        writer = self._sqlite_writer
        assert writer is not None
        try:
            frames = await writer.checkpoint("PASSIVE")
            if frames < WAL_RESTART_FRAMES:
                return
            while not self._sqlite_idle.is_set():  # a write on the writer's thread goes first
                await self._sqlite_idle.wait()
            self._sqlite_idle.clear()  # this process's writes wait for the RESTART, instead of racing it
            try:
                await writer.checkpoint("RESTART", int(CHECKPOINT_WAIT * 1000))
            finally:
                self._sqlite_idle.set()
        except Exception:  # a failed checkpoint only delays the next one
            log.warning("WAL checkpoint failed", exc_info=True)


def _open_probe(path: Path) -> sqlite3.Connection:
    """A read-only-by-pragma connection to the store's SQLite file that never waits for a lock."""
    probe = sqlite3.connect(path, isolation_level=None)
    try:
        probe.execute("PRAGMA busy_timeout = 0")
        probe.execute("PRAGMA query_only = ON")
    except sqlite3.Error:
        probe.close()
        raise
    return probe
