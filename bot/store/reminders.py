"""Reminders that survive restarts: the due times (`exts.reminders._service` decides what and when).

One row per encounter and kind. Setting is an upsert that keeps a pending reminder for the same wait
(`turn_key`), so a restarted process never postpones one; firing is a compare-and-set claim, so exactly one
process sends it, on SQLite and PostgreSQL alike. Design: docs/store.md, *Reminders*.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from bot.store import validate
from bot.store.database import Database
from bot.store.errors import OtherServer
from bot.store.models import encounters, reminders

#: How many due reminders one read returns at most (the rest on the next read).
DUE_BATCH = 200


@dataclass(frozen=True, slots=True)
class Reminder:
    """A reminder row: what is due when, for which wait of which encounter."""

    encounter_id: int
    kind: str
    guild_id: int
    channel_id: int
    due_at: datetime
    version: int
    turn_key: str
    step: int


@dataclass(frozen=True, slots=True)
class Claim:
    """A reminder this process claimed (`token` proves it, for `advance_reminder`)."""

    reminder: Reminder
    token: str


def _aware(moment: datetime) -> datetime:
    """SQLite gives stored times back without their zone: they are UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _reminder(row: Any) -> Reminder:
    return Reminder(
        int(row.encounter_id),
        str(row.kind),
        int(row.guild_id),
        int(row.channel_id),
        _aware(row.due_at),
        int(row.version),
        str(row.turn_key),
        int(row.step),
    )


_ROW = (
    reminders.c.encounter_id,
    reminders.c.kind,
    reminders.c.guild_id,
    reminders.c.channel_id,
    reminders.c.due_at,
    reminders.c.version,
    reminders.c.turn_key,
    reminders.c.step,
)


@dataclass(frozen=True, slots=True)
class Waiting:
    """The wait reminders are for: the channel, its version when they were set, and the wait's key."""

    channel_id: int
    version: int
    turn_key: str


class Reminders:
    """`set_reminders`, `due_reminders`, `next_reminder_at`, `claim_reminder`, `advance_reminder`."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._waits = db.waits

    async def set_reminders(
        self, encounter_id: int, guild_id: int, waiting: Waiting, due: Mapping[str, datetime]
    ) -> None:
        """The encounter's reminders are exactly the kinds in `due` (others are deleted), each for the wait
        `waiting.turn_key`; a kind already set for that wait keeps its due time, step and claim.
        `OtherServer` (nothing written) when the encounter is not the server `guild_id`'s."""
        channel_id, version, turn_key = waiting.channel_id, waiting.version, waiting.turn_key
        validate.snowflake(guild_id, "guild id")
        deadline = self._waits.deadline()
        kinds = list(due)
        server = sa.select(encounters.c.guild_id).where(encounters.c.id == encounter_id)

        def work(connection: Connection) -> None:
            if connection.execute(server).scalar() not in (None, guild_id):
                raise OtherServer.encounter()
            stale = sa.delete(reminders).where(reminders.c.encounter_id == encounter_id)
            if kinds:
                stale = stale.where(reminders.c.kind.not_in(kinds))
            connection.execute(stale)
            for kind, due_at in due.items():
                values = {
                    "encounter_id": encounter_id,
                    "kind": kind,
                    "guild_id": guild_id,
                    "channel_id": channel_id,
                    "due_at": due_at,
                    "version": version,
                    "turn_key": turn_key,
                    "step": 0,
                    "claimed": None,
                }
                insert = self._db.insert(reminders).values(**values)
                fresh = {k: v for k, v in values.items() if k not in ("encounter_id", "kind")}
                connection.execute(
                    insert.on_conflict_do_update(
                        index_elements=["encounter_id", "kind"],
                        set_=fresh,
                        where=reminders.c.turn_key != turn_key,
                    )
                )

        await self._db.repeatable(work, deadline)  # idempotent: safe to repeat

    async def due_reminders(self, now: datetime, limit: int = DUE_BATCH) -> list[Reminder]:
        """Unclaimed reminders due at `now`, the oldest first (an indexed read on `due_at`)."""
        query = (
            sa.select(*_ROW)
            .where(reminders.c.due_at <= now, reminders.c.claimed.is_(None))
            .order_by(reminders.c.due_at)
            .limit(limit)
        )

        def read(connection: Connection) -> list[Any]:
            return list(connection.execute(query).all())

        return [_reminder(row) for row in await self._db.select(read)]

    async def next_reminder_at(self) -> datetime | None:
        """When the next unclaimed reminder is due (None: none is set)."""
        query = sa.select(sa.func.min(reminders.c.due_at)).where(reminders.c.claimed.is_(None))

        def read(connection: Connection) -> Any:
            return connection.execute(query).scalar()

        found = await self._db.select(read)
        if found is None:
            return None
        if isinstance(found, str):  # SQLite's MIN() gives the stored text back
            found = datetime.fromisoformat(found)
        return _aware(found)

    async def claim_reminder(self, reminder: Reminder) -> Claim | None:
        """Claim `reminder` to fire it: None when another process did first, or it was set again since."""
        token = uuid.uuid4().hex
        deadline = self._waits.deadline()
        claim = (
            sa.update(reminders)
            .where(
                reminders.c.encounter_id == reminder.encounter_id,
                reminders.c.kind == reminder.kind,
                reminders.c.version == reminder.version,
                reminders.c.turn_key == reminder.turn_key,
                reminders.c.step == reminder.step,
                reminders.c.claimed.is_(None),
            )
            .values(claimed=token)
        )

        def work(connection: Connection) -> int:
            return int(connection.execute(claim).rowcount)

        claimed = await self._db.transaction(work, deadline)  # not repeated: a lost answer loses the claim
        return Claim(reminder, token) if claimed == 1 else None

    async def advance_reminder(self, claim: Claim, due_at: datetime | None) -> None:
        """After firing: the next step due at `due_at`, or (None) done for this wait (the row stays claimed,
        so setting the same wait again doesn't bring it back)."""
        if due_at is None:
            return
        deadline = self._waits.deadline()
        advance = (
            sa.update(reminders)
            .where(
                reminders.c.encounter_id == claim.reminder.encounter_id,
                reminders.c.kind == claim.reminder.kind,
                reminders.c.claimed == claim.token,
            )
            .values(due_at=due_at, step=claim.reminder.step + 1, claimed=None)
        )

        def work(connection: Connection) -> None:
            connection.execute(advance)

        await self._db.repeatable(work, deadline)
