"""`Store`: the one door to persistence — every state change goes through `mutate` (or `undo`).

Design (docs/store.md): a command's `change` edits a working copy of its channel (`Table`); the store
diffs before/after, writes only the changed rows, bumps the channel's `version` with a compare-and-set and
appends an event carrying the undo patch — one transaction. Commands on one channel are serialised in the
process by an `asyncio.Lock` per channel; across processes the compare-and-set turns a lost race into
`StaleState`, which `mutate` retries by re-reading and re-running the (pure) `change`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import random
import sqlite3
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar, cast

import orjson
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store import validate
from bot.store.engine import (
    POSTGRES_POOL_SIZE,
    WRITE_OPTION,
    create_engine,
    is_sqlite,
    normalise_url,
    sqlite_file,
)
from bot.store.errors import (
    EncounterExists,
    InvalidValue,
    NoEncounter,
    NothingToUndo,
    SaveUncertain,
    StaleState,
    StoreError,
    StoreUnavailable,
)
from bot.store.models import channels, encounters, events, guild_settings, heroes
from bot.store.patch import diff, revert
from bot.store.prepared import Prepared, execute
from bot.store.table import (
    Change,
    ChannelKey,
    Committed,
    EncounterInfo,
    Event,
    GuildSettings,
    Table,
)
from bot.store.writer import Attempt, SQLiteWriter

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")
log = logging.getLogger("bot.store")

#: How many channels' last committed tables are kept in memory (a hit skips the read; the version
#: compare-and-set still catches another process's write).
CACHE_SIZE = 4096
#: Seconds a guild's settings are served from memory. This process's own changes show at once; another
#: process's (a guild's commands all reach the one process that runs its shard) within this time.
SETTINGS_TTL = 10.0
UNDO_KIND = "undo"
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
_TEMP_NAME_KEY = "\x01"
_VERSION_SQL = f"SELECT version FROM {channels.name} WHERE id = ?"
_PG_VERSION_SQL = f"SELECT version FROM {channels.name} WHERE id = $1"
_RETRYABLE_SQLSTATES = frozenset({"40001", "40P01", "55P03"})
#: SQLSTATEs of a database that is going away or not there yet (class 08: connection exceptions).
_UNAVAILABLE_SQLSTATES = frozenset({"57P01", "57P02", "57P03", "53300"})
_UNAVAILABLE_SQLITE = ("locked", "busy", "unable to open", "disk i/o")
_SETTINGS_FIELDS = {f.name: f for f in dataclasses.fields(GuildSettings) if f.name != "guild_id"}


class _EncodedJSON(sa.types.TypeDecorator[str]):
    """A JSON column's value passed already encoded (by `validate.dumps`): the store encodes an encounter's
    state once, to check its size, and writes that text instead of letting SQLAlchemy encode it again."""

    impl = sa.JSON
    cache_ok = True

    def bind_processor(self, dialect: sa.Dialect) -> None:
        return None


# Statements of the hot path, prepared once (`bot.store.prepared`).
_CAS_VERSION = Prepared(
    sa.update(channels)
    .where(channels.c.id == sa.bindparam("b_id"), channels.c.version == sa.bindparam("b_version"))
    .values(version=sa.bindparam("b_new"), tokens=sa.bindparam("b_tokens"), updated_at=sa.bindparam("b_now"))
)
_UPDATE_ENCOUNTER = Prepared(
    sa.update(encounters)
    .where(encounters.c.id == sa.bindparam("b_id"), encounters.c.last_seq == sa.bindparam("b_last"))
    .values(
        name=sa.bindparam("b_name"),
        director_id=sa.bindparam("b_director"),
        state=sa.bindparam("b_state", type_=_EncodedJSON()),
        active=sa.bindparam("b_active"),
        last_seq=sa.bindparam("b_seq"),
        ended_at=sa.bindparam("b_ended", type_=encounters.c.ended_at.type),
    )
)
#: The common case of `_UPDATE_ENCOUNTER`: an active encounter's state changed, nothing else. Assigning only
#: these columns leaves the rows of the indexes on the others alone (`active`, `ended_at`): SQLite rewrites
#: an index entry whenever its column is assigned, even to the same value (two pages fewer in each commit).
_UPDATE_ENCOUNTER_STATE = Prepared(
    sa.update(encounters)
    .where(encounters.c.id == sa.bindparam("b_id"), encounters.c.last_seq == sa.bindparam("b_last"))
    .values(state=sa.bindparam("b_state", type_=_EncodedJSON()), last_seq=sa.bindparam("b_seq"))
)
_INSERT_EVENT = Prepared(
    sa.insert(events),
    ("encounter_id", "channel_id", "seq", "user_id", "at", "kind", "summary", "details", "patch", "undoes"),
)
_READ_CHANNEL = (
    sa.select(
        channels.c.version,
        channels.c.tokens,
        encounters.c.id.label("encounter_id"),
        encounters.c.name,
        encounters.c.director_id,
        encounters.c.state,
        encounters.c.last_seq,
    )
    .select_from(
        # the bare column, written as the partial index `ix_encounters_one_active ... WHERE active` is: only
        # then do SQLite and PostgreSQL use that index (`active = 1` or `active IS true` scans every
        # encounter ever stored)
        channels.outerjoin(
            encounters,
            sa.and_(encounters.c.channel_id == channels.c.id, sa.text("encounters.active")),
        )
    )
    .where(channels.c.id == sa.bindparam("b_id"))
)
_READ_HEROES = (
    sa.select(heroes.c.id, heroes.c.owner_id, heroes.c.name, heroes.c.data)
    .where(heroes.c.channel_id == sa.bindparam("b_id"))
    .order_by(heroes.c.created_at, heroes.c.id)
)

#: The two reads of a channel as SQLite runs them on `_stored_version`'s connection (`Store._read_here`).
_SQLITE_READS = sqlite_dialect.dialect(paramstyle="qmark")
_READ_CHANNEL_SQL = str(_READ_CHANNEL.compile(dialect=_SQLITE_READS))
_READ_HEROES_SQL = str(_READ_HEROES.compile(dialect=_SQLITE_READS))
_READ_SETTINGS = sa.select(*(guild_settings.c[name] for name in _SETTINGS_FIELDS)).where(
    guild_settings.c.guild_id == sa.bindparam("b_id")
)
_READ_SETTINGS_SQL = str(_READ_SETTINGS.compile(dialect=_SQLITE_READS))
#: Settings stored as booleans (SQLite gives them back as 0 and 1).
_BOOL_SETTINGS = frozenset(name for name, f in _SETTINGS_FIELDS.items() if f.type in (bool, "bool"))


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _clone(value: Any) -> Any:
    """A deep copy of saved (validated) JSON data: an orjson round trip, in C, twice as fast as `marshal`'s
    and ten times a copy in Python. JSON writes every occurrence out in full, so the copy shares no list or
    dict between two places even where the original did (`codec.Reuse` makes such places)."""
    return orjson.loads(orjson.dumps(value))


def _keep_recent(kept: OrderedDict[K, V], key: K, value: V) -> None:
    """Put `value` in a least-recently-used memory of `CACHE_SIZE` entries."""
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > CACHE_SIZE:
        kept.popitem(last=False)


def _empty_snapshot() -> dict[str, Any]:
    return {"tokens": 0, "heroes": {}, "encounter": None}


@dataclass(frozen=True, slots=True)
class _Loaded:
    """A channel as read (or cached): version 0 means the channel has no row yet."""

    version: int
    snap: dict[str, Any]
    encounter_id: int | None
    last_seq: int


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


@dataclass(frozen=True, slots=True)
class _Written:
    """What one change writes besides its rows: the event's time, seq, summary, details and patch."""

    at: datetime
    seq: int
    summary: str
    details: dict[str, Any]
    patch: Any
    undoes: int | None
    state_text: str | None  # the encounter state, encoded


