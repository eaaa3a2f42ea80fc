"""`undo`: revert the newest change of the active encounter not undone yet, as an event of its own.

An encounter's undo history holds its own changes only: a change made in its channel while it runs that left
the encounter as it was (a roster edit, a hero-token award) is the campaign's, and so is any the caller names
`outside`. What an undone change did to the campaign's pool and roster is taken back as `campaign_undo` says.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from bot.store import validate
from bot.store.campaign_undo import reverted, touches_encounter
from bot.store.campaigns import needs_adopting
from bot.store.core import check_key
from bot.store.errors import NoEncounter, NothingToUndo, StaleState, StoreError
from bot.store.history import event_of
from bot.store.models import events
from bot.store.snapshot import clone
from bot.store.table import Change, ChannelKey, Committed, Event, Table
from bot.store.writes import UNDO_KIND, Writes, marks_of

#: Events read at a time while looking for the change to undo: the campaign's changes passed over are few.
TARGET_PAGE = 20


class Undoing(Writes):
    """`undo` (docs/store.md, *Undo*)."""

    async def undo(
        self,
        key: ChannelKey,
        user_id: int,
        *,
        allowed: Callable[[Table, Event], None] | None = None,
        outside: Callable[[Event], bool] | None = None,
        retries: int = 3,
        interaction_id: int | None = None,
    ) -> Committed[Event]:
        """Revert the newest change of the active encounter that is not undone yet, as an event of kind
        "undo" (its `undoes` names the seq). Repeating walks back to the start; then `NothingToUndo`.

        `allowed(table, target)` decides whether the caller may undo `target` (the event this undo would
        revert) on the table as it is now, and raises to refuse (nothing is written). It runs inside the
        same check-and-act as the undo itself: under the channel's lock, on a fresh read, and again on every
        retry, and the commit's compare-and-set fails if another process changed the channel meanwhile, so
        the event judged is the event undone. `interaction_id` as for `mutate` (`AlreadyApplied`).

        Undo passes over the changes that are not the encounter's own: those that left its state as it was,
        and those `outside(event)` names (a campaign change that followed a hero into the fight, say). A
        change that touched the campaign is taken back there as a difference (the hero-token pool), or only
        while what it touched is unchanged since (its roster heroes), else `CannotUndo`."""
        check_key(key)
        validate.snowflake(user_id, "user id")
        marks = marks_of(interaction_id, None)
        lock, deadline = await self._queue(key)
        home_lock = None
        try:
            attempt = 0
            while True:
                # Undo is rare: read fresh rather than trust the cache, so its errors are never stale.
                loaded, away = await self._place(key, deadline, "read")
                if away is not None and home_lock is None:
                    home_lock = await self._home_lock(key, away.home_id, deadline)
                    continue
                if away is not None and needs_adopting(key, away.channel):
                    await self._adopt(key, away)
                    continue
                if loaded.encounter_id is None:
                    raise NoEncounter()
                target = await self._undo_target(loaded.encounter_id, deadline, outside)
                if target is None:
                    raise NothingToUndo()
                if allowed is not None:
                    now = Table.from_snapshot(key, loaded.version, clone(loaded.snap), loaded.encounter_id)
                    allowed(now, target)
                try:
                    restored = reverted(clone(loaded.snap), target.patch, target.seq)
                except (KeyError, IndexError, TypeError, ValueError):
                    raise StoreError(f"Change #{target.seq} can't be undone any more.") from None
                table = Table.from_snapshot(key, loaded.version, restored, loaded.encounter_id)
                outcome = Change(
                    f"Undo #{target.seq}: {target.summary}"[:200], target, {"undoes": target.seq}
                )
                try:
                    return await self._commit(
                        key,
                        user_id,
                        UNDO_KIND,
                        loaded,
                        table,
                        outcome,
                        deadline=deadline,
                        undoes=target.seq,
                        away=away,
                        marks=marks,
                    )
                except StaleState as stale:
                    attempt = await self._lost_race(key, away, attempt, retries, stale)
        finally:
            if home_lock is not None:
                home_lock.release()
            lock.release()

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
            rows = await self._select(functools.partial(_all, stmt), deadline)
            for row in rows:
                event = event_of(row, None)
                if touches_encounter(event.patch) and (outside is None or not outside(event)):
                    return event
            if len(rows) < TARGET_PAGE:
                return None
            below = rows[-1].seq


def _all(stmt: sa.Select[Any], connection: Connection) -> Sequence[Any]:
    return connection.execute(stmt).all()
