"""A full disk or a read-only database: the change gets one clear line ("The bot can't save right now: the
server's disk is full. Nothing changed."), nothing is written, and the store logs it once at ERROR, not a
traceback per command."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

from bot.store import CannotSave, ChannelKey, DiskFull, ReadOnly, Store, Table
from bot.store.faults import cannot_save, is_locked
from bot.store.table import Change
from tests.store.helpers import DIRECTOR, begin, increment

FULL = "The bot can't save right now: the server's disk is full. Nothing changed."
READ_ONLY = "The bot can't save right now: the database is read-only. Nothing changed."


def grow(table: Table) -> Change[None]:
    """A change that needs new pages in the database file (so a full disk refuses it)."""
    encounter = table.require_encounter()
    encounter.state = {**encounter.state, "notes": "x" * 50_000 + str(len(encounter.state))}
    return Change("notes", None)


def _max_pages(dbapi: Any) -> None:
    pages = dbapi.execute("PRAGMA page_count").fetchone()[0]
    dbapi.execute(f"PRAGMA max_page_count = {pages}")  # the file can't grow: SQLite's SQLITE_FULL


def _query_only(dbapi: Any) -> None:
    dbapi.execute("PRAGMA query_only = 1")  # SQLite's SQLITE_READONLY


def _pg_read_only(dbapi: Any) -> None:
    dbapi.autocommit = True  # else the SET is rolled back with the connect event's transaction
    cursor = dbapi.cursor()
    cursor.execute("SET default_transaction_read_only = on")  # SQLSTATE 25006
    cursor.close()
    dbapi.autocommit = False


@contextmanager
def sqlite_writes_refused(store: Store, hook: Callable[[Any], None]) -> Iterator[None]:
    """Every new write connection of `store` gets `hook` (a pragma); the open ones are dropped first."""
    writer = store.database.sqlite_writer
    assert writer is not None
    engines: list[Engine] = [writer._inline_engine, writer._engine]

    def on_connect(dbapi: Any, _record: Any) -> None:
        hook(dbapi)

    for engine in engines:
        event.listen(engine, "connect", on_connect)
    writer._drop_inline()
    writer._drop()
    try:
        yield
    finally:
        for engine in engines:
            event.remove(engine, "connect", on_connect)
        writer._drop_inline()
        writer._drop()


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize(
    ("hook", "kind", "line"), [(_max_pages, DiskFull, FULL), (_query_only, ReadOnly, READ_ONLY)]
)
async def test_sqlite_refusing_writes_is_one_line_logged_once(
    tmp_path: Any,
    caplog: pytest.LogCaptureFixture,
    hook: Callable[[Any], None],
    kind: type[CannotSave],
    line: str,
) -> None:
    """'Disk full or a read-only database: the command gets "The bot can't save right now: the
    server's disk is full. Nothing changed." and it is logged once at ERROR, not a traceback per command.'"""
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    key = ChannelKey(10, 20)
    try:
        await begin(store, key)
        before = (await store.view(key)).snapshot()
        with caplog.at_level(logging.INFO, logger="bot.store"), sqlite_writes_refused(store, hook):
            for _ in range(3):
                with pytest.raises(kind) as refused:
                    await store.mutate(key, DIRECTOR, "grow", grow)
                assert str(refused.value) == line
        assert (await store.view(key)).snapshot() == before  # nothing changed
        logged = errors(caplog)
        assert len(logged) == 1 and logged[0].exc_info is None, [r.getMessage() for r in logged]
        assert "refuses to write" in logged[0].getMessage()

        caplog.clear()
        await store.mutate(key, DIRECTOR, "grow", grow)  # the disk has room again
        with (
            caplog.at_level(logging.INFO, logger="bot.store"),
            sqlite_writes_refused(store, hook),
            pytest.raises(kind),
        ):
            await store.mutate(key, DIRECTOR, "grow", grow)
        assert len(errors(caplog)) == 1  # a new outage is logged again
    finally:
        await store.close()


async def test_postgres_read_only_is_one_line(
    store: Store, key: ChannelKey, target: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The read-only equivalent on PostgreSQL (a hot standby, `default_transaction_read_only`)."""
    if target.backend != "postgresql":
        pytest.skip("PostgreSQL only (SQLite: the test above)")
    await begin(store, key)
    sync_engine = store.engine.sync_engine

    def on_connect(dbapi: Any, _record: Any) -> None:
        _pg_read_only(dbapi)

    event.listen(sync_engine, "connect", on_connect)
    await store.engine.dispose()
    try:
        with caplog.at_level(logging.INFO, logger="bot.store"):
            for _ in range(2):
                with pytest.raises(ReadOnly, match=r"read-only\. Nothing changed\."):
                    await store.mutate(key, DIRECTOR, "counter", increment)
        assert len(errors(caplog)) == 1
    finally:
        event.remove(sync_engine, "connect", on_connect)
        await store.engine.dispose()
    assert (await store.mutate(key, DIRECTOR, "counter", increment)).value == 1


class _PgError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__("server says no")
        self.sqlstate = sqlstate


def _sqlite_error(code: int, text: str) -> sqlite3.OperationalError:
    error = sqlite3.OperationalError(text)
    error.sqlite_errorcode = code  # type: ignore[attr-defined]
    return error


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (_PgError("53100"), DiskFull),
        (_PgError("25006"), ReadOnly),
        (_PgError("40001"), None),
        (_sqlite_error(13, "database or disk is full"), DiskFull),
        (_sqlite_error(8 | (1 << 8), "attempt to write a readonly database"), ReadOnly),  # READONLY_RECOVERY
        (_sqlite_error(5, "database is locked"), None),
        (sqlite3.OperationalError("database or disk is full"), DiskFull),
        (RuntimeError("disk is full"), None),
    ],
)
def test_what_cannot_be_saved(error: BaseException, kind: type[CannotSave] | None) -> None:
    assert cannot_save(error) is kind


def test_is_locked() -> None:
    assert is_locked(_sqlite_error(5, "database is locked"))
    assert is_locked(_sqlite_error(6, "database table is locked"))
    assert not is_locked(_sqlite_error(13, "database or disk is full"))
    assert not is_locked(RuntimeError("database is locked"))
