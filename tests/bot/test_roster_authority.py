"""Who may touch the campaign's roster from an encounter, through SimCord: only a hero's player or a server
Director brings a roster hero in (an encounter's starter as such never does), and an encounter's end writes
Victories only when a server Director ends it or presses the summary's Award button (once)."""

from __future__ import annotations

from typing import Any

from simcord import ChannelHandle, MemberActor

from bot.play import sheet_of
from bot.rules.resources import Progress
from bot.store import ChannelKey, Hero
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table
from tests.bot.test_heroes import create


async def roster(table: Table) -> dict[str, Hero]:
    stored = await table.store.view(ChannelKey(table.guild.id, table.channel.id))
    return {h.name: h for h in stored.heroes.values()}


async def victories(table: Table, name: str) -> int:
    return sheet_of((await roster(table))[name]).progress.victories


async def end(table: Table, who: MemberActor, where: ChannelHandle, victory: bool = True) -> Any:
    """`/encounter end` and its confirmation, pressed by `who`; the end summary."""
    asked = await who.slash(where, "encounter end", victory=victory)
    assert asked.response is not None and asked.response.ephemeral, asked
    done = await who.click(asked.response.message, label="End the encounter")
    kit.ok(done)
    return done.response or done.followups[0]


async def test_a_stranger_cant_bring_in_another_players_hero(table: Table) -> None:
    """A member with no role starts an encounter in a thread (no Director role is set) and brings in alice's
    hero: refused, so he can't wound it there and write its Stamina back to the roster."""
    cy = table.add_player("cy")
    await create(table, table.alice)
    kit.ok(await cy.slash(table.thread, "encounter start"))
    text = kit.refused(await cy.slash(table.thread, "encounter hero", name="Ash"))
    assert text.startswith("Only Ash's player or a server Director")
    assert not (await kit.stored(table, table.thread)).roster
    # the hero's player brings them in; a server Director may too (here: Manage Server)
    kit.ok(await table.alice.slash(table.thread, "encounter hero", name="Ash"))
    await create(table, table.bob, name="Bram")
    max_ = table.add_server_manager("max")
    kit.ok(await max_.slash(table.thread, "encounter hero", name="Bram"))
    assert set((await kit.stored(table, table.thread)).roster) == {"Ash", "Bram"}


async def test_an_encounter_ended_by_a_non_director_awards_no_victories(table: Table) -> None:
    """Five empty start/add/end-with-victory loops by a member with no role gave his own hero 5 Victories,
    though /victories award is refused to him: now none until a server Director awards them."""
    cy = table.add_player("cy")
    await create(table, cy, name="Cyrus")
    for _ in range(5):
        kit.ok(await cy.slash(table.thread, "encounter start"))
        kit.ok(await cy.slash(table.thread, "encounter hero", name="Cyrus"))
        summary = await end(table, cy, table.thread)
        assert "once a server Director awards them" in summary.content
    assert await victories(table, "Cyrus") == 0
    # his own press of the Award button is refused
    refusal = await cy.click(summary, label="Award 1 Victory")
    assert kit.refused(refusal).startswith("Only a server Director")
    assert await victories(table, "Cyrus") == 0


async def test_a_server_director_awards_the_waiting_victories_once(table: Table) -> None:
    cy = table.add_player("cy")
    await create(table, table.alice)
    await create(table, table.bob, name="Bram")
    kit.ok(await cy.slash(table.thread, "encounter start"))
    kit.ok(await table.alice.slash(table.thread, "encounter hero", name="Ash"))
    kit.ok(await table.bob.slash(table.thread, "encounter hero", name="Bram"))
    kit.ok(await cy.slash(table.thread, "stamina damage", target="Bram", amount=100))  # dead: no Victory
    summary = await end(table, cy, table.thread)
    assert "1 Victory each to Ash once a server Director awards them" in summary.content
    assert await victories(table, "Ash") == 0
    await table.configure_director_role()
    awarded = kit.ok(await table.director.click(summary, label="Award 1 Victory"))
    assert "1 Victory each to Ash" in awarded
    assert await victories(table, "Ash") == 1 and await victories(table, "Bram") == 0
    again = kit.refused(await table.director.click(summary, label="Award 1 Victory"))
    assert "already" in again
    assert await victories(table, "Ash") == 1


async def test_a_server_director_ending_it_writes_the_victories_at_once(table: Table) -> None:
    await table.configure_director_role()
    await create(table, table.alice)
    await kit.start(table)
    kit.ok(await table.alice.slash(table.channel, "encounter hero", name="Ash"))
    summary = await end(table, table.director, table.channel)
    assert "1 Victory each to Ash." in summary.content and not summary.components
    assert (sheet_of((await roster(table))["Ash"]).progress) == Progress(1, 0)