@dataclass(frozen=True, slots=True)
class _Saved:
    """A change found saved after an ambiguous COMMIT."""

    encounter_id: int | None


def _brief(error: BaseException) -> str:
    """One short line about a driver error for the log (no SQL, no parameters)."""
    orig = getattr(error, "orig", None) or error
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else ""
    return f"{type(orig).__name__}: {text[:160]}"


def _check_key(key: ChannelKey) -> None:
    validate.snowflake(key.guild_id, "guild id")
    validate.snowflake(key.channel_id, "channel id")


def _checked_snapshot(table: Table, before: _Loaded) -> tuple[dict[str, Any], str | None]:
    """Validate the edited table and return it as JSON data (clean values are the table's own objects, not
    copies: the caller keeps them as committed), with its encounter state encoded (None: no encounter);
    `InvalidValue` on anything unsavable."""
    tokens = validate.tokens(table.tokens)
    hero_rows: dict[str, Any] = {}
    keys: set[str] = set()
    if not isinstance(table.heroes, dict):
        raise InvalidValue("The hero roster must be a mapping.")
    for hero_id, hero in table.heroes.items():
        if not isinstance(hero_id, str) or hero_id != getattr(hero, "id", None):
            raise InvalidValue("Heroes must be added with Table.add_hero.")
        if not 1 <= len(hero_id) <= 32 or not hero_id.isascii() or not hero_id.isalnum():
            raise InvalidValue("A hero id must be 1–32 letters or digits.")
        # what the change kept of a hero (its name, the very data object saved before) was checked when it
        # was saved
        saved = before.snap["heroes"].get(hero_id)
        hero_name = _kept_name(hero.name, saved) or validate.name(hero.name, "hero name")
        key = validate.name_key(hero_name)
        if key in keys:
            raise InvalidValue(
                f"There is already a hero named {hero_name} in this channel — pick another name."
            )
        keys.add(key)
        saved_data = None if saved is None else saved["data"]
        data = validate.json_object(hero.data, "hero data", like=saved_data)
        if data is not saved_data:
            validate.check_size(data, "hero data")
        hero_rows[hero_id] = {
            "owner_id": validate.snowflake(hero.owner_id, "hero's owner id"),
            "name": hero_name,
            "data": data,
        }
    encounter = table.encounter
    if encounter is None:
        if before.snap["encounter"] is not None:
            raise InvalidValue("End an encounter with Table.end_encounter.")
        encounter_data, state_text = None, None
    else:
        if before.snap["encounter"] is not None and encounter.id != before.encounter_id:
            raise InvalidValue("End the encounter and start the next one in two separate commands.")
        if not isinstance(encounter.active, bool):
            raise InvalidValue("An encounter is active or not.")
        if before.snap["encounter"] is None and not encounter.active:
            raise InvalidValue("Start and end an encounter in two separate commands.")
        # parts of the state the change kept (the same objects: see `codec.Reuse`) are not checked again
        saved = before.snap["encounter"]
        state = validate.json_object(
            encounter.state, "encounter state", like=None if saved is None else saved["state"]
        )
        state_text = validate.check_size(state, "encounter state")
        encounter_data = {
            "name": _kept_name(encounter.name, saved) or validate.name(encounter.name, "encounter name"),
            "director_id": validate.snowflake(encounter.director_id, "Director's user id"),
            "state": state,
            "active": encounter.active,
        }
    return {"tokens": tokens, "heroes": hero_rows, "encounter": encounter_data}, state_text


def _kept_name(name: object, saved: dict[str, Any] | None) -> str | None:
    """`name` when it is the name saved before (checked then), else None."""
    if saved is not None and type(name) is str and name == saved["name"]:
        return name
    return None


