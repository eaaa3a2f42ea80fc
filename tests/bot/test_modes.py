"""A whole encounter in each of the four turn modes, from /encounter start to /encounter end, played by the
members who control each creature (players for their heroes, the Director for the monsters)."""

from __future__ import annotations

import pytest
from simcord import MemberActor

from bot.rules.encounter import Encounter
from bot.rules.turns import Mode, Phase, eligible
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


def member_for(table: Table, owner: int | None) -> MemberActor:
    return {table.alice.id: table.alice, table.bob.id: table.bob}.get(owner or 0, table.director)


async def play_round(table: Table) -> list[str]:
    """Everybody acts once, each picked by its controller from who may act; returns who acted, in order."""
    start = (await kit.stored(table)).turns.round
    acted: list[str] = []
    for _ in range(20):
        enc = await kit.stored(table)
        if enc.turns.round != start:
            return acted
        who = eligible(enc.turns)[0]
        entry = enc.turns.entry(who)
        assert entry is not None
        member = member_for(table, enc.creature(entry.creature_ids[0]).owner_id)
        assert f"**{who}** starts" in kit.ok(await member.slash(table.channel, "turn act", combatant=who))
        kit.ok(await member.slash(table.channel, "turn end"))
        acted.append(who)
    raise AssertionError("the round never ended")


async def finish(table: Table) -> str:
    asked = await table.director.slash(table.channel, "encounter end")
    assert asked.response is not None
    return kit.ok(await table.director.click(asked.response.message, label="End the encounter"))


@pytest.mark.parametrize("mode", [Mode.DRAW_STEEL, Mode.AGILITY, Mode.FAST_SLOW])
async def test_a_whole_encounter(table: Table, mode: Mode) -> None:
    await kit.start(table, mode=mode.value, name="Road ambush")
    await kit.add_party(table)
    await kit.begin(table, first="heroes" if mode is not Mode.FAST_SLOW else None)
    first = await play_round(table)
    assert sorted(first) == ["Ash", "Bree", "Goblin 1", "Goblin 2"]
    if mode is not Mode.FAST_SLOW:
        assert first[0] in ("Ash", "Bree") and first[1].startswith("Goblin")  # sides alternate
    else:
        assert set(first[:2]) == {"Ash", "Bree"}  # players first in the fast part
    enc = await kit.stored(table)
    assert enc.turns.round == 2 and enc.malice.value == 3 + 4  # rounds 1 and 2: 2 heroes + round number
    await play_round(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=10))
    text = await finish(table)
    assert "1 Victory each to Ash, Bree" in text and "after 3 rounds" in text
    assert (await table.store.view(kit.key(table))).encounter is None
    pinged = kit.pings(table)
    assert pinged and all(
        set(users) <= {table.alice.id, table.bob.id, table.director.id} for _, users, _ in pinged
    )


async def test_a_whole_teams_encounter(table: Table) -> None:
    await kit.start(table, mode="teams", name="Arena", teams="Red, Blue")
    await kit.add_party(table, hero_side="Red", foe_side="blue")
    text = kit.ok(await table.director.slash(table.channel, "encounter begin", order="Blue, Red"))
    assert "Round 1 begins" in text and "team Blue" in text
    acted = await play_round(table)
    assert acted[0].startswith("Goblin") and acted[1] in ("Ash", "Bree")
    assert (await kit.stored(table)).turns.round == 2
    text = await finish(table)
    assert "is over after 2 rounds" in text
    assert (await table.store.view(kit.key(table))).encounter is None


async def test_teams_surprise_round_and_bad_team_order(table: Table) -> None:
    await kit.start(table, mode="teams", name="Arena", teams="Red, Blue")
    await kit.add_party(table, hero_side="Red", foe_side="Blue")
    kit.refused(await table.director.slash(table.channel, "encounter begin", order="Green"))
    kit.ok(await table.director.slash(table.channel, "encounter surprise", combatants="Ash"))
    text = kit.ok(await table.director.slash(table.channel, "encounter begin"))
    assert "surprise round" in text
    enc = await kit.stored(table)
    assert enc.turns.phase is Phase.IN_ROUND and enc.turns.round == 0
    assert "Ash" not in eligible(enc.turns)


async def test_fast_slow_players_move_on_to_the_slow_turns(table: Table) -> None:
    await kit.start(table, mode="fast-slow")
    await kit.add_party(table)
    await kit.begin(table, first=None)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    text = kit.ok(await table.bob.slash(table.channel, "turn skip"))
    assert "**Bree** waits for the slow turns" in text
    assert "Only the Director" in kit.refused(await table.bob.slash(table.channel, "turn skip"))
    text = kit.ok(await table.director.slash(table.channel, "turn skip"))
    assert "**Goblin 1** and **Goblin 2** wait for the slow turns" in text
    enc = await kit.stored(table)
    assert eligible(enc.turns) == ("Bree",)


async def test_agility_heroes_swap_places_at_the_start_of_a_round(table: Table) -> None:
    await kit.start(table, mode=Mode.AGILITY.value)
    await kit.add_party(table)
    await kit.begin(table, first="heroes")

    def totals(enc: Encounter) -> dict[str, int]:
        return {i.unit: i.total for i in enc.turns.initiative}

    before = totals(await kit.stored(table))
    text = kit.refused(await table.alice.slash(table.channel, "turn swap", hero="Ash", **{"with": "Bree"}))
    assert "Only the Director" in text
    text = kit.refused(
        await table.director.slash(table.channel, "turn swap", hero="Ash", **{"with": "Goblin 1"})
    )
    assert "isn't a hero" in text
    text = kit.ok(await table.director.slash(table.channel, "turn swap", hero="ash", **{"with": "Bree"}))
    assert "**Ash** and **Bree** swap places" in text
    after = totals(await kit.stored(table))
    assert (after["Ash"], after["Bree"]) == (before["Bree"], before["Ash"])
    assert {k: v for k, v in after.items() if k not in ("Ash", "Bree")} == {
        k: v for k, v in before.items() if k not in ("Ash", "Bree")
    }
    # once someone has acted in the round, no swapping until the next one
    who = eligible((await kit.stored(table)).turns)[0]
    member = member_for(table, (await kit.stored(table)).creature(who).owner_id)
    kit.ok(await member.slash(table.channel, "turn act", combatant=who))
    text = kit.refused(await table.director.slash(table.channel, "turn swap", hero="Ash", **{"with": "Bree"}))
    assert "start of a new round" in text


async def test_fast_slow_a_skip_into_the_slow_turns_names_each_creature_once(table: Table) -> None:
    """Both heroes took fast turns; the Director's skip sends both goblins to the slow turns, where the
    Director picks next: the message names each goblin once (the pick line says "those named above")."""
    await kit.start(table, mode="fast-slow")
    await kit.add_party(table)
    await kit.begin(table, first=None)
    for member, hero in ((table.alice, "Ash"), (table.bob, "Bree")):
        kit.ok(await member.slash(table.channel, "turn act", combatant=hero))
        kit.ok(await member.slash(table.channel, "turn end"))

    text = kit.ok(await table.director.slash(table.channel, "turn skip"))

    assert text.count("Goblin 1") == 1 and text.count("Goblin 2") == 1, text
    assert "Next: the Director picks a slow turn with /turn act: those named above" in text
