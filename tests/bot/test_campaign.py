"""Campaigns through SimCord: a thread plays with its channel's heroes and hero tokens,
/campaign join | leave | show, /tokens reset counting the whole party, /hero delete and a rename that follows
the hero into the running encounter."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
import simcord.builders
import sqlalchemy as sa

from bot.play import encounter_of
from bot.rules import codec
from bot.rules.hero import new_sheet
from bot.store import ChannelKey
from exts.heroes._campaign import merge_old_threads
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


async def create(table: Table, name: str = "Ash", where: Any = None, who: Any = None) -> str:
    actor = who or table.alice
    return kit.ok(
        await actor.slash(where or table.channel, "hero create", name=name, stamina=30, recoveries=8)
    )


async def roster(table: Table, where: Any) -> set[str]:
    stored = await table.store.view(ChannelKey(table.guild.id, where.id))
    return {hero.name for hero in stored.heroes.values()}


async def test_a_thread_brings_in_a_hero_of_its_channels_roster(table: Table) -> None:
    """ "a hero made in #campaign can't join the encounter in its thread ("No roster hero by that
    name here")" — a thread's encounter uses its parent channel's heroes."""
    await create(table)
    await kit.start(table, channel=table.thread)
    text = kit.ok(await table.alice.slash(table.thread, "encounter hero", name="Ash"))
    assert "Ash" in text
    stored = await table.store.view(ChannelKey(table.guild.id, table.thread.id))
    assert stored.encounter is not None and "Ash" in {c.id for c in encounter_of(stored).creatures}
    # a hero made in the thread joins the channel's roster
    await create(table, "Bree", where=table.thread, who=table.bob)
    assert await roster(table, table.channel) == {"Ash", "Bree"}


async def test_tokens_reset_in_a_thread_counts_the_campaign_and_the_encounter(table: Table) -> None:
    """ "`/tokens reset` there gives 0 tokens"; it counts the campaign's roster and any hero in the
    running encounter who isn't on it (heroes added with /encounter add player:)."""
    await table.configure_director_role()
    await create(table)
    await create(table, "Bree", who=table.bob)
    text = kit.ok(await table.director.slash(table.thread, "tokens reset"))
    assert text.endswith("Hero tokens: 2.")
    await kit.start(table, channel=table.thread)
    kit.ok(
        await table.director.slash(table.thread, "encounter add", name="Cole", stamina=20, player=table.bob)
    )
    kit.ok(
        await table.director.slash(table.thread, "encounter add", name="Goblin", stamina=5, side="director")
    )
    text = kit.ok(await table.director.slash(table.thread, "tokens reset"))
    assert text.endswith("Hero tokens: 3.")
    assert (await table.store.view(ChannelKey(table.guild.id, table.channel.id))).tokens == 3


async def test_campaign_join_show_and_leave(table: Table) -> None:
    await table.configure_director_role()
    ooc = table.guild.create_text_channel("ooc")
    await create(table)
    await create(table, "Cole", where=ooc, who=table.bob)
    refused = kit.refused(await table.alice.slash(ooc, "campaign join", channel=table.channel))
    assert "server Director" in refused
    text = kit.ok(await table.director.slash(ooc, "campaign join", channel=table.channel))
    assert f"plays in <#{table.channel.id}>'s campaign: 1 hero" in text and "set aside" in text
    assert await roster(table, ooc) == {"Ash"}
    shown = kit.ok(await table.alice.slash(table.channel, "campaign show"))
    assert f"<#{ooc.id}>" in shown
    shown = kit.ok(await table.alice.slash(table.thread, "campaign show"))
    assert "is a thread" in shown
    kit.refused(await table.alice.slash(ooc, "campaign leave"))
    text = kit.ok(await table.director.slash(ooc, "campaign leave"))
    assert "its own campaign: 1 hero" in text
    assert await roster(table, ooc) == {"Cole"}
    assert "own campaign already" in kit.refused(await table.director.slash(ooc, "campaign leave"))


