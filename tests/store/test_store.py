"""Store API on both backends: mutate, view, undo, encounters, heroes, trackers, settings, the log."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

import pytest
import sqlalchemy as sa

from bot.store import (
    Change,
    ChannelKey,
    EncounterExists,
    NoEncounter,
    NothingToUndo,
    StaleState,
    Store,
    Table,
)
from bot.store import database as db_module
from bot.store.bestiary import NewMonster
from bot.store.errors import StoreUnavailable
from bot.store.models import encounters, events
from bot.store.snapshot import clone
from bot.store.snapshots import READ_CHANNEL
from bot.store.store import STATEMENT_GRACE
from tests.store.conftest import Target
from tests.store.helpers import DIRECTOR, PLAYER, begin, increment


async def count_events(store: Store) -> int:
    async with store.engine.connect() as connection:
        return int((await connection.execute(sa.select(sa.func.count()).select_from(events))).scalar_one())


async def test_start_mutate_view(store: Store, key: ChannelKey) -> None:
    started = await begin(store, key)
    assert started.seq == 1 and started.version == 1 and started.encounter_id is not None
    done = await store.mutate(key, PLAYER, "inc", increment)
    assert (done.value, done.seq, done.version, done.encounter_id) == (1, 2, 2, started.encounter_id)
    table = await store.view(key)
    assert table.encounter is not None and table.encounter.state == {"counter": 1}
    assert table.encounter.id == started.encounter_id and table.version == 2


async def test_view_is_a_copy(store: Store, key: ChannelKey) -> None:
    await begin(store, key)
    table = await store.view(key)
    assert table.encounter is not None
    table.encounter.state["counter"] = 99
    table.tokens = 5
    again = await store.view(key)
    assert again.encounter is not None and again.encounter.state == {"counter": 0} and again.tokens == 0


async def test_a_view_not_proved_fresh_is_the_stores_memory_until_a_fresh_one(
    store: Store, target: Target, key: ChannelKey
) -> None:
    """`view(fresh=False)` reads no version: after another process's write it still shows this process's
    memory (and reads the database only when it has none); a fresh view, or a mutate, sees the write."""
    await begin(store, key)
    other = await target.open(migrate=False)
    try:
        await other.mutate(key, PLAYER, "increment", increment)
    finally:
        await other.close()
    remembered = await store.view(key, shared=True, fresh=False)
    assert remembered.version == 1 and remembered.encounter is not None
    assert remembered.encounter.state == {"counter": 0}
    fresh = await store.view(key, shared=True)
    assert fresh.version == 2 and fresh.encounter is not None and fresh.encounter.state == {"counter": 1}
    assert (await store.view(key, fresh=False)).version == 2  # the fresh read is remembered
    unknown = ChannelKey(key.guild_id, key.channel_id + 100_000)
    assert (await store.view(unknown, fresh=False)).version == 0  # no memory: read


async def test_a_sqlite_channel_is_read_on_the_loop_thread_as_the_pool_reads_it(
    store: Store, target: Target, key: ChannelKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite a channel and its guild's settings are read through the version-read connection on the event
    loop's thread (no pool connection, no database thread); what it reads is what the pool reads, and if
    that connection fails the pool reads instead."""
    if target.backend != "sqlite":
        pytest.skip("SQLite's own read")
    await begin(store, key, state={"counter": 3, "name": "Ærwyn 🐉", "nested": [1.5, None, True]})
    await store.mutate(key, PLAYER, "hero.add", lambda t: Change("add", t.add_hero(PLAYER, "Vex", {"xp": 7})))
    checkouts: list[object] = []
    sa.event.listen(store.engine.sync_engine, "checkout", lambda *args: checkouts.append(args))
    await store.update_settings(
        key.guild_id, director_role_id=42, turn_pings=False, malice_rounding="up", show_monster_stamina=False
    )
    here = await store.snapshots.read(key.channel_id)
    settings = await store.settings.read(key.guild_id)
    assert checkouts == []
    monkeypatch.setattr(store.database, "probe_file", None)
    pooled = await store.snapshots.read(key.channel_id)
    assert checkouts != [] and here == pooled
    assert settings == await store.settings.read(key.guild_id)
    assert settings.turn_pings is False and settings.tokens_reset_per_session is True
    assert (settings.director_role_id, settings.malice_rounding) == (42, "up")
    assert here.snap["encounter"]["state"]["name"] == "Ærwyn 🐉"
    monkeypatch.undo()

    def broken(path: Path) -> sqlite3.Connection:
        raise sqlite3.OperationalError("disk I/O error")

    store.database.drop_probe()
    monkeypatch.setattr(db_module, "open_probe", broken)
    assert await store.snapshots.read(key.channel_id) == here
    assert await store.settings.read(key.guild_id) == settings


