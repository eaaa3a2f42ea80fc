"""`Changes`: the write path — `mutate`, the one entry point for a state change, and the commit every change
(and undo) goes through: checked, diffed, written as one transaction, retried while the database does not
answer, and confirmed after an ambiguous COMMIT.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import orjson
import sqlalchemy as sa

from bot.store import validate
from bot.store.campaign_undo import guarded
from bot.store.campaigns import Campaigns, Place
from bot.store.core import utc_now
from bot.store.database import Database
from bot.store.errors import SaveUncertain, StaleState, StoreError, StoreUnavailable
from bot.store.faults import CONFIRM_LIMIT, brief, is_unavailable, log
from bot.store.models import channels, events
from bot.store.patch import diff
from bot.store.rows import Written, write_change
from bot.store.snapshot import Loaded, campaign_changed, checked_snapshot, clone
from bot.store.table import Change, ChannelKey, Committed, Table
from bot.store.writer import Attempt

T = TypeVar("T")
UNDO_KIND = "undo"
ONCE_KEY_LIMIT = 80


@dataclass(frozen=True, slots=True)
class _Saved:
    """A change found saved after an ambiguous COMMIT."""

    encounter_id: int | None


@dataclass(frozen=True, slots=True)
class Maker:
    """Who makes a change and how: the user, the event's kind, the Discord interaction making it and the
    key of something that may happen only once (`Changes.mutate`)."""

    user_id: int
    kind: str
    interaction_id: int | None = None
    once: str | None = None


@dataclass(frozen=True, slots=True)
class Tried(Generic[T]):
    """A change run on its working copy: the table it edited, and what it returned."""

    table: Table
    outcome: Change[T]


def maker_of(user_id: int, kind: str, interaction_id: int | None, once: str | None) -> Maker:
    """A change's maker, its interaction id and once-key checked (the user id and kind are the caller's)."""
    if interaction_id is not None:
        validate.snowflake(interaction_id, "interaction id")
    if once is not None:
        once = validate.text(once, "once key", ONCE_KEY_LIMIT)
    return Maker(user_id, kind, interaction_id, once)


class Changes:
    """`mutate` and the commit of one change."""

    def __init__(
        self, db: Database, campaigns: Campaigns, verify_shared: Callable[[], bool] = lambda: False
    ) -> None:
        self._db = db
        self._waits = db.waits
        self._campaigns = campaigns
        self._snapshots = campaigns.snapshots
        #: Whether to check that a `mutate(shared=True)` change left the store's memory as it found it.
        self._verify_shared = verify_shared

    # -- the one entry point ----------------------------------------------------------------------------
    async def mutate(
        self,
        key: ChannelKey,
        maker: Maker,
        change: Callable[[Table], Change[T]],
        *,
        retries: int,
        shared: bool,
    ) -> Committed[T]:
        """`Store.mutate`, its arguments checked: load the channel, run `change` on a working copy
        (`_try`), commit what it changed (`commit`), and on a lost race forget, back off and start over
        (`lost_race`, at most `retries` times)."""
        lost = 0
        async with self._campaigns.turn(key) as turn:
            while True:
                place = await turn.place()
                tried = await self._try(place, change, maker.kind, shared, turn.deadline)
                if tried is None:
                    continue  # refused on memory another process has since changed: judged again
                try:
                    committed = await self.commit(place, maker, tried, turn.deadline)
                except StaleState as stale:
                    lost = await self.lost_race(place, lost, retries, stale)
                    continue
                if committed.seq is not None or not await self._stale(place, turn.deadline):
                    return committed
                # "nothing changed" was judged on memory another process has since changed: again

    async def _try(
        self, place: Place, change: Callable[[Table], Change[T]], kind: str, shared: bool, deadline: float
    ) -> Tried[T] | None:
        """Run `change` on a working copy of the channel (with `shared`, on the store's memory itself); None
        when it raised on memory another process has since changed (it is run again on fresh data). Any
        other raise propagates unchanged, and nothing is written."""
        loaded = place.loaded
        snap = loaded.snap if shared else clone(loaded.snap)
        table = Table.from_snapshot(place.key, loaded.version, snap, loaded.encounter_id)
        kept = orjson.dumps(snap) if shared and self._verify_shared() else None
        try:
            outcome = change(table)
        except Exception:
            if await self._stale(place, deadline):
                return None
            raise
        if not isinstance(outcome, Change):
            raise TypeError("a change function must return a Change")
        if kept is not None and orjson.dumps(snap) != kept:
            self._forget(place)
            raise AssertionError(f"a {kind!r} change edited the store's shared memory in place")
        return Tried(table, outcome)

    def _forget(self, place: Place) -> None:
        """Drop the memory of the channel (and of its campaign's home)."""
        self._snapshots.forget(place.key.channel_id, place.home_id)

    async def lost_race(self, place: Place, lost: int, retries: int, stale: StaleState) -> int:
        """Another writer changed the channel first (`stale`): forget it, then wait a moment, longer each
        time, before the next try; past `retries` lost races `stale` propagates. Returns how many races
        were lost."""
        self._forget(place)
        lost += 1
        if lost > retries:
            raise stale
        await asyncio.sleep(random.uniform(0, 0.003 * lost))
        return lost

    async def _stale(self, place: Place, deadline: float) -> bool:
        """Whether the channel came from memory that another process has since changed (then forgotten),
        for the channel and for its campaign's home when it plays in another's campaign."""
        if not place.warm:
            return False
        if await self._snapshots.moved(place.key.channel_id, place.loaded.version, deadline):
            return True
        away = place.away
        return away is not None and await self._snapshots.moved(away.home_id, away.home.version, deadline)

    async def commit(
        self, place: Place, maker: Maker, tried: Tried[T], deadline: float, undoes: int | None = None
    ) -> Committed[T]:
        """Check, diff and write the change `tried.table` holds against `place.loaded` (the home's row is
        written too when its roster or pool changed), then remember what was committed."""
        loaded = place.loaded
        after, state_text = checked_snapshot(tried.table, loaded)
        patch = diff(loaded.snap, after)
        if patch is None and undoes is None:
            return Committed(tried.outcome.value, loaded.version, None, loaded.encounter_id)
        written = _written(place, maker, tried, after, state_text, patch, undoes)
        encounter_id = await self._write_with_retries(place.key, loaded, after, written, deadline)
        self._remember(place, after, written, encounter_id)
        self._db.committed()
        if encounter := tried.table.encounter:
            encounter.id = encounter_id
        return Committed(tried.outcome.value, loaded.version + 1, written.seq, encounter_id)

    def _remember(
        self, place: Place, after: dict[str, Any], written: Written, encounter_id: int | None
    ) -> None:
        """Remember the channel as committed (and its campaign's home, when the change wrote it)."""
        key, loaded, away = place.key, place.loaded, place.away
        active = after["encounter"] is not None and after["encounter"]["active"]
        if not active:
            after["encounter"] = None
        parent_id = loaded.parent_id if loaded.parent_id is not None else key.parent_id
        own = after
        if away is not None:
            own = {**after, "tokens": away.channel.snap["tokens"], "heroes": away.channel.snap["heroes"]}
        seq = written.seq if active else 0
        remembered = Loaded(
            loaded.version + 1,
            own,
            encounter_id if active else None,
            seq,
            parent_id,
            loaded.campaign_id,
            key.guild_id,
        )
        self._snapshots.remember(key.channel_id, remembered)
        if written.home_changed and away is not None:
            snap = {
                "tokens": after["tokens"],
                "heroes": after["heroes"],
                "encounter": away.home.snap["encounter"],
            }
            home = dataclasses.replace(away.home, version=away.home.version + 1, snap=snap)
            self._snapshots.remember(away.home_id, home)

    async def _write_with_retries(
        self, key: ChannelKey, loaded: Loaded, after: dict[str, Any], written: Written, deadline: float
    ) -> int | None:
        """Write one change; while the database does not answer, try again until `deadline`.

        A write that failed before COMMIT changed nothing, so it is simply repeated (the version
        compare-and-set still guards it). A PostgreSQL connection lost during COMMIT is ambiguous: ask the
        database whether this very event was saved before deciding (`_confirm`), so nothing is applied twice.
        """
        delay = 0.02
        loop = asyncio.get_running_loop()
        while True:
            attempt = Attempt()
            try:
                work = functools.partial(write_change, key=key, loaded=loaded, after=after, written=written)
                return await self._db.transaction(work, deadline, attempt)
            except StoreError:
                raise
            except Exception as error:
                if not is_unavailable(error):
                    raise
                if attempt.committing and not self._db.sqlite:
                    saved = await self._confirm(key, loaded, written)
                    if saved is not None:
                        return saved.encounter_id
                left = deadline - loop.time()
                if left <= delay:
                    raise self._waits.unavailable(error) from error
                log.info("database unavailable, writing again in %.0f ms: %s", delay * 1000, brief(error))
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.25)

    async def _confirm(self, key: ChannelKey, loaded: Loaded, written: Written) -> _Saved | None:
        """After a connection died during COMMIT: the event if it was saved, None if it was not;
        `SaveUncertain` when the database cannot be asked within `CONFIRM_LIMIT`.

        The server may still be finishing the lost transaction, so first wait for it to end: take the lock
        it held on the channel row (`FOR SHARE` waits for its `UPDATE`; for a channel's first write, an
        `INSERT ... ON CONFLICT DO NOTHING` waits for its uncommitted row), then look for the event. The
        probe's own transaction is rolled back."""
        channel_id = key.channel_id

        async def find() -> _Saved | None:
            async with self._db.engine.connect() as connection, connection.begin() as transaction:
                if loaded.version == 0:
                    await connection.execute(
                        self._db.insert(channels)
                        .values(
                            id=channel_id, guild_id=key.guild_id, tokens=0, version=0, updated_at=utc_now()
                        )
                        .on_conflict_do_nothing(index_elements=["id"])
                    )
                else:
                    await connection.execute(
                        sa.select(channels.c.version)
                        .where(channels.c.id == channel_id)
                        .with_for_update(read=True)
                    )
                row = (
                    await connection.execute(
                        sa.select(events.c.encounter_id).where(
                            events.c.channel_id == channel_id,
                            events.c.seq == written.seq,
                            events.c.at == written.at,
                            events.c.user_id == written.user_id,
                            events.c.kind == written.kind,
                        )
                    )
                ).first()
                await transaction.rollback()
            return None if row is None else _Saved(row.encounter_id)

        try:
            return await self._waits.retrying(find, asyncio.get_running_loop().time() + CONFIRM_LIMIT)
        except StoreUnavailable as error:
            log.error("a change may or may not have been saved (channel %s, seq %s)", channel_id, written.seq)
            raise SaveUncertain() from error


def _written(
    place: Place,
    maker: Maker,
    tried: Tried[Any],
    after: dict[str, Any],
    state_text: str | None,
    patch: Any,
    undoes: int | None,
) -> Written:
    """What a change writes besides its rows, checked: its summary and details, the event's seq, and the
    patch (with the campaign's parts kept apart where the encounter's undo may reach it)."""
    loaded, away = place.loaded, place.away
    summary = validate.text(tried.outcome.summary, "summary", validate.SUMMARY_LIMIT)
    details = validate.json_object(tried.outcome.details, "details")
    validate.check_size(details, "details")
    enc_before, enc_after = loaded.snap["encounter"], after["encounter"]
    if enc_before is None and enc_after is not None:
        seq = 1
    elif enc_before is not None and enc_after is not None:
        seq = loaded.last_seq + 1
        patch = guarded(patch, after)  # the encounter's undo may reach it: campaign parts kept apart
    else:
        seq = loaded.version + 1
    return Written(
        utc_now(),
        seq,
        maker.user_id,
        maker.kind,
        summary,
        details,
        patch,
        undoes,
        state_text,
        away=away,
        home_changed=away is not None and (campaign_changed(patch) or tried.table.relies_on_roster),
        interaction_id=maker.interaction_id,
        once_key=maker.once,
        judges=tuple(tried.table.judges),
    )