async def test_campaign_join_refuses_another_servers_channel(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue "Trust": "`join_campaign` given another server's channel id reads that server's roster".
    Discord offers only this server's channels (and SimCord refuses to resolve another's): the test lifts
    that check, as a forged payload would, to prove the store refuses it anyway and shows nothing of it."""
    await table.configure_director_role()
    elsewhere = table.env.create_guild("Another Table")
    theirs = elsewhere.create_text_channel("their-campaign")
    stranger = elsewhere.add_member(table.director.user)  # the Director is on both servers
    kit.ok(await stranger.slash(theirs, "hero create", name="Secret", stamina=30, recoveries=8))
    await create(table)
    guarded = simcord.builders._require_handle
    monkeypatch.setattr(
        simcord.builders, "_require_handle", lambda env, handle, guild_id=None: guarded(env, handle)
    )
    text = kit.refused(await table.director.slash(table.channel, "campaign join", channel=theirs))
    assert text == "That channel is not on this server." and "Secret" not in text
    monkeypatch.undo()
    assert await roster(table, table.channel) == {"Ash"}
    shown = kit.ok(await table.alice.slash(table.channel, "campaign show"))
    assert f"<#{theirs.id}>" not in shown and "1 hero" in shown


async def test_hero_delete_asks_first_and_only_its_player_or_a_server_director(table: Table) -> None:
    await table.configure_director_role()
    await create(table)
    kit.refused(await table.bob.slash(table.channel, "hero delete", hero="Ash"))
    asked = await table.alice.slash(table.thread, "hero delete", hero="Ash")
    assert asked.ephemeral and "for good" in asked.response.content
    await table.alice.click(asked.response.message, label="Keep")
    assert await roster(table, table.channel) == {"Ash"}
    asked = await table.alice.slash(table.thread, "hero delete", hero="Ash")
    done = await table.alice.click(asked.response.message, label="Delete Ash")
    assert "deleted" in kit.ok(done)
    assert await roster(table, table.channel) == set()


async def test_hero_delete_is_refused_while_the_hero_is_in_the_encounter(table: Table) -> None:
    await table.configure_director_role()
    await create(table)
    await kit.start(table)
    kit.ok(await table.alice.slash(table.channel, "encounter hero", name="Ash"))
    text = kit.refused(await table.director.slash(table.channel, "hero delete", hero="Ash"))
    assert "encounter" in text
    # in a thread's encounter too: the roster is the campaign's
    await create(table, "Bree", who=table.bob)
    await kit.start(table, channel=table.thread)
    kit.ok(await table.bob.slash(table.thread, "encounter hero", name="Bree"))
    text = kit.refused(await table.bob.slash(table.channel, "hero delete", hero="Bree"))
    assert f"<#{table.thread.id}>" in text
    assert await roster(table, table.channel) == {"Ash", "Bree"}


async def test_renaming_a_hero_renames_their_creature_and_show_is_live(table: Table) -> None:
    """ "Renaming a hero renames its creature in the running encounter too" and `/hero show` with
    live Stamina during an encounter."""
    await create(table)
    await kit.start(table, channel=table.thread)
    kit.ok(await table.alice.slash(table.thread, "encounter hero", name="Ash"))
    kit.ok(await table.director.slash(table.thread, "stamina damage", target="Ash", amount=5))
    # renamed where the fight is: the channel's other rooms point there
    refused = kit.refused(await table.alice.slash(table.channel, "hero edit", hero="Ash", new_name="Ashen"))
    assert f"<#{table.thread.id}>" in refused
    kit.ok(await table.alice.slash(table.thread, "hero edit", hero="Ash", new_name="Ashen"))
    stored = await table.store.view(ChannelKey(table.guild.id, table.thread.id))
    encounter = encounter_of(stored)
    assert {c.id for c in encounter.creatures} == {"Ashen"}
    assert encounter.creature("Ashen").vitals.stamina == 25
    kit.ok(await table.director.slash(table.thread, "stamina damage", target="Ashen", amount=1))
    shown = await table.alice.slash(table.thread, "hero show", hero="Ashen")
    fields = [f"{f.name}: {f.value}" for f in shown.response.embeds[0].fields]
    assert any("Stamina (in the encounter): 24/30" in f for f in fields), fields


async def old_thread_roster(table: Table, thread_id: int, heroes: dict[str, str], tokens: int) -> None:
    """Rows as the store kept a thread before campaigns: its own roster and pool, no parent recorded."""
    now = datetime.now(UTC)
    async with table.store.engine.begin() as connection:
        await connection.execute(
            sa.text(
                "INSERT INTO channels (id, guild_id, tokens, version, updated_at) "
                "VALUES (:id, :guild, :tokens, 4, :now)"
            ),
            {"id": thread_id, "guild": table.guild.id, "tokens": tokens, "now": now},
        )
        for hero_id, name in heroes.items():
            await connection.execute(
                sa.text(
                    "INSERT INTO heroes (id, channel_id, owner_id, name, name_key, data, created_at, "
                    "updated_at) VALUES (:id, :channel, :owner, :name, :key, :data, :now, :now)"
                ),
                {
                    "id": hero_id,
                    "channel": thread_id,
                    "owner": table.bob.id,
                    "name": name,
                    "key": name.casefold(),
                    "data": json.dumps(codec.to_data(new_sheet(20, 4))),
                    "now": now,
                },
            )


async def test_old_threads_rosters_are_merged_without_waiting_for_a_command_there(table: Table) -> None:
    """A thread's roster and pool from before campaigns join its parent's campaign once the bot is
    connected (`merge_old_threads`), though nobody plays in the thread again; a hero whose name the campaign
    has is kept apart by the thread's name. The parent's own channel and other servers' rows are left."""
    await create(table)  # Ash, on #combat's roster
    await old_thread_roster(table, table.thread.id, {"t1": "Ash", "t2": "Cole"}, tokens=3)
    before = await table.store.unplaced()
    assert (table.guild.id, table.thread.id) in before

    read = await merge_old_threads(table.env.bot)

    assert read >= 1
    assert await roster(table, table.channel) == {"Ash", "Ash (Goblin ambush)", "Cole"}
    assert (await table.store.view(ChannelKey(table.guild.id, table.channel.id))).tokens == 3
    assert (table.guild.id, table.thread.id) not in await table.store.unplaced()
    assert await merge_old_threads(table.env.bot) == 0  # merged once: nothing left to read
    assert await roster(table, table.channel) == {"Ash", "Ash (Goblin ambush)", "Cole"}
