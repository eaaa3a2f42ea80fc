"""Campaigns: a text or forum channel with all its threads shares one roster, hero-token pool and
Victories; a channel may join another channel's campaign and leave it again (docs/store.md, *Campaigns*).

The channel whose rows hold a campaign's roster and pool is its home (the campaign's id). A thread records
its parent the first time the store sees it; a thread's roster and pool from before campaigns (revision
0002_campaigns) are merged into its parent's campaign then, once (`adopt`), or when the bot connects
(`unplaced` lists the candidates): the old schema never knew a thread's parent, only Discord does.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import unicodedata
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from bot.store import validate
from bot.store.core import check_key, utc_now
from bot.store.database import Database
from bot.store.errors import InvalidValue, OtherServer
from bot.store.models import channels, encounters, heroes
from bot.store.snapshot import Away, Loaded, clone
from bot.store.snapshots import Snapshots
from bot.store.table import CampaignInfo, ChannelKey, Table

log = logging.getLogger("bot.store")


@dataclass(frozen=True, slots=True)
class Merged:
    """What `adopt` moved: heroes, hero tokens, and the heroes renamed to keep them apart (old, new)."""

    heroes: int
    tokens: int
    renamed: tuple[tuple[str, str], ...]


def kept_apart(name: str, label: str, taken: set[str]) -> str:
    """`name` with the thread's label in parentheses (`Ash (Goblin ambush)`), numbered until it is free
    among the name keys `taken`, within the 64 characters a name may have."""
    for count in itertools.count(1):
        tag = label[:40] if count == 1 else f"{label[:36]} {count}"
        suffix = f" ({tag})"
        candidate = name[: validate.NAME_LIMIT - len(suffix)].rstrip() + suffix
        if validate.name_key(candidate) not in taken:
            return candidate
    raise AssertionError("unreachable")


def needs_adopting(key: ChannelKey, channel: Loaded) -> bool:
    """A thread stored before the store knew threads' parents (its row has none, the caller knows it)."""
    return key.parent_id is not None and channel.version > 0 and channel.parent_id is None


@dataclass(frozen=True, slots=True)
class Place:
    """Where a command plays: its channel as it sees it (`loaded`: for a channel in another's campaign, the
    home's pool and roster with the channel's own encounter), where its campaign lives (`away`, None: the
    channel is its home), and whether the channel came from the store's memory (`warm`)."""

    key: ChannelKey
    loaded: Loaded
    away: Away | None
    warm: bool

    @property
    def home_id(self) -> int:
        return self.key.channel_id if self.away is None else self.away.home_id


class Turn:
    """A command's turn on its channel (`Campaigns.turn`): the channel's lock, held, and its campaign home's
    once known (always taken second), with the deadline of the call's waits."""

    def __init__(self, campaigns: Campaigns, key: ChannelKey, deadline: float) -> None:
        self.key = key
        self.deadline = deadline
        self._campaigns = campaigns
        self._home: tuple[int, asyncio.Lock] | None = None

    async def place(self, how: str = "kept") -> Place:
        """The channel and where its campaign lives (read `how` `Snapshots.channel` says), with the home's
        lock held and an old thread's own roster merged into its campaign first (`Campaigns._adopt`)."""
        campaigns, key = self._campaigns, self.key
        while True:
            warm = key.channel_id in campaigns.snapshots.cache
            loaded, away = await campaigns.snapshots.place(key, self.deadline, how)
            if away is None:
                return Place(key, loaded, None, warm)
            if self._home is None or self._home[0] != away.home_id:
                self.release_home()
                self._home = (away.home_id, await campaigns.home_lock(key, away.home_id, self.deadline))
            elif needs_adopting(key, away.channel):
                await campaigns.adopt(key, away)
            else:
                return Place(key, loaded, away, warm)

    def release_home(self) -> None:
        if self._home is not None:
            self._home[1].release()
            self._home = None


