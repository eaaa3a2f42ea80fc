"""Log retention: `prune` deletes encounters that ended long enough ago, with their events."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import timedelta

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from bot.store.core import utc_now
from bot.store.database import Database
from bot.store.errors import InvalidValue
from bot.store.models import encounters, events


class Pruning:
    """`prune`."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._waits = db.waits

    async def prune(self, older_than: timedelta) -> int:
        """Delete encounters that ended more than `older_than` ago, with their events; return how many."""
        if older_than < timedelta(0):
            raise InvalidValue("Prune needs a positive age.")
        cutoff = utc_now() - older_than
        async with self._db.engine.connect() as connection:
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
            await self._db.transaction(functools.partial(_delete_ended, list(ids[start : start + 500])))
        return len(ids)


def _delete_ended(chunk: list[int], connection: Connection) -> None:
    """Delete these ended encounters and their events (one `prune` transaction)."""
    connection.execute(sa.delete(events).where(events.c.encounter_id.in_(chunk)))
    connection.execute(
        sa.delete(encounters).where(encounters.c.id.in_(chunk), encounters.c.active.is_(False))
    )
