"""Findings of a Director's and players' review of a whole play-by-post encounter, each pinned by a test:
what people read (wording, labels, who is pinged) where it was wrong or confusing."""

from __future__ import annotations

from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


async def squad_left_to_act(table: Table) -> None:
    """Ash and Bree against a minion squad; the heroes pick first."""
    await kit.start(table)
    for name, player in (("Ash", table.alice), ("Bree", table.bob)):
        await kit.add(table, name=name, stamina=20, side="heroes", player=player)
    await kit.add(table, name="Goblin", stamina=5, side="director", count=3, squad="Goblins")
    await kit.begin(table, first="heroes")


async def test_a_squads_side_to_pick_pings_the_director_without_an_error(table: Table) -> None:
    await squad_left_to_act(table)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    ended = await table.alice.slash(table.channel, "turn end")
    assert "Goblins" in kit.ok(ended)
    assert all(not f.ephemeral for f in ended.followups), [f.content for f in ended.followups]
    assert kit.pings(table)[-1][1:] == ([table.director.id], [])
