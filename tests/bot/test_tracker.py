"""The live tracker message (exts/tracker/_service.py) on SimCord: posted on the first encounter change,
edited in place
(never through an interaction webhook), coalesced, replaced when deleted, kept across a restart, reposted when
far up, turned into a final summary at the end; inert names; missing permissions don't crash anything."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from typing import Any

import discord
import pytest
from simcord import ChannelHandle

from bot.client import DrawSteelBot, create_bot
from bot.embeds import TOTAL_MAX
from bot.play import encounter_of, put_encounter
from bot.rules import codec
from bot.rules.dice import Dice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, new_encounter_state
from bot.rules.resources import Malice
from bot.rules.turns import end_encounter
from bot.settings import Settings
from bot.store import Change, ChannelKey, Committed, Store
from bot.store import Table as StoreTable
from bot.store.errors import StoreUnavailable
from exts.tracker import _service as tracker_module
from exts.tracker._service import POST_RETRY_AFTER, REPOST_AFTER, TrackerService, tracker_for
from tests.bot import harm_kit
from tests.bot.conftest import Table, build_bot
from tests.bot.encounter_kit import body, last_posted


def bot_of(table: Table) -> DrawSteelBot:
    bot = table.env.bot
    assert isinstance(bot, DrawSteelBot)
    return bot


def trackers(channel: ChannelHandle) -> list[discord.Message]:
    """The bot's messages in `channel` that are trackers (an embed titled with the ⚔️ or 🏁 mark)."""
    return [m for m in channel.history() if m.embeds and (m.embeds[0].title or "").startswith(("⚔️", "🏁"))]


def requests(table: Table, method: str, channel: ChannelHandle | None = None) -> list[Any]:
    channel_id = (channel or table.channel).id
    return [
        r
        for r in table.env.http_requests
        if r.method == method and r.path.startswith(f"/channels/{channel_id}/messages")
    ]


async def tracker_id(table: Table, channel: ChannelHandle | None = None) -> int | None:
    found = await table.store.view(harm_kit.key(table, channel))
    assert found.encounter is not None and found.encounter.id is not None
    info = await table.store.find_encounter(found.encounter.id, guild_id=table.guild.id)
    assert info is not None
    return info.tracker_message_id


async def gain(table: Table, amount: int = 1, channel: ChannelHandle | None = None) -> None:
    """A real command that commits through bot.play.commit (so the commit listeners run)."""
    result = await table.director.slash(channel or table.channel, "malice gain", amount=amount)
    assert result.response is not None and not result.ephemeral


# --- posting and editing ----------------------------------------------------------------------------------
async def test_tracker_appears_on_the_first_encounter_change(table: Table) -> None:
    await harm_kit.start(table)
    assert trackers(table.channel) == []  # the store alone tells nobody
    await gain(table, 2)
    [message] = trackers(table.channel)
    assert message.author.id == bot_of(table).user.id  # type: ignore[union-attr]
    assert await tracker_id(table) == message.id
    text = body(message)
    assert "Goblin ambush" in text and "Malice: 2" in text and "Hero tokens: 0" in text
    assert "██████████ Stamina: 30/30" in text and "Stamina: 24/24" in text
    assert "**Goblin 1** ██████████ Stamina: 10/10" in text  # by default everyone's Stamina shows
    assert "3/3 alive" in text
    # posted with the bot token through the channel, pinging nobody
    [post] = requests(table, "POST")
    assert post.json["allowed_mentions"] == {"parse": []}


async def test_later_changes_edit_the_same_message(table: Table) -> None:
    await harm_kit.start(table)
    await gain(table, 1)
    [first] = trackers(table.channel)
    await gain(table, 4)
    await harm_kit.edit(table, lambda e: e)  # (no listener: nothing happens)
    result = await table.alice.slash(table.channel, "stamina damage", target="Ash", amount=18)
    assert not result.ephemeral, result.response
    [message] = trackers(table.channel)
    assert message.id == first.id
    text = body(message)
    assert "Malice: 5" in text and "████░░░░░░ Stamina: 12/30 winded" in text
    assert len(requests(table, "POST")) == 1
    patches = requests(table, "PATCH")
    assert len(patches) == 2 and all(p.path.endswith(f"/{first.id}") for p in patches)
    assert all(p.json["allowed_mentions"] == {"parse": []} for p in patches)
    # never through an interaction webhook (those tokens expire after 15 minutes)
    assert not any(r.path.startswith("/webhooks") and r.method == "PATCH" for r in table.env.http_requests)


