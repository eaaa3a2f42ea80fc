"""A round never sticks on SimCord (issue 21, "Play flow"): when the last creature still to act is killed by
`/stamina damage`, struck down off-turn by `/strike`, or taken out with `/encounter remove`, the next round
starts by itself, and `/turn act` goes on.

draw-steel-turn-order.txt "End of Round": "Once all creatures on both sides of a battle have acted, the combat
round ends and a new combat round begins."
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


async def _goblin_2_last(table: Table) -> None:
    """Round 1 with Ash, Goblin 1 and Bree done: Goblin 2 is the last still to act."""
    await kit.ready(table)
    for who, name in ((table.alice, "Ash"), (table.director, "Goblin 1"), (table.bob, "Bree")):
        kit.ok(await who.slash(table.channel, "turn act", combatant=name))
        kit.ok(await who.slash(table.channel, "turn end"))
    enc = await kit.stored(table)
    assert enc.turns.round == 1 and [t.entry for t in enc.turns.turns] == ["Ash", "Goblin 1", "Bree"]


WAYS: dict[str, tuple[str, dict[str, Any]]] = {
    "stamina damage": ("stamina damage", {"target": "Goblin 2", "amount": 20}),
    "stamina damage knock-out": ("stamina damage", {"target": "Goblin 2", "amount": 20, "knock_out": True}),
    "encounter remove": ("encounter remove", {"name": "Goblin 2"}),
}


@pytest.mark.parametrize("way", list(WAYS))
async def test_the_last_creature_to_act_gone_starts_the_next_round(table: Table, way: str) -> None:
    await _goblin_2_last(table)
    command, options = WAYS[way]
    kit.ok(await table.director.slash(table.channel, command, **options))
    enc = await kit.stored(table)
    assert enc.turns.round == 2
    text = kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    assert "**Ash** starts their turn" in text and "round 2" in text


async def test_with_nobody_able_to_act_the_encounter_waits_and_says_what_to_do(table: Table) -> None:
    await kit.ready(table)
    for name, amount in (("Goblin 1", 20), ("Goblin 2", 20), ("Bree", 60)):
        kit.ok(await table.director.slash(table.channel, "stamina damage", target=name, amount=amount))
    kit.ok(
        await table.director.slash(table.channel, "stamina damage", target="Ash", amount=60, knock_out=True)
    )
    refusal = kit.refused(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    assert "Nobody can act in a new round" in refusal
    shown = kit.tracker(table.channel).embeds[0]
    assert "nobody can act" in (shown.description or "") + "".join(f.value or "" for f in shown.fields)
    kit.ok(await table.director.slash(table.channel, "stamina set", target="Ash", amount=5))
    assert (await kit.stored(table)).turns.round == 2
    text = kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    assert "**Ash** starts their turn" in text
