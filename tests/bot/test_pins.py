"""The tracker is always one click away, on SimCord: pinned at the start and unpinned at the
end, re-pinned when reposted, one message naming the permission when the bot may not pin; in a forum post it
stays where it is; every turn ping carries a jump link to it and a two-line status."""

from __future__ import annotations

import discord
import pytest
from simcord import ChannelHandle

from exts.tracker import _service as tracker_module
from exts.tracker._service import PIN_REFUSED, jump_link
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table, make_thread


def pinned(table: Table, channel: ChannelHandle, message: discord.Message) -> bool:
    return bool(table.env.backend.get_message(channel.id, message.id).pinned)


def refusals(channel: ChannelHandle) -> list[discord.Message]:
    return [m for m in channel.history() if m.content == PIN_REFUSED]


async def test_the_tracker_is_pinned_at_the_start_and_unpinned_at_the_end(table: Table) -> None:
    """ "Pin the tracker when the encounter starts ... and unpin it at the end." """
    await kit.start(table)
    tracker = kit.tracker(table.channel)
    assert pinned(table, table.channel, tracker)
    await kit.add_party(table)
    await kit.begin(table)
    assert pinned(table, table.channel, kit.tracker(table.channel))
    asked = await table.director.slash(table.channel, "encounter end")
    assert asked.response is not None
    kit.ok(await table.director.click(asked.response.message, label="End the encounter"))
    final = table.channel.history()
    summary = next(m for m in final if m.id == tracker.id)
    assert (summary.embeds[0].title or "").startswith("🏁")
    assert not pinned(table, table.channel, summary)
    assert refusals(table.channel) == []


def notices(channel: ChannelHandle) -> list[discord.Message]:
    """Discord's "pinned a message" system messages in `channel`."""
    return [m for m in channel.history() if m.type is discord.MessageType.pins_add]


async def test_a_pinned_tracker_stays_where_it_is_and_its_pin_notice_is_deleted(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the tracker is pinned, the channel's pins and every ping lead to it: it is not reposted as the
    channel scrolls, and Discord's "pinned a message" notice is deleted."""
    monkeypatch.setattr(tracker_module, "REPOST_AFTER", 3)
    await kit.start(table)
    first = kit.tracker(table.channel)
    assert pinned(table, table.channel, first) and notices(table.channel) == []
    for _ in range(5):  # five messages below the tracker
        await table.alice.slash(table.channel, "dice", expression="2d6")
    await kit.add(table, name="Orc", stamina=5)
    assert kit.tracker(table.channel).id == first.id
    pins = [r for r in table.env.http_requests if r.method == "PUT" and "/pins/" in r.path]
    assert len(pins) == 1


async def test_encounter_status_reposts_the_tracker_pinned_again_without_a_notice(table: Table) -> None:
    """ "Keep /encounter status as the explicit way to repost": the new tracker is pinned, the old one
    deleted (its pin with it), and no "pinned a message" notice is left."""
    await kit.start(table)
    first = kit.tracker(table.channel)
    await table.director.slash(table.channel, "encounter status")
    moved = kit.tracker(table.channel)
    assert moved.id != first.id and kit.last_posted(table.channel).id != first.id
    assert pinned(table, table.channel, moved)
    assert first.id not in [m.id for m in table.channel.history()]
    assert notices(table.channel) == []


async def test_without_the_pin_permission_the_tracker_is_still_reposted_as_the_channel_scrolls(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not pinned, the tracker follows the conversation: the 15-message rule moves it (here after 3)."""
    monkeypatch.setattr(tracker_module, "REPOST_AFTER", 3)
    me = table.guild.me
    assert me is not None
    channel = table.guild.create_text_channel(
        "no-pins", overwrites={me: discord.PermissionOverwrite(manage_messages=False)}
    )
    await kit.start(table, channel=channel)
    first = kit.tracker(channel)
    for _ in range(3):
        await table.alice.slash(channel, "dice", expression="2d6")
    await kit.add(table, name="Orc", stamina=5, channel=channel)
    moved = kit.tracker(channel)
    assert moved.id != first.id and kit.last_posted(channel).id == moved.id


async def test_without_the_pin_permission_the_bot_says_so_once_and_carries_on(table: Table) -> None:
    """ "Without it, say once which permission to grant and carry on." """
    me = table.guild.me
    assert me is not None
    channel = table.guild.create_text_channel(
        "no-pins", overwrites={me: discord.PermissionOverwrite(manage_messages=False)}
    )
    await kit.start(table, channel=channel)
    await kit.add_party(table, channel)
    await kit.begin(table, channel=channel)
    await table.director.slash(channel, "encounter status")  # a repost: not said again
    [said] = refusals(channel)
    assert "Pin Messages" in said.content and "Manage Messages" in said.content
    assert not pinned(table, channel, kit.tracker(channel))
    assert kit.tracker(channel).embeds  # the tracker is there all the same


async def test_in_a_forum_post_the_tracker_stays_where_it_is(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "In a forum post ..., the tracker doesn't move: it stays where it is and is linked instead." """
    monkeypatch.setattr(tracker_module, "REPOST_AFTER", 2)
    forum = table.guild.create_forum_channel("sessions")
    post = make_thread(table.env, table.guild, forum, "The bridge", table.director)
    await kit.start(table, channel=post)
    tracker = kit.tracker(post)
    await kit.add_party(table, post)
    await kit.begin(table, channel=post)
    kit.ok(await table.alice.slash(post, "turn act", combatant="Ash"))
    ended = kit.ok(await table.alice.slash(post, "turn end"))
    assert kit.tracker(post).id == tracker.id  # five interactions later it has not moved
    status = await table.director.slash(post, "encounter status")
    assert status.response is not None and "stays where it is" in status.response.content
    assert [m.id for m in post.history() if m.embeds and (m.embeds[0].title or "").startswith("⚔️")] == [
        tracker.id
    ]
    assert jump_link(table.guild.id, post.id, tracker.id) in ended


async def test_a_turn_ping_is_the_pick_line_once_with_the_heroes_state_and_the_link(table: Table) -> None:
    """Every turn ping carries a jump link to the tracker; whom the side may pick is said once, in the pick
    line the mentions stand in front of, each hero with their Stamina and conditions."""
    await kit.start(table)
    await kit.add_party(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=5))
    kit.ok(
        await table.director.slash(
            table.channel, "condition add", target="Ash", condition="slowed", duration="save"
        )
    )
    text = await kit.begin(table)
    link = jump_link(table.guild.id, table.channel.id, kit.tracker(table.channel).id)
    lines = text.splitlines()
    [pick] = [line for line in lines if "Next:" in line]
    assert pick == lines[-1] and pick.startswith(f"<@{table.alice.id}> <@{table.bob.id}> Next: the heroes")
    assert "**Ash** (Stamina: 25/30, slowed" in pick and "**Bree** (Stamina: 24/24)" in pick
    assert "Goblin" not in pick and pick.endswith(f"[Jump to the tracker]({link})")
    assert text.count("Ash") == text.count("Bree") == 1 and "Who may act now" not in text
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    ended = kit.ok(await table.alice.slash(table.channel, "turn end"))
    assert "Next: the Director picks who acts with /turn act: **Goblin 1**, **Goblin 2**" in ended
    assert link in ended
