"""The write path: `mutate`, the one entry point for a state change, and the commit every change (and
undo) goes through: checked, diffed, written as one transaction, retried while the database does not answer,
and confirmed after an ambiguous COMMIT.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson
import sqlalchemy as sa

from bot.store import validate
from bot.store.campaigns import Campaigns, needs_adopting
from bot.store.core import check_key, utc_now
from bot.store.errors import InvalidValue, SaveUncertain, StaleState, StoreError, StoreUnavailable
from bot.store.faults import CONFIRM_LIMIT, brief, is_unavailable, log
from bot.store.models import channels, events
from bot.store.patch import diff
from bot.store.rows import Rows, Written
from bot.store.snapshot import Away, Loaded, campaign_changed, checked_snapshot, clone
from bot.store.table import Change, ChannelKey, Committed, Table
from bot.store.writer import Attempt

T = TypeVar("T")
UNDO_KIND = "undo"
ONCE_KEY_LIMIT = 80


@dataclass(frozen=True, slots=True)
class _Saved:
    """A change found saved after an ambiguous COMMIT."""

    encounter_id: int | None


def marks_of(interaction_id: int | None, once: str | None) -> tuple[int | None, str | None]:
    """A change's interaction id and once-key, checked (`Store.mutate`)."""
    if interaction_id is not None:
        validate.snowflake(interaction_id, "interaction id")
    if once is not None:
        once = validate.text(once, "once key", ONCE_KEY_LIMIT)
    return interaction_id, once