class Campaigns:
    """`view`, the campaign of a channel, joining and leaving one, merging a thread's old roster, and a
    command's turn on its channel (`turn`)."""

    def __init__(self, db: Database, snapshots: Snapshots) -> None:
        self._db = db
        self._waits = db.waits
        self.snapshots = snapshots

    @asynccontextmanager
    async def turn(self, key: ChannelKey) -> AsyncIterator[Turn]:
        """Wait for the channel's turn (`Waits.queue`); the locks it takes are released on leaving."""
        lock, deadline = await self._waits.queue(key)
        turn = Turn(self, key, deadline)
        try:
            yield turn
        finally:
            turn.release_home()
            lock.release()

    async def adopt(self, key: ChannelKey, away: Away) -> Merged:
        """Record a thread's parent and merge the roster and pool it kept on its own (before campaigns) into
        the campaign it belongs to: nothing is dropped; a hero whose name the campaign already has is
        renamed `Ash (thread name)` and reported in the log. The caller holds the thread's and the home's
        locks; the memory of both is dropped."""
        assert key.parent_id is not None
        printable = "".join(char for char in key.name or "" if not unicodedata.category(char).startswith("C"))
        label = " ".join(printable.split()) or f"thread {key.channel_id}"
        insert_home = (
            self._db.insert(channels)
            .values(id=away.home_id, guild_id=key.guild_id, tokens=0, version=0, updated_at=utc_now())
            .on_conflict_do_nothing(index_elements=["id"])
        )

        def work(connection: Connection) -> Merged:
            return _merge(connection, key, away.home_id, label, insert_home)

        try:
            merged = await self._db.transaction(work)
        finally:
            self.snapshots.forget(key.channel_id, away.home_id)
        if merged.heroes or merged.tokens:
            log.warning(
                "campaign: thread %s's own roster merged into channel %s's campaign: %d hero(es), "
                "%d hero token(s); kept apart: %s",
                key.channel_id,
                away.home_id,
                merged.heroes,
                merged.tokens,
                ", ".join(f"{old!r} -> {new!r}" for old, new in merged.renamed) or "none",
            )
        return merged

    async def home_lock(self, key: ChannelKey, home_id: int, deadline: float) -> asyncio.Lock:
        """The home channel's lock, acquired (a channel's own lock is always taken first)."""
        lock = self._waits.lock(ChannelKey(key.guild_id, home_id))
        await self._waits.within(lock.acquire(), deadline)
        return lock

    # -- reading ----------------------------------------------------------------------------------------
    async def view(self, key: ChannelKey, *, shared: bool = False, fresh: bool = True) -> Table:
        """A snapshot of the channel (its encounter, its campaign's roster and pool), read fresh (no lock);
        editing it changes nothing.

        With `shared`, the table's hero data and encounter state are the store's own memory of the channel,
        not copies: for a caller that only reads them (decoding a state is cheaper than copying it
        first). Its attributes may still be reassigned; its dicts and lists must never be edited.

        Without `fresh`, the store's memory of the channel is taken as it is, without the version read that
        proves it is still the stored one (the database is read only when there is no memory of it): for a
        judgement that a later `mutate` checks again on the table it commits against (this process's memory
        is stale only after another process wrote to the channel, which sharding makes rare)."""
        check_key(key)
        deadline = self._waits.deadline()
        # one small query proves the cached table is still the stored one (every commit bumps the version)
        how = "proved" if fresh else "kept"
        loaded, away = await self.snapshots.place(key, deadline, how)
        if away is not None and needs_adopting(key, away.channel):
            async with self.turn(key) as turn:
                loaded = (await turn.place("read")).loaded
        snap = loaded.snap if shared else clone(loaded.snap)
        return Table.from_snapshot(key, loaded.version, snap, loaded.encounter_id)

    async def campaign(self, key: ChannelKey) -> CampaignInfo:
        """The campaign this channel plays in: its home, the channels that joined it, its roster's size and
        pool, and (for a channel that joined another) what the channel's own campaign set aside."""
        table = await self.view(key, shared=True)
        deadline = self._waits.deadline()
        loaded, away = await self.snapshots.place(key, deadline, "kept")
        home_id = key.channel_id if away is None else away.home_id
        own = loaded if away is None else away.channel
        joined = await self._members(home_id, key.guild_id, deadline)
        aside = away is not None and away.channel.campaign_id is not None
        return CampaignInfo(
            channel_id=key.channel_id,
            home_id=home_id,
            thread=(own.parent_id or key.parent_id) is not None,
            members=joined,
            heroes=len(table.heroes),
            tokens=table.tokens,
            own_heroes=len(own.snap["heroes"]) if aside else 0,
            own_tokens=int(own.snap["tokens"]) if aside else 0,
        )

    async def _members(self, home_id: int, guild_id: int, deadline: float) -> tuple[int, ...]:
        query = (
            sa.select(channels.c.id)
            .where(channels.c.campaign_id == home_id, channels.c.guild_id == guild_id)
            .order_by(channels.c.id)
        )

        def read(connection: Connection) -> tuple[int, ...]:
            return tuple(int(row[0]) for row in connection.execute(query))

        return await self._db.select(read, deadline)

    async def running_encounters(self, key: ChannelKey) -> list[tuple[int, dict[str, Any]]]:
        """Every running encounter of this channel's campaign (its home, the channels that joined it, and
        their threads) as (channel id, state data): one query, for the rare command that asks (who is in a
        fight somewhere in the campaign)."""
        check_key(key)
        deadline = self._waits.deadline()
        _, away = await self.snapshots.place(key, deadline, "kept")
        home_id = key.channel_id if away is None else away.home_id

        def read(connection: Connection) -> list[tuple[int, dict[str, Any]]]:
            return running_in(connection, key.guild_id, home_id)

        return await self._db.select(read, deadline)

    async def unplaced(self) -> list[tuple[int, int]]:
        """The channels that may be threads still holding a roster or pool from before campaigns, as (guild
        id, channel id): stored then (version > 0), no parent recorded, no campaign joined, a hero or a hero
        token of their own, and no channel names them its parent or campaign (a thread is nobody's). Home
        channels are among them too: only Discord tells a thread (`view` with its parent then merges it)."""
        child = channels.alias("child")
        holds_heroes = sa.exists().where(heroes.c.channel_id == channels.c.id)
        is_home = sa.exists().where(
            sa.or_(child.c.parent_id == channels.c.id, child.c.campaign_id == channels.c.id)
        )
        query = (
            sa.select(channels.c.guild_id, channels.c.id)
            .where(
                channels.c.parent_id.is_(None),
                channels.c.campaign_id.is_(None),
                channels.c.version > 0,
                sa.or_(channels.c.tokens > 0, holds_heroes),
                ~is_home,
            )
            .order_by(channels.c.guild_id, channels.c.id)
        )

        def read(connection: Connection) -> list[tuple[int, int]]:
            return [(int(row[0]), int(row[1])) for row in connection.execute(query)]

        return await self._db.select(read, self._waits.deadline())

    # -- joining and leaving ----------------------------------------------------------------------------
    async def join_campaign(self, key: ChannelKey, campaign_channel_id: int) -> CampaignInfo:
        """Make this channel (and its threads) play in `campaign_channel_id`'s campaign; its own roster and
        pool are set aside, untouched, until it leaves. Refused in a thread, into its own campaign, for a
        channel other channels joined, while an encounter runs in the channel or its threads, and
        (`OtherServer`, nothing of it read) for another server's channel."""
        check_key(key)
        validate.snowflake(campaign_channel_id, "channel id")
        if key.parent_id is not None:
            raise InvalidValue(
                "A thread plays in its channel's campaign: use /campaign join in the channel itself."
            )
        deadline = self._waits.deadline()
        target = await self.snapshots.channel(campaign_channel_id, key.guild_id, deadline, "proved")
        if target.parent_id is not None:  # a thread: its channel's campaign
            campaign_channel_id = target.parent_id
            target = await self.snapshots.channel(campaign_channel_id, key.guild_id, deadline, "proved")
        home_id = target.campaign_id or campaign_channel_id
        if home_id == key.channel_id:
            raise InvalidValue("That campaign is this channel's own: pick another channel.")
        await self._set_campaign(key, home_id)
        return await self.campaign(key)

    async def leave_campaign(self, key: ChannelKey) -> CampaignInfo:
        """This channel plays in its own campaign again (its own roster and pool, as it left them)."""
        check_key(key)
        if key.parent_id is not None:
            raise InvalidValue(
                "A thread plays in its channel's campaign: use /campaign leave in the channel."
            )
        await self._set_campaign(key, None)
        return await self.campaign(key)

    async def _set_campaign(self, key: ChannelKey, home_id: int | None) -> None:
        """Link the channel to `home_id`'s campaign (None: its own again), once `_check_link` allows it."""
        async with self.turn(key) as turn:
            now = utc_now()
            channel_id = key.channel_id
            insert = (
                self._db.insert(channels)
                .values(id=channel_id, guild_id=key.guild_id, tokens=0, version=0, updated_at=now)
                .on_conflict_do_nothing(index_elements=["id"])
            )

            def work(connection: Connection) -> None:
                connection.execute(insert)
                _check_link(connection, key, home_id)
                connection.execute(
                    sa.update(channels)
                    .where(channels.c.id == channel_id)
                    .values(campaign_id=home_id, version=channels.c.version + 1, updated_at=now)
                )

            try:
                await self._db.transaction(work, turn.deadline)
            finally:
                self.snapshots.forget(channel_id)


