"""/recover (Catch Breath) in the action economy and /turn speed on SimCord.

Draw Steel, Combat, "Taking a Turn": "Each creature in combat ... gets to take a main action, a maneuver,
and a move action on their turn"; "Catch Breath": "A creature who uses the Catch Breath maneuver spends a
Recovery". Teams Combat and Shadow of the Demon Lord, Combat have no maneuvers: there Catch Breath costs an
action.
Shadow of the Demon Lord, Combat, "Anatomy of a Round": "players who want to take a turn (fast or slow) do so
in that part of the round".
"""

from __future__ import annotations

import pytest

from bot.rules.turns import Speed, eligible
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


async def _enforce(table: Table) -> None:
    await table.configure_director_role()
    kit.ok(await table.director.slash(table.channel, "settings", enforce_action_economy=True))


async def test_enforced_catch_breath_off_the_heros_turn_is_refused(table: Table) -> None:
    await _enforce(table)
    await kit.ready(table)
    kit.ok(await table.bob.slash(table.channel, "turn act", combatant="Bree"))
    text = kit.refused(await table.alice.slash(table.channel, "recover"))
    assert "It isn't Ash's turn" in text
    kit.ok(await table.bob.slash(table.channel, "turn end"))
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    kit.ok(await table.director.slash(table.channel, "turn end"))
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    text = kit.ok(await table.alice.slash(table.channel, "recover"))
    assert "**Ash** catches their breath (1 Recovery)" in text and "no maneuvers" not in text


@pytest.mark.parametrize("mode", ["teams", "fast-slow"])
async def test_catch_breath_costs_an_action_in_the_games_without_maneuvers(table: Table, mode: str) -> None:
    options = {"teams": "Heroes, Monsters"} if mode == "teams" else {}
    await kit.start(table, mode=mode, **options)
    sides = {"hero_side": "Heroes", "foe_side": "Monsters"} if mode == "teams" else {}
    await kit.add_party(table, **sides)
    await kit.begin(table, first="Heroes" if mode == "teams" else None)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    text = kit.ok(await table.alice.slash(table.channel, "recover"))
    assert "This game has no maneuvers, so Catch Breath costs an action." in text


async def _fast_slow(table: Table) -> None:
    await kit.start(table, mode="fast-slow")
    await kit.add_party(table)
    await kit.begin(table, first=None)


async def test_a_player_chooses_fast_or_slow_per_creature(table: Table) -> None:
    await _fast_slow(table)
    text = kit.ok(await table.alice.slash(table.channel, "turn speed", speed="slow"))
    assert "**Ash** takes a slow turn" in text
    enc = await kit.stored(table)
    assert enc.turns.entry("Ash").speed is Speed.SLOW and eligible(enc.turns) == ("Bree",)
    assert "Only the Director can choose Goblin 1's turn" in kit.refused(
        await table.alice.slash(table.channel, "turn speed", combatant="Goblin 1", speed="slow")
    )
    offered = await table.bob.autocomplete(table.channel, "turn speed", "combatant", "")
    assert [c["value"] for c in offered] == ["Bree"]
    text = kit.ok(await table.bob.slash(table.channel, "turn speed", combatant="Bree", speed="fast"))
    assert "**Bree** takes a fast turn" in text
    text = kit.ok(await table.director.slash(table.channel, "turn speed", combatant="Goblin 2", speed="slow"))
    assert "Goblin 2** takes a slow turn" in text


async def test_one_players_skip_moves_only_their_creatures_to_the_slow_turns(table: Table) -> None:
    await _fast_slow(table)
    text = kit.ok(await table.alice.slash(table.channel, "turn skip"))
    assert "**Ash** waits for the slow turns" in text and "Bree" not in text.split("Next")[0]
    enc = await kit.stored(table)
    assert enc.turns.entry("Bree").speed is None and eligible(enc.turns) == ("Bree",)
    assert "None of your creatures waits" in kit.refused(await table.alice.slash(table.channel, "turn skip"))


async def test_enforced_heal_is_a_main_action_on_the_healers_turn(table: Table) -> None:
    """Draw Steel, Combat, "Heal": "A creature who uses the Heal main action ..."; "Taking a Turn": a main
    action is taken on one's turn. With the economy enforced, Heal off the healer's turn is refused (nothing
    healed); on it, it spends the main action, so a second main action is refused."""
    await _enforce(table)
    await kit.ready(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=10))
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    before = (await kit.stored(table)).creature("Ash").vitals
    text = kit.refused(
        await table.bob.slash(table.channel, "turn heal", target="Ash", use="recovery", healer="Bree")
    )
    assert text == "Heal is a main action, taken on Bree's own turn: start it with /turn act first."
    assert (await kit.stored(table)).creature("Ash").vitals == before  # nothing spent
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    kit.ok(await table.director.slash(table.channel, "turn end"))
    kit.ok(await table.bob.slash(table.channel, "turn act", combatant="Bree"))
    text = kit.ok(await table.bob.slash(table.channel, "turn heal", target="Ash", use="recovery"))
    assert "helped by **Bree**'s Heal" in text
    assert "No main action left" in kit.refused(await table.bob.slash(table.channel, "turn defend"))