async def test_monster_stamina_follows_the_guild_setting(table: Table) -> None:
    await harm_kit.start(table)
    await gain(table)
    text = body(trackers(table.channel)[0])
    assert "**Goblin 1** ██████████ Stamina: 10/10" in text
    assert "Stamina: 12/12" in text  # the squad's pool
    await table.store.update_settings(table.guild.id, show_monster_stamina=False)
    await gain(table)
    text = body(trackers(table.channel)[0])
    assert "**Goblin 1** healthy" in text and "10/10" not in text and "12/12" not in text
    assert "Stamina: 30/30" in text  # heroes always show


async def test_settings_refresh_the_guilds_trackers(table: Table) -> None:
    await table.configure_director_role()
    await harm_kit.start(table)
    await harm_kit.start(table, channel=table.thread)
    await gain(table)
    await gain(table, channel=table.thread)
    assert "**Goblin 1** ██████████ Stamina: 10/10" in body(trackers(table.channel)[0])
    result = await table.director.slash(table.channel, "settings", show_monster_stamina=False)
    assert result.response is not None
    for where in (table.channel, table.thread):  # no encounter changed, yet both hide monsters' Stamina
        text = body(trackers(where)[0])
        assert "**Goblin 1** healthy" in text and "10/10" not in text


async def test_a_thread_has_its_own_tracker(table: Table) -> None:
    await harm_kit.start(table, channel=table.thread)
    await gain(table, 3, channel=table.thread)
    [message] = trackers(table.thread)
    assert trackers(table.channel) == []
    assert await tracker_id(table, table.thread) == message.id


# --- robustness ---------------------------------------------------------------------------------------------
async def test_bursts_coalesce_into_one_edit_with_the_newest_state(table: Table) -> None:
    await harm_kit.start(table)
    await gain(table)
    service = tracker_for(bot_of(table))
    key = harm_kit.key(table)
    before = len(requests(table, "PATCH"))
    for value in range(7, 12):
        await harm_kit.edit(table, lambda e, v=value: _with_malice(e, v))
    for _ in range(5):  # five commits' notifications in a row: each returns before any request is made
        await service.on_commit(key, Committed(None, 0, 1, None))
    assert len(requests(table, "PATCH")) == before
    # (tasks the test starts are not the bot's, so SimCord's settle doesn't wait for them: refresh does)
    await service.refresh(key)
    assert len(requests(table, "PATCH")) == before + 1
    assert "Malice: 11" in body(trackers(table.channel)[0])


async def _quiet_tracker(
    table: Table, monkeypatch: pytest.MonkeyPatch, gap: float
) -> tuple[TrackerService, ChannelKey]:
    """An encounter's tracker with `gap` as EDIT_GAP, left without an edit for longer than the gap (its random
    part too): the tracker service and the channel's key."""
    monkeypatch.setattr(tracker_module, "EDIT_GAP", gap)
    await harm_kit.start(table)
    await gain(table)
    await asyncio.sleep(gap * (1 + tracker_module.EDIT_JITTER))  # a quiet spell
    return tracker_for(bot_of(table)), harm_kit.key(table)


