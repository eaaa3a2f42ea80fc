"""`Store`: the one door to persistence — every state change goes through `mutate` (or `undo`).

A facade over small collaborators, one concern each: it opens and closes them, and its public calls are
theirs. Design (the working copy, the version compare-and-set, the undo patch): docs/store.md.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, ClassVar, TypeVar

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import validate
from bot.store.bestiary import Bestiary, MonsterEntry, NewMonster, Stocked, StoredMonster
from bot.store.campaigns import Campaigns
from bot.store.core import check_key
from bot.store.database import Database
from bot.store.engine import create_engine, is_sqlite, normalise_url
from bot.store.errors import InvalidValue
from bot.store.faults import STATEMENT_GRACE, WAIT_LIMIT, Waits, busy_timeout_ms, is_unavailable
from bot.store.history import EventLog
from bot.store.prune import Pruning
from bot.store.reminders import DUE_BATCH, Claim, Reminder, Reminders, Waiting
from bot.store.rolls import Rolls
from bot.store.settings import Settings
from bot.store.snapshots import Snapshots
from bot.store.table import (
    CampaignInfo,
    Change,
    ChannelKey,
    Committed,
    EncounterInfo,
    Event,
    GuildSettings,
    Table,
)
from bot.store.undo import Undo
from bot.store.writes import UNDO_KIND, Changes, maker_of

T = TypeVar("T")

__all__ = [
    "DEFAULT_URL",
    "STATEMENT_GRACE",
    "WAIT_LIMIT",
    "Store",
    "is_unavailable",
]

#: SQLite file relative to the working directory; its folder is created on first start.
DEFAULT_URL = "sqlite+aiosqlite:///data/bot.db"


class Store:
    """Persistence and concurrency for the bot. Open with `await Store.open(url)`; `await close()` at exit.

    Its collaborators are attributes: `database` (the engine, transactions, waits), `snapshots` (reading a
    channel, the memory of recent channels), `campaigns`, `changes` (`mutate`), `undoing`, `log` (an
    encounter's record), `settings`, `bestiary`, `reminders`, `rolls`, `pruning`. Its public calls are
    theirs, under the names the bot uses (docs/store.md, *API*)."""

    #: Check that a `mutate(shared=True)` change left the store's memory as it found it (the test suites
    #: turn this on: it costs two encodings of the channel per command).
    verify_shared: ClassVar[bool] = False

    def __init__(self, engine: AsyncEngine, *, wait_limit: float = WAIT_LIMIT) -> None:
        waits = Waits(wait_limit, sqlite=engine.dialect.name == "sqlite")
        self.database = Database(engine, waits)
        self.snapshots = Snapshots(self.database)
        self.campaigns = Campaigns(self.database, self.snapshots)
        self.changes = Changes(self.database, self.campaigns, lambda: type(self).verify_shared)
        self.undoing = Undo(self.database, self.changes, self.campaigns)
        self.log = EventLog(self.database)
        self.settings = Settings(self.database)
        self.bestiary = Bestiary(self.database)
        self.reminders = Reminders(self.database)
        self.rolls = Rolls(self.database)
        self.pruning = Pruning(self.database)

    # -- a state change, and taking one back ------------------------------------------------------------
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
        maker = maker_of(user_id, kind, interaction_id, once)
        return await self.changes.mutate(key, maker, change, retries=retries, shared=shared)

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
        maker = maker_of(user_id, UNDO_KIND, interaction_id, None)
        return await self.undoing.undo(key, maker, allowed=allowed, outside=outside, retries=retries)

    # -- a channel: read, joined to a campaign --------------------------------------------------------
    async def view(self, key: ChannelKey, *, shared: bool = False, fresh: bool = True) -> Table:
        """`Campaigns.view`."""
        return await self.campaigns.view(key, shared=shared, fresh=fresh)

    async def campaign(self, key: ChannelKey) -> CampaignInfo:
        """`Campaigns.campaign`."""
        return await self.campaigns.campaign(key)

    async def join_campaign(self, key: ChannelKey, campaign_channel_id: int) -> CampaignInfo:
        """`Campaigns.join_campaign`."""
        return await self.campaigns.join_campaign(key, campaign_channel_id)

    async def leave_campaign(self, key: ChannelKey) -> CampaignInfo:
        """`Campaigns.leave_campaign`."""
        return await self.campaigns.leave_campaign(key)

    async def running_encounters(self, key: ChannelKey) -> list[tuple[int, dict[str, Any]]]:
        """`Campaigns.running_encounters`."""
        return await self.campaigns.running_encounters(key)

    async def unplaced(self) -> list[tuple[int, int]]:
        """`Campaigns.unplaced`."""
        return await self.campaigns.unplaced()

    # -- an encounter's record -----------------------------------------------------------------------
    async def set_tracker(
        self, encounter_id: int, channel_id: int, message_id: int, *, guild_id: int
    ) -> None:
        """`EventLog.set_tracker`."""
        return await self.log.set_tracker(encounter_id, channel_id, message_id, guild_id=guild_id)

    async def tracker_of(self, encounter_id: int, *, guild_id: int) -> tuple[int, int] | None:
        """`EventLog.tracker_of`."""
        return await self.log.tracker_of(encounter_id, guild_id=guild_id)

    async def find_encounter(self, encounter_id: int, *, guild_id: int) -> EncounterInfo | None:
        """`EventLog.find_encounter`."""
        return await self.log.find_encounter(encounter_id, guild_id=guild_id)

    async def latest_encounter(self, channel_id: int, *, guild_id: int) -> int | None:
        """`EventLog.latest_encounter`."""
        return await self.log.latest_encounter(channel_id, guild_id=guild_id)

    async def recent_encounters(self, channel_id: int, *, guild_id: int, limit: int) -> list[EncounterInfo]:
        """`EventLog.recent_encounters`."""
        return await self.log.recent_encounters(channel_id, guild_id=guild_id, limit=limit)

    async def events(self, encounter_id: int, *, guild_id: int) -> list[Event]:
        """`EventLog.events`."""
        return await self.log.events(encounter_id, guild_id=guild_id)

    async def export_json(
        self, encounter_id: int, *, guild_id: int, hide: Callable[[Event], Event] | None = None
    ) -> str:
        """`EventLog.export_json`."""
        return await self.log.export_json(encounter_id, guild_id=guild_id, hide=hide)

    async def transcript_markdown(
        self, encounter_id: int, *, guild_id: int, hide: Callable[[Event], Event] | None = None
    ) -> str:
        """`EventLog.transcript_markdown`."""
        return await self.log.transcript_markdown(encounter_id, guild_id=guild_id, hide=hide)

    async def prune(self, older_than: timedelta) -> int:
        """`Pruning.prune`."""
        return await self.pruning.prune(older_than)

    # -- a server's settings and bestiary -------------------------------------------------------------
    async def get_settings(self, guild_id: int) -> GuildSettings:
        """`Settings.get`."""
        return await self.settings.get(guild_id)

    async def update_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """`Settings.update`."""
        return await self.settings.update(guild_id, **changes)

    async def put_monsters(self, guild_id: int, user_id: int, batch: Sequence[NewMonster]) -> Stocked:
        """`Bestiary.put_monsters`."""
        return await self.bestiary.put_monsters(guild_id, user_id, batch)

    async def monster_index(self, guild_id: int) -> list[MonsterEntry]:
        """`Bestiary.monster_index`."""
        return await self.bestiary.monster_index(guild_id)

    async def find_monster(self, guild_id: int, name: str) -> StoredMonster | None:
        """`Bestiary.find_monster`."""
        return await self.bestiary.find_monster(guild_id, name)

    async def monsters_by_source(
        self, guild_id: int, source_ids: Collection[str]
    ) -> dict[str, StoredMonster]:
        """`Bestiary.monsters_by_source`."""
        return await self.bestiary.monsters_by_source(guild_id, source_ids)

    async def remove_monster(self, guild_id: int, name: str) -> str | None:
        """`Bestiary.remove_monster`."""
        return await self.bestiary.remove_monster(guild_id, name)

    # -- reminders and kept rolls ---------------------------------------------------------------------
    async def set_reminders(
        self,
        encounter_id: int,
        *,
        guild_id: int,
        channel_id: int,
        version: int,
        turn_key: str,
        due: Mapping[str, datetime],
    ) -> None:
        """The encounter's reminders are exactly the kinds in `due` (`Reminders.set_reminders`)."""
        waiting = Waiting(channel_id, version, turn_key)
        await self.reminders.set_reminders(encounter_id, guild_id, waiting, due)

    async def clear_reminders(self, encounter_id: int, *, guild_id: int) -> None:
        """No reminders for this encounter of the server `guild_id` (it ended, or nobody is waited on)."""
        await self.set_reminders(
            encounter_id, guild_id=guild_id, channel_id=0, version=0, turn_key="", due={}
        )

    async def due_reminders(self, now: datetime, limit: int = DUE_BATCH) -> list[Reminder]:
        """`Reminders.due_reminders`."""
        return await self.reminders.due_reminders(now, limit)

    async def next_reminder_at(self) -> datetime | None:
        """`Reminders.next_reminder_at`."""
        return await self.reminders.next_reminder_at()

    async def claim_reminder(self, reminder: Reminder) -> Claim | None:
        """`Reminders.claim_reminder`."""
        return await self.reminders.claim_reminder(reminder)

    async def advance_reminder(self, claim: Claim, due_at: datetime | None) -> None:
        """`Reminders.advance_reminder`."""
        return await self.reminders.advance_reminder(claim, due_at)

    async def save_roll(self, roll_id: int, key: ChannelKey, card: str) -> None:
        """`Rolls.save_roll`."""
        return await self.rolls.save_roll(roll_id, key, card)

    async def roll(self, roll_id: int, key: ChannelKey) -> str | None:
        """`Rolls.roll`."""
        return await self.rolls.roll(roll_id, key)

    async def update_roll(self, roll_id: int, key: ChannelKey, card: str) -> None:
        """`Rolls.update_roll`."""
        return await self.rolls.update_roll(roll_id, key, card)

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
        assert store.database.sqlite == is_sqlite(parsed)
        return store

    async def close(self) -> None:
        """Close every connection (after a last WAL checkpoint on SQLite)."""
        await self.snapshots.close()
        await self.database.close()

    @property
    def engine(self) -> AsyncEngine:
        """The underlying engine (tests and tools)."""
        return self.database.engine

    @property
    def wait_limit(self) -> float:
        """Seconds a store call may wait for the database before `StoreUnavailable` (see `WAIT_LIMIT`)."""
        return self.database.waits.wait_limit

    @wait_limit.setter
    def wait_limit(self, seconds: float) -> None:
        self.database.waits.wait_limit = seconds
