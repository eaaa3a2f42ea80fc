"""Who a turn ping reaches: not the Director who just ended their own creature's turn when
their side picks again (the reply already says so), and in the Agility order only the next in order."""

from __future__ import annotations

from bot.rules.turns import Mode, eligible
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


async def _director_picks_again(table: Table) -> str:
    """Heroes first; three goblins: once both heroes have acted, the Director's side picks twice in a row.
    Returns the reply to the Director ending Goblin 2's turn."""
    await kit.start(table)
    await kit.add_party(table)
    await kit.add(table, name="Goblin 3", stamina=10)
    await kit.begin(table, first="heroes")
    for member, name in ((table.alice, "Ash"), (table.director, "Goblin 1"), (table.bob, "Bree")):
        kit.ok(await member.slash(table.channel, "turn act", combatant=name))
        kit.ok(await member.slash(table.channel, "turn end"))
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 2"))
    count = len(kit.pings(table))
    text = kit.ok(await table.director.slash(table.channel, "turn end"))
    assert len(kit.pings(table)) == count, "the Director was pinged about their own side's pick"
    return text


async def test_the_director_is_not_pinged_when_their_own_side_picks_again(table: Table) -> None:
    """Draw Steel, Combat, "Combat Round": when the heroes have all acted, the Director's creatures keep
    acting; the Director, who just ended a creature's turn, reads who picks next in the reply itself."""
    text = await _director_picks_again(table)
    assert "Next: the Director picks who acts with /turn act: **Goblin 3**" in text


async def test_nor_the_director_role(table: Table) -> None:
    await table.configure_director_role()
    await _director_picks_again(table)


async def test_in_the_agility_order_only_the_next_in_order_is_pinged(table: Table) -> None:
    """Draw Steel, Combat, "Alternative Turn Order": "When it's time for someone on the heroes' side to
    act, the hero with the highest total goes first. On the next hero turn, the hero with the second-highest
    total takes their turn": the round's ping reaches that hero's player only."""
    await kit.start(table, mode=Mode.AGILITY.value)
    await kit.add_party(table)
    await kit.begin(table, first="heroes")
    enc = await kit.stored(table)
    [up] = eligible(enc.turns)
    owner = enc.creature(up).owner_id
    assert owner is not None
    assert kit.pings(table)[-1][1:] == ([owner], [])
    member = table.alice if owner == table.alice.id else table.bob
    kit.ok(await member.slash(table.channel, "turn act", combatant=up))
    kit.ok(await member.slash(table.channel, "turn end"))
    goblin = eligible((await kit.stored(table)).turns)[0]
    kit.ok(await table.director.slash(table.channel, "turn act", combatant=goblin))
    kit.ok(await table.director.slash(table.channel, "turn end"))
    [other] = eligible((await kit.stored(table)).turns)
    assert other != up
    assert kit.pings(table)[-1][1:] == ([(await kit.stored(table)).creature(other).owner_id], [])
