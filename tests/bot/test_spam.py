"""What one member can't flood, through SimCord: the same people pinged again for the same moment (a player
looping `/turn end` and `/encounter undo`), trackers reposted by `/encounter status` (at most once every 30 s
a channel, else a jump link), and the campaign's roster filled by one member's heroes (10 each)."""

from __future__ import annotations

import discord

from bot.store import ChannelKey
from exts.tracker import _service as tracker
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


async def test_looping_turn_end_and_undo_pings_the_director_role_once(table: Table) -> None:
    await table.configure_director_role()
    await kit.ready(table, first="heroes")
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    before = len(kit.pings(table))
    for _ in range(5):
        kit.ok(await table.alice.slash(table.channel, "turn end"))  # the Director's side picks: the role
        kit.ok(await table.alice.slash(table.channel, "encounter undo"))
    role_pings = [p for p in kit.pings(table)[before:] if p[2] == [table.director_role.id]]
    assert len(role_pings) == 1, role_pings
    # a new moment pings again: the Director's Goblin acts, and the heroes' side picks (Bree is left)
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    kit.ok(await table.director.slash(table.channel, "turn end"))
    assert kit.pings(table)[-1][1:] == ([table.bob.id], [])


def posted(table: Table) -> tuple[int, int]:
    """The trackers and the "pinned a message" notices in #combat."""
    history = list(table.channel.history())
    trackers = [m for m in history if m.embeds and (m.embeds[0].title or "").startswith("⚔️")]
    notices = [m for m in history if m.type is discord.MessageType.pins_add]
    return len(trackers), len(notices)


async def test_status_reposts_at_most_once_every_30_seconds_a_channel(table: Table) -> None:
    await kit.ready(table)
    cy = table.add_player("cy")
    trackers, notices = posted(table)
    first = kit.tracker(table.channel)
    answers = [await cy.slash(table.channel, "encounter status") for _ in range(10)]
    # one repost (its old message deleted), pinned: Discord's "pinned a message" notice deleted too
    assert posted(table) == (trackers, notices) and kit.tracker(table.channel).id != first.id
    assert all(a.ephemeral for a in answers)
    link = kit.tracker(table.channel).jump_url
    for answer in answers[1:]:
        assert answer.response is not None and link in answer.response.content
    second = kit.tracker(table.channel)
    await table.env.advance_time(tracker.ASK_GAP)
    await cy.slash(table.channel, "encounter status")
    assert posted(table) == (trackers, notices) and kit.tracker(table.channel).id != second.id


async def test_one_member_has_at_most_10_heroes(table: Table) -> None:
    cy = table.add_player("cy")
    for number in range(10):
        kit.ok(await cy.slash(table.channel, "hero create", name=f"Hero {number}", stamina=20, recoveries=6))
    text = kit.refused(await cy.slash(table.thread, "hero create", name="One more", stamina=20, recoveries=6))
    assert "10 heroes" in text and "/hero delete" in text
    kit.ok(await table.alice.slash(table.channel, "hero create", name="Ash", stamina=30, recoveries=8))
    stored = await table.store.view(ChannelKey(table.guild.id, table.channel.id))
    assert len(stored.heroes) == 11
