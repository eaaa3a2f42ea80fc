"""Every store entry point takes the caller's server and refuses another server's channel or encounter
(`OtherServer`), on SQLite and PostgreSQL: Discord never hands a command another server's channel, the store
refuses it anyway (defence in depth)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from bot.store import ChannelKey, OtherServer, Store
from bot.store.models import channels
from bot.store.snapshot import Loaded, empty_snapshot
from tests.store.helpers import DIRECTOR, PLAYER, begin, increment
from tests.store.test_campaigns import add_hero, award

OURS, THEIRS = 10, 11
_ids = itertools.count(7000, 10)


def place(guild: int) -> ChannelKey:
    return ChannelKey(guild, next(_ids))


async def their_campaign(store: Store) -> ChannelKey:
    """Another server's channel with a roster and a pool."""
    theirs = place(THEIRS)
    await store.mutate(theirs, PLAYER, "hero.create", add_hero("Secret"))
    await store.mutate(theirs, DIRECTOR, "tokens.award", award(4))
    return theirs


async def campaign_of(store: Store, key: ChannelKey) -> int | None:
    async with store.engine.connect() as connection:
        found = await connection.execute(
            sa.select(channels.c.campaign_id).where(channels.c.id == key.channel_id)
        )
        return found.scalar()


async def test_join_campaign_refuses_another_servers_channel_and_reads_nothing_of_it(store: Store) -> None:
    """Issue "Trust": "`join_campaign` given another server's channel id reads that server's roster"."""
    theirs = await their_campaign(store)
    ours = place(OURS)
    await store.mutate(ours, PLAYER, "hero.create", add_hero("Ash"))
    with pytest.raises(OtherServer, match="not on this server") as refused:
        await store.join_campaign(ours, theirs.channel_id)
    assert "Secret" not in str(refused.value)
    # nothing linked: our channel still plays with its own roster
    assert await campaign_of(store, ours) is None
    table = await store.view(ours)
    assert {h.name for h in table.heroes.values()} == {"Ash"} and table.tokens == 0
    info = await store.campaign(ours)
    assert (info.home_id, info.heroes, info.tokens) == (ours.channel_id, 1, 0)
    # through a thread of theirs: the same
    thread = ChannelKey(THEIRS, theirs.channel_id + 1, parent_id=theirs.channel_id)
    await begin(store, thread)
    with pytest.raises(OtherServer):
        await store.join_campaign(ours, thread.channel_id)
    assert await campaign_of(store, ours) is None


async def test_join_campaign_checks_the_server_again_where_it_links(store: Store) -> None:
    """The target's server is checked in the transaction that writes the link too: a read that saw no row
    (the other server's first command came between) links nothing."""
    theirs = await their_campaign(store)
    ours = place(OURS)
    read = store.snapshots.read

    async def not_there_yet(channel_id: int) -> Loaded:
        if channel_id == theirs.channel_id:
            return Loaded(0, empty_snapshot(), None, 0)
        return await read(channel_id)

    store.snapshots.cache.clear()
    store.snapshots.read = not_there_yet  # type: ignore[method-assign]
    with pytest.raises(OtherServer):
        await store.join_campaign(ours, theirs.channel_id)
    store.snapshots.read = read  # type: ignore[method-assign]
    assert await campaign_of(store, ours) is None


async def test_a_link_to_another_servers_campaign_is_never_followed(store: Store) -> None:
    """A channel whose stored campaign is another server's (written before the check existed) shows and
    changes nothing of it; /campaign leave still frees it."""
    theirs = await their_campaign(store)
    ours = place(OURS)
    await store.mutate(ours, PLAYER, "hero.create", add_hero("Ash"))
    async with store.engine.begin() as connection:
        await connection.execute(
            sa.update(channels)
            .where(channels.c.id == ours.channel_id)
            .values(campaign_id=theirs.channel_id, version=channels.c.version + 1)
        )
    store.snapshots.cache.clear()
    for refused in (
        store.view(ours),
        store.campaign(ours),
        store.running_encounters(ours),
        store.mutate(ours, DIRECTOR, "tokens.award", award(1)),
    ):
        with pytest.raises(OtherServer):
            await refused
    info = await store.leave_campaign(ours)
    assert (info.home_id, info.heroes) == (ours.channel_id, 1)
    their_table = await store.view(theirs)
    assert their_table.tokens == 4 and {h.name for h in their_table.heroes.values()} == {"Secret"}


async def test_a_channel_key_of_the_wrong_server_is_refused(store: Store) -> None:
    """view, mutate, undo, campaign, join and leave with a key naming a channel of another server."""
    theirs = await their_campaign(store)
    await begin(store, theirs)
    await store.mutate(theirs, PLAYER, "inc", increment)
    forged = ChannelKey(OURS, theirs.channel_id)
    for fresh in (False, True):  # from the store's memory, then read
        if fresh:
            store.snapshots.cache.clear()
        for refused in (
            store.view(forged),
            store.campaign(forged),
            store.running_encounters(forged),
            store.mutate(forged, PLAYER, "inc", increment),
            store.undo(forged, DIRECTOR),
            store.join_campaign(forged, place(OURS).channel_id),
            store.leave_campaign(forged),
        ):
            with pytest.raises(OtherServer):
                await refused
    table = await store.view(theirs)
    assert table.encounter is not None and table.encounter.state == {"counter": 1} and table.version == 4


async def test_the_bare_id_entry_points_refuse_another_servers_encounter(store: Store) -> None:
    """set_tracker, tracker_of, find_encounter, latest_encounter, recent_encounters, events, export_json,
    transcript_markdown, set_reminders and clear_reminders given another server's encounter or channel."""
    theirs = place(THEIRS)
    started = await begin(store, theirs)
    eid = started.encounter_id
    assert eid is not None
    await store.set_tracker(eid, theirs.channel_id, 555, guild_id=THEIRS)
    due = {"nudge": datetime(2026, 1, 1, tzinfo=UTC)}
    for refused in (
        store.set_tracker(eid, theirs.channel_id, 666, guild_id=OURS),
        store.tracker_of(eid, guild_id=OURS),
        store.find_encounter(eid, guild_id=OURS),
        store.latest_encounter(theirs.channel_id, guild_id=OURS),
        store.recent_encounters(theirs.channel_id, guild_id=OURS, limit=3),
        store.events(eid, guild_id=OURS),
        store.export_json(eid, guild_id=OURS),
        store.transcript_markdown(eid, guild_id=OURS),
        store.set_reminders(
            eid, guild_id=OURS, channel_id=theirs.channel_id, version=1, turn_key="w", due=due
        ),
        store.clear_reminders(eid, guild_id=OURS),
    ):
        with pytest.raises(OtherServer, match="not on this server"):
            await refused
    # nothing written, and their own server still sees it all
    assert await store.tracker_of(eid, guild_id=THEIRS) == (theirs.channel_id, 555)
    assert await store.due_reminders(datetime(2027, 1, 1, tzinfo=UTC)) == []
    assert await store.latest_encounter(theirs.channel_id, guild_id=THEIRS) == eid
    assert [e.id for e in await store.recent_encounters(theirs.channel_id, guild_id=THEIRS, limit=3)] == [eid]
    assert [e.seq for e in await store.events(eid, guild_id=THEIRS)] == [1]
    found = await store.find_encounter(eid, guild_id=THEIRS)
    assert found is not None and found.guild_id == THEIRS