async def test_a_change_after_a_quiet_spell_shows_at_once_and_a_fast_run_every_edit_gap(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    gap = 2.0
    service, key = await _quiet_tracker(table, monkeypatch, gap)
    before = len(requests(table, "PATCH"))
    await harm_kit.edit(table, lambda e: _with_malice(e, 30))
    first = service.schedule(key)
    assert first is not None
    await asyncio.wait_for(first, gap * 0.75)  # at once, not after the gap
    assert len(requests(table, "PATCH")) == before + 1
    second = None
    for value in (31, 32, 33):  # a fast run right after it
        await harm_kit.edit(table, lambda e, v=value: _with_malice(e, v))
        second = service.schedule(key)
    await asyncio.sleep(0.3)
    assert len(requests(table, "PATCH")) == before + 1  # waiting out the gap, gathering the run
    assert second is not None
    await second
    assert len(requests(table, "PATCH")) == before + 2  # the whole run: one edit, the newest state
    assert "Malice: 33" in body(trackers(table.channel)[0])


async def test_a_fast_runs_gap_has_a_random_part_so_busy_channels_drift_apart(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    gap = 1.0
    monkeypatch.setattr(random, "random", lambda: 1.0)  # the longest gap
    service, key = await _quiet_tracker(table, monkeypatch, gap)
    before = len(requests(table, "PATCH"))
    await harm_kit.edit(table, lambda e: _with_malice(e, 30))
    # the gap runs from when the first edit began, not from when it was answered, which a loaded machine
    # can delay by more than the random part's margin
    began = asyncio.get_running_loop().time()
    first = service.schedule(key)
    assert first is not None
    await first
    await harm_kit.edit(table, lambda e: _with_malice(e, 31))
    second = service.schedule(key)
    assert second is not None
    await asyncio.sleep(gap * 1.2 - (asyncio.get_running_loop().time() - began))
    assert len(requests(table, "PATCH")) == before + 1  # EDIT_GAP has passed, its random part not yet
    await second
    assert len(requests(table, "PATCH")) == before + 2
    assert "Malice: 31" in body(trackers(table.channel)[0])


def _with_malice(encounter: Encounter, value: int) -> Encounter:
    return dataclasses.replace(encounter, malice=Malice(value))


async def test_a_deleted_tracker_is_replaced(table: Table) -> None:
    await harm_kit.start(table)
    await gain(table)
    [old] = trackers(table.channel)
    table.env.backend.delete_message(table.channel.id, old.id)
    await gain(table, 2)
    [new] = trackers(table.channel)
    assert new.id != old.id and "Malice: 3" in body(new)
    assert await tracker_id(table) == new.id


async def test_the_same_message_is_edited_after_a_restart(
    table: Table, settings: Settings, store: Store, dice: Dice
) -> None:
    await harm_kit.start(table)
    await gain(table)
    [first] = trackers(table.channel)
    await table.env.restart_bot(build_bot(settings, store, dice))
    await gain(table, 6)
    [message] = trackers(table.channel)
    assert message.id == first.id and "Malice: 7" in body(message)
    assert len(requests(table, "POST")) == 1


async def test_no_permission_to_post_is_logged_not_raised(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    me = table.guild.me
    assert me is not None
    closed = table.guild.create_text_channel(
        "closed", overwrites={me: discord.PermissionOverwrite(send_messages=False)}
    )
    await harm_kit.start(table, channel=closed)
    await gain(table, channel=closed)  # the command still answers
    assert trackers(closed) == []
    assert "no permission to post" in caplog.text
    assert await tracker_id(table, closed) is None
    await gain(table, channel=closed)
    assert len(requests(table, "POST", closed)) == 1  # not asked again on every change
    assert await tracker_for(bot_of(table)).repost(harm_kit.key(table, closed)) is None  # asked explicitly
    assert len(requests(table, "POST", closed)) == 2
    table.env.backend.edit_channel(closed.id, {}, overwrites=[])  # the Director fixes the permission
    for _ in range(POST_RETRY_AFTER):
        await gain(table, channel=closed)
    assert len(requests(table, "POST", closed)) == 2
    await gain(table, channel=closed)  # after a while the bot asks again, and may post now
    assert len(trackers(closed)) == 1 and await tracker_id(table, closed) == trackers(closed)[0].id


async def test_far_up_tracker_is_reposted_at_the_bottom(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tracker_module, "REPOST_AFTER", 3)
    await harm_kit.start(table)
    await gain(table)
    [first] = trackers(table.channel)
    table.env.backend.set_pinned(table.channel.id, first.id, False)  # somebody unpinned it: it may scroll
    for typed in ("A", "As"):  # autocomplete leaves no message: not counted
        await table.alice.autocomplete(table.channel, "stamina damage", "target", typed)
    await gain(table)  # one interaction since the tracker was posted
    assert trackers(table.channel)[0].id == first.id
    await table.alice.slash(table.channel, "dice", expression="2d6")  # two: no change, but a message
    assert trackers(table.channel)[0].id == first.id
    await gain(table)  # three: it has scrolled up, so this change reposts it
    [second] = trackers(table.channel)
    assert second.id != first.id
    assert last_posted(table.channel).id == second.id  # at the bottom
    assert await tracker_id(table) == second.id
    await gain(table)
    assert trackers(table.channel)[0].id == second.id  # the count starts again
    assert REPOST_AFTER > 3  # the real threshold is not the test's


async def test_repost_puts_it_at_the_bottom_and_deletes_the_old_one(table: Table) -> None:
    await harm_kit.start(table)
    await gain(table)
    [old] = trackers(table.channel)
    await gain(table)
    new_id = await tracker_for(bot_of(table)).repost(harm_kit.key(table))
    [new] = trackers(table.channel)
    assert new_id == new.id != old.id
    assert last_posted(table.channel).id == new.id
    assert await tracker_id(table) == new.id


async def test_repost_without_an_encounter_does_nothing(table: Table) -> None:
    assert await tracker_for(bot_of(table)).repost(harm_kit.key(table)) is None
    assert trackers(table.channel) == []


async def test_the_end_of_the_encounter_leaves_a_final_summary_without_controls(table: Table) -> None:
    await harm_kit.start(table)
    await gain(table, 2)
    [message] = trackers(table.channel)

    def end(store_table: StoreTable) -> Change[None]:
        encounter = encounter_of(store_table)
        put_encounter(store_table, encounter.with_turns(end_encounter(encounter.turns).state))
        store_table.end_encounter()
        return Change("Encounter ended", None)

    committed = await table.store.mutate(harm_kit.key(table), table.director.id, "encounter.end", end)
    await tracker_for(bot_of(table)).on_commit(harm_kit.key(table), committed)
    await tracker_for(bot_of(table)).refresh(harm_kit.key(table))
    [final] = trackers(table.channel)
    assert final.id == message.id
    assert (final.embeds[0].title or "").startswith("🏁")
    assert "Encounter over" in body(final) and "Malice: 2" in body(final)
    assert final.components == []
    # later channel changes leave it alone
    patches = len(requests(table, "PATCH"))
    await tracker_for(bot_of(table)).refresh(harm_kit.key(table))
    assert len(requests(table, "PATCH")) == patches


# --- size and inert names -----------------------------------------------------------------------------------
async def test_forty_creatures_fit(table: Table) -> None:
    specs = (
        NewCreatures("Ash", 30, "heroes", is_hero=True, owner_id=table.alice.id),
        *(NewCreatures(f"Kobold {n}", 8, "director", count=13) for n in "ABC"),
    )
    await harm_kit.start(table, specs=specs)
    await gain(table)
    [message] = trackers(table.channel)
    assert len(message.embeds[0]) <= TOTAL_MAX
    text = body(message)
    assert "**Kobold C 13**" in text and "**Kobold A 1**" in text and "more not shown" not in text


async def test_names_render_inert_and_ping_nobody(table: Table) -> None:
    specs = (
        NewCreatures("@everyone", 30, "heroes", is_hero=True, owner_id=table.alice.id),
        NewCreatures(f"<@{table.bob.id}>", 10, "director"),
        NewCreatures("@here", 10, "director"),
    )
    await harm_kit.start(table, specs=specs)
    await gain(table)
    [message] = trackers(table.channel)
    text = body(message)
    assert "@everyone" not in text and "@here" not in text and f"<@{table.bob.id}>" not in text
    assert not message.mention_everyone and message.mentions == [] and message.role_mentions == []


async def test_on_commit_without_an_encounter_posts_nothing(table: Table) -> None:
    service = tracker_for(bot_of(table))
    await service.on_commit(harm_kit.key(table), Committed(None, 1, 1, None))
    await service.refresh(harm_kit.key(table))
    assert trackers(table.channel) == []


async def test_an_encounter_started_by_a_commit_posts_at_once(table: Table) -> None:
    """What /encounter start will do: the start event itself goes through the listener."""
    state = new_encounter_state()
    state, _ = add_creatures(state, NewCreatures("Goblin", 10, "director", count=2))

    def start(store_table: StoreTable) -> Change[None]:
        store_table.begin_encounter("Road ambush", table.director.id, codec.to_data(state))
        return Change("Encounter started", None)

    committed = await table.store.mutate(harm_kit.key(table), table.director.id, "encounter.start", start)
    await tracker_for(bot_of(table)).on_commit(harm_kit.key(table), committed)
    await tracker_for(bot_of(table)).refresh(harm_kit.key(table))
    [message] = trackers(table.channel)
    assert "Road ambush" in (message.embeds[0].title or "")


async def test_a_busy_store_is_retried_then_given_up_on(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await harm_kit.start(table)
    monkeypatch.setattr(tracker_module, "RETRY_DELAYS", (0.0, 0.0))
    real_view = table.store.view
    failures = {"left": 2}

    async def flaky_view(key: Any, **options: Any) -> StoreTable:
        if failures["left"]:
            failures["left"] -= 1
            raise StoreUnavailable()
        return await real_view(key, **options)

    monkeypatch.setattr(table.store, "view", flaky_view)
    service = tracker_for(bot_of(table))
    await service.refresh(harm_kit.key(table))
    [message] = trackers(table.channel)  # the third try worked
    assert "retrying" in caplog.text

    failures["left"] = 3  # more failures than retries: logged, nothing raised, the old tracker stays
    await harm_kit.edit(table, lambda e: _with_malice(e, 9))
    await service.refresh(harm_kit.key(table))
    assert "gave up refreshing" in caplog.text
    [same] = trackers(table.channel)
    assert same.id == message.id and "Malice: 0" in body(same)
    await service.refresh(harm_kit.key(table))  # the next change shows the newest state
    assert "Malice: 9" in body(trackers(table.channel)[0])


async def test_changes_during_an_edit_in_flight_make_exactly_one_more_edit(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await harm_kit.start(table)
    await gain(table)
    service = tracker_for(bot_of(table))
    key = harm_kit.key(table)
    gate = asyncio.Event()
    started = asyncio.Event()
    real_edit = discord.PartialMessage.edit
    edits: list[int] = []

    async def slow_edit(self: discord.PartialMessage, **fields: Any) -> Any:
        edits.append(self.id)
        started.set()
        await gate.wait()  # Discord is slow to answer the first edit
        return await real_edit(self, **fields)

    monkeypatch.setattr(discord.PartialMessage, "edit", slow_edit)
    await harm_kit.edit(table, lambda e: _with_malice(e, 20))
    task = service.schedule(key)
    await started.wait()
    for value in (21, 22, 23):  # three more changes while the edit is in flight
        await harm_kit.edit(table, lambda e, v=value: _with_malice(e, v))
        await service.on_commit(key, Committed(None, 0, 1, None))
    gate.set()
    assert task is not None
    await task
    assert len(edits) == 2  # the one in flight, then one with the newest state
    assert "Malice: 23" in body(trackers(table.channel)[0])


async def test_a_refresh_waiting_for_its_turn_renders_when_it_comes_with_the_newest_state(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refresh pass waits for the pacer before it reads and renders: the changes made while it waited
    show in its one edit (rendered before the wait, it sent a stale state, then edited again), and a
    hundred trackers waking at once render at the pacer's rate instead of all at once."""
    monkeypatch.setattr(tracker_module, "EDIT_GAP", 0.01)
    await harm_kit.start(table)
    await gain(table)
    service = tracker_for(bot_of(table))
    key = harm_kit.key(table)
    await asyncio.sleep(0.05)
    before = len(requests(table, "PATCH"))
    loop = asyncio.get_running_loop()
    service._pacer.interval, service._pacer._next = 0.001, loop.time() + 1.0  # the next second is taken
    await harm_kit.edit(table, lambda e: _with_malice(e, 40))
    task = service.schedule(key)
    await asyncio.sleep(0.1)
    for value in (41, 42):  # changes while the pass waits for its turn
        await harm_kit.edit(table, lambda e, v=value: _with_malice(e, v))
        await service.on_commit(key, Committed(None, 0, 1, None))
    assert task is not None
    await task
    assert len(requests(table, "PATCH")) == before + 1
    assert "Malice: 42" in body(trackers(table.channel)[0])


async def test_a_tracker_id_the_busy_store_refused_is_saved_on_the_next_pass(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await harm_kit.start(table)
    monkeypatch.setattr(tracker_module, "RETRY_DELAYS", (0.0,))
    real_set = table.store.set_tracker
    calls: list[int] = []

    async def busy_once(encounter_id: int, channel_id: int, message_id: int, *, guild_id: int) -> None:
        calls.append(message_id)
        if len(calls) == 1:
            raise StoreUnavailable()
        await real_set(encounter_id, channel_id, message_id, guild_id=guild_id)

    monkeypatch.setattr(table.store, "set_tracker", busy_once)
    await tracker_for(bot_of(table)).refresh(harm_kit.key(table))
    [message] = trackers(table.channel)  # posted once, not again on the retry
    assert calls == [message.id, message.id]
    assert await tracker_id(table) == message.id


class _Response:
    """Enough of an aiohttp response for discord.py's HTTP errors."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Service Unavailable"


async def test_a_503_on_an_edit_is_retried_until_the_newest_state_shows(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await harm_kit.start(table)
    await gain(table)
    [first] = trackers(table.channel)
    monkeypatch.setattr(tracker_module, "RETRY_DELAYS", (0.0, 0.0))
    real_edit = discord.PartialMessage.edit
    answers = [503, 503]

    async def unavailable(self: discord.PartialMessage, **fields: Any) -> Any:
        if answers:
            raise discord.DiscordServerError(_Response(answers.pop()), "unavailable")
        return await real_edit(self, **fields)

    monkeypatch.setattr(discord.PartialMessage, "edit", unavailable)
    await harm_kit.edit(table, lambda e: _with_malice(e, 8))
    await tracker_for(bot_of(table)).refresh(harm_kit.key(table))
    [message] = trackers(table.channel)
    assert message.id == first.id and "Malice: 8" in body(message)  # edited in place after two 503s

    answers[:] = [503, 503, 503]  # more than the retries: given up, nothing raised
    await harm_kit.edit(table, lambda e: _with_malice(e, 9))
    await tracker_for(bot_of(table)).refresh(harm_kit.key(table))
    assert "Malice: 8" in body(trackers(table.channel)[0])


# --- pacing -------------------------------------------------------------------------------------------
async def test_the_trackers_requests_take_turns_at_the_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(tracker_module.asyncio, "sleep", sleep)
    pacer = tracker_module._Pacer(50.0)  # one start every 20 ms
    await asyncio.gather(*(pacer.turn() for _ in range(5)))
    assert len(waits) == 4  # the first starts at once, the others wait their turns
    assert [round(w, 2) for w in waits] == [0.02, 0.04, 0.06, 0.08]


@pytest.mark.parametrize(
    ("shard_count", "shard_ids", "rate"), [(None, None, 40.0), (4, (1,), 10.0), (4, (0, 2, 3), 30.0)]
)
def test_a_sharded_process_paces_its_share_of_the_rate(
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    shard_count: int | None,
    shard_ids: tuple[int, ...] | None,
    rate: float,
) -> None:
    monkeypatch.setattr(tracker_module, "TRACKER_RATE", 40.0)
    bot = create_bot(dataclasses.replace(settings, shard_count=shard_count, shard_ids=shard_ids))
    assert tracker_module.TrackerService(bot)._pacer.interval == pytest.approx(1 / rate)
