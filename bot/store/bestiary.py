"""A server's bestiary: the monsters' stat blocks a guild keeps (docs/store.md, *API*).

A stat block is opaque here (the rules' codec data of a `bot.content.monster.Monster`), kept with its name
(unique per guild), group, Forge Steel id and who stored it. Each call is one transaction; storing a name the
guild has replaces it; a guild holds at most `MONSTERS_MAX`.

Public API (methods of `Store`): `put_monsters`, `monster_index`, `find_monster`, `monsters_by_source`,
`remove_monster`; values `NewMonster`, `MonsterEntry`, `StoredMonster`, `Stocked`; `BestiaryFull`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from bot.store import validate
from bot.store.core import utc_now
from bot.store.database import Database
from bot.store.errors import InvalidValue, StoreError
from bot.store.models import monsters

MONSTERS_MAX = 500
"""Most monsters one server's bestiary holds."""
SOURCE_ID_LIMIT = 100
"""Longest Forge Steel id kept (theirs are short slugs or UUIDs)."""
IN_CHUNK = 1000
"""Most values one `IN (...)` binds: PostgreSQL's driver binds at most 32,767 parameters a query."""


class BestiaryFull(StoreError):
    """Storing these monsters would take the server's bestiary past `MONSTERS_MAX`; nothing was stored."""

    default_message = (
        f"This server's bestiary holds at most {MONSTERS_MAX} monsters: remove some with /monster remove "
        "first."
    )


@dataclass(frozen=True, slots=True)
class NewMonster:
    """A stat block to store: its name, group name (may be empty), Forge Steel id (empty: entered by hand)
    and codec data."""

    name: str
    group: str
    source_id: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class MonsterEntry:
    """A bestiary line without its stat block (listing, autocomplete)."""

    name: str
    group: str
    source_id: str


@dataclass(frozen=True, slots=True)
class StoredMonster:
    """A stored stat block and who stored it when."""

    name: str
    group: str
    source_id: str
    data: dict[str, Any]
    added_by: int
    added_at: datetime


@dataclass(frozen=True, slots=True)
class Stocked:
    """What `put_monsters` did: the names added and the names replaced, in the order given."""

    added: tuple[str, ...]
    updated: tuple[str, ...]


def _clean(monster: NewMonster) -> dict[str, Any]:
    name = validate.name(monster.name, "monster's name")
    group = monster.group.strip()
    if group:
        group = validate.name(group, "monster group's name")
    source_id = validate.text(monster.source_id.strip(), "monster's Forge Steel id", SOURCE_ID_LIMIT)
    data = validate.json_object(monster.data, "stat block")
    validate.check_size(data, "stat block")
    return {
        "name": name,
        "name_key": validate.name_key(name),
        "group_name": group,
        "source_id": source_id,
        "data": data,
    }


def chunks(values: Sequence[str], size: int = IN_CHUNK) -> list[list[str]]:
    """`values` in runs of at most `size`, so an `IN (...)` over a list a user's file gave stays within the
    database's limit on bound parameters."""
    return [list(values[start : start + size]) for start in range(0, len(values), size)]


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _stored(row: Any) -> StoredMonster:
    return StoredMonster(
        name=row.name,
        group=row.group_name,
        source_id=row.source_id,
        data=dict(row.data),
        added_by=row.added_by,
        added_at=_aware(row.added_at),
    )


