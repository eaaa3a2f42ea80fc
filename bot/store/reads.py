"""Reading a channel: its stored version, its snapshot (from the store's memory when it is still the
stored one), and `view`.
"""

from __future__ import annotations

import functools
from typing import cast

import sqlalchemy as sa

from bot.store.core import StoreCore, keep_recent
from bot.store.models import channels, encounters, heroes
from bot.store.snapshot import Away, Loaded, empty_snapshot, loaded_from
from bot.store.table import ChannelKey

_READ_CHANNEL = (
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


class Reads(StoreCore):
    """Reading channels: the version probe, the snapshot read, the memory of recent channels, `view`."""

    async def _stored_version(self, channel_id: int) -> int | None:
        """The channel's stored version (None: no row yet); every command asks this once or twice."""
        async with self._engine.connect() as connection:
            return cast(
                "int | None",
                (
                    await connection.execute(sa.select(channels.c.version).where(channels.c.id == channel_id))
                ).scalar(),
            )

    def _remember(self, channel_id: int, loaded: Loaded) -> None:
        keep_recent(self._cache, channel_id, loaded)

    async def _read(self, channel_id: int) -> Loaded:
        """The channel as stored: its row, its active encounter and its roster, in one snapshot."""
        params = {"b_id": channel_id}
        async with self._engine.connect() as connection, connection.begin():
            row = (await connection.execute(_READ_CHANNEL, params)).first()
            if row is None:
                return Loaded(0, empty_snapshot(), None, 0)
            hero_rows = (await connection.execute(_READ_HEROES, params)).all()
        return loaded_from(tuple(row), [tuple(h) for h in hero_rows])

    async def _load(self, channel_id: int) -> Loaded:
        cached = self._cache.get(channel_id)
        if cached is not None:
            return cached
        loaded = await self._read(channel_id)
        self._remember(channel_id, loaded)
        return loaded

    async def _moved(self, channel_id: int, version: int, deadline: float) -> bool:
        """True (and the cache entry dropped) when the channel's stored version is no longer `version`."""
        stored = await self._retrying(functools.partial(self._stored_version, channel_id), deadline)
        if (stored or 0) == version:
            return False
        self._cache.pop(channel_id, None)
        return True

    async def _channel(self, channel_id: int, deadline: float, how: str) -> Loaded:
        """The channel: from memory as it is (`how="kept"`), from memory once proved to be the stored one
        (`"proved"`: one small query), or read (`"read"`)."""
        loaded = self._cache.get(channel_id) if how != "read" else None
        if loaded is None or (how == "proved" and await self._moved(channel_id, loaded.version, deadline)):
            loaded = await self._retrying(functools.partial(self._read, channel_id), deadline)
            self._remember(channel_id, loaded)
        return loaded

    async def _place(self, key: ChannelKey, deadline: float, how: str = "kept") -> tuple[Loaded, Away | None]:
        """The channel as a command sees it, and where its campaign lives (None: the channel is its
        campaign's home). A thread plays in its parent's campaign (the parent as stored, else as `key`
        says), a channel in the one it joined (`campaign_id`), else in its own.

        The lookup is in the rows a command reads anyway, kept in memory: a warm command reads no more."""
        loaded = await self._channel(key.channel_id, deadline, how)
        parent = loaded.parent_id if loaded.parent_id is not None else key.parent_id
        if parent is None:
            home_id = loaded.campaign_id or key.channel_id
            if home_id == key.channel_id:
                return loaded, None
            home = await self._channel(home_id, deadline, how)
        else:
            home = await self._channel(parent, deadline, how)
            home_id = home.campaign_id or parent
            if home_id != parent:
                home = await self._channel(home_id, deadline, how)
        away = Away(loaded, home_id, home)
        return away.combined(), away
