"""Guild settings: read (kept in memory for `SETTINGS_TTL`) and changed."""

from __future__ import annotations

import dataclasses
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import sqlite as sqlite_dialect

from bot.store import validate
from bot.store.core import keep_recent, utc_now
from bot.store.database import Database
from bot.store.errors import InvalidValue
from bot.store.models import guild_settings
from bot.store.table import ARGUMENT_RANGE, NUDGE_RANGE, GuildSettings

#: Seconds a guild's settings are served from memory. This process's own changes show at once; another
#: process's (a guild's commands all reach the one process that runs its shard) within this time.
SETTINGS_TTL = 10.0
_SETTINGS_FIELDS = {f.name: f for f in dataclasses.fields(GuildSettings) if f.name != "guild_id"}
_READ_SETTINGS = sa.select(*(guild_settings.c[name] for name in _SETTINGS_FIELDS)).where(
    guild_settings.c.guild_id == sa.bindparam("b_id")
)
_READ_SETTINGS_SQL = str(_READ_SETTINGS.compile(dialect=sqlite_dialect.dialect(paramstyle="qmark")))
#: Settings stored as booleans (SQLite gives them back as 0 and 1).
_BOOL_SETTINGS = frozenset(name for name, f in _SETTINGS_FIELDS.items() if f.type in (bool, "bool"))


class Settings:
    """A guild's settings: `get` (kept in memory for `SETTINGS_TTL`), `read` (as stored) and `update`."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._waits = db.waits
        self._kept: OrderedDict[int, tuple[float, GuildSettings]] = OrderedDict()

    async def get(self, guild_id: int) -> GuildSettings:
        """The guild's settings (the defaults when it never changed any), from memory for `SETTINGS_TTL`
        seconds after they were read or changed here."""
        validate.snowflake(guild_id, "guild id")
        now = time.monotonic()
        kept = self._kept.get(guild_id)
        if kept is not None and now - kept[0] < SETTINGS_TTL:
            return kept[1]
        settings = await self.read(guild_id)
        keep_recent(self._kept, guild_id, (now, settings))
        return settings

    async def read(self, guild_id: int) -> GuildSettings:
        """The guild's stored settings. On a SQLite file, read right here through the version check's
        connection, as `Snapshots.read` reads a channel (when a guild's settings expire, every command of the
        guild in flight asks at once: through the pool they queued for its connections); if that fails, or
        on PostgreSQL, through the pool."""
        if self._db.probe_file is not None:
            try:
                row = self._db.probe().execute(_READ_SETTINGS_SQL, (guild_id,)).fetchone()
                return _settings_of(guild_id, row)
            except sqlite3.Error:
                self._db.drop_probe()

        async def read() -> Any:
            async with self._db.engine.connect() as connection:
                return (await connection.execute(_READ_SETTINGS, {"b_id": guild_id})).first()

        row = await self._waits.retrying(read, self._waits.deadline())
        return _settings_of(guild_id, None if row is None else tuple(row))

    async def update(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of the guild's settings; `InvalidValue` for an unknown setting or a bad value."""
        validate.snowflake(guild_id, "guild id")
        clean: dict[str, Any] = {}
        for name, value in changes.items():
            if name not in _SETTINGS_FIELDS:
                raise InvalidValue(f"There is no setting called {name!r}.")
            if name == "director_role_id":
                clean[name] = validate.optional_snowflake(value, "Director role id")
            elif name in _TIMED:
                clean[name] = _seconds(name, value)
            elif name == "malice_rounding":
                if value not in ("down", "nearest", "up"):
                    raise InvalidValue("Malice rounding is down, nearest or up.")
                clean[name] = value
            else:
                if not isinstance(value, bool):
                    raise InvalidValue(f"The setting {name} is on (true) or off (false).")
                clean[name] = value
        if clean:
            now = utc_now()
            defaults = dataclasses.asdict(GuildSettings(guild_id))
            stmt = (
                self._db.insert(guild_settings)
                .values(**{**defaults, **clean, "updated_at": now})
                .on_conflict_do_update(index_elements=["guild_id"], set_={**clean, "updated_at": now})
            )
            deadline = self._waits.deadline()

            await self._db.repeatable(
                lambda connection: connection.execute(stmt), deadline
            )  # an upsert: safe to repeat
        self._kept.pop(guild_id, None)
        return await self.get(guild_id)


#: The settings that are a number of seconds or None (off), with their limits.
_TIMED = {"nudge_after": NUDGE_RANGE, "argument_timer": ARGUMENT_RANGE}


def _seconds(name: str, value: Any) -> int | None:
    """A timed setting's value: None (off) or whole seconds within its limits."""
    if value is None:
        return None
    low, high = _TIMED[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidValue(f"The setting {name} is off or between {low} and {high} seconds.")
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
