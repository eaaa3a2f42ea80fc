"""Faults: telling a database that is not answering from a refusal, and waiting for it within a limit.

Every store call waits for the database at most `wait_limit` seconds (docs/store.md, *Faults*); `Waits`
holds the store's waits (the channel's turn, a lock, a retried read) and gives up with `StoreUnavailable`.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from bot.store.errors import CannotSave, DiskFull, ReadOnly, StoreError, StoreUnavailable
from bot.store.table import ChannelKey

T = TypeVar("T")
log = logging.getLogger("bot.store")

#: Seconds one store call may wait for the database (locks of other commands or processes, a busy SQLite
#: file, an unreachable or restarting PostgreSQL) before it gives up with `StoreUnavailable`: short enough
#: that a command still answers within Discord's 3 seconds.
WAIT_LIMIT = 1.5
#: PostgreSQL: seconds past a call's deadline before a query still running is cut off. Cutting asyncpg
#: mid-query costs the connection (SQLAlchemy invalidates it; the pool then opens a new one, a new server
#: process), so a query that started late, after queueing for the pool, may finish; a server that does not
#: answer at all is still given up on within `WAIT_LIMIT + STATEMENT_GRACE` (2 s, before Discord's 3).
STATEMENT_GRACE = 0.5
#: After a PostgreSQL connection died during COMMIT: how long to try asking whether the change was saved.
CONFIRM_LIMIT = 0.75
RETRYABLE_SQLSTATES = frozenset({"40001", "40P01", "55P03"})
#: SQLSTATEs of a database that is going away or not there yet (class 08: connection exceptions).
_UNAVAILABLE_SQLSTATES = frozenset({"57P01", "57P02", "57P03", "53300"})
_UNAVAILABLE_SQLITE = ("locked", "busy", "unable to open", "disk i/o")


def is_unavailable(error: BaseException) -> bool:
    """True when `error` means the database is not answering (locked, unreachable, connection lost,
    timed out) rather than a refusal or a bug: the operation may be tried again."""
    if isinstance(error, TimeoutError | PoolTimeout | ConnectionError):
        return True
    if isinstance(error, OSError):  # connection refused, host unreachable (raised raw by asyncpg's connect)
        return True
    if isinstance(error, DBAPIError):
        if error.connection_invalidated:
            return True
        orig = error.orig
        sqlstate = str(getattr(orig, "sqlstate", "") or "")
        if sqlstate.startswith("08") or sqlstate in _UNAVAILABLE_SQLSTATES:
            return True
        text = str(orig).lower()
        if isinstance(error, OperationalError) and any(word in text for word in _UNAVAILABLE_SQLITE):
            return True
        module = type(orig).__module__
        if module.startswith("asyncpg") and (
            "ConnectionDoesNotExist" in type(orig).__name__
            or ("connection" in text and ("closed" in text or "lost" in text or "reset" in text))
        ):
            return True
        return isinstance(orig, OSError)
    return False


#: SQLSTATEs of a PostgreSQL server that refuses every write: disk_full, read_only_sql_transaction.
_CANNOT_SAVE_SQLSTATES: dict[str, type[CannotSave]] = {"53100": DiskFull, "25006": ReadOnly}
#: SQLite's primary result codes that mean the same: SQLITE_FULL, SQLITE_READONLY.
_CANNOT_SAVE_SQLITE: dict[int, type[CannotSave]] = {
    sqlite3.SQLITE_FULL: DiskFull,
    sqlite3.SQLITE_READONLY: ReadOnly,
}


def cannot_save(error: BaseException) -> type[CannotSave] | None:
    """The `CannotSave` kind `error` means (a full disk, a read-only database), or None: a database that
    refuses every write, which no retry fixes."""
    orig = getattr(error, "orig", None) or error
    if isinstance(orig, sqlite3.Error):
        code = getattr(orig, "sqlite_errorcode", None)
        if isinstance(code, int):
            return _CANNOT_SAVE_SQLITE.get(code & 0xFF)
        text = str(orig).lower()
        return DiskFull if "disk is full" in text else ReadOnly if "readonly database" in text else None
    sqlstate = str(getattr(orig, "sqlstate", "") or "")
    return _CANNOT_SAVE_SQLSTATES.get(sqlstate)


def is_locked(error: BaseException) -> bool:
    """True when SQLite refused for a lock another connection holds (`SQLITE_BUSY`, `SQLITE_LOCKED` and
    their extended codes)."""
    orig = getattr(error, "orig", None) or error
    code = getattr(orig, "sqlite_errorcode", 0) if isinstance(orig, sqlite3.Error) else 0
    return isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def brief(error: BaseException) -> str:
    """One short line about a driver error for the log (no SQL, no parameters)."""
    orig = getattr(error, "orig", None) or error
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else ""
    return f"{type(orig).__name__}: {text[:160]}"


def busy_timeout_ms(wait_limit: float) -> int:
    """SQLite's busy timeout for a store with this wait limit (the writer tightens it per call)."""
    return max(1, int(wait_limit * 1000))