def _check_link(connection: Connection, key: ChannelKey, home_id: int | None) -> None:
    """Refuse to link `key`'s channel to `home_id`'s campaign (None: its own) in the write transaction: a
    channel or campaign of another server, a thread, no change, a channel others joined, a running fight."""
    channel_id = key.channel_id
    row = connection.execute(
        sa.select(channels.c.campaign_id, channels.c.parent_id, channels.c.guild_id).where(
            channels.c.id == channel_id
        )
    ).one()
    home_guild = row.guild_id
    if home_id is not None:  # the campaign's home, checked again where the link is written
        home_guild = connection.execute(
            sa.select(channels.c.guild_id).where(channels.c.id == home_id)
        ).scalar()
    if row.guild_id != key.guild_id or home_guild not in (None, key.guild_id):
        raise OtherServer()
    if row.parent_id is not None:
        raise InvalidValue("A thread plays in its channel's campaign: use /campaign in the channel.")
    if home_id is None and row.campaign_id is None:
        raise InvalidValue("This channel plays in its own campaign already.")
    if home_id is not None and row.campaign_id == home_id:
        raise InvalidValue(f"This channel plays in <#{home_id}>'s campaign already.")
    members = connection.execute(
        sa.select(channels.c.id).where(channels.c.campaign_id == channel_id).limit(3)
    ).all()
    if home_id is not None and members:
        where = ", ".join(f"<#{m[0]}>" for m in members)
        raise InvalidValue(
            f"Other channels play in this channel's campaign ({where}): they /campaign leave first."
        )
    running = connection.execute(
        sa.select(encounters.c.channel_id)
        .select_from(encounters.join(channels, channels.c.id == encounters.c.channel_id))
        .where(
            sa.text("encounters.active"),
            sa.or_(channels.c.id == channel_id, channels.c.parent_id == channel_id),
        )
        .limit(1)
    ).first()
    if running is not None:
        raise InvalidValue(
            f"An encounter is running in <#{running[0]}>: end it first (its heroes come from "
            "this channel's campaign)."
        )


