"""Fixtures: every store test runs on SQLite (a temp file) and on PostgreSQL when `TEST_DATABASE_URL` is set.

PostgreSQL isolation: each test gets a fresh, uniquely named schema (the connections' search_path points at
it), dropped afterwards — several people share the one test database. With `REQUIRE_POSTGRES=1` a missing
URL or an unreachable server fails the PostgreSQL tests instead of skipping them.
"""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from bot.store import ChannelKey, Store

PG_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
REQUIRE_POSTGRES = os.environ.get("REQUIRE_POSTGRES", "").strip() == "1"
BACKENDS = ("sqlite", "postgresql")


@dataclass(frozen=True, slots=True)
class Target:
    """A database to test against: its URL and (PostgreSQL) schema."""

    backend: str
    url: str
    schema: str | None

    async def open(self, *, migrate: bool = True) -> Store:
        return await Store.open(self.url, migrate=migrate, schema=self.schema)

    def argv(self) -> list[str]:
        """How a worker subprocess is told where the database is."""
        return [self.url, self.schema or "-"]


def pg_dsn(url: str) -> str:
    """A plain asyncpg DSN for a SQLAlchemy URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _unavailable(reason: str) -> None:
    if REQUIRE_POSTGRES:
        pytest.fail(f"PostgreSQL required (REQUIRE_POSTGRES=1) but {reason}")
    pytest.skip(f"PostgreSQL tests skipped: {reason}")


@pytest.fixture(params=BACKENDS)
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Target]:
    """An empty database on each backend."""
    if request.param == "sqlite":
        yield Target("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'data' / 'bot.db'}", None)
        return
    if not PG_URL:
        _unavailable("TEST_DATABASE_URL is not set")
    dsn = pg_dsn(PG_URL)
    try:
        admin = await asyncpg.connect(dsn, timeout=5)
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        _unavailable(f"cannot connect to TEST_DATABASE_URL ({error})")
    schema = f"t_store_{uuid.uuid4().hex[:16]}"
    await admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield Target("postgresql", PG_URL, schema)
    finally:
        await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        await admin.close()


@pytest.fixture
async def store(target: Target) -> AsyncIterator[Store]:
    """A migrated store on `target`."""
    opened = await target.open()
    try:
        yield opened
    finally:
        await opened.close()


_channels = itertools.count(1000)


@pytest.fixture
def key() -> ChannelKey:
    """A fresh channel."""
    return ChannelKey(guild_id=10, channel_id=next(_channels))


@pytest.fixture
async def migrated(target: Target) -> Target:
    """`target`, upgraded to head (for tests that open their own stores)."""
    store = await target.open()
    await store.close()
    return target


@pytest.fixture
async def sqlite_path(tmp_path: Path) -> Path:
    """A SQLite file with the store's schema (for tests that open their own connections to it)."""
    file = tmp_path / "store.db"
    store = await Store.open(f"sqlite+aiosqlite:///{file}")  # creates the schema
    await store.close()
    return file
