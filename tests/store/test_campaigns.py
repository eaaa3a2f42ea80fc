"""Campaigns in the store (docs/store.md, *Campaigns*), on SQLite and PostgreSQL: a thread plays with its
parent channel's roster and hero-token pool, a channel may join another's campaign and leave it, a thread's
own roster from before campaigns is merged into its parent's (revision 0002_campaigns), at most 200 heroes."""

from __future__ import annotations

import itertools
import logging
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from bot.store import Change, ChannelKey, InvalidValue, Store, Table
from bot.store.migrate import upgrade
from bot.store.models import channels, heroes
from bot.store.validate import HERO_LIMIT, HEROES_PER_MEMBER
from tests.store.conftest import Target
from tests.store.helpers import DIRECTOR, PLAYER, begin

GUILD = 10
_ids = itertools.count(5000, 10)


def place() -> tuple[ChannelKey, ChannelKey]:
    """A fresh channel and a thread of it (the thread's key carries its parent, as an interaction does)."""
    channel = next(_ids)
    return ChannelKey(GUILD, channel), ChannelKey(GUILD, channel + 1, parent_id=channel, name="Goblin ambush")


def add_hero(name: str, owner: int = PLAYER) -> object:
    def change(table: Table) -> Change[str]:
        return Change(f"Hero {name}", table.add_hero(owner, name, {"stamina": 30}).id)

    return change


def award(count: int) -> object:
    def change(table: Table) -> Change[int]:
        table.tokens += count
        return Change(f"{count} tokens", table.tokens)

    return change


async def names(store: Store, key: ChannelKey) -> set[str]:
    return {hero.name for hero in (await store.view(key)).heroes.values()}


async def test_a_thread_plays_with_its_parents_roster_and_pool(store: Store, target: Target) -> None:
    """ "a thread's encounter uses its parent channel's heroes and tokens"."""
    channel, thread = place()
    await store.mutate(channel, PLAYER, "hero.create", add_hero("Ash"))
    await store.mutate(thread, PLAYER, "hero.create", add_hero("Bree"))
    await store.mutate(thread, DIRECTOR, "tokens.award", award(3))
    assert await names(store, channel) == await names(store, thread) == {"Ash", "Bree"}
    assert (await store.view(channel)).tokens == (await store.view(thread)).tokens == 3
    # the thread's encounter is its own; the parent's stays free
    await begin(store, thread)
    assert (await store.view(channel)).encounter is None
    await begin(store, channel)
    # a name is unique in the campaign, from either side
    with pytest.raises(InvalidValue, match="already a hero named"):
        await store.mutate(thread, PLAYER, "hero.create", add_hero("ash"))
    # a fresh store (no memory) reads the same; a key without the parent finds it in the thread's row
    reopened = await target.open(migrate=False)
    try:
        assert await names(reopened, ChannelKey(GUILD, thread.channel_id)) == {"Ash", "Bree"}
    finally:
        await reopened.close()


def spend_in_the_fight(table: Table) -> Change[int]:
    """A hero token spent in the thread's encounter (the encounter records who spent it)."""
    table.require_encounter().state["counter"] += 1
    table.tokens -= 1
    return Change("1 token spent", table.tokens)


async def test_undo_in_a_thread_gives_the_campaigns_pool_its_tokens_back(store: Store) -> None:
    channel, thread = place()
    await store.mutate(channel, DIRECTOR, "tokens.award", award(2))
    await begin(store, thread)
    await store.mutate(thread, DIRECTOR, "tokens.spend", spend_in_the_fight)
    assert (await store.view(channel)).tokens == 1
    await store.undo(thread, DIRECTOR)
    assert (await store.view(channel)).tokens == (await store.view(thread)).tokens == 2


async def test_undo_in_a_thread_keeps_what_the_campaign_changed_since(store: Store) -> None:
    """An undo takes back what its change did to the pool (one token), never the pool's old value: a spend
    and an award in the channel since stand."""
    channel, thread = place()
    await store.mutate(channel, DIRECTOR, "tokens.award", award(2))
    await begin(store, thread)
    await store.mutate(thread, PLAYER, "tokens.spend", spend_in_the_fight)
    await store.mutate(channel, PLAYER, "tokens.spend", award(-1))
    await store.mutate(channel, DIRECTOR, "tokens.award", award(5))
    undone = await store.undo(thread, PLAYER)
    assert undone.value.kind == "tokens.spend"
    assert (await store.view(channel)).tokens == 2 - 1 - 1 + 5 + 1


