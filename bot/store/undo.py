"""`undo`: revert the newest change of the active encounter not undone yet, as an event of its own.

An encounter's undo history holds its own changes only: a change made in its channel while it runs that left
the encounter as it was (a roster edit, a hero-token award) is the campaign's, and so is any the caller names
`outside`. What an undone change did to the campaign's pool and roster is taken back as `campaign_undo` says.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from bot.store.campaign_undo import reverted, touches_encounter
from bot.store.campaigns import Campaigns, Place
from bot.store.database import Database
from bot.store.errors import NoEncounter, NothingToUndo, StaleState, StoreError
from bot.store.history import event_of
from bot.store.models import events
from bot.store.snapshot import clone
from bot.store.table import Change, ChannelKey, Committed, Event, Table
from bot.store.writes import UNDO_KIND, Changes, Maker, Tried

#: Events read at a time while looking for the change to undo: the campaign's changes passed over are few.
TARGET_PAGE = 20


@dataclass(frozen=True, slots=True)
class _Reverting:
    """The change an undo takes back (`target`) and the channel's table with it taken back."""

    target: Event
    table: Table


class Undo:
    """`undo` (docs/store.md, *Undo*): the encounter's newest own change taken back, committed as an event."""

    def __init__(self, db: Database, changes: Changes, campaigns: Campaigns) -> None:
        self._db = db
        self._changes = changes
        self._campaigns = campaigns

    async def undo(
        self,
        key: ChannelKey,
        maker: Maker,
        *,
        allowed: Callable[[Table, Event], None] | None,
        outside: Callable[[Event], bool] | None,
        retries: int,
    ) -> Committed[Event]:
        """`Store.undo`, its arguments checked: find the change to take back on a fresh read, let `allowed`
        judge it, revert it and commit the result; again on fresh data after a lost race."""
        lost = 0
        async with self._campaigns.turn(key) as turn:
            while True:
                # Undo is rare: read fresh rather than trust the cache, so its errors are never stale.
                place = await turn.place("read")
                reverting = await self._reverting(place, turn.deadline, allowed, outside)
                target = reverting.target
                outcome = Change(
                    f"Undo #{target.seq}: {target.summary}"[:200], target, {"undoes": target.seq}
                )
                tried = Tried(reverting.table, outcome)
                try:
                    return await self._changes.commit(place, maker, tried, turn.deadline, undoes=target.seq)
                except StaleState as stale:
                    lost = await self._changes.lost_race(place, lost, retries, stale)

    async def _reverting(
        self,
        place: Place,
        deadline: float,
        allowed: Callable[[Table, Event], None] | None,
        outside: Callable[[Event], bool] | None,
    ) -> _Reverting:
        """The change to undo, judged by `allowed` on the table as it is now, and the table without it;
        `NoEncounter`, `NothingToUndo`, or a `StoreError` when its patch no longer fits."""
        key, loaded = place.key, place.loaded
        if loaded.encounter_id is None:
            raise NoEncounter()
        target = await self._undo_target(loaded.encounter_id, deadline, outside)
        if target is None:
            raise NothingToUndo()
        if allowed is not None:
            allowed(Table.from_snapshot(key, loaded.version, clone(loaded.snap), loaded.encounter_id), target)
        try:
            restored = reverted(clone(loaded.snap), target.patch, target.seq)
        except (KeyError, IndexError, TypeError, ValueError):
            raise StoreError(f"Change #{target.seq} can't be undone any more.") from None
        return _Reverting(target, Table.from_snapshot(key, loaded.version, restored, loaded.encounter_id))

    async def _undo_target(
        self, encounter_id: int, deadline: float, outside: Callable[[Event], bool] | None
    ) -> Event | None:
        """The newest of the encounter's own changes not undone yet (None: every one is)."""
        undo = events.alias("undo")
        undone = (
            sa.select(undo.c.id)
            .where(undo.c.encounter_id == encounter_id, undo.c.undoes == events.c.seq)
            .exists()
        )
        below = None
        while True:
            stmt = (
                sa.select(events)
                .where(
                    events.c.encounter_id == encounter_id,
                    events.c.seq > 1,
                    events.c.undoes.is_(None),
                    events.c.kind != UNDO_KIND,
                    ~undone,
                )
                .order_by(events.c.seq.desc())
                .limit(TARGET_PAGE)
            )
            if below is not None:
                stmt = stmt.where(events.c.seq < below)
            rows = await self._db.select(functools.partial(_all, stmt), deadline)
            for row in rows:
                event = event_of(row, None)
                if touches_encounter(event.patch) and (outside is None or not outside(event)):
                    return event
            if len(rows) < TARGET_PAGE:
                return None
            below = rows[-1].seq


def _all(stmt: sa.Select[Any], connection: Connection) -> Sequence[Any]:
    return connection.execute(stmt).all()
