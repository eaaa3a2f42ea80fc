"""`Snapshots`: reading a channel — its stored version (the check that proves a remembered table current),
its snapshot (from the store's memory when it is still the stored one), where its campaign lives — and the
memory of recent channels.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections import OrderedDict
from contextlib import suppress
from typing import cast

import orjson
import sqlalchemy as sa
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store.core import keep_recent
from bot.store.database import Database
from bot.store.errors import OtherServer
from bot.store.faults import brief, is_unavailable, log
from bot.store.models import channels, encounters, heroes
from bot.store.snapshot import Away, Loaded, empty_snapshot, loaded_from
from bot.store.table import ChannelKey

_VERSION_SQL = f"SELECT version FROM {channels.name} WHERE id = ?"
_PG_VERSION_SQL = f"SELECT version FROM {channels.name} WHERE id = $1"
READ_CHANNEL = (
    sa.select(
        channels.c.version,
        channels.c.tokens,
        channels.c.parent_id,
        channels.c.campaign_id,
        encounters.c.id.label("encounter_id"),
        encounters.c.name,
        encounters.c.director_id,
        encounters.c.state,
        encounters.c.last_seq,
        channels.c.guild_id,  # checked against the caller's server (`_channel`)
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
READ_CHANNEL_SQL = str(READ_CHANNEL.compile(dialect=_SQLITE_READS))
_READ_HEROES_SQL = str(_READ_HEROES.compile(dialect=_SQLITE_READS))


class Snapshots:
    """Reading channels: the version check, the snapshot read, the memory of recent channels (`cache`)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._waits = db.waits
        #: Each channel's last committed snapshot, least recently used first (`CACHE_SIZE` channels).
        self.cache: OrderedDict[int, Loaded] = OrderedDict()
        # PostgreSQL: a pooled connection kept for `stored_version`, used one read at a time
        self._pg_probe: AsyncConnection | None = None
        self._pg_probe_lock = asyncio.Lock()
        self._discarding: set[asyncio.Task[None]] = set()

    async def stored_version(self, channel_id: int) -> int | None:
        """The channel's stored version (None: no row yet); every command asks this once or twice.

        On a SQLite file it is read right here, on the event loop's thread, through a connection kept for it
        (the standard library's `sqlite3`, never waiting for a lock): a primary-key read of one row, a few
        microseconds, where a round trip to a database thread costs a hundred. In WAL mode readers don't wait
        for writers; if it ever can't read at once, or fails, that connection is retired and the read goes
        through the pool, which waits, retries and tells an outage from a fault."""
        if self._db.probe_file is not None:
            try:
                row = self._db.probe().execute(_VERSION_SQL, (channel_id,)).fetchone()
                return None if row is None else int(row[0])
            except sqlite3.Error:
                self._db.drop_probe()
        elif not self._db.sqlite and not self._pg_probe_lock.locked():  # busy: the pool reads in parallel
            try:
                return await self._pg_version(channel_id)
            except Exception as error:
                if is_unavailable(error):  # the caller waits and tries again, within its deadline
                    raise
                # asyncpg's own errors (raised raw here): the pool tells an outage from a fault
                log.info("version read on the kept connection failed, asking the pool: %s", brief(error))
        async with self._db.engine.connect() as connection:
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
                    self._pg_probe = await self._db.engine.connect()
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

    async def close(self) -> None:
        """Close the connection kept for the version check (PostgreSQL)."""
        if self._discarding:
            await asyncio.gather(*self._discarding, return_exceptions=True)
        probe, self._pg_probe = self._pg_probe, None
        if probe is not None:
            with suppress(Exception):
                await probe.close()

    def remember(self, channel_id: int, loaded: Loaded) -> None:
        keep_recent(self.cache, channel_id, loaded)

    def forget(self, *channel_ids: int) -> None:
        """Drop the memory of these channels (the next command reads them)."""
        for channel_id in channel_ids:
            self.cache.pop(channel_id, None)

    async def read(self, channel_id: int) -> Loaded:
        """The channel as stored: its row, its active encounter and its roster, in one snapshot.

        On a SQLite file it is read right here, on the event loop's thread (`_read_here`); through the pool
        each statement is a round trip to a database thread, which under load waits for the busy event loop
        (and the GIL) at every step: the first commands of a hundred channels at once waited 1.5 s for the
        pool's five connections in the wire benchmark. If that read fails, the pool reads: it waits, retries
        and tells an outage from a fault."""
        if self._db.probe_file is not None:
            try:
                return self._read_here(channel_id)
            except sqlite3.Error:
                self._db.drop_probe()
        params = {"b_id": channel_id}
        async with self._db.engine.connect() as connection, connection.begin():
            row = (await connection.execute(READ_CHANNEL, params)).first()
            if row is None:
                return Loaded(0, empty_snapshot(), None, 0)
            hero_rows = (await connection.execute(_READ_HEROES, params)).all()
        return loaded_from(tuple(row), [tuple(h) for h in hero_rows])

    def _read_here(self, channel_id: int) -> Loaded:
        """`read` through `stored_version`'s connection (never waiting for a lock: in WAL mode readers don't
        wait for writers), its two statements in one read transaction, the JSON columns decoded here."""
        probe = self._db.probe()
        probe.execute("BEGIN")
        try:
            row = probe.execute(READ_CHANNEL_SQL, (channel_id,)).fetchone()
            hero_rows = probe.execute(_READ_HEROES_SQL, (channel_id,)).fetchall() if row is not None else []
        finally:
            probe.execute("COMMIT")
        if row is None:
            return Loaded(0, empty_snapshot(), None, 0)
        return loaded_from(row, hero_rows, decode=orjson.loads)

    async def moved(self, channel_id: int, version: int, deadline: float) -> bool:
        """True (and the cache entry dropped) when the channel's stored version is no longer `version`."""
        stored = await self._waits.retrying(functools.partial(self.stored_version, channel_id), deadline)
        if (stored or 0) == version:
            return False
        self.cache.pop(channel_id, None)
        return True

    async def channel(self, channel_id: int, guild_id: int, deadline: float, how: str) -> Loaded:
        """The channel: from memory as it is (`how="kept"`), from memory once proved to be the stored one
        (`"proved"`: one small query), or read (`"read"`); `OtherServer` when its row belongs to another
        server than `guild_id` (a row's server never changes, so the remembered one is checked as well)."""
        loaded = self.cache.get(channel_id) if how != "read" else None
        if loaded is None or (how == "proved" and await self.moved(channel_id, loaded.version, deadline)):
            loaded = await self._waits.retrying(functools.partial(self.read, channel_id), deadline)
            self.remember(channel_id, loaded)
        if loaded.guild_id is not None and loaded.guild_id != guild_id:
            raise OtherServer()
        return loaded

    async def place(self, key: ChannelKey, deadline: float, how: str = "kept") -> tuple[Loaded, Away | None]:
        """The channel as a command sees it, and where its campaign lives (None: the channel is its
        campaign's home). A thread plays in its parent's campaign (the parent as stored, else as `key`
        says), a channel in the one it joined (`campaign_id`), else in its own.

        The lookup is in the rows a command reads anyway, kept in memory: a warm command reads no more. Each
        row read (the channel, its parent, its campaign's home) must be `key`'s server's (`OtherServer`)."""
        guild_id = key.guild_id
        loaded = await self.channel(key.channel_id, guild_id, deadline, how)
        parent = loaded.parent_id if loaded.parent_id is not None else key.parent_id
        if parent is None:
            home_id = loaded.campaign_id or key.channel_id
            if home_id == key.channel_id:
                return loaded, None
            home = await self.channel(home_id, guild_id, deadline, how)
        else:
            home = await self.channel(parent, guild_id, deadline, how)
            home_id = home.campaign_id or parent
            if home_id != parent:
                home = await self.channel(home_id, guild_id, deadline, how)
        away = Away(loaded, home_id, home)
        return away.combined(), away
