"""`Store`: the one door to persistence — every state change goes through `mutate` (or `undo`).

Design (docs/store.md): a command's `change` edits a working copy of its channel (`Table`); the store
diffs before/after, writes only the changed rows, bumps the channel's `version` with a compare-and-set and
appends an event carrying the undo patch — one transaction. Commands on one channel are serialised in the
process by an `asyncio.Lock` per channel; across processes the compare-and-set turns a lost race into
`StaleState`, which `mutate` retries by re-reading and re-running the (pure) `change`.

The `Store` is assembled here from its parts, one concern each (`bot.store.core` lists them); this module
keeps the lifecycle (open, close).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.bestiary import Bestiary
from bot.store.engine import create_engine, is_sqlite, normalise_url
from bot.store.faults import STATEMENT_GRACE, WAIT_LIMIT, busy_timeout_ms, is_unavailable
from bot.store.history import History
from bot.store.prune import Pruning
from bot.store.reads import _READ_CHANNEL
from bot.store.reminders import ReminderAccess
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

# the channel read and the snapshot copy, for the store's tests
__all__ += ["_READ_CHANNEL", "_clone"]


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
        """Close every connection."""
        await self._engine.dispose()

    @property
    def engine(self) -> AsyncEngine:
        """The underlying engine (tests and tools)."""
        return self._engine
