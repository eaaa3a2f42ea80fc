"""Setting up montages and negotiations through the real commands, for the SimCord tests of both.

await scene_kit.heroes(table)                        # Ash (alice, M2 A1) and Bree (bob, M0 A2)
await scene_kit.heroes(table, "P2 I0", "P0 I1")      # the same two, other characteristics
await scene_kit.start_negotiation(table, "open")     # the Director's /negotiation start with Vell
"""

from __future__ import annotations

from simcord.results import InteractionResult

from tests.bot.conftest import Table
from tests.bot.encounter_kit import ok


async def heroes(table: Table, ash: str = "M2 A1", bree: str = "M0 A2") -> None:
    """Ash (alice) and Bree (bob) on the roster: 30 Stamina, 8 Recoveries and these characteristics."""
    for who, name, traits in ((table.alice, "Ash", ash), (table.bob, "Bree", bree)):
        made = await who.slash(
            table.channel, "hero create", name=name, stamina=30, recoveries=8, characteristics=traits
        )
        ok(made)


async def start_negotiation(
    table: Table, attitude: str, motivations: str = "greed", npc: str = "Vell"
) -> InteractionResult:
    """The Director's /negotiation start in #combat; the NPC's pitfall is peace."""
    return await table.director.slash(
        table.channel,
        "negotiation start",
        npc=npc,
        attitude=attitude,
        motivations=motivations,
        pitfalls="peace",
    )
