"""A bare Act (the tracker's button, or /turn act without a name) when several of the caller's creatures may
act offers them as buttons, answered only to the caller (before, a player got "Several of your
creatures may act" and a Director always got "None of your creatures may act now", monsters having no owner).
"""

from __future__ import annotations

import discord

from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


def labels(message: discord.Message) -> list[str]:
    return [c.label or "" for row in message.components for c in getattr(row, "children", [])]


async def test_the_directors_act_offers_each_of_their_creatures_that_may_act(table: Table) -> None:
    """Draw Steel, Combat, "Combat Round": the Director's side "chooses a creature" to act; the Act button
    lets them choose among their creatures that may act now."""
    await kit.ready(table, first="director")
    result = await table.director.click(kit.tracker(table.channel), label="Act")
    offer = result.response
    assert offer is not None and offer.ephemeral
    assert "Several of your creatures may act now" in offer.content
    assert labels(offer.message) == ["Goblin 1", "Goblin 2"]
    text = kit.ok(await table.director.click(offer.message, label="Goblin 2"))
    assert "**Goblin 2** starts their turn" in text
    assert [t.entry for t in (await kit.stored(table)).turns.turns] == ["Goblin 2"]


async def test_a_players_act_offers_their_creatures_and_only_theirs(table: Table) -> None:
    await kit.start(table)
    await kit.add_party(table)
    cat = {"name": "Cat", "stamina": 5, "player": table.alice}
    await kit.add(table, **cat)
    await kit.begin(table, first="heroes")
    result = await table.alice.slash(table.channel, "turn act")
    offer = result.response
    assert offer is not None and offer.ephemeral
    assert labels(offer.message) == ["Ash", "Cat"]
    text = kit.ok(await table.alice.click(offer.message, label="Cat"))
    assert "**Cat** starts their turn" in text
    # Bree's player has one creature that may act: Act starts its turn at once (after Cat's ends)
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    kit.ok(await table.director.slash(table.channel, "turn end"))
    text = kit.ok(await table.bob.click(kit.tracker(table.channel), label="Act"))
    assert "**Bree** starts their turn" in text


async def test_an_offered_creature_pressed_after_the_turns_moved_on_is_refused(table: Table) -> None:
    """The buttons carry the state they were offered at: a press after another change starts nothing."""
    await kit.ready(table, first="director")
    offer = (await table.director.click(kit.tracker(table.channel), label="Act")).response
    assert offer is not None
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    kit.refused(await table.director.click(offer.message, label="Goblin 2"))
    assert [t.entry for t in (await kit.stored(table)).turns.turns] == ["Goblin 1"]