class Store:
    """Persistence and concurrency for the bot. Open with `await Store.open(url)`; `await close()` at exit."""

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
        self._cache: OrderedDict[int, _Loaded] = OrderedDict()
        self._settings: OrderedDict[int, tuple[float, GuildSettings]] = OrderedDict()
        # SQLite: the write connections, inline or on a thread of their own (bot.store.writer)
        self._sqlite_writer = (
            SQLiteWriter(engine.url, busy_timeout_ms=_busy_timeout_ms(wait_limit)) if self._sqlite else None
        )
        # SQLite: `_stored_version`'s own connection, used on the event loop's thread (None: not open yet)
        self._probe_file = sqlite_file(engine.url) if self._sqlite else None
        self._probe: sqlite3.Connection | None = None
        # PostgreSQL: a pooled connection kept for `_stored_version`, used one read at a time
        self._pg_probe: AsyncConnection | None = None
        self._pg_probe_lock = asyncio.Lock()
        self._discarding: set[asyncio.Task[None]] = set()
        self._outage_at = float("-inf")  # loop time of the last wait for the database that gave up
        self._commits_since_checkpoint = 0
        self._checkpoint_task: asyncio.Task[None] | None = None

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
            busy_timeout_ms=_busy_timeout_ms(wait_limit),
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

    # -- plumbing ---------------------------------------------------------------------------------------
    def _lock(self, key: ChannelKey) -> asyncio.Lock:
        lock = self._locks.get(key.channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key.channel_id] = lock
        return lock

    def _deadline(self) -> float:
        """When a call that starts now must give up waiting for the database (event-loop time)."""
        return asyncio.get_running_loop().time() + self.wait_limit

    def _unavailable(self, error: BaseException | None = None) -> StoreUnavailable:
        """The error to raise when the database did not answer in time; remembers when it happened."""
        self._outage_at = asyncio.get_running_loop().time()
        if error is not None:
            log.warning("database unavailable, giving up: %s", _brief(error))
        return StoreUnavailable()

    async def _within(self, waiting: Awaitable[Any], deadline: float) -> None:
        """Wait for `waiting` (a lock's acquire, an event) no later than `deadline` (then `StoreUnavailable`;
        nothing was done)."""
        try:
            async with asyncio.timeout_at(deadline):
                await waiting
        except TimeoutError:
            raise self._unavailable() from None

    async def _queue(self, key: ChannelKey) -> tuple[asyncio.Lock, float]:
        """Wait for the channel's turn (commands on one channel run one at a time; the wait itself is not
        bounded: a busy channel just queues) and return its lock, held, with the deadline of this call's
        database waits. If the database went unavailable while this call queued and the wait already
        exceeded the limit, give up at once: an outage must not make each queued command wait in turn."""
        loop = asyncio.get_running_loop()
        lock = self._lock(key)
        queued = loop.time()
        await lock.acquire()
        now = loop.time()
        if now - queued > self.wait_limit and self._outage_at >= queued:
            lock.release()
            raise StoreUnavailable()
        return lock, now + self.wait_limit

    async def _retrying(self, operation: Callable[[], Awaitable[T]], deadline: float) -> T:
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
                    raise self._unavailable(error) from error
                log.info("database unavailable, retrying in %.0f ms: %s", delay * 1000, _brief(error))
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.25)

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
            return await self._write(work, deadline, attempt)
        except IntegrityError as error:
            text = str(error.orig).lower()
            if "one_active" in text or "encounters.channel_id" in text:
                raise EncounterExists() from None
            if "name_key" in text:
                raise InvalidValue("There is already a hero with that name in this channel.") from None
            raise StaleState() from error
        except OperationalError as error:
            if "snapshot" in str(error.orig).lower():
                raise StaleState() from error
            raise
        except DBAPIError as error:
            if getattr(error.orig, "sqlstate", None) in _RETRYABLE_SQLSTATES:
                raise StaleState() from error
            raise

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

    async def _stored_version(self, channel_id: int) -> int | None:
        """The channel's stored version (None: no row yet); every command asks this once or twice.

        On a SQLite file it is read right here, on the event loop's thread, through a connection kept for it
        (the standard library's `sqlite3`, never waiting for a lock): a primary-key read of one row, a few
        microseconds, where a round trip to a database thread costs a hundred. In WAL mode readers don't wait
        for writers; if it ever can't read at once, or fails, that connection is retired and the read goes
        through the pool, which waits, retries and tells an outage from a fault."""
        if self._probe_file is not None:
            try:
                row = self._probe_connection().execute(_VERSION_SQL, (channel_id,)).fetchone()
                return None if row is None else int(row[0])
            except sqlite3.Error:
                self._drop_probe()
        elif not self._sqlite and not self._pg_probe_lock.locked():  # busy: the pool reads in parallel
            try:
                return await self._pg_version(channel_id)
            except Exception as error:
                if is_unavailable(error):  # the caller waits and tries again, within its deadline
                    raise
                # asyncpg's own errors (raised raw here): the pool tells an outage from a fault
                log.info("version read on the kept connection failed, asking the pool: %s", _brief(error))
        async with self._engine.connect() as connection:
            return cast(
                "int | None",
                (
                    await connection.execute(sa.select(channels.c.version).where(channels.c.id == channel_id))
                ).scalar(),
            )

    async def _pg_version(self, channel_id: int) -> int | None:
        """PostgreSQL: the version read as one statement on a pooled connection kept for it (asyncpg's own
        `fetchval`, no transaction): a fifth of a read through the pool (check out, begin, select, roll
        back, check in). One read at a time uses it (while it is busy, `_stored_version` asks the pool, so
        reads never queue behind each other); whatever goes wrong retires it."""
        async with self._pg_probe_lock:
            try:
                if self._pg_probe is None:
                    self._pg_probe = await self._engine.connect()
                raw = await self._pg_probe.get_raw_connection()
                driver = raw.driver_connection
                assert driver is not None
                version = await driver.fetchval(_PG_VERSION_SQL, channel_id)
                return None if version is None else int(version)
            except BaseException:  # a failed or cancelled read may leave the connection mid-statement
                probe, self._pg_probe = self._pg_probe, None
                if probe is not None:
                    task = asyncio.get_running_loop().create_task(self._discard(probe))
                    self._discarding.add(task)
                    task.add_done_callback(self._discarding.discard)
                raise

    @staticmethod
    async def _discard(connection: AsyncConnection) -> None:
        with suppress(Exception):
            await connection.invalidate()
            await connection.close()

    async def _discard_pg_probe(self) -> None:
        probe, self._pg_probe = self._pg_probe, None
        if probe is not None:
            with suppress(Exception):
                await probe.close()

    def _probe_connection(self) -> sqlite3.Connection:
        """The SQLite connection for reads on the event loop's thread (`_open_probe`), opened on first use."""
        if self._probe is None:
            assert self._probe_file is not None
            self._probe = _open_probe(self._probe_file)
        return self._probe

    def _drop_probe(self) -> None:
        probe, self._probe = self._probe, None
        if probe is not None:
            with suppress(sqlite3.Error):
                probe.close()

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

    def _insert(self, table: sa.Table) -> Any:
        return sqlite_dialect.insert(table) if self._sqlite else pg_dialect.insert(table)

    def _remember(self, channel_id: int, loaded: _Loaded) -> None:
        _keep_recent(self._cache, channel_id, loaded)

    async def _read(self, channel_id: int) -> _Loaded:
        """The channel as stored: its row, its active encounter and its roster, in one snapshot.

        On a SQLite file it is read right here, on the event loop's thread (`_read_here`); through the pool
        each statement is a round trip to a database thread, which under load waits for the busy event loop
        (and the GIL) at every step: the first commands of a hundred channels at once waited 1.5 s for the
        pool's five connections in the wire benchmark. If that read fails, the pool reads: it waits, retries
        and tells an outage from a fault."""
        if self._probe_file is not None:
            try:
                return self._read_here(channel_id)
            except sqlite3.Error:
                self._drop_probe()
        params = {"b_id": channel_id}
        async with self._engine.connect() as connection, connection.begin():
            row = (await connection.execute(_READ_CHANNEL, params)).first()
            if row is None:
                return _Loaded(0, _empty_snapshot(), None, 0)
            hero_rows = (await connection.execute(_READ_HEROES, params)).all()
        return _loaded(tuple(row), [tuple(h) for h in hero_rows])

    def _read_here(self, channel_id: int) -> _Loaded:
        """`_read` through `_stored_version`'s connection (never waiting for a lock: in WAL mode readers don't
        wait for writers), its two statements in one read transaction, the JSON columns decoded here."""
        probe = self._probe_connection()
        probe.execute("BEGIN")
        try:
            row = probe.execute(_READ_CHANNEL_SQL, (channel_id,)).fetchone()
            hero_rows = probe.execute(_READ_HEROES_SQL, (channel_id,)).fetchall() if row is not None else []
        finally:
            probe.execute("COMMIT")
        if row is None:
            return _Loaded(0, _empty_snapshot(), None, 0)
        return _loaded(row, hero_rows, decode=orjson.loads)

    async def _load(self, channel_id: int) -> _Loaded:
        cached = self._cache.get(channel_id)
        if cached is not None:
            return cached
        loaded = await self._read(channel_id)
        self._remember(channel_id, loaded)
        return loaded

    # -- the one entry point ----------------------------------------------------------------------------
    async def mutate(
        self,
        key: ChannelKey,
        user_id: int,
        kind: str,
        change: Callable[[Table], Change[T]],
        *,
        retries: int = 3,
        shared: bool = False,
    ) -> Committed[T]:
        """Run `change` on a working copy of the channel and commit what it changed as one event.

        `change` may raise anything: nothing is written and the exception propagates unchanged. A write
        that lost a race (`StaleState`) is retried up to `retries` times with a fresh table, then raised.

        With `shared`, the table's hero data and encounter state are the store's own memory of the channel
        (as `view(shared=True)` gives them), not copies: `change` may add, remove and reassign heroes, their
        `data` and the encounter's `state`, but must never edit those dicts and lists in place (the bot's
        changes replace them with freshly encoded data; `verify_shared` checks this in tests).
        """
        _check_key(key)
        validate.snowflake(user_id, "user id")
        if validate.kind(kind) == UNDO_KIND:
            raise InvalidValue("The event kind 'undo' is reserved for Store.undo.")
        lock, deadline = await self._queue(key)
        try:
            attempt = 0
            while True:
                cached = self._cache.get(key.channel_id)
                loaded = (
                    cached
                    if cached is not None
                    else await self._retrying(lambda: self._load(key.channel_id), deadline)
                )
                snap = loaded.snap if shared else _clone(loaded.snap)
                table = Table.from_snapshot(key, loaded.version, snap, loaded.encounter_id)
                kept = orjson.dumps(snap) if shared and self.verify_shared else None
                try:
                    outcome = change(table)
                except Exception:
                    # A refusal based on a cached table that another process has since changed is re-judged
                    # on fresh data; otherwise the exception propagates unchanged.
                    if cached is not None and await self._moved(key.channel_id, cached.version, deadline):
                        continue
                    raise
                if not isinstance(outcome, Change):
                    raise TypeError("a change function must return a Change")
                if kept is not None and orjson.dumps(snap) != kept:
                    self._cache.pop(key.channel_id, None)
                    raise AssertionError(f"a {kind!r} change edited the store's shared memory in place")
                try:
                    committed = await self._commit(
                        key, user_id, kind, loaded, table, outcome, deadline=deadline
                    )
                except StaleState:
                    self._cache.pop(key.channel_id, None)
                    attempt += 1
                    if attempt > retries:
                        raise
                    await asyncio.sleep(random.uniform(0, 0.003 * attempt))
                    continue
                if (
                    committed.seq is None
                    and cached is not None
                    and await self._moved(key.channel_id, cached.version, deadline)
                ):
                    continue  # "nothing changed" was judged on a stale cached table
                return committed
        finally:
            lock.release()

    async def _moved(self, channel_id: int, version: int, deadline: float) -> bool:
        """True (and the cache entry dropped) when the channel's stored version is no longer `version`."""
        stored = await self._retrying(functools.partial(self._stored_version, channel_id), deadline)
        if (stored or 0) == version:
            return False
        self._cache.pop(channel_id, None)
        return True

    async def _commit(
        self,
        key: ChannelKey,
        user_id: int,
        kind: str,
        loaded: _Loaded,
        table: Table,
        outcome: Change[T],
        *,
        deadline: float,
        undoes: int | None = None,
    ) -> Committed[T]:
        after, state_text = _checked_snapshot(table, loaded)
        patch = diff(loaded.snap, after)
        if patch is None and undoes is None:
            return Committed(outcome.value, loaded.version, None, loaded.encounter_id)
        summary = validate.text(outcome.summary, "summary", validate.SUMMARY_LIMIT)
        details = validate.json_object(outcome.details, "details")
        validate.check_size(details, "details")
        now = _now()
        channel_id = key.channel_id
        version = loaded.version + 1
        enc_before = loaded.snap["encounter"]
        enc_after = after["encounter"]
        if enc_before is None and enc_after is not None:
            seq = 1
        elif enc_before is not None and enc_after is not None:
            seq = loaded.last_seq + 1
        else:
            seq = version
        written = _Written(now, seq, summary, details, patch, undoes, state_text)
        encounter_id = await self._write_with_retries(key, user_id, kind, loaded, after, written, deadline)
        if enc_after is not None and enc_after["active"]:
            self._remember(channel_id, _Loaded(version, after, encounter_id, seq))
        else:
            after["encounter"] = None
            self._remember(channel_id, _Loaded(version, after, None, 0))
        if self._sqlite:
            self._after_sqlite_commit()
        if outcome_encounter := table.encounter:
            outcome_encounter.id = encounter_id
        return Committed(outcome.value, version, seq, encounter_id)

    def _write_change(
        self,
        connection: Connection,
        key: ChannelKey,
        user_id: int,
        kind: str,
        loaded: _Loaded,
        after: dict[str, Any],
        written: _Written,
    ) -> int | None:
        """The rows of one change, in the open write transaction; returns the encounter id."""
        channel_id = key.channel_id
        now, version, seq = written.at, loaded.version + 1, written.seq
        enc_before = loaded.snap["encounter"]
        enc_after = after["encounter"]
        encounter_id = loaded.encounter_id
        # 1. compare-and-set the channel version (also takes PostgreSQL's row lock).
        if loaded.version == 0:
            matched = connection.execute(
                self._insert(channels)
                .values(
                    id=channel_id,
                    guild_id=key.guild_id,
                    tokens=after["tokens"],
                    version=1,
                    updated_at=now,
                )
                .on_conflict_do_nothing(index_elements=["id"])
            ).rowcount
        else:
            matched = execute(
                connection,
                _CAS_VERSION,
                {
                    "b_id": channel_id,
                    "b_version": loaded.version,
                    "b_new": version,
                    "b_tokens": after["tokens"],
                    "b_now": now,
                },
            )
        if matched != 1:
            raise StaleState()
        # 2. heroes: only the changed rows.
        self._write_heroes(connection, channel_id, loaded.snap["heroes"], after["heroes"], now)
        # 3. the encounter row and the event's seq.
        if enc_before is None and enc_after is not None:
            encounter_id = (
                connection.execute(
                    sa.insert(encounters)
                    .values(
                        guild_id=key.guild_id,
                        channel_id=channel_id,
                        name=enc_after["name"],
                        director_id=enc_after["director_id"],
                        state=enc_after["state"],
                        active=True,
                        last_seq=1,
                        created_at=now,
                    )
                    .returning(encounters.c.id)
                )
            ).scalar_one()
            seq = 1
        elif enc_before is not None and enc_after is not None:
            seq = loaded.last_seq + 1
            params: dict[str, Any] = {
                "b_id": encounter_id,
                "b_last": loaded.last_seq,
                "b_seq": seq,
                "b_state": written.state_text,
            }
            if (
                enc_after["active"]
                and enc_after["name"] == enc_before["name"]
                and enc_after["director_id"] == enc_before["director_id"]
            ):
                matched = execute(connection, _UPDATE_ENCOUNTER_STATE, params)
            else:
                params["b_name"], params["b_director"] = enc_after["name"], enc_after["director_id"]
                params["b_active"] = enc_after["active"]
                params["b_ended"] = None if enc_after["active"] else now
                matched = execute(connection, _UPDATE_ENCOUNTER, params)
            if matched != 1:
                raise StaleState()
        else:
            seq = version
        # 4. the event.
        execute(
            connection,
            _INSERT_EVENT,
            {
                "encounter_id": encounter_id,
                "channel_id": channel_id,
                "seq": seq,
                "user_id": user_id,
                "at": now,
                "kind": kind,
                "summary": written.summary,
                "details": written.details,
                "patch": written.patch,
                "undoes": written.undoes,
            },
        )
        return encounter_id

    async def _write_with_retries(
        self,
        key: ChannelKey,
        user_id: int,
        kind: str,
        loaded: _Loaded,
        after: dict[str, Any],
        written: _Written,
        deadline: float,
    ) -> int | None:
        """Write one change; while the database does not answer, try again until `deadline`.

        A write that failed before COMMIT changed nothing, so it is simply repeated (the version
        compare-and-set still guards it). A PostgreSQL connection lost during COMMIT is ambiguous: ask the
        database whether this very event was saved before deciding (`_confirm`), so nothing is applied twice.
        """
        delay = 0.02
        loop = asyncio.get_running_loop()
        while True:
            attempt = Attempt()
            try:
                return await self._transaction(
                    functools.partial(
                        self._write_change,
                        key=key,
                        user_id=user_id,
                        kind=kind,
                        loaded=loaded,
                        after=after,
                        written=written,
                    ),
                    deadline,
                    attempt,
                )
            except StoreError:
                raise
            except Exception as error:
                if not is_unavailable(error):
                    raise
                if attempt.committing and not self._sqlite:
                    saved = await self._confirm(key, loaded, user_id, kind, written)
                    if saved is not None:
                        return saved.encounter_id
                left = deadline - loop.time()
                if left <= delay:
                    raise self._unavailable(error) from error
                log.info("database unavailable, writing again in %.0f ms: %s", delay * 1000, _brief(error))
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.25)

    async def _confirm(
        self, key: ChannelKey, loaded: _Loaded, user_id: int, kind: str, written: _Written
    ) -> _Saved | None:
        """After a connection died during COMMIT: the event if it was saved, None if it was not;
        `SaveUncertain` when the database cannot be asked within `CONFIRM_LIMIT`.

        The server may still be finishing the lost transaction, so first wait for it to end: take the lock
        it held on the channel row (`FOR SHARE` waits for its `UPDATE`; for a channel's first write, an
        `INSERT ... ON CONFLICT DO NOTHING` waits for its uncommitted row), then look for the event. The
        probe's own transaction is rolled back."""
        channel_id = key.channel_id

        async def find() -> _Saved | None:
            async with self._engine.connect() as connection, connection.begin() as transaction:
                if loaded.version == 0:
                    await connection.execute(
                        self._insert(channels)
                        .values(id=channel_id, guild_id=key.guild_id, tokens=0, version=0, updated_at=_now())
                        .on_conflict_do_nothing(index_elements=["id"])
                    )
                else:
                    await connection.execute(
                        sa.select(channels.c.version)
                        .where(channels.c.id == channel_id)
                        .with_for_update(read=True)
                    )
                row = (
                    await connection.execute(
                        sa.select(events.c.encounter_id).where(
                            events.c.channel_id == channel_id,
                            events.c.seq == written.seq,
                            events.c.at == written.at,
                            events.c.user_id == user_id,
                            events.c.kind == kind,
                        )
                    )
                ).first()
                await transaction.rollback()
            return None if row is None else _Saved(row.encounter_id)

        try:
            return await self._retrying(find, asyncio.get_running_loop().time() + CONFIRM_LIMIT)
        except StoreUnavailable as error:
            log.error("a change may or may not have been saved (channel %s, seq %s)", channel_id, written.seq)
            raise SaveUncertain() from error

    def _write_heroes(
        self,
        connection: Connection,
        channel_id: int,
        before: dict[str, Any],
        after: dict[str, Any],
        now: datetime,
    ) -> None:
        removed = [hero_id for hero_id in before if hero_id not in after]
        added = [hero_id for hero_id in after if hero_id not in before]
        changed = [
            hero_id
            for hero_id in after
            if hero_id in before and diff(before[hero_id], after[hero_id]) is not None
        ]
        if removed:
            connection.execute(sa.delete(heroes).where(heroes.c.id.in_(removed)))
        renamed = [
            hero_id
            for hero_id in changed
            if validate.name_key(before[hero_id]["name"]) != validate.name_key(after[hero_id]["name"])
        ]
        if len(renamed) > 1:  # names may be swapped: park them on unique temporary keys first
            for hero_id in renamed:
                connection.execute(
                    sa.update(heroes).where(heroes.c.id == hero_id).values(name_key=_TEMP_NAME_KEY + hero_id)
                )
        for hero_id in changed:
            row = after[hero_id]
            connection.execute(
                sa.update(heroes)
                .where(heroes.c.id == hero_id, heroes.c.channel_id == channel_id)
                .values(
                    owner_id=row["owner_id"],
                    name=row["name"],
                    name_key=validate.name_key(row["name"]),
                    data=row["data"],
                    updated_at=now,
                )
            )
        if added:
            connection.execute(
                sa.insert(heroes),
                [
                    {
                        "id": hero_id,
                        "channel_id": channel_id,
                        "owner_id": after[hero_id]["owner_id"],
                        "name": after[hero_id]["name"],
                        "name_key": validate.name_key(after[hero_id]["name"]),
                        "data": after[hero_id]["data"],
                        "created_at": now,
                        "updated_at": now,
                    }
                    for hero_id in added
                ],
            )

    # -- reading ----------------------------------------------------------------------------------------
    async def view(self, key: ChannelKey, *, shared: bool = False, fresh: bool = True) -> Table:
        """A snapshot of the channel, read fresh (no lock); editing it changes nothing.

        With `shared`, the table's hero data and encounter state are the store's own memory of the channel,
        not copies: for a caller that only reads them (decoding a state is cheaper than copying it
        first). Its attributes may still be reassigned; its dicts and lists must never be edited.

        Without `fresh`, the store's memory of the channel is taken as it is, without the version read that
        proves it is still the stored one (the database is read only when there is no memory of it): for a
        judgement that a later `mutate` checks again on the table it commits against (this process's memory
        is stale only after another process wrote to the channel, which sharding makes rare)."""
        _check_key(key)
        deadline = self._deadline()
        loaded = self._cache.get(key.channel_id)
        # one small query proves the cached table is still the stored one (every commit bumps the version)
        if loaded is None or (fresh and await self._moved(key.channel_id, loaded.version, deadline)):
            loaded = await self._retrying(lambda: self._read(key.channel_id), deadline)
            self._remember(key.channel_id, loaded)
        snap = loaded.snap if shared else _clone(loaded.snap)
        return Table.from_snapshot(key, loaded.version, snap, loaded.encounter_id)

    # -- undo -------------------------------------------------------------------------------------------
    async def undo(self, key: ChannelKey, user_id: int, *, retries: int = 3) -> Committed[Event]:
        """Revert the newest change of the active encounter that is not undone yet, as an event of kind
        "undo" (its `undoes` names the seq). Repeating walks back to the start; then `NothingToUndo`."""
        _check_key(key)
        validate.snowflake(user_id, "user id")
        lock, deadline = await self._queue(key)
        try:
            attempt = 0
            while True:
                # Undo is rare: read fresh rather than trust the cache, so its errors are never stale.
                loaded = await self._retrying(lambda: self._read(key.channel_id), deadline)
                self._remember(key.channel_id, loaded)
                if loaded.encounter_id is None:
                    raise NoEncounter()
                target = await self._retrying(
                    functools.partial(self._undo_target, loaded.encounter_id), deadline
                )
                if target is None:
                    raise NothingToUndo()
                try:
                    restored = revert(_clone(loaded.snap), target.patch)
                except (KeyError, IndexError, TypeError, ValueError):
                    raise StoreError(f"Change #{target.seq} can't be undone any more.") from None
                table = Table.from_snapshot(key, loaded.version, restored, loaded.encounter_id)
                outcome = Change(
                    f"Undo #{target.seq}: {target.summary}"[:200], target, {"undoes": target.seq}
                )
                try:
                    return await self._commit(
                        key, user_id, UNDO_KIND, loaded, table, outcome, deadline=deadline, undoes=target.seq
                    )
                except StaleState:
                    self._cache.pop(key.channel_id, None)
                    attempt += 1
                    if attempt > retries:
                        raise
                    await asyncio.sleep(random.uniform(0, 0.003 * attempt))
        finally:
            lock.release()

    async def _undo_target(self, encounter_id: int) -> Event | None:
        undo = events.alias("undo")
        undone = (
            sa.select(undo.c.id)
            .where(undo.c.encounter_id == encounter_id, undo.c.undoes == events.c.seq)
            .exists()
        )
        stmt = (
            sa.select(events)
            .where(
                events.c.encounter_id == encounter_id,
                events.c.seq > 1,
                events.c.undoes.is_(None),
                events.c.kind != UNDO_KIND,
                ~undone,
            )
            .order_by(events.c.seq.desc())
            .limit(1)
        )
        async with self._engine.connect() as connection:
            row = (await connection.execute(stmt)).first()
        return None if row is None else _event(row, None)

    # -- trackers, settings -----------------------------------------------------------------------------
    async def set_tracker(self, encounter_id: int, channel_id: int, message_id: int) -> None:
        """Remember the tracker message of an encounter (no event, no version bump)."""
        validate.snowflake(channel_id, "channel id")
        validate.snowflake(message_id, "message id")
        if not _is_encounter_id(encounter_id):
            raise NoEncounter("That encounter no longer exists.")
        deadline = self._deadline()

        def work(connection: Connection) -> int:
            result = connection.execute(
                sa.update(encounters)
                .where(encounters.c.id == encounter_id)
                .values(tracker_channel_id=channel_id, tracker_message_id=message_id)
            )
            return int(result.rowcount)

        async def write() -> int:
            return await self._transaction(work, deadline)

        if await self._retrying(write, deadline) != 1:  # idempotent: safe to repeat
            raise NoEncounter("That encounter no longer exists.")

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (the defaults when it never changed any), from memory for `SETTINGS_TTL`
        seconds after they were read or changed here."""
        validate.snowflake(guild_id, "guild id")
        now = time.monotonic()
        kept = self._settings.get(guild_id)
        if kept is not None and now - kept[0] < SETTINGS_TTL:
            return kept[1]
        settings = await self._read_settings(guild_id)
        _keep_recent(self._settings, guild_id, (now, settings))
        return settings

    async def _read_settings(self, guild_id: int) -> GuildSettings:
        """The guild's stored settings. On a SQLite file, read right here through `_stored_version`'s
        connection, as `_read` reads a channel (when a guild's settings expire, every command of the guild in
        flight asks at once: through the pool they queued for its connections); if that fails, or on
        PostgreSQL, through the pool."""
        if self._probe_file is not None:
            try:
                row = self._probe_connection().execute(_READ_SETTINGS_SQL, (guild_id,)).fetchone()
                return _settings_of(guild_id, row)
            except sqlite3.Error:
                self._drop_probe()

        async def read() -> Any:
            async with self._engine.connect() as connection:
                return (await connection.execute(_READ_SETTINGS, {"b_id": guild_id})).first()

        row = await self._retrying(read, self._deadline())
        return _settings_of(guild_id, None if row is None else tuple(row))

    async def update_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of the guild's settings; `InvalidValue` for an unknown setting or a bad value."""
        validate.snowflake(guild_id, "guild id")
        clean: dict[str, Any] = {}
        for name, value in changes.items():
            if name not in _SETTINGS_FIELDS:
                raise InvalidValue(f"There is no setting called {name!r}.")
            if name == "director_role_id":
                clean[name] = validate.optional_snowflake(value, "Director role id")
            elif name == "malice_rounding":
                if value not in ("down", "nearest", "up"):
                    raise InvalidValue("Malice rounding is down, nearest or up.")
                clean[name] = value
            else:
                if not isinstance(value, bool):
                    raise InvalidValue(f"The setting {name} is on (true) or off (false).")
                clean[name] = value
        if clean:
            now = _now()
            defaults = dataclasses.asdict(GuildSettings(guild_id))
            stmt = (
                self._insert(guild_settings)
                .values(**{**defaults, **clean, "updated_at": now})
                .on_conflict_do_update(index_elements=["guild_id"], set_={**clean, "updated_at": now})
            )
            deadline = self._deadline()

            async def write() -> None:
                await self._transaction(lambda connection: connection.execute(stmt), deadline)

            await self._retrying(write, deadline)  # an upsert: safe to repeat
        self._settings.pop(guild_id, None)
        return await self.get_settings(guild_id)

    # -- the log ----------------------------------------------------------------------------------------
    async def find_encounter(self, encounter_id: int) -> EncounterInfo | None:
        """An encounter by id (active or ended), or None when it does not exist (any more)."""
        if not _is_encounter_id(encounter_id):
            return None

        async def read() -> Any:
            async with self._engine.connect() as connection:
                return (
                    await connection.execute(sa.select(encounters).where(encounters.c.id == encounter_id))
                ).first()

        row = await self._retrying(read, self._deadline())
        if row is None:
            return None
        return EncounterInfo(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            name=row.name,
            director_id=row.director_id,
            state=row.state,
            active=row.active,
            last_seq=row.last_seq,
            tracker_channel_id=row.tracker_channel_id,
            tracker_message_id=row.tracker_message_id,
            created_at=_aware(row.created_at),
            ended_at=None if row.ended_at is None else _aware(row.ended_at),
        )

    async def _encounter_or_error(self, encounter_id: int) -> EncounterInfo:
        info = await self.find_encounter(encounter_id)
        if info is None:
            raise NoEncounter("That encounter no longer exists.")
        return info

    async def events(self, encounter_id: int) -> list[Event]:
        """The encounter's log in order (seq 1 is its start); `undone_by` is filled in."""
        await self._encounter_or_error(encounter_id)

        async def read() -> Sequence[Any]:
            async with self._engine.connect() as connection:
                return (
                    await connection.execute(
                        sa.select(events).where(events.c.encounter_id == encounter_id).order_by(events.c.seq)
                    )
                ).all()

        rows = await self._retrying(read, self._deadline())
        undone_by = {row.undoes: row.seq for row in rows if row.undoes is not None}
        return [_event(row, undone_by.get(row.seq)) for row in rows]

    async def export_json(self, encounter_id: int, *, hide: Callable[[Event], Event] | None = None) -> str:
        """The encounter and its whole log as a JSON document; with `hide` (a players' view), each event as
        `hide` gives it and no state."""
        info = await self._encounter_or_error(encounter_id)
        log = await self.events(encounter_id)
        if hide is not None:
            log = [hide(e) for e in log]
            info = dataclasses.replace(info, state={})
        encounter = dataclasses.asdict(info)
        encounter["created_at"] = info.created_at.isoformat()
        encounter["ended_at"] = None if info.ended_at is None else info.ended_at.isoformat()
        document = {
            "format": "draw-steel-bot/encounter",
            "format_version": 1,
            "encounter": encounter,
            "events": [{**dataclasses.asdict(e), "at": e.at.isoformat()} for e in log],
        }
        return json.dumps(document, ensure_ascii=False, indent=2)

    async def transcript_markdown(
        self, encounter_id: int, *, hide: Callable[[Event], Event] | None = None
    ) -> str:
        """A readable Markdown transcript (meant as a file attachment, so mentions never ping); with `hide`
        (a players' view), each event as `hide` gives it."""
        info = await self._encounter_or_error(encounter_id)
        log = await self.events(encounter_id)
        if hide is not None:
            log = [hide(e) for e in log]
        ended = "still running" if info.ended_at is None else f"ended {info.ended_at:%Y-%m-%d %H:%M} UTC"
        lines = [
            f"# {_md(info.name)}",
            "",
            f"Director <@{info.director_id}> · channel <#{info.channel_id}> · "
            f"started {info.created_at:%Y-%m-%d %H:%M} UTC · {ended}",
            "",
        ]
        for event in log:
            note = f" *(undone by #{event.undone_by})*" if event.undone_by is not None else ""
            lines.append(
                f"- **#{event.seq}** {event.at:%H:%M:%S} <@{event.user_id}> `{event.kind}` — "
                f"{_md(event.summary)}{note}"
            )
        return "\n".join(lines) + "\n"

    async def prune(self, older_than: timedelta) -> int:
        """Delete encounters that ended more than `older_than` ago, with their events; return how many."""
        if older_than < timedelta(0):
            raise InvalidValue("Prune needs a positive age.")
        cutoff = _now() - older_than
        async with self._engine.connect() as connection:
            ids: Sequence[int] = (
                (
                    await connection.execute(
                        sa.select(encounters.c.id).where(
                            encounters.c.active.is_(False), encounters.c.ended_at < cutoff
                        )
                    )
                )
                .scalars()
                .all()
            )
        for start in range(0, len(ids), 500):
            await self._transaction(functools.partial(_delete_ended, list(ids[start : start + 500])))
        return len(ids)