class Writes(Campaigns, Rows):
    """`mutate` and the commit of one change."""

    # -- the one entry point ----------------------------------------------------------------------------
    async def mutate(
        self,
        key: ChannelKey,
        user_id: int,
        kind: str,
        change: Callable[[Table], Change[T]],
        *,
        retries: int = 3,
        shared: bool = False,
        interaction_id: int | None = None,
        once: str | None = None,
    ) -> Committed[T]:
        """Run `change` on a working copy of the channel and commit what it changed as one event.

        `change` may raise anything: nothing is written and the exception propagates unchanged. A write
        that lost a race (`StaleState`) is retried up to `retries` times with a fresh table, then raised.

        With `shared`, the table's hero data and encounter state are the store's own memory of the channel
        (as `view(shared=True)` gives them), not copies: `change` may add, remove and reassign heroes, their
        `data` and the encounter's `state`, but must never edit those dicts and lists in place (the bot's
        changes replace them with freshly encoded data; `verify_shared` checks this in tests).

        `interaction_id` (the Discord interaction making the change) and `once` (a key for something that may
        happen only once, e.g. `reroll:<message id>`) are saved with the event, each unique: a change whose
        interaction is already saved raises `AlreadyApplied` (another process applied it), one whose `once`
        key is already saved `AlreadyDone`; either way nothing is written. (A change that writes no event
        records neither.)
        """
        check_key(key)
        validate.snowflake(user_id, "user id")
        if validate.kind(kind) == UNDO_KIND:
            raise InvalidValue("The event kind 'undo' is reserved for Store.undo.")
        marks = marks_of(interaction_id, once)
        lock, deadline = await self._queue(key)
        home_lock: tuple[int, asyncio.Lock] | None = None
        try:
            attempt = 0
            while True:
                warm = self._cache.get(key.channel_id) is not None
                loaded, away = await self._place(key, deadline)
                if away is not None and (home_lock is None or home_lock[0] != away.home_id):
                    # a channel playing in another's campaign holds the home's lock too (taken second)
                    if home_lock is not None:
                        home_lock[1].release()
                        home_lock = None
                    home_lock = (away.home_id, await self._home_lock(key, away.home_id, deadline))
                    continue
                if away is not None and needs_adopting(key, away.channel):
                    await self._adopt(key, away)
                    continue
                snap = loaded.snap if shared else clone(loaded.snap)
                table = Table.from_snapshot(key, loaded.version, snap, loaded.encounter_id)
                kept = orjson.dumps(snap) if shared and self.verify_shared else None
                try:
                    outcome = change(table)
                except Exception:
                    # A refusal based on a cached table that another process has since changed is re-judged
                    # on fresh data; otherwise the exception propagates unchanged.
                    if warm and await self._moved_place(key, loaded, away, deadline):
                        continue
                    raise
                if not isinstance(outcome, Change):
                    raise TypeError("a change function must return a Change")
                if kept is not None and orjson.dumps(snap) != kept:
                    self._forget(key, away)
                    raise AssertionError(f"a {kind!r} change edited the store's shared memory in place")
                try:
                    committed = await self._commit(
                        key, user_id, kind, loaded, table, outcome, deadline=deadline, away=away, marks=marks
                    )
                except StaleState as stale:
                    attempt = await self._lost_race(key, away, attempt, retries, stale)
                    continue
                if committed.seq is None and warm and await self._moved_place(key, loaded, away, deadline):
                    continue  # "nothing changed" was judged on a stale cached table
                return committed
        finally:
            if home_lock is not None:
                home_lock[1].release()
            lock.release()

    def _forget(self, key: ChannelKey, away: Away | None) -> None:
        """Drop the memory of the channel (and of its campaign's home)."""
        self._cache.pop(key.channel_id, None)
        if away is not None:
            self._cache.pop(away.home_id, None)

    async def _lost_race(
        self, key: ChannelKey, away: Away | None, attempt: int, retries: int, stale: StaleState
    ) -> int:
        """Another writer changed the channel first (`stale`): forget it, then wait a moment, longer each
        attempt, before the next try; past `retries` attempts `stale` propagates. Returns the attempt's
        number."""
        self._forget(key, away)
        attempt += 1
        if attempt > retries:
            raise stale
        await asyncio.sleep(random.uniform(0, 0.003 * attempt))
        return attempt

    async def _moved_place(self, key: ChannelKey, loaded: Loaded, away: Away | None, deadline: float) -> bool:
        """`_moved` for the channel, and for its campaign's home when it plays in another's campaign."""
        if await self._moved(key.channel_id, loaded.version, deadline):
            return True
        return away is not None and await self._moved(away.home_id, away.home.version, deadline)

    async def _commit(
        self,
        key: ChannelKey,
        user_id: int,
        kind: str,
        loaded: Loaded,
        table: Table,
        outcome: Change[T],
        *,
        deadline: float,
        undoes: int | None = None,
        away: Away | None = None,
        marks: tuple[int | None, str | None] = (None, None),
    ) -> Committed[T]:
        """Check, diff and write the change `table` holds against `loaded` (for a channel playing in
        another's campaign, `away.combined()`; the home's row is written too when its roster or pool
        changed), then remember what was committed."""
        after, state_text = checked_snapshot(table, loaded)
        patch = diff(loaded.snap, after)
        if patch is None and undoes is None:
            return Committed(outcome.value, loaded.version, None, loaded.encounter_id)
        summary = validate.text(outcome.summary, "summary", validate.SUMMARY_LIMIT)
        details = validate.json_object(outcome.details, "details")
        validate.check_size(details, "details")
        now = utc_now()
        channel_id = key.channel_id
        version = loaded.version + 1
        enc_before = loaded.snap["encounter"]
        enc_after = after["encounter"]
        if enc_before is None and enc_after is not None:
            seq = 1
        elif enc_before is not None and enc_after is not None:
            seq = loaded.last_seq + 1
        else:
            seq = version
        home = away is not None and campaign_changed(patch)
        interaction_id, once_key = marks
        written = Written(
            now,
            seq,
            summary,
            details,
            patch,
            undoes,
            state_text,
            interaction_id=interaction_id,
            once_key=once_key,
            away=away,
            home_changed=home,
        )
        encounter_id = await self._write_with_retries(key, user_id, kind, loaded, after, written, deadline)
        active = enc_after is not None and enc_after["active"]
        if not active:
            after["encounter"] = None
        parent_id = loaded.parent_id if loaded.parent_id is not None else key.parent_id
        own = after
        if away is not None:
            own = {**after, "tokens": away.channel.snap["tokens"], "heroes": away.channel.snap["heroes"]}
        self._remember(
            channel_id,
            Loaded(
                version,
                own,
                encounter_id if active else None,
                seq if active else 0,
                parent_id,
                loaded.campaign_id,
            ),
        )
        if home and away is not None:
            snap = {
                "tokens": after["tokens"],
                "heroes": after["heroes"],
                "encounter": away.home.snap["encounter"],
            }
            self._remember(
                away.home_id, dataclasses.replace(away.home, version=away.home.version + 1, snap=snap)
            )
        if self._sqlite:
            self._after_sqlite_commit()
        if outcome_encounter := table.encounter:
            outcome_encounter.id = encounter_id
        return Committed(outcome.value, version, seq, encounter_id)

    async def _write_with_retries(
        self,
        key: ChannelKey,
        user_id: int,
        kind: str,
        loaded: Loaded,
        after: dict[str, Any],
        written: Written,
        deadline: float,
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
                return await self._transaction(
                    functools.partial(
                        self._write_change,
                        key=key,
                        user_id=user_id,
                        kind=kind,
                        loaded=loaded,
                        after=after,
                        written=written,
                    ),
                    deadline,
                    attempt,
                )
            except StoreError:
                raise
            except Exception as error:
                if not is_unavailable(error):
                    raise
                if attempt.committing and not self._sqlite:
                    saved = await self._confirm(key, loaded, user_id, kind, written)
                    if saved is not None:
                        return saved.encounter_id
                left = deadline - loop.time()
                if left <= delay:
                    raise self._unavailable(error) from error
                log.info("database unavailable, writing again in %.0f ms: %s", delay * 1000, brief(error))
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.25)

    async def _confirm(
        self, key: ChannelKey, loaded: Loaded, user_id: int, kind: str, written: Written
    ) -> _Saved | None:
        """After a connection died during COMMIT: the event if it was saved, None if it was not;
        `SaveUncertain` when the database cannot be asked within `CONFIRM_LIMIT`.

        The server may still be finishing the lost transaction, so first wait for it to end: take the lock
        it held on the channel row (`FOR SHARE` waits for its `UPDATE`; for a channel's first write, an
        `INSERT ... ON CONFLICT DO NOTHING` waits for its uncommitted row), then look for the event. The
        probe's own transaction is rolled back."""
        channel_id = key.channel_id

        async def find() -> _Saved | None:
            async with self._engine.connect() as connection, connection.begin() as transaction:
                if loaded.version == 0:
                    await connection.execute(
                        self._insert(channels)
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
                            events.c.user_id == user_id,
                            events.c.kind == kind,
                        )
                    )
                ).first()
                await transaction.rollback()
            return None if row is None else _Saved(row.encounter_id)

        try:
            return await self._retrying(find, asyncio.get_running_loop().time() + CONFIRM_LIMIT)
        except StoreUnavailable as error:
            log.error("a change may or may not have been saved (channel %s, seq %s)", channel_id, written.seq)
            raise SaveUncertain() from error
