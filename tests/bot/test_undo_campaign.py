"""`/encounter undo` and the campaign, through SimCord: an encounter's undo takes back the encounter's own
changes, never rewrites the campaign's hero-token pool or roster over later changes (a spend in the fight
comes back as a token, not as the pool's old value), passes over the campaign's changes made while it runs
(awards, claims), and needs the authority the change itself needed (docs/permissions.md, docs/store.md
*Undo*)."""

from __future__ import annotations

from typing import Any

from simcord import ChannelHandle, MemberActor

from bot.store import ChannelKey
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


async def pool(table: Table, where: ChannelHandle | None = None) -> int:
    return (await table.store.view(ChannelKey(table.guild.id, (where or table.channel).id))).tokens


async def owner_of(table: Table, name: str) -> int:
    hero = (await table.store.view(kit.key(table))).hero_named(name)
    assert hero is not None
    return hero.owner_id


async def ash_fights_in_the_thread(table: Table, tokens: int) -> None:
    """Ash (alice's) on the campaign's roster, `tokens` in its pool, and in the encounter running in the
    thread."""
    await table.configure_director_role()
    kit.ok(await table.alice.slash(table.channel, "hero create", name="Ash", stamina=30, recoveries=8))
    kit.ok(await table.director.slash(table.channel, "tokens award", count=tokens))
    await kit.start(table, channel=table.thread)
    kit.ok(await table.alice.slash(table.thread, "encounter hero", name="Ash"))


async def spend(who: MemberActor, where: ChannelHandle) -> Any:
    return kit.ok(await who.slash(where, "tokens spend", use="reroll", hero="Ash"))


async def test_undoing_a_spend_in_the_thread_gives_one_token_back(table: Table) -> None:
    """A player spends a hero token in the thread and one in the parent channel (one campaign, one pool), then
    undoes her spend in the thread: the pool had 2, has 0, and gets 1 back (not its old 2)."""
    await ash_fights_in_the_thread(table, 2)
    await spend(table.alice, table.thread)
    await spend(table.alice, table.channel)
    assert await pool(table) == 0
    assert "Undone: Ash spent hero tokens" in kit.ok(await table.alice.slash(table.thread, "encounter undo"))
    assert await pool(table) == await pool(table, table.thread) == 1
    assert "Ash" not in (await kit.stored(table, table.thread)).tokens_used  # the fight's part is undone


async def test_undoing_a_spend_keeps_an_award_made_meanwhile(table: Table) -> None:
    """A server Director awards 5 hero tokens in the parent channel after a player's spend in the thread; her
    undo gives her token back on top of them (2 - 1 + 5 + 1 = 7), never the pool's old 2."""
    await ash_fights_in_the_thread(table, 2)
    await spend(table.alice, table.thread)
    kit.ok(await table.director.slash(table.channel, "tokens award", count=5))
    kit.ok(await table.alice.slash(table.thread, "encounter undo"))
    assert await pool(table) == 7


async def starters_encounter(table: Table) -> MemberActor:
    """sam (no role) starts the encounter in #combat while the server has no Director role, adds a goblin;
    alice brings Ash in; then the Director role is set."""
    sam = table.add_player("sam")
    kit.ok(await table.alice.slash(table.channel, "hero create", name="Ash", stamina=30, recoveries=8))
    kit.ok(await sam.slash(table.channel, "encounter start"))
    kit.ok(await sam.slash(table.channel, "encounter add", name="Goblin", stamina=5, side="director"))
    kit.ok(await table.alice.slash(table.channel, "encounter hero", name="Ash"))
    await table.configure_director_role()
    return sam


async def test_the_starter_cant_undo_a_server_directors_award_or_claim(table: Table) -> None:
    """The encounter's starter, with no role, undoes in #combat after a server Director's `/tokens award` and
    `/hero claim player:` there: neither is the encounter's change, so both stand; the starter's undo takes
    back the encounter's own newest change instead."""
    sam = await starters_encounter(table)
    kit.ok(await table.director.slash(table.channel, "tokens award", count=5))
    kit.ok(await table.director.slash(table.channel, "hero claim", hero="Ash", player=table.bob))
    assert (await kit.stored(table)).creature("Ash").owner_id == table.bob.id  # the claim followed Ash in
    assert "Undone: Ash joined the encounter" in kit.ok(await sam.slash(table.channel, "encounter undo"))
    assert await pool(table) == 5
    assert await owner_of(table, "Ash") == table.bob.id
    assert "Undone: Goblin" in kit.ok(await sam.slash(table.channel, "encounter undo"))
    assert await pool(table) == 5 and await owner_of(table, "Ash") == table.bob.id
    assert "Nothing" in kit.refused(await sam.slash(table.channel, "encounter undo"))


async def test_a_hero_token_spend_is_undone_by_its_spender_or_a_server_director(table: Table) -> None:
    """Undoing a spend gives hero tokens back, which the encounter's starter may not do (only a server
    Director awards them): the spender or a server Director undoes it."""
    sam = await starters_encounter(table)
    kit.ok(await table.director.slash(table.channel, "tokens award", count=2))
    await spend(table.alice, table.channel)
    refusal = kit.refused(await sam.slash(table.channel, "encounter undo"))
    assert refusal.startswith("Only the member who spent the hero tokens or a server Director")
    assert "Only" in kit.refused(await table.bob.slash(table.channel, "encounter undo"))
    assert await pool(table) == 1
    kit.ok(await table.director.slash(table.channel, "encounter undo"))
    assert await pool(table) == 2
    await spend(table.alice, table.channel)
    kit.ok(await table.alice.slash(table.channel, "encounter undo"))
    assert await pool(table) == 2