def _delete_ended(chunk: list[int], connection: Connection) -> None:
    """Delete these ended encounters and their events (one `prune` transaction)."""
    connection.execute(sa.delete(events).where(events.c.encounter_id.in_(chunk)))
    connection.execute(
        sa.delete(encounters).where(encounters.c.id.in_(chunk), encounters.c.active.is_(False))
    )


def _busy_timeout_ms(wait_limit: float) -> int:
    """SQLite's busy timeout for a store with this wait limit (the writer tightens it per call)."""
    return max(1, int(wait_limit * 1000))


def _as_is(value: Any) -> Any:
    return value


def _settings_of(guild_id: int, row: Sequence[Any] | None) -> GuildSettings:
    """A guild's settings from its stored row (the columns of `_READ_SETTINGS`), the defaults without one."""
    if row is None:
        return GuildSettings(guild_id)
    values: dict[str, Any] = {
        name: bool(value) if name in _BOOL_SETTINGS and value is not None else value
        for name, value in zip(_SETTINGS_FIELDS, row, strict=True)
    }
    return GuildSettings(guild_id, **values)


def _loaded(
    row: Sequence[Any], hero_rows: Sequence[Sequence[Any]], *, decode: Callable[[Any], Any] = _as_is
) -> _Loaded:
    """A channel's `_Loaded` from its read (`_READ_CHANNEL`'s row and `_READ_HEROES`' rows); `decode` turns
    the JSON columns (state, hero data) into data where the driver gives them as text."""
    version, tokens, encounter_id, name, director_id, state, last_seq = row
    roster = {h: {"owner_id": o, "name": hero, "data": decode(data)} for h, o, hero, data in hero_rows}
    snap: dict[str, Any] = {"tokens": tokens, "heroes": roster, "encounter": None}
    if encounter_id is None:
        return _Loaded(version, snap, None, 0)
    snap["encounter"] = {"name": name, "director_id": director_id, "state": decode(state), "active": True}
    return _Loaded(version, snap, encounter_id, last_seq)


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


def _is_encounter_id(value: object) -> bool:
    """Encounter ids are positive 32-bit integers (the column is INTEGER on both engines)."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 2**31 - 1


def _md(text: str) -> str:
    return " ".join(text.split())


def _event(row: Any, undone_by: int | None) -> Event:
    return Event(
        encounter_id=row.encounter_id,
        channel_id=row.channel_id,
        seq=row.seq,
        user_id=row.user_id,
        at=_aware(row.at),
        kind=row.kind,
        summary=row.summary,
        details=cast(dict[str, Any], row.details),
        patch=row.patch,
        undoes=row.undoes,
        undone_by=undone_by,
    )
