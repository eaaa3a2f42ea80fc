"""`StoreCore`: what every part of the `Store` shares — its connections, its memory, and the one write
transaction (`_transaction`) every change goes through.

The `Store` (bot/store/store.py) is assembled from parts, one concern each: `reads`, `rows` and `writes`
(the write path), `campaigns`, `undo`, `settings`, `history` (trackers, the log, export), `prune`,
`bestiary` (the servers' monsters).
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import validate
from bot.store.engine import POSTGRES_POOL_SIZE, WRITE_OPTION
from bot.store.errors import AlreadyApplied, AlreadyDone, EncounterExists, InvalidValue, StaleState
from bot.store.faults import (
    RETRYABLE_SQLSTATES,
    STATEMENT_GRACE,
    WAIT_LIMIT,
    Waits,
    cannot_save,
)
from bot.store.snapshot import Loaded
from bot.store.table import ChannelKey, GuildSettings

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

#: How many channels' last committed tables are kept in memory (a hit skips the read; the version
#: compare-and-set still catches another process's write).
CACHE_SIZE = 4096


@dataclass(slots=True)
class Attempt:
    """One write transaction: `committing` turns True once its body ran and COMMIT is under way."""

    committing: bool = False


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
        # Writers admitted at once, first come first served: SQLite has one writer at a time (the others
        # wait here rather than in its busy handler); PostgreSQL as many as the pool has connections (the
        # pool's own queue lets a returning task barge ahead of waiting ones, which starves some channels).
        self._write_gate = asyncio.Semaphore(1 if self._sqlite else POSTGRES_POOL_SIZE)
        self._cache: OrderedDict[int, Loaded] = OrderedDict()
        self._settings: OrderedDict[int, tuple[float, GuildSettings]] = OrderedDict()
        self._outage_at = float("-inf")  # loop time of the last wait for the database that gave up
        self._refusing = None  # the database refused every write last time (logged once)

    async def _transaction(
        self, work: Callable[[Connection], T], deadline: float | None = None, attempt: Attempt | None = None
    ) -> T:
        """Run `work` (a plain function over a synchronous connection) as one write transaction and return
        its result; driver-level races become `StaleState`, refusals their `StoreError`.

        Writers are admitted through `_write_gate` and run `work` through `run_sync` on a pooled connection.
        Waiting for the gate ends at `deadline`, for SQLite's lock at its busy timeout; PostgreSQL work (the
        pool, the queries) is cut off `STATEMENT_GRACE` after it (aiosqlite calls are not safely cancellable
        mid-statement); a database that does not answer raises its driver error (see `is_unavailable`);
        `attempt.committing` tells whether COMMIT had started when that happened.
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
        if self._refusing is not None:
            self._saved()
        return result

    async def _write(self, work: Callable[[Connection], T], deadline: float, attempt: Attempt) -> T:
        """`_transaction`'s write: one transaction through the pool, once the gate admits it."""
        await self._within(self._write_gate.acquire(), deadline)
        try:
            async with contextlib.AsyncExitStack() as stack:
                if not self._sqlite:
                    await stack.enter_async_context(asyncio.timeout_at(deadline + STATEMENT_GRACE))
                async with self._writer.connect() as connection, connection.begin():
                    result = await connection.run_sync(work)
                    attempt.committing = True
                return result
        finally:
            self._write_gate.release()

    async def _select(self, work: Callable[[Connection], T], deadline: float | None = None) -> T:
        """Run `work` (a plain function over a synchronous connection that only reads) in one read
        transaction through the pool, which waits, retries and tells an outage from a fault."""

        async def read() -> T:
            async with self._engine.connect() as connection:
                return await connection.run_sync(work)

        return await self._retrying(read, self._deadline() if deadline is None else deadline)

    def _insert(self, table: sa.Table) -> Any:
        return sqlite_dialect.insert(table) if self._sqlite else pg_dialect.insert(table)