class Bestiary:
    """The servers' bestiaries."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._waits = db.waits

    async def put_monsters(self, guild_id: int, user_id: int, batch: Sequence[NewMonster]) -> Stocked:
        """Store `batch` in the guild's bestiary in one transaction: a name already there is replaced,
        any other added. `BestiaryFull` (nothing stored) when the guild would hold more than
        `MONSTERS_MAX`; `InvalidValue` for a name or stat block the store refuses."""
        validate.snowflake(guild_id, "guild id")
        validate.snowflake(user_id, "user id")
        if not batch:
            raise InvalidValue("There are no monsters to store.")
        rows: dict[str, dict[str, Any]] = {}
        for monster in batch:
            row = _clean(monster)
            rows.pop(row["name_key"], None)  # a name twice in one batch: the last one counts, in its place
            rows[row["name_key"]] = row
        if len(rows) > MONSTERS_MAX:  # more names than a bestiary holds can never fit: no query needed
            raise BestiaryFull()
        now = utc_now()
        deadline = self._waits.deadline()
        columns = (monsters.c.id, monsters.c.name_key, monsters.c.group_name, monsters.c.source_id)

        def work(connection: Connection) -> Stocked:
            existing = {
                r.name_key: r
                for keys in chunks(list(rows))
                for r in connection.execute(
                    sa.select(*columns).where(monsters.c.guild_id == guild_id, monsters.c.name_key.in_(keys))
                )
            }
            held = connection.execute(
                sa.select(sa.func.count()).select_from(monsters).where(monsters.c.guild_id == guild_id)
            ).scalar_one()
            if held + len(rows) - len(existing) > MONSTERS_MAX:
                raise BestiaryFull()
            added: list[str] = []
            updated: list[str] = []
            for key, row in rows.items():
                values = {**row, "added_by": user_id, "added_at": now}
                old = existing.get(key)
                if old is None:
                    connection.execute(sa.insert(monsters).values(guild_id=guild_id, **values))
                    added.append(row["name"])
                    continue
                for kept in ("group_name", "source_id"):  # a stat block entered by hand keeps them
                    values[kept] = values[kept] or getattr(old, kept)
                connection.execute(sa.update(monsters).where(monsters.c.id == old.id).values(**values))
                updated.append(row["name"])
            return Stocked(tuple(added), tuple(updated))

        async def write() -> Stocked:
            try:
                return await self._db.transaction(work, deadline)
            except InvalidValue:  # another command added one of these names meanwhile: replace it now
                return await self._db.transaction(work, deadline)

        return await self._waits.retrying(write, deadline)  # the same batch again stores the same rows

    async def monster_index(self, guild_id: int) -> list[MonsterEntry]:
        """The guild's monsters by group, then name (without their stat blocks)."""
        validate.snowflake(guild_id, "guild id")
        query = (
            sa.select(monsters.c.name, monsters.c.group_name, monsters.c.source_id)
            .where(monsters.c.guild_id == guild_id)
            .order_by(monsters.c.group_name, monsters.c.name_key)
        )
        rows = await self._read_rows(query)
        return [MonsterEntry(r.name, r.group_name, r.source_id) for r in rows]

    async def find_monster(self, guild_id: int, name: str) -> StoredMonster | None:
        """The guild's monster called `name` (any case), or None."""
        validate.snowflake(guild_id, "guild id")
        key = validate.name_key(name.strip())
        query = sa.select(monsters).where(monsters.c.guild_id == guild_id, monsters.c.name_key == key)
        rows = await self._read_rows(query)
        return _stored(rows[0]) if rows else None

    async def monsters_by_source(
        self, guild_id: int, source_ids: Collection[str]
    ) -> dict[str, StoredMonster]:
        """The guild's monsters whose Forge Steel id is one of `source_ids`, by that id."""
        validate.snowflake(guild_id, "guild id")
        wanted = [i for i in dict.fromkeys(source_ids) if i and len(i) <= SOURCE_ID_LIMIT]
        rows: list[Any] = []
        for ids in chunks(wanted):
            query = sa.select(monsters).where(monsters.c.guild_id == guild_id, monsters.c.source_id.in_(ids))
            rows.extend(await self._read_rows(query))
        found: dict[str, StoredMonster] = {}
        for row in sorted(rows, key=lambda r: r.id):  # two monsters with one id: the first stored counts
            found.setdefault(row.source_id, _stored(row))
        return found

    async def remove_monster(self, guild_id: int, name: str) -> str | None:
        """Remove the guild's monster called `name` (any case): its stored name, or None when it had none."""
        validate.snowflake(guild_id, "guild id")
        key = validate.name_key(name.strip())
        deadline = self._waits.deadline()

        def work(connection: Connection) -> str | None:
            found = connection.execute(
                sa.delete(monsters)
                .where(monsters.c.guild_id == guild_id, monsters.c.name_key == key)
                .returning(monsters.c.name)
            ).first()
            return None if found is None else str(found.name)

        return await self._db.repeatable(work, deadline)

    async def _read_rows(self, query: sa.Select[Any]) -> Sequence[Any]:
        def read(connection: Connection) -> Sequence[Any]:
            return connection.execute(query).all()

        return await self._db.select(read)