async def test_the_stores_other_sqlite_reads_run_on_the_loop_thread_as_the_pool_runs_them(
    store: Store, target: Target, key: ChannelKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite the reads beside a channel's (an encounter by id, a channel's newest encounter, the log, a
    campaign's members and running encounters, the bestiary) run on the event loop's thread through a
    connection kept for them: no pool connection, no database thread (through the pool's five, a hundred
    channels' first turn pings each reading its tracker's id waited half a second under load). They read
    what the pool reads, and when that connection fails the pool reads instead."""
    if target.backend != "sqlite":
        pytest.skip("SQLite's own read")
    started = await begin(store, key, state={"counter": 0, "name": "Ærwyn 🐉", "nested": [1.5, None, True]})
    await store.mutate(key, PLAYER, "increment", increment)
    encounter_id = started.encounter_id
    assert encounter_id is not None
    await store.set_tracker(encounter_id, key.channel_id, 777, guild_id=key.guild_id)
    sniper = NewMonster("Goblin Sniper", "Goblin", "goblin-2", {"a": 1})
    await store.put_monsters(key.guild_id, PLAYER, [sniper])

    async def everything() -> tuple[object, ...]:
        return (
            await store.find_encounter(encounter_id, guild_id=key.guild_id),
            await store.tracker_of(encounter_id, guild_id=key.guild_id),
            await store.latest_encounter(key.channel_id, guild_id=key.guild_id),
            await store.events(encounter_id, guild_id=key.guild_id),
            await store.campaign(key),
            await store.running_encounters(key),
            await store.monster_index(key.guild_id),
        )

    checkouts: list[object] = []
    sa.event.listen(store.engine.sync_engine, "checkout", lambda *args: checkouts.append(args))
    here = await everything()
    assert checkouts == []
    info = here[0]
    assert info is not None and info.tracker_message_id == 777 and info.active is True
    assert info.state == {"counter": 1, "name": "Ærwyn 🐉", "nested": [1.5, None, True]}
    assert info.created_at.tzinfo is not None and len(here[3]) == 2  # type: ignore[arg-type]
    assert here[1] == (key.channel_id, 777)
    monkeypatch.setattr(store.database, "reader_engine", None)
    assert await everything() == here
    assert checkouts != []
    monkeypatch.undo()

    class Broken:
        def connect(self) -> None:
            raise sa.exc.OperationalError("BEGIN", None, sqlite3.OperationalError("disk I/O error"))

        def dispose(self) -> None:
            pass

    store.database.drop_probe()
    monkeypatch.setattr(store.database, "reader_engine", Broken())
    assert await everything() == here


async def test_a_shared_view_reads_the_same_without_copying(store: Store, key: ChannelKey) -> None:
    await begin(store, key)
    await store.mutate(key, PLAYER, "increment", increment)
    copy, shared, again = (
        await store.view(key),
        await store.view(key, shared=True),
        await store.view(key, shared=True),
    )
    assert copy.encounter is not None and shared.encounter is not None and again.encounter is not None
    assert (shared.version, shared.encounter.id, shared.encounter.state) == (
        copy.version,
        copy.encounter.id,
        copy.encounter.state,
    )
    assert shared.encounter.state is again.encounter.state  # the store's own memory, not a copy
    assert copy.encounter.state is not shared.encounter.state
    shared.encounter.active = False  # its objects are still the caller's own
    assert (await store.view(key)).encounter.active  # type: ignore[union-attr]


async def test_a_shared_change_replaces_the_stores_memory_and_commits(store: Store, key: ChannelKey) -> None:
    await begin(store, key)
    kept = (await store.view(key, shared=True)).require_encounter().state
    seen: list[dict[str, object]] = []

    def replace(table: Table) -> Change[None]:
        encounter = table.require_encounter()
        seen.append(encounter.state)
        encounter.state = {"counter": encounter.state["counter"] + 1}
        return Change("replaced", None)

    done = await store.mutate(key, PLAYER, "replace", replace, shared=True)
    assert seen == [kept] and seen[0] is kept  # the store's own memory, not a copy
    assert kept == {"counter": 0}
    assert done.seq == 2 and (await store.view(key)).require_encounter().state == {"counter": 1}
    undone = await store.undo(key, PLAYER)
    assert undone.version == 3 and (await store.view(key)).require_encounter().state == {"counter": 0}


async def test_a_shared_change_that_edits_in_place_is_caught_and_writes_nothing(
    store: Store, key: ChannelKey
) -> None:
    await begin(store, key)
    assert Store.verify_shared  # on for every test (tests/conftest.py)

    def edit(table: Table) -> Change[None]:
        table.require_encounter().state["counter"] = 5
        return Change("edited", None)

    with pytest.raises(AssertionError, match="edited the store's shared memory"):
        await store.mutate(key, PLAYER, "edit", edit, shared=True)
    assert await count_events(store) == 1
    assert (await store.view(key)).require_encounter().state == {"counter": 0}  # the edited memory is dropped


async def test_no_change_writes_nothing(store: Store, key: ChannelKey) -> None:
    await begin(store, key)
    before = await count_events(store)
    result = await store.mutate(key, PLAYER, "look", lambda table: Change("nothing", 42))
    assert (result.value, result.seq, result.version) == (42, None, 1)
    assert await count_events(store) == before
    assert (await store.view(key)).version == 1


async def test_failing_change_writes_nothing_and_propagates(store: Store, key: ChannelKey) -> None:
    await begin(store, key)

    class Boom(Exception):
        pass

    def change(table: Table) -> Change[None]:
        table.require_encounter().state["counter"] = 7
        table.tokens = 3
        raise Boom("rules said no")

    with pytest.raises(Boom, match="rules said no"):
        await store.mutate(key, PLAYER, "boom", change)
    table = await store.view(key)
    assert table.encounter is not None and table.encounter.state == {"counter": 0} and table.tokens == 0
    assert await count_events(store) == 1


async def test_one_active_encounter_per_channel_threads_independent(store: Store, key: ChannelKey) -> None:
    await begin(store, key)
    with pytest.raises(EncounterExists):
        await begin(store, key)
    thread = ChannelKey(key.guild_id, key.channel_id + 500_000)
    in_thread = await begin(store, thread, {"counter": 10})
    assert in_thread.encounter_id is not None
    await store.mutate(thread, PLAYER, "inc", increment)
    parent = await store.view(key)
    assert parent.encounter is not None and parent.encounter.state == {"counter": 0}


async def test_partial_unique_index_refuses_a_second_active_row(store: Store, key: ChannelKey) -> None:
    first = await begin(store, key)
    now = datetime.now(UTC)
    with pytest.raises(sa.exc.IntegrityError):
        async with store.engine.begin() as connection:
            await connection.execute(
                sa.insert(encounters).values(
                    guild_id=key.guild_id,
                    channel_id=key.channel_id,
                    name="dup",
                    director_id=1,
                    state={},
                    active=True,
                    last_seq=0,
                    created_at=now,
                )
            )
    await store.mutate(key, DIRECTOR, "encounter.end", lambda t: Change("end", t.end_encounter()))
    second = await begin(store, key)
    assert second.encounter_id != first.encounter_id


async def test_no_encounter_errors(store: Store, key: ChannelKey) -> None:
    with pytest.raises(NoEncounter, match="/encounter start"):
        await store.mutate(key, PLAYER, "inc", increment)
    with pytest.raises(NoEncounter):
        await store.undo(key, PLAYER)
    with pytest.raises(NoEncounter):
        await store.mutate(key, DIRECTOR, "encounter.end", lambda t: Change("end", t.end_encounter()))
    assert await store.find_encounter(424242, guild_id=key.guild_id) is None
    assert await store.tracker_of(424242, guild_id=key.guild_id) is None
    with pytest.raises(NoEncounter):
        await store.events(424242, guild_id=key.guild_id)
    with pytest.raises(NoEncounter):
        await store.set_tracker(424242, 1, 2, guild_id=key.guild_id)


async def test_end_encounter_keeps_the_log(store: Store, key: ChannelKey) -> None:
    started = await begin(store, key)
    await store.mutate(key, PLAYER, "inc", increment)
    ended = await store.mutate(key, DIRECTOR, "encounter.end", lambda t: Change("Ended", t.end_encounter()))
    assert ended.encounter_id == started.encounter_id and ended.seq == 3
    assert (await store.view(key)).encounter is None
    assert started.encounter_id is not None
    info = await store.find_encounter(started.encounter_id, guild_id=key.guild_id)
    assert info is not None and not info.active and info.ended_at is not None and info.last_seq == 3
    assert [e.seq for e in await store.events(started.encounter_id, guild_id=key.guild_id)] == [1, 2, 3]
    with pytest.raises(NoEncounter):
        await store.undo(key, PLAYER)


async def test_a_state_change_and_a_change_of_hands_are_both_stored(
    store: Store, target: Target, key: ChannelKey
) -> None:
    """A change of the state alone is written without the encounter's other columns; a change of its name
    or Director writes them too. Another process reads both back."""
    started = await begin(store, key)

    def hand_over(table: Table) -> Change[None]:
        doc = table.require_encounter()
        doc.name, doc.director_id = "Ambush at dusk", PLAYER
        return Change("new hands", None)

    await store.mutate(key, PLAYER, "inc", increment)
    await store.mutate(key, DIRECTOR, "hand.over", hand_over)
    await store.mutate(key, PLAYER, "inc", increment)
    other = await target.open(migrate=False)
    try:
        table = await other.view(key)
        assert started.encounter_id is not None
        info = await other.find_encounter(started.encounter_id, guild_id=key.guild_id)
    finally:
        await other.close()
    assert table.encounter is not None and table.encounter.state == {"counter": 2}
    assert (table.encounter.name, table.encounter.director_id) == ("Ambush at dusk", PLAYER)
    assert info is not None and info.active and info.ended_at is None and info.last_seq == 4


async def test_undo_walks_back_to_the_start(store: Store, key: ChannelKey) -> None:
    started = await begin(store, key)
    for _ in range(3):
        await store.mutate(key, PLAYER, "inc", increment)
    await store.mutate(key, PLAYER, "tokens", lambda t: Change("tokens", setattr(t, "tokens", 4)))
    await store.mutate(key, PLAYER, "inc", increment)  # 6
    undone = await store.undo(key, DIRECTOR)
    assert undone.value.seq == 6 and undone.seq == 7 and undone.value.kind == "inc"
    assert (await store.view(key)).tokens == 4  # #5 changed the pool only: the campaign's, not undone
    for expected in (4, 3, 2):
        assert (await store.undo(key, DIRECTOR)).value.seq == expected
    with pytest.raises(NothingToUndo):
        await store.undo(key, DIRECTOR)
    table = await store.view(key)
    assert table.encounter is not None and table.encounter.state == {"counter": 0}
    assert started.encounter_id is not None
    log = await store.events(started.encounter_id, guild_id=key.guild_id)
    assert [(e.seq, e.kind, e.undoes, e.undone_by) for e in log] == [
        (1, "encounter.start", None, None),
        (2, "inc", None, 10),
        (3, "inc", None, 9),
        (4, "inc", None, 8),
        (5, "tokens", None, None),
        (6, "inc", None, 7),
        (7, "undo", 6, None),
        (8, "undo", 4, None),
        (9, "undo", 3, None),
        (10, "undo", 2, None),
    ]


async def test_undo_then_new_change_then_undo(store: Store, key: ChannelKey) -> None:
    await begin(store, key)
    await store.mutate(key, PLAYER, "inc", increment)  # 2
    await store.mutate(key, PLAYER, "inc", increment)  # 3
    await store.undo(key, PLAYER)  # 4 undoes 3
    await store.mutate(key, PLAYER, "inc", increment)  # 5 → counter 2
    assert (await store.undo(key, PLAYER)).value.seq == 5
    assert (await store.undo(key, PLAYER)).value.seq == 2
    table = await store.view(key)
    assert table.encounter is not None and table.encounter.state == {"counter": 0}


async def test_heroes_roster(store: Store, key: ChannelKey) -> None:
    added = await store.mutate(
        key, PLAYER, "hero.add", lambda t: Change("add", t.add_hero(PLAYER, "Ærwyn 🐉", {"stamina": 30}).id)
    )
    assert added.seq == 1 and added.encounter_id is None  # channel-level event
    hero_id = added.value
    with pytest.raises(Exception, match="already a hero named"):
        await store.mutate(
            key, PLAYER, "hero.add", lambda t: Change("add", t.add_hero(PLAYER, "ærwyn 🐉", {}))
        )

    def hurt(table: Table) -> Change[None]:
        table.heroes[hero_id].data["stamina"] -= 7
        return Change("hurt", None)

    await store.mutate(key, PLAYER, "hero.damage", hurt)
    table = await store.view(key)
    assert table.heroes[hero_id].data == {"stamina": 23} and table.heroes[hero_id].owner_id == PLAYER
    hero = table.hero_named("ÆRWYN 🐉")
    assert hero is not None and hero.id == hero_id
    await store.mutate(key, PLAYER, "hero.remove", lambda t: Change("rm", t.remove_hero(hero_id)))
    assert (await store.view(key)).heroes == {}


async def test_heroes_can_swap_names(store: Store, key: ChannelKey) -> None:
    def add_two(table: Table) -> Change[tuple[str, str]]:
        return Change("two", (table.add_hero(1, "Ash", {}).id, table.add_hero(2, "Birch", {}).id))

    first, second = (await store.mutate(key, PLAYER, "hero.add", add_two)).value

    def swap(table: Table) -> Change[None]:
        table.heroes[first].name, table.heroes[second].name = "Birch", "Ash"
        return Change("swap", None)

    await store.mutate(key, PLAYER, "hero.rename", swap)
    table = await store.view(key)
    assert (table.heroes[first].name, table.heroes[second].name) == ("Birch", "Ash")


async def test_heroes_outlive_encounters_and_undo_restores_them(store: Store, key: ChannelKey) -> None:
    hero_id = (
        await store.mutate(
            key, PLAYER, "hero.add", lambda t: Change("add", t.add_hero(PLAYER, "Vex", {"xp": 1}).id)
        )
    ).value
    await begin(store, key)

    def gain(table: Table) -> Change[None]:
        table.heroes[hero_id].data["xp"] += 2
        table.tokens += 1
        return Change("xp", None)

    def leave(table: Table) -> Change[None]:
        increment(table)
        table.remove_hero(hero_id)
        return Change("rm", None)

    await store.mutate(key, PLAYER, "hero.xp", lambda t: (increment(t), gain(t))[1])
    await store.mutate(key, PLAYER, "hero.remove", leave)
    await store.undo(key, DIRECTOR)
    await store.undo(key, DIRECTOR)
    table = await store.view(key)
    assert table.heroes[hero_id].data == {"xp": 1} and table.tokens == 0
    await store.mutate(key, DIRECTOR, "encounter.end", lambda t: Change("end", t.end_encounter()))
    assert (await store.view(key)).heroes[hero_id].name == "Vex"


async def test_stale_version_raises_and_changes_nothing(target: Target, key: ChannelKey) -> None:
    first, second = await target.open(), await target.open(migrate=False)
    try:
        await begin(first, key)
        await first.mutate(key, PLAYER, "inc", increment)  # `first` now caches version 2
        await second.mutate(key, PLAYER, "inc", increment)  # another process moves it to 3
        with pytest.raises(StaleState, match="changed while you were acting"):
            await first.mutate(key, PLAYER, "inc", increment, retries=0)
        table = await second.view(key)
        assert table.version == 3 and table.encounter is not None and table.encounter.state == {"counter": 2}
        assert await count_events(first) == 3
        retried = await first.mutate(key, PLAYER, "inc", increment)  # re-reads, re-runs, commits
        assert (retried.value, retried.version, retried.seq) == (3, 4, 4)
    finally:
        await first.close()
        await second.close()


async def test_first_write_of_a_channel_races_cleanly(target: Target, key: ChannelKey) -> None:
    first, second = await target.open(), await target.open(migrate=False)
    try:
        assert (await first.mutate(key, PLAYER, "look", lambda t: Change("look", t.tokens))).seq is None
        await second.mutate(key, PLAYER, "tokens", lambda t: Change("t", setattr(t, "tokens", 2)))
        with pytest.raises(StaleState):  # `first` still believes the channel has no row (version 0)
            await first.mutate(
                key, PLAYER, "tokens", lambda t: Change("t", setattr(t, "tokens", 5)), retries=0
            )
        assert (await first.view(key)).tokens == 2
        await begin(second, key)
        await second.mutate(key, PLAYER, "inc", increment)
        assert (await first.undo(key, DIRECTOR)).value.seq == 2  # undo reads fresh: no stale error
    finally:
        await first.close()
        await second.close()


async def test_tracker_is_not_an_event(store: Store, key: ChannelKey) -> None:
    started = await begin(store, key)
    assert started.encounter_id is not None
    assert await store.tracker_of(started.encounter_id, guild_id=key.guild_id) is None  # not posted yet
    await store.set_tracker(started.encounter_id, key.channel_id, 987654321, guild_id=key.guild_id)
    assert await store.tracker_of(started.encounter_id, guild_id=key.guild_id) == (key.channel_id, 987654321)
    info = await store.find_encounter(started.encounter_id, guild_id=key.guild_id)
    assert info is not None and (info.tracker_channel_id, info.tracker_message_id) == (
        key.channel_id,
        987654321,
    )
    assert (await store.view(key)).version == 1 and await count_events(store) == 1


async def test_settings(store: Store) -> None:
    defaults = await store.get_settings(77)
    assert (defaults.turn_pings, defaults.malice_rounding, defaults.director_role_id) == (True, "down", None)
    updated = await store.update_settings(77, director_role_id=5555, malice_rounding="nearest")
    assert updated.director_role_id == 5555 and updated.malice_rounding == "nearest"
    again = await store.update_settings(77, turn_pings=False, show_monster_stamina=True)
    assert again.director_role_id == 5555 and not again.turn_pings and again.show_monster_stamina
    assert (await store.get_settings(77)) == again
    assert (await store.get_settings(78)).turn_pings is True


async def test_export_and_transcript(store: Store, key: ChannelKey) -> None:
    started = await begin(store, key)
    await store.mutate(key, PLAYER, "inc", increment)
    await store.mutate(
        key, PLAYER, "strike", lambda t: Change("Vex strikes the goblin for 7", None, {"d": 7})
    )
    await store.mutate(key, PLAYER, "inc", increment)
    await store.undo(key, DIRECTOR)
    assert started.encounter_id is not None
    exported = json.loads(await store.export_json(started.encounter_id, guild_id=key.guild_id))
    assert exported["encounter"]["name"] == "Goblin ambush"
    assert [e["seq"] for e in exported["events"]] == [1, 2, 3, 4]  # the strike changed nothing: no event
    assert exported["events"][2]["undone_by"] == 4
    markdown = await store.transcript_markdown(started.encounter_id, guild_id=key.guild_id)
    assert "# Goblin ambush" in markdown and "Started Goblin ambush" in markdown
    assert "**#3**" in markdown and "(undone by #4)" in markdown and f"<@{PLAYER}>" in markdown


async def test_prune_deletes_only_old_ended_encounters(store: Store, key: ChannelKey) -> None:
    old = await begin(store, key)
    await store.mutate(key, PLAYER, "inc", increment)
    await store.mutate(key, DIRECTOR, "encounter.end", lambda t: Change("end", t.end_encounter()))
    running = await begin(store, key)
    assert old.encounter_id is not None and running.encounter_id is not None
    assert await store.prune(timedelta(days=1)) == 0
    assert await store.find_encounter(old.encounter_id, guild_id=key.guild_id) is not None
    assert await store.prune(timedelta(0)) == 1
    assert await store.find_encounter(old.encounter_id, guild_id=key.guild_id) is None
    assert await store.find_encounter(running.encounter_id, guild_id=key.guild_id) is not None
    assert len(await store.events(running.encounter_id, guild_id=key.guild_id)) == 1
    assert await count_events(store) == 1


async def test_sqlite_creates_the_data_folder_and_uses_wal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = await Store.open()  # the default: sqlite+aiosqlite:///data/bot.db
    try:
        assert (tmp_path / "data" / "bot.db").exists()
        async with store.engine.connect() as connection:
            assert (await connection.exec_driver_sql("PRAGMA journal_mode")).scalar() == "wal"
            assert (await connection.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1
            # readers wait for a lock no longer than a store call may (bot.store.store.WAIT_LIMIT)
            assert (await connection.exec_driver_sql("PRAGMA busy_timeout")).scalar() == 1500
            assert (await connection.exec_driver_sql("PRAGMA wal_autocheckpoint")).scalar() == 0
    finally:
        await store.close()


#: A checkpoint every this many commits in the WAL tests (the store's own round is longer).
ROUND = 100


async def test_sqlite_wal_is_checkpointed_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.store.database.CHECKPOINT_EVERY", ROUND)
    path = tmp_path / "bot.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    key = ChannelKey(1, 2)
    try:
        await begin(store, key)
        initial = path.stat().st_size
        for _ in range(ROUND - 2):
            await store.mutate(key, PLAYER, "inc", increment)
        assert store.database.checkpoint_task is None
        assert path.stat().st_size == initial  # commits only append to the WAL
        await store.mutate(key, PLAYER, "inc", increment)
        task = store.database.checkpoint_task
        assert task is not None
        await task
        assert path.stat().st_size > initial  # the background checkpoint copied the pages over
        wal = Path(f"{path}-wal")
        before = _size(wal)
        await store.mutate(key, PLAYER, "inc", increment)
        assert _size(wal) == before  # and the next commit started the WAL over, from its beginning
    finally:
        await store.close()


def _size(path: Path) -> int:
    return path.stat().st_size


async def _a_round_and_its_checkpoint(store: Store, key: ChannelKey) -> None:
    """`ROUND` commits in `key`'s channel, then wait for the checkpoint they started."""
    for _ in range(ROUND):
        await store.mutate(key, PLAYER, "inc", increment)
    assert store.database.checkpoint_task is not None
    await store.database.checkpoint_task


async def test_a_short_wal_is_only_copied_a_long_one_started_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkpoint round copies the WAL with a PASSIVE checkpoint, which no write waits for; only a WAL
    that holds `WAL_RESTART_FRAMES` gets the RESTART that this process's writes wait out."""
    monkeypatch.setattr("bot.store.database.CHECKPOINT_EVERY", ROUND)
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    key = ChannelKey(1, 2)
    writer = store.database.sqlite_writer
    assert writer is not None
    real = writer.checkpoint
    seen: list[tuple[str, int]] = []

    async def spy(mode: Literal["PASSIVE", "RESTART"], wait_ms: int = 0) -> int:
        frames = await real(mode, wait_ms)
        seen.append((mode, frames))
        return frames

    monkeypatch.setattr(writer, "checkpoint", spy)
    try:
        await begin(store, key)
        await _a_round_and_its_checkpoint(store, key)
        assert [mode for mode, _ in seen] == ["PASSIVE"] and 0 < seen[0][1] < db_module.WAL_RESTART_FRAMES
        monkeypatch.setattr("bot.store.database.WAL_RESTART_FRAMES", seen[0][1] // 2)
        await _a_round_and_its_checkpoint(store, key)
        assert [mode for mode, _ in seen] == ["PASSIVE", "PASSIVE", "RESTART"]
        assert (await store.view(key)).version == 2 * ROUND + 1
    finally:
        await store.close()


async def test_the_wal_stays_short_while_commands_keep_committing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Commits that go on while a checkpoint runs used to keep SQLite from ever starting the WAL over: it
    grew by every commit, for as long as the load lasted."""
    monkeypatch.setattr("bot.store.database.CHECKPOINT_EVERY", ROUND)
    monkeypatch.setattr("bot.store.database.WAL_RESTART_FRAMES", 1)  # every round starts it over
    path = tmp_path / "bot.db"
    wal = Path(f"{path}-wal")
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    key = ChannelKey(1, 2)
    try:
        await begin(store, key)
        for _ in range(ROUND - 2):
            await store.mutate(key, PLAYER, "inc", increment)
        one_round = _size(wal)  # the WAL after about one round of commits
        for _ in range(4 * ROUND):  # the checkpoints run while commits go on
            await store.mutate(key, PLAYER, "inc", increment)
            await asyncio.sleep(0)
        assert _size(wal) < 2 * one_round
    finally:
        await store.close()


async def test_a_reader_on_an_old_snapshot_only_delays_the_wal_start_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The RESTART step waits a moment for readers on older snapshots, then gives up without an error: the
    commands meanwhile are stored, and a later round starts the WAL over once the reader is gone."""
    monkeypatch.setattr("bot.store.database.CHECKPOINT_EVERY", ROUND)
    monkeypatch.setattr("bot.store.database.WAL_RESTART_FRAMES", 1)
    path = tmp_path / "bot.db"
    wal = Path(f"{path}-wal")
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    key = ChannelKey(1, 2)
    reader = sqlite3.connect(path, isolation_level=None)
    try:
        await begin(store, key)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM channels").fetchall()  # holds its snapshot open
        await _a_round_and_its_checkpoint(store, key)
        held = _size(wal)
        await store.mutate(key, PLAYER, "inc", increment)
        assert _size(wal) > held  # no start over while the reader holds the WAL's first frames
        reader.execute("COMMIT")
        await _a_round_and_its_checkpoint(store, key)
        after = _size(wal)
        await store.mutate(key, PLAYER, "inc", increment)
        assert _size(wal) == after  # started over from its beginning
        table = await store.view(key)
        assert table.version == 2 * ROUND + 3  # begin, then every increment
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    finally:
        reader.close()
        await store.close()


async def test_writes_that_can_run_at_once_take_no_turns(tmp_path: Path) -> None:
    """Writes wait while one of this process's writes is on the writer's thread (here the test says so);
    afterwards, writes that can run at once must not take turns (as behind an `asyncio.Lock` handed from
    waiter to waiter): busy channels would take turns for good, each command waiting out every other's."""
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    done: list[str] = []

    async def commands(name: str, key: ChannelKey) -> None:
        for n in range(3):
            await store.mutate(key, PLAYER, "inc", increment)
            done.append(f"{name}{n}")

    try:
        await begin(store, ChannelKey(1, 2))
        await begin(store, ChannelKey(1, 3))
        store.database.idle.clear()
        tasks = [
            asyncio.create_task(commands("a", ChannelKey(1, 2))),
            asyncio.create_task(commands("b", ChannelKey(1, 3))),
        ]
        for _ in range(5):
            await asyncio.sleep(0)  # both wait for the queue
        assert done == []
        store.database.idle.set()
        await asyncio.gather(*tasks)
        assert done == ["a0", "a1", "a2", "b0", "b1", "b2"]  # not a0 b0 a1 b1 a2 b2
    finally:
        await store.close()


def test_url_normalisation() -> None:
    from bot.store.engine import normalise_url

    assert normalise_url("postgres://u@h/db").drivername == "postgresql+asyncpg"
    assert normalise_url("postgresql://u@h/db").drivername == "postgresql+asyncpg"
    assert normalise_url("postgresql+asyncpg://u@h/db").drivername == "postgresql+asyncpg"
    assert normalise_url("sqlite:///data/bot.db").drivername == "sqlite+aiosqlite"
    with pytest.raises(Exception, match="Unsupported database"):
        normalise_url("mysql://u@h/db")


async def test_refusals_and_no_ops_are_judged_on_fresh_data(target: Target, key: ChannelKey) -> None:
    first, second = await target.open(), await target.open(migrate=False)
    try:
        await first.mutate(key, PLAYER, "tokens", lambda t: Change("t", setattr(t, "tokens", 1)))  # caches it
        await begin(second, key)  # another process starts an encounter
        assert (await first.mutate(key, PLAYER, "inc", increment)).value == 1  # not NoEncounter
        await second.mutate(key, PLAYER, "inc", increment)

        def read_counter(table: Table) -> Change[int]:
            return Change("look", table.require_encounter().state["counter"])

        looked = await first.mutate(key, PLAYER, "look", read_counter)
        assert (looked.value, looked.seq, looked.version) == (2, None, 4)
    finally:
        await first.close()
        await second.close()


async def test_plain_postgres_urls_open_through_asyncpg(target: Target) -> None:
    if target.backend != "postgresql":
        pytest.skip("PostgreSQL URL forms")
    for scheme in ("postgres://", "postgresql://"):
        url = scheme + target.url.split("://", 1)[1]
        store = await Store.open(url, schema=target.schema)
        try:
            assert store.engine.dialect.driver == "asyncpg"
            assert (await store.get_settings(5)).guild_id == 5
        finally:
            await store.close()


async def test_a_channel_read_uses_the_one_active_index(store: Store, target: Target) -> None:
    """Reading a channel must find its active encounter by index, not by scanning every encounter stored
    (the cost would grow with every encounter ever played)."""
    query = READ_CHANNEL.params(b_id=1)
    async with store.engine.connect() as connection:
        if target.backend == "sqlite":
            compiled = query.compile(connection, compile_kwargs={"literal_binds": True})
            plan = (await connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}")).all()
            text = " ".join(str(row[-1]) for row in plan)
            assert "USING INDEX ix_encounters_one_active" in text and "SCAN encounters" not in text, text
        else:
            await connection.exec_driver_sql("SET enable_seqscan = off")  # small tables: ask for the plan
            compiled = query.compile(connection, compile_kwargs={"literal_binds": True})
            plan = (await connection.exec_driver_sql(f"EXPLAIN {compiled}")).all()
            text = " ".join(str(row[0]) for row in plan)
            assert "ix_encounters_one_active" in text, text


async def test_views_at_once_on_a_fresh_store_share_one_version_reader(
    target: Target, caplog: pytest.LogCaptureFixture
) -> None:
    """Many commands arriving at once on a just-started store: every view answers, and no connection is
    left to the garbage collector (an error in the log): the version reads share one connection kept for
    them (on SQLite, outside the pool)."""
    writer = await target.open()
    try:
        await begin(writer, ChannelKey(1, 2))
    finally:
        await writer.close()
    store = await target.open(migrate=False)
    try:
        await store.view(ChannelKey(1, 2))  # read and cached: the next views only check the version
        await store.engine.dispose()  # no idle connection left: each first version read must open one
        tables = await asyncio.gather(*(store.view(ChannelKey(1, 2)) for _ in range(10)))
        assert {t.version for t in tables} == {1}
        # PostgreSQL keeps one pooled connection for the version reads; SQLite's is outside the pool
        assert store.engine.pool.checkedout() == (1 if target.backend == "postgresql" else 0)  # type: ignore[attr-defined]
        assert not [r for r in caplog.records if r.name.startswith("sqlalchemy.pool")], caplog.text
    finally:
        await store.close()


async def test_a_version_read_that_cant_be_made_at_once_goes_through_the_pool(
    target: Target, monkeypatch: pytest.MonkeyPatch
) -> None:
    if target.backend != "sqlite":
        pytest.skip("the version reads on the event loop's thread are SQLite's")
    store = await target.open()
    try:
        await begin(store, ChannelKey(1, 2))
        opened: list[str] = []

        def locked(path: Path) -> sqlite3.Connection:
            opened.append(str(path))
            raise sqlite3.OperationalError("database is locked")

        monkeypatch.setattr(db_module, "open_probe", locked)
        store.database.drop_probe()
        table = await store.view(ChannelKey(1, 2))  # the cached table, checked through the pool
        assert table.version == 1 and opened
        await store.mutate(ChannelKey(1, 2), PLAYER, "increment", increment)
        assert (await store.view(ChannelKey(1, 2))).version == 2
    finally:
        await store.close()


def test_clone_is_an_equal_copy_that_shares_nothing() -> None:
    shared = [1, {"x": "é🙂"}]
    value = {"a": shared, "b": shared, "n": None, "t": True, "f": 1.5, "big": 2**62, "s": ["-"]}
    copy = clone(value)
    assert copy == value and type(copy["t"]) is bool and type(copy["big"]) is int and type(copy["f"]) is float
    assert copy["a"] is not shared and copy["a"] is not copy["b"]  # no aliasing, even where value had it
    copy["a"][1]["x"] = "changed"
    copy["s"].append("+")
    assert value == {"a": shared, "b": shared, "n": None, "t": True, "f": 1.5, "big": 2**62, "s": ["-"]}
    assert shared == [1, {"x": "é🙂"}]


@pytest.mark.parametrize(("query_seconds", "kept"), [(0.25, True), (3.0, False)])
async def test_postgres_lets_a_late_query_finish_within_the_grace(
    target: Target, query_seconds: float, kept: bool
) -> None:
    """A query that starts just before its call's deadline (after queueing) is not cut mid-way: that would
    cost the connection. A query still running `STATEMENT_GRACE` after the deadline is (a hung server)."""
    if target.backend != "postgresql":
        pytest.skip("the grace is for asyncpg queries; SQLite waits are bounded by its busy timeout")
    store = await target.open()
    try:

        async def query() -> int:
            async with store.engine.connect() as connection:
                await connection.execute(sa.text(f"SELECT pg_sleep({query_seconds})"))
                return 1

        loop = asyncio.get_running_loop()
        began = loop.time()
        deadline = began + 0.05  # the query starts with (nearly) no time left
        if kept:
            assert await store.database.waits.retrying(query, deadline) == 1
        else:
            with pytest.raises(StoreUnavailable):
                await store.database.waits.retrying(query, deadline)
            assert loop.time() - began < 0.05 + STATEMENT_GRACE + 0.5  # given up on in time
    finally:
        await store.close()
