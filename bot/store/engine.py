"""The engines: URL normalisation, SQLite pragmas and `BEGIN IMMEDIATE` write transactions.

SQLite: WAL, `synchronous=NORMAL`, foreign keys, a busy timeout, no automatic checkpoints inside commits, and
`BEGIN IMMEDIATE` for connections marked `store_write`, so concurrent writers wait instead of failing half-way
(SQLAlchemy's aiosqlite recipe); reads and writes on `sqlite3` where the store runs them on the event loop's
thread. PostgreSQL goes through asyncpg (`postgresql://` and `postgres://` URLs are normalised to it).
Design: docs/store.md, *Concurrency across processes*.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine as create_sync_engine
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.store import validate
from bot.store.errors import InvalidValue
from bot.store.prepared import on_driver

BUSY_TIMEOUT_MS = 5000
#: Seconds to open a PostgreSQL connection before giving up (the store then answers "busy").
CONNECT_TIMEOUT = 2.0
WRITE_OPTION = "store_write"
#: Connections per process on PostgreSQL (fixed: no overflow connections opened and closed under load).
POSTGRES_POOL_SIZE = 10
_SCHEMA = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


def normalise_url(raw: str) -> URL:
    """Parse a database URL and pick the async driver: aiosqlite for SQLite, asyncpg for PostgreSQL."""
    try:
        url = make_url(raw)
    except ArgumentError:
        raise InvalidValue("DATABASE_URL is not a database URL.") from None
    backend = url.get_backend_name()
    if backend in ("postgresql", "postgres"):
        return url.set(drivername="postgresql+asyncpg")
    if backend == "sqlite":
        return url.set(drivername="sqlite+aiosqlite")
    raise InvalidValue(f"Unsupported database {backend!r}: use SQLite or PostgreSQL.")


def is_sqlite(url: URL) -> bool:
    """True for SQLite URLs."""
    return url.get_backend_name() == "sqlite"


def sqlite_file(url: URL) -> Path | None:
    """The database file of a SQLite URL (None for in-memory databases)."""
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _sqlite_connect_hook(busy_timeout_ms: int) -> Any:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.execute("PRAGMA wal_autocheckpoint = 0")  # the store checkpoints in the background
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    return on_connect


def _on_sqlite_begin(conn: Connection) -> None:
    sql = "BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITE_OPTION) else "BEGIN"
    if conn.dialect.driver == "pysqlite":
        on_driver(conn, sql)  # `sqlite3` itself: half the cost of a statement through SQLAlchemy
    else:
        conn.exec_driver_sql(sql)


def create_sqlite_writer_engine(url: URL, busy_timeout_ms: int) -> Engine:
    """The engine of the store's SQLite write connection: the same file and pragmas through the standard
    library's `sqlite3` (no async layer: `bot.store.writer` runs whole transactions on a thread of its
    own), every transaction `BEGIN IMMEDIATE`."""
    engine = create_sync_engine(
        url.set(drivername="sqlite+pysqlite"),
        json_serializer=validate.dumps,
        pool_size=1,
        max_overflow=0,
        pool_reset_on_return=None,
    ).execution_options(**{WRITE_OPTION: True})
    event.listen(engine, "connect", _sqlite_connect_hook(busy_timeout_ms))
    event.listen(engine, "begin", _on_sqlite_begin)
    return engine


def create_sqlite_reader_engine(url: URL, connect: Callable[[], sqlite3.Connection]) -> Engine:
    """The engine of the store's SQLite reads on the event loop's thread (`Database.select`): SQLAlchemy
    over the one `sqlite3` connection `connect` gives (the store's read connection, which never waits for a
    lock and refuses to write), each transaction a plain `BEGIN`."""
    engine = create_sync_engine(
        url.set(drivername="sqlite+pysqlite"),
        creator=connect,
        pool_size=1,
        max_overflow=0,
        pool_reset_on_return=None,
    )
    event.listen(engine, "begin", _on_sqlite_begin)
    return engine


def create_engine(
    url: URL,
    *,
    schema: str | None = None,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    connect_timeout: float = CONNECT_TIMEOUT,
) -> AsyncEngine:
    """One engine for the store's lifetime. `schema` (PostgreSQL only) sets the connections' search_path.

    `busy_timeout_ms` bounds how long a SQLite statement waits for another process's lock (the store
    tightens it on its write connection to what is left of a command's wait limit); `connect_timeout`
    bounds opening a PostgreSQL connection (asyncpg's default is a minute)."""
    if is_sqlite(url):
        if schema is not None:
            raise InvalidValue("A schema only applies to PostgreSQL.")
        path = sqlite_file(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(
            url,
            json_serializer=validate.dumps,
            pool_size=5,  # reads (writes and version checks have connections of their own)
            max_overflow=0,
            pool_timeout=60,
            pool_reset_on_return=None,  # every use ends its transaction; skip the extra ROLLBACK
        )
        event.listen(engine.sync_engine, "connect", _sqlite_connect_hook(busy_timeout_ms))
        event.listen(engine.sync_engine, "begin", _on_sqlite_begin)
        return engine
    connect_args: dict[str, Any] = {"timeout": connect_timeout}
    if schema is not None:
        if not _SCHEMA.fullmatch(schema):
            raise InvalidValue("A schema name must be a plain identifier.")
        connect_args["server_settings"] = {"search_path": schema}
    return create_async_engine(
        url,
        json_serializer=validate.dumps,
        pool_size=POSTGRES_POOL_SIZE,
        max_overflow=0,
        pool_timeout=60,
        pool_reset_on_return=None,
        connect_args=connect_args,
    )
