"""A round never sticks on SimCord: when the last creature still to act is killed by
`/stamina damage`, struck down off-turn by `/strike`, or taken out with `/encounter remove`, the next round
starts by itself, and `/turn act` goes on.

Draw Steel, Combat, "End of Round": "Once all creatures on both sides of a battle have acted, the combat
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
    revived = kit.ok(await table.director.slash(table.channel, "stamina set", target="Ash", amount=5))
    assert "🔔 Round 2 begins." in revived
    assert (await kit.stored(table)).turns.round == 2
    joined = await kit.add(table, name="Orc", stamina=12)
    assert "Round" not in joined  # round 2 runs already: adding a creature starts nothing
    text = kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    assert "**Ash** starts their turn" in text


SAID: dict[str, tuple[str, str, dict[str, Any]]] = {
    "stamina damage": ("director", "stamina damage", {"target": "Goblin 2", "amount": 20}),
    "a free strike off Ash's turn": ("alice", "strike", {"targets": "Goblin 2", "damage": "30/30/30"}),
    "encounter remove": ("director", "encounter remove", {"name": "Goblin 2"}),
    "a slam": ("director", "move slam", {"target": "Goblin 2", "squares_left": 18, "into": "object"}),
}


@pytest.mark.parametrize("way", list(SAID))
async def test_a_round_that_starts_outside_a_turn_is_announced_and_the_next_side_pinged(
    table: Table, way: str
) -> None:
    """Draw Steel, Combat, "End of Round": "Once all creatures on both sides of a battle have acted, the
    combat round ends and a new combat round begins." Monsters "Malice": the Director gains Malice at the
    start of each round (2 heroes + round 2). The reply says so as a turn's end does, and the side that picks
    first is pinged in it (but not the member who typed the command)."""
    await _goblin_2_last(table)
    member, command, options = SAID[way]
    caller = getattr(table, member)
    result = await caller.slash(table.channel, command, **options)
    text = kit.ok(result)
    assert "🔔 Round 2 begins. The Director gains 4 Malice" in text
    assert result.response is not None
    heroes = [player.id for player in (table.alice, table.bob) if player is not caller]  # not who typed it
    assert kit.pinged(table, result.response.message) == (heroes, [])


async def test_damage_that_starts_a_round_asks_about_an_objective_whose_time_is_up(table: Table) -> None:
    """Draw Steel, Combat, "Objective Endings": a counter that hits 0 as round 2 starts is announced with
    the Director's buttons in the damage reply that started it."""
    await _goblin_2_last(table)
    kit.ok(
        await table.director.slash(table.channel, "encounter objective add", text="Hold the bridge", rounds=1)
    )
    result = await table.director.slash(table.channel, "stamina damage", target="Goblin 2", amount=20)
    assert "⏳ Time is up for **Hold the bridge**" in kit.ok(result)
    assert result.response is not None
    assert kit.labels(result.response.message) == ["End in victory", "Keep fighting"]


async def test_damage_inside_a_running_round_says_nothing_of_rounds(table: Table) -> None:
    await _goblin_2_last(table)
    result = await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=1)
    assert "Round" not in kit.ok(result)
    assert result.response is not None and kit.pinged(table, result.response.message) == ([], [])


async def test_a_creature_added_while_nobody_can_act_starts_the_round_and_says_so(table: Table) -> None:
    """Draw Steel, Combat, "End of Round": the round waiting for somebody able to act begins when a
    creature joins, and the reply to /encounter add says so."""
    await kit.ready(table)
    for name, amount in (("Goblin 1", 20), ("Goblin 2", 20), ("Bree", 60), ("Ash", 60)):
        kit.ok(await table.director.slash(table.channel, "stamina damage", target=name, amount=amount))
    joined = await kit.add(table, name="Orc", stamina=12)
    assert "🔔 Round 2 begins." in joined