class Waits:
    """The store's waits for the database, each bounded by `wait_limit` (see `WAIT_LIMIT`): the channels'
    turns, bounded waits for a lock or an event, and reads retried while the database does not answer."""

    def __init__(self, wait_limit: float, *, sqlite: bool) -> None:
        if not wait_limit > 0:
            raise ValueError("wait_limit must be positive")
        #: Seconds a store call may wait for the database before `StoreUnavailable` (see `WAIT_LIMIT`).
        self.wait_limit = wait_limit
        self._sqlite = sqlite
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._outage_at = float("-inf")  # loop time of the last wait for the database that gave up
        self._refusing: type[CannotSave] | None = None  # the database refused every write (logged once)

    def lock(self, key: ChannelKey) -> asyncio.Lock:
        lock = self._locks.get(key.channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key.channel_id] = lock
        return lock

    def deadline(self) -> float:
        """When a call that starts now must give up waiting for the database (event-loop time)."""
        return asyncio.get_running_loop().time() + self.wait_limit

    def unavailable(self, error: BaseException | None = None) -> StoreUnavailable:
        """The error to raise when the database did not answer in time; remembers when it happened."""
        self._outage_at = asyncio.get_running_loop().time()
        if error is not None:
            log.warning("database unavailable, giving up: %s", brief(error))
        return StoreUnavailable()

    def refused(self, kind: type[CannotSave], error: BaseException) -> CannotSave:
        """The error to raise when the database refuses every write; logged at ERROR once (not per command,
        not with a traceback) until a write succeeds again (`saved`)."""
        if self._refusing is not kind:
            self._refusing = kind
            log.error("the database refuses to write (%s): %s", kind.default_message, brief(error))
        return kind()

    def saved(self) -> None:
        """A write succeeded: a later refusal to write is logged again."""
        if self._refusing is not None:
            self._refusing = None
            log.warning("the database accepts writes again")

    async def within(self, waiting: Awaitable[Any], deadline: float) -> None:
        """Wait for `waiting` (a lock's acquire, an event) no later than `deadline` (then `StoreUnavailable`;
        nothing was done)."""
        try:
            async with asyncio.timeout_at(deadline):
                await waiting
        except TimeoutError:
            raise self.unavailable() from None

    async def queue(self, key: ChannelKey) -> tuple[asyncio.Lock, float]:
        """Wait for the channel's turn (commands on one channel run one at a time; the wait itself is not
        bounded: a busy channel just queues) and return its lock, held, with the deadline of this call's
        database waits. If the database went unavailable while this call queued and the wait already
        exceeded the limit, give up at once: an outage must not make each queued command wait in turn."""
        loop = asyncio.get_running_loop()
        lock = self.lock(key)
        queued = loop.time()
        await lock.acquire()
        now = loop.time()
        if now - queued > self.wait_limit and self._outage_at >= queued:
            lock.release()
            raise StoreUnavailable()
        return lock, now + self.wait_limit

    async def retrying(self, operation: Callable[[], Awaitable[T]], deadline: float) -> T:
        """Run a read (or an idempotent write) again while the database is unavailable, until `deadline`;
        then `StoreUnavailable`. PostgreSQL calls are also cut off `STATEMENT_GRACE` after the deadline (a
        hung server)."""
        delay = 0.02
        while True:
            try:
                if self._sqlite:  # SQLite waits are bounded by its busy timeout; aiosqlite calls are not
                    return await operation()  # safely cancellable mid-statement
                async with asyncio.timeout_at(deadline + STATEMENT_GRACE):
                    return await operation()
            except StoreError:
                raise
            except Exception as error:
                if not is_unavailable(error):
                    raise
                left = deadline - asyncio.get_running_loop().time()
                if left <= delay:
                    raise self.unavailable(error) from error
                log.info("database unavailable, retrying in %.0f ms: %s", delay * 1000, brief(error))
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.25)