async def test_a_warm_command_in_a_thread_reads_nothing_more(store: Store, target: Target) -> None:
    """ "The campaign lookup adds no query to a warm command on SQLite"."""
    if target.backend != "sqlite":
        pytest.skip("counts SQLite's statements")
    channel, thread = place()
    await store.mutate(channel, PLAYER, "hero.create", add_hero("Ash"))
    await begin(store, thread)
    await store.mutate(thread, DIRECTOR, "tokens.award", award(1))
    reads = 0
    original_read, original_version = store.snapshots.read, store.snapshots.stored_version

    async def counting_read(channel_id: int) -> object:
        nonlocal reads
        reads += 1
        return await original_read(channel_id)

    async def counting_version(channel_id: int) -> object:
        nonlocal reads
        reads += 1
        return await original_version(channel_id)

    store.snapshots.read = counting_read  # type: ignore[method-assign]
    store.snapshots.stored_version = counting_version  # type: ignore[method-assign]
    for _ in range(3):
        await store.mutate(thread, DIRECTOR, "tokens.award", award(1))
        await store.view(thread, shared=True, fresh=False)
    assert reads == 0
    assert (await store.view(channel)).tokens == 4


async def test_join_and_leave_a_campaign(store: Store) -> None:
    main, _ = place()
    ooc, ooc_thread = place()
    await store.mutate(main, PLAYER, "hero.create", add_hero("Ash"))
    await store.mutate(main, DIRECTOR, "tokens.award", award(2))
    await store.mutate(ooc, PLAYER, "hero.create", add_hero("Cole"))
    info = await store.join_campaign(ooc, main.channel_id)
    assert (info.home_id, info.heroes, info.tokens, info.own_heroes) == (main.channel_id, 1, 2, 1)
    assert await names(store, ooc) == await names(store, ooc_thread) == {"Ash"}
    await store.mutate(ooc_thread, PLAYER, "hero.create", add_hero("Dara"))
    assert await names(store, main) == {"Ash", "Dara"}
    assert (await store.campaign(main)).members == (ooc.channel_id,)
    # a campaign's home can't join another while channels play in it; a thread can't join at all
    other, _ = place()
    with pytest.raises(InvalidValue, match="Other channels play in this channel's campaign"):
        await store.join_campaign(main, other.channel_id)
    with pytest.raises(InvalidValue, match="thread"):
        await store.join_campaign(ooc_thread, other.channel_id)
    # not while an encounter runs in the channel or its threads
    await begin(store, ooc_thread)
    with pytest.raises(InvalidValue, match="encounter is running"):
        await store.leave_campaign(ooc)
    await store.mutate(ooc_thread, DIRECTOR, "encounter.end", _end)
    info = await store.leave_campaign(ooc)
    assert info.home_id == ooc.channel_id and await names(store, ooc) == {"Cole"}
    with pytest.raises(InvalidValue, match="own campaign already"):
        await store.leave_campaign(ooc)


def _end(table: Table) -> Change[None]:
    table.end_encounter()
    return Change("ended", None)