def _merge(
    connection: Connection, key: ChannelKey, home_id: int, label: str, insert_home: sa.Insert
) -> Merged:
    """`adopt`'s transaction: the thread's (`key`'s) heroes moved to the home (renamed where their name is
    taken), its hero tokens added to the home's pool (within the pool's limit), its parent recorded; both
    rows' versions bumped, so a command judged on either before fails its compare-and-set and reads again."""
    thread_id, parent_id = key.channel_id, key.parent_id or 0
    row = connection.execute(
        sa.select(channels.c.tokens, channels.c.parent_id).where(
            channels.c.id == thread_id, channels.c.guild_id == key.guild_id
        )
    ).first()
    if row is None or row.parent_id is not None:  # another process adopted it first (or another server's)
        return Merged(0, 0, ())
    now = utc_now()
    connection.execute(insert_home)
    taken = set(
        connection.execute(sa.select(heroes.c.name_key).where(heroes.c.channel_id == home_id)).scalars()
    )
    moving = connection.execute(
        sa.select(heroes.c.id, heroes.c.name)
        .where(heroes.c.channel_id == thread_id)
        .order_by(heroes.c.created_at, heroes.c.id)
    ).all()
    renamed: list[tuple[str, str]] = []
    for hero_id, name in moving:
        new = name
        if validate.name_key(name) in taken:
            new = kept_apart(name, label, taken)
            renamed.append((name, new))
        taken.add(validate.name_key(new))
        connection.execute(
            sa.update(heroes)
            .where(heroes.c.id == hero_id)
            .values(channel_id=home_id, name=new, name_key=validate.name_key(new), updated_at=now)
        )
    tokens = int(row.tokens)
    connection.execute(
        sa.update(channels)
        .where(channels.c.id == home_id)
        .values(
            tokens=sa.func.min(channels.c.tokens + tokens, validate.TOKEN_LIMIT)
            if connection.dialect.name == "sqlite"
            else sa.func.least(channels.c.tokens + tokens, validate.TOKEN_LIMIT),
            version=channels.c.version + 1,
            updated_at=now,
        )
    )
    connection.execute(
        sa.update(channels)
        .where(channels.c.id == thread_id)
        .values(parent_id=parent_id, tokens=0, version=channels.c.version + 1, updated_at=now)
    )
    return Merged(len(moving), tokens, tuple(renamed))


def running_in(
    connection: Connection, guild_id: int, home_id: int, *, besides: int | None = None
) -> list[tuple[int, Any]]:
    """The running encounters of the campaign whose home is `home_id` (its home, the channels that joined it,
    and their threads) on server `guild_id`, but `besides`'s, as (channel id, state data); on `connection`,
    so a write transaction (`Table.check_campaign`) reads them too."""
    parent = channels.alias("parent")
    stmt = (
        sa.select(encounters.c.channel_id, encounters.c.state)
        .select_from(
            encounters.join(channels, channels.c.id == encounters.c.channel_id).outerjoin(
                parent, parent.c.id == channels.c.parent_id
            )
        )
        .where(
            sa.text("encounters.active"),
            encounters.c.guild_id == guild_id,
            sa.or_(
                channels.c.id == home_id,
                channels.c.campaign_id == home_id,
                channels.c.parent_id == home_id,
                parent.c.campaign_id == home_id,
            ),
        )
        .order_by(encounters.c.channel_id)
    )
    if besides is not None:
        stmt = stmt.where(encounters.c.channel_id != besides)
    return [(int(row[0]), row[1]) for row in connection.execute(stmt)]