async def test_at_most_200_heroes_per_campaign(store: Store) -> None:
    """ "at most 200 heroes per campaign", with a clear one-line refusal."""
    channel, thread = place()

    def many(table: Table) -> Change[int]:
        for number in range(HERO_LIMIT):  # 10 each: the most one member may have
            table.add_hero(100 + number // HEROES_PER_MEMBER, f"Hero {number}", {})
        return Change("many heroes", len(table.heroes))

    await store.mutate(channel, DIRECTOR, "hero.create", many)
    with pytest.raises(InvalidValue) as refused:
        await store.mutate(thread, PLAYER, "hero.create", add_hero("One more"))
    assert "200 heroes" in str(refused.value) and "\n" not in str(refused.value)
    assert len((await store.view(channel)).heroes) == HERO_LIMIT


async def test_at_most_10_heroes_per_member(store: Store) -> None:
    """One member can't fill the campaign's places: 10 heroes each, with a one-line refusal that says what
    to do; another member still adds theirs."""
    channel, thread = place()
    for number in range(HEROES_PER_MEMBER):
        await store.mutate(channel, PLAYER, "hero.create", add_hero(f"Hero {number}"))
    with pytest.raises(InvalidValue) as refused:
        await store.mutate(thread, PLAYER, "hero.create", add_hero("One more"))
    assert "10 heroes" in str(refused.value) and "/hero delete" in str(refused.value)
    assert "\n" not in str(refused.value)
    await store.mutate(thread, DIRECTOR, "hero.create", add_hero("Theirs", owner=DIRECTOR))
    assert len((await store.view(channel)).heroes) == HEROES_PER_MEMBER + 1


async def test_migration_merges_a_threads_old_roster_into_its_parents_campaign(
    target: Target, caplog: pytest.LogCaptureFixture
) -> None:
    """Rosters and pools made in threads are merged into their parent's campaign; a name clash is
    kept apart (`Ash (thread name)`) and reported in the log; nothing is dropped. Built on the previous
    schema (0001_initial): the old rows had no parent, so the merge runs when the thread is first seen."""
    store = await target.open(migrate=False)
    try:
        await upgrade(store.engine, "0001_initial")
        parent, thread, lone = 7001, 7002, 7003
        now = datetime.now(UTC)
        async with store.engine.begin() as connection:
            for channel_id, tokens in ((parent, 2), (thread, 3), (lone, 1)):
                await connection.execute(
                    sa.text(
                        "INSERT INTO channels (id, guild_id, tokens, version, updated_at) "
                        "VALUES (:id, :guild, :tokens, 4, :now)"
                    ),
                    {"id": channel_id, "guild": GUILD, "tokens": tokens, "now": now},
                )
            for hero_id, channel_id, name in (
                ("a1", parent, "Ash"),
                ("a2", thread, "Ash"),
                ("b2", thread, "Bree"),
                ("c3", lone, "Cole"),
            ):
                await connection.execute(
                    sa.text(
                        "INSERT INTO heroes (id, channel_id, owner_id, name, name_key, data, created_at, "
                        "updated_at) VALUES (:id, :channel, :owner, :name, :key, '{}', :now, :now)"
                    ),
                    {
                        "id": hero_id,
                        "channel": channel_id,
                        "owner": PLAYER,
                        "name": name,
                        "key": name.casefold(),
                        "now": now,
                    },
                )
        await upgrade(store.engine)
        async with store.engine.connect() as connection:
            assert (
                await connection.execute(sa.select(sa.func.count()).select_from(heroes))
            ).scalar_one() == 4
        # what the bot asks Discord about once connected (`exts.heroes._campaign.merge_old_threads`)
        assert await store.unplaced() == [(GUILD, parent), (GUILD, thread), (GUILD, lone)]
        caplog.set_level(logging.WARNING, "bot.store")
        thread_key = ChannelKey(GUILD, thread, parent_id=parent, name="Goblin ambush")
        table = await store.view(thread_key)
        assert {h.name for h in table.heroes.values()} == {"Ash", "Ash (Goblin ambush)", "Bree"}
        assert table.tokens == 5
        assert set(table.heroes) == {"a1", "a2", "b2"}  # the same heroes, ids kept (encounter links hold)
        assert await names(store, ChannelKey(GUILD, parent)) == {"Ash", "Ash (Goblin ambush)", "Bree"}
        assert await names(store, ChannelKey(GUILD, lone)) == {"Cole"}  # a channel keeps its own
        assert "'Ash' -> 'Ash (Goblin ambush)'" in caplog.text
        async with store.engine.connect() as connection:
            assert (
                await connection.execute(sa.select(sa.func.count()).select_from(heroes))
            ).scalar_one() == 4
            row = (await connection.execute(sa.select(channels).where(channels.c.id == thread))).one()
            assert (row.parent_id, row.tokens) == (parent, 0)
        assert await store.unplaced() == [(GUILD, lone)]  # the parent is a parent now: no thread
        # merged once: a later command in the thread changes nothing more
        await store.mutate(thread_key, DIRECTOR, "tokens.award", award(1))
        assert (await store.view(ChannelKey(GUILD, parent))).tokens == 6
    finally:
        await store.close()


async def test_running_encounters_covers_the_whole_campaign(store: Store) -> None:
    main, main_thread = place()
    ooc, ooc_thread = place()
    elsewhere, _ = place()
    await store.join_campaign(ooc, main.channel_id)
    for key in (main_thread, ooc_thread, elsewhere):
        await begin(store, key)
    await store.view(main)  # the parent's row may never be written: the thread knows it
    found = [channel_id for channel_id, _ in await store.running_encounters(ooc)]
    assert found == sorted([main_thread.channel_id, ooc_thread.channel_id])
    assert [c for c, _ in await store.running_encounters(elsewhere)] == [elsewhere.channel_id]


@pytest.mark.parametrize(
    ("name", "taken", "kept"),
    [
        ("Ash", {"ash"}, "Ash (Fight)"),
        ("Ash", {"ash", "ash (fight)"}, "Ash (Fight 2)"),
        ("A" * 64, {"a" * 64}, "A" * 56 + " (Fight)"),
    ],
)
def test_a_clashing_name_is_kept_apart_within_the_name_limit(name: str, taken: set[str], kept: str) -> None:
    from bot.store.campaigns import kept_apart

    result = kept_apart(name, "Fight", taken)
    assert result == kept and len(result) <= 64


def link(hero_id: str) -> object:
    """The thread's encounter brings in the roster hero `hero_id` (refused once it's off the roster), relying
    on the roster it read (`Table.rely_on_roster`)."""

    def change(table: Table) -> Change[None]:
        if hero_id not in table.heroes:
            raise InvalidValue("That hero is not on the roster.")
        doc = table.require_encounter()
        doc.state = {**doc.state, "linked": [*doc.state.get("linked", []), hero_id]}
        table.rely_on_roster()
        return Change("linked", None)

    return change


def delete_if_idle(hero_id: str) -> object:
    """Delete the hero unless an encounter elsewhere in the campaign has linked it, checked as it commits."""

    def judge(running: object) -> None:
        for channel_id, state in running:  # type: ignore[attr-defined]
            if hero_id in state.get("linked", []):
                raise InvalidValue(f"fighting in {channel_id}")

    def change(table: Table) -> Change[None]:
        table.check_campaign(judge)
        table.remove_hero(hero_id)
        return Change("deleted", None)

    return change


async def test_a_delete_checks_the_campaigns_encounters_as_it_commits(store: Store) -> None:
    """The "is this hero fighting elsewhere?" check runs in the delete's write transaction: an encounter
    that brought the hero in after the command looked (here: right before) refuses the delete."""
    channel, thread = place()
    hero_id = (await store.mutate(channel, PLAYER, "hero.create", add_hero("Ash"))).value
    await begin(store, thread)
    await store.mutate(thread, PLAYER, "encounter.hero", link(hero_id))
    with pytest.raises(InvalidValue, match=f"fighting in {thread.channel_id}"):
        await store.mutate(channel, PLAYER, "hero.delete", delete_if_idle(hero_id))
    assert await names(store, channel) == {"Ash"}
    # a change in the encounter's own channel is the change's own to check (its state is being written)
    await store.mutate(thread, PLAYER, "hero.delete", delete_if_idle(hero_id))
    assert await names(store, channel) == set()


async def test_an_encounter_relying_on_a_roster_another_process_changed_runs_again(
    store: Store, target: Target
) -> None:
    """Two processes: one brings a hero into the thread's encounter from the roster it remembers, while the
    other has deleted the hero meanwhile. Relying on the roster compares-and-sets the campaign home's
    version, so the first runs again on the fresh roster and is refused, instead of linking a deleted hero."""
    channel, thread = place()
    hero_id = (await store.mutate(channel, PLAYER, "hero.create", add_hero("Ash"))).value
    await begin(store, thread)
    other = await target.open(migrate=False)
    try:
        await store.view(thread)  # this process remembers the roster with Ash
        await other.mutate(channel, PLAYER, "hero.delete", delete_if_idle(hero_id))
        with pytest.raises(InvalidValue, match="not on the roster"):
            await store.mutate(thread, PLAYER, "encounter.hero", link(hero_id))
        assert "linked" not in (await other.view(thread)).encounter.state  # type: ignore[union-attr]
    finally:
        await other.close()
