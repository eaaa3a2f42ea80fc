"""Through SimCord: saves that fall due at a round's end, one save per turn's end, automatic saves
for the Director's creatures; heroic resources (/resource, gains that come by themselves); /recover outside
combat; /turn heal (the Heal main action) on a dying hero."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.play import encounter_of, put_sheet, sheet_of
from bot.rules.conditions import Condition, Duration
from bot.rules.dice import Dice, FixedDice
from bot.rules.resources import GainTrigger, ResourceGain
from bot.rules.turns import add_condition
from bot.store import Change, ChannelKey
from bot.store import Table as StoreTable
from tests.bot import encounter_kit as kit
from tests.bot import harm_kit
from tests.bot.conftest import Table


@pytest.fixture
def dice() -> Dice:
    return FixedDice([2] * 40)  # every save fails (d10 2)


def _with(creature: str, condition: Condition) -> Any:
    def edit(enc: Any) -> Any:
        return enc.with_turns(add_condition(enc.turns, creature, condition, Duration.SAVE).state)

    return edit


async def _turn(table: Table, who: Any, name: str) -> str:
    kit.ok(await who.slash(table.channel, "turn act", combatant=name))
    return kit.ok(await who.slash(table.channel, "turn end"))


async def _round(table: Table, *names: str) -> str:
    """Each creature of the party (Ash, Bree, Goblin 1, Goblin 2) takes its turn in this order, acted by
    its player or the Director: the last turn's end."""
    players = {"Ash": table.alice, "Bree": table.bob}
    text = ""
    for name in names:
        text = await _turn(table, players.get(name, table.director), name)
    return text


async def test_a_directors_save_due_at_the_rounds_end_is_not_lost(table: Table) -> None:
    """ "A save that falls due stays due until it is rolled, whatever starts in between." Goblin 2
    takes the round's last turn: its save is due, round 2 begins, and the Save press rolls it."""
    await table.configure_director_role()
    kit.ok(await table.director.slash(table.channel, "settings", auto_saves=False))
    await kit.ready(table)
    await harm_kit.edit(table, _with("Goblin 2", Condition.RESTRAINED))
    text = await _round(table, "Ash", "Goblin 1", "Bree", "Goblin 2")
    assert "Save due against restrained" in text and "Round 2 begins" in text
    text = kit.ok(await table.director.click(kit.tracker(table.channel), label="Save"))
    assert "**Goblin 2** saves against restrained: d10 **2**" in text


async def test_a_players_save_due_at_the_rounds_end_is_not_lost(table: Table) -> None:
    """ "A player's pending save is lost the same way" -- no longer: Bree takes the round's last
    turn, round 2 begins, and bob's Save press rolls Bree's save."""
    await kit.ready(table, first="director")
    await harm_kit.edit(table, _with("Bree", Condition.DAZED))
    text = await _round(table, "Goblin 1", "Ash", "Goblin 2", "Bree")
    assert "Save due against dazed" in text and "Round 2 begins" in text
    result = await table.bob.click(kit.tracker(table.channel), label="Save")
    assert "**Bree** saves against dazed" in kit.ok(result)


async def test_one_save_per_turns_end(table: Table) -> None:
    """Conditions chapter: a "save ends" condition gets one saving throw at the end of each of the affected
    creature's turns -- `/save` can't be repeated until it succeeds."""
    await kit.ready(table)
    await harm_kit.edit(table, _with("Ash", Condition.SLOWED))
    assert "no save due" in kit.refused(await table.alice.slash(table.channel, "save", target="Ash"))
    await _turn(table, table.alice, "Ash")
    assert "fails" in kit.ok(await table.alice.slash(table.channel, "save", target="Ash"))
    assert "no save due" in kit.refused(await table.alice.slash(table.channel, "save", target="Ash"))
    assert "has a save due" in kit.refused(await table.alice.click(kit.tracker(table.channel), label="Save"))


async def test_the_directors_creatures_roll_their_saves_when_their_turn_ends(table: Table) -> None:
    """`/settings auto_saves:true` (the default): the Director's creatures roll their saves at their turn's
    end, in the /turn end reply."""
    await kit.ready(table)
    await harm_kit.edit(table, _with("Goblin 1", Condition.WEAKENED))
    await _turn(table, table.alice, "Ash")
    text = await _turn(table, table.director, "Goblin 1")
    assert "Saves against weakened: d10 **2** — fails" in text and text.count("Goblin 1") == 1
    assert "Save due: Goblin 1" not in text
    assert encounter_of(await table.store.view(kit.key(table))).saves_due == ()


async def test_resource_gain_spend_set(table: Table) -> None:
    """Draw Steel, The Basics, "Heroic Resources": you spend your Heroic Resources to activate abilities --
    never more than you have; only the hero's player or the Director changes it."""
    await kit.ready(table)
    text = kit.ok(await table.alice.slash(table.channel, "resource gain", amount=2))
    assert text == "⚡ **Ash** gains 2 heroic resource · heroic resource: **2**"
    assert "Not enough heroic resource" in kit.refused(
        await table.alice.slash(table.channel, "resource spend", amount=3)
    )
    assert "Only Ash's player" in kit.refused(
        await table.bob.slash(table.channel, "resource gain", amount=1, hero="Ash")
    )
    text = kit.ok(await table.director.slash(table.channel, "resource set", amount=5, hero="Ash"))
    assert "heroic resource: **5**" in text
    assert "**3**" in kit.ok(await table.alice.slash(table.channel, "resource spend", amount=2))
    assert (await kit.stored(table)).resources["Ash"] == 3


async def _roster_hero(table: Table, *gains: ResourceGain, stamina: int = 30) -> None:
    kit.ok(
        await table.alice.slash(
            table.channel, "hero create", name="Ash", stamina=30, recoveries=3, resource="ferocity"
        )
    )

    def change(t: StoreTable) -> Change[None]:
        hero = t.hero_named("Ash")
        assert hero is not None
        sheet = sheet_of(hero)
        vitals = dataclasses.replace(sheet.vitals, stamina=stamina)
        put_sheet(hero, dataclasses.replace(sheet, vitals=vitals, resource_gains=gains))
        return Change("setup", None)

    await table.store.mutate(ChannelKey(table.guild.id, table.channel.id), table.director.id, "setup", change)


async def test_a_resource_gain_on_taking_damage_comes_by_itself(table: Table) -> None:
    """A Fury's gains (Heroes ch. 5; the Forge Steel export's "You take damage": 1, "You become winded or
    are dying": 1d3) happen where the bot sees them: /stamina damage here."""
    await _roster_hero(
        table, ResourceGain(GainTrigger.TAKE_DAMAGE, "1"), ResourceGain(GainTrigger.WINDED_OR_DYING, "2")
    )
    await kit.start(table)
    kit.ok(await table.alice.slash(table.channel, "encounter hero", name="Ash"))
    await kit.add(table, name="Ogre", stamina=40, side="director")
    await kit.begin(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=4))
    assert (await kit.stored(table)).resources["Ash"] == 1
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=12))
    assert (await kit.stored(table)).resources["Ash"] == 4  # 1 + 1 (damage) + 2 (winded)


async def test_recover_outside_combat_spends_from_the_roster_sheet(table: Table) -> None:
    """Draw Steel, The Basics, "Spending Recoveries": "Outside of combat and other dangerous situations, you
    can spend Recoveries freely." -- /recover with no encounter running uses the roster sheet."""
    await _roster_hero(table, stamina=5)
    text = kit.ok(await table.alice.slash(table.channel, "recover"))
    assert "**Ash** spends a Recovery (out of combat)" in text and "Stamina: 15/30" in text
    kit.ok(await table.alice.slash(table.channel, "recover", target="Ash"))
    hero = (await table.store.view(kit.key(table))).hero_named("Ash")
    assert hero is not None and sheet_of(hero).vitals.recoveries == 1
    assert "Only Ash's player" in kit.refused(await table.bob.slash(table.channel, "recover", target="Ash"))


async def test_heal_lets_a_dying_hero_spend_a_recovery(table: Table) -> None:
    """Draw Steel, Combat, "Dying and Death": "your allies can help you spend Recoveries in combat";
    "Heal": "The target creature can spend a Recovery to regain Stamina"."""
    await kit.ready(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=32))
    # a dying hero can't spend a Recovery alone (off their turn, Catch Breath is refused before that)
    refusal = kit.refused(await table.alice.slash(table.channel, "recover"))
    assert "Catch Breath" in refusal or "It isn't Ash's turn" in refusal
    kit.ok(await table.bob.slash(table.channel, "turn act", combatant="Bree"))
    text = kit.ok(await table.bob.slash(table.channel, "turn heal", target="Ash", use="recovery"))
    assert "**Ash** spends a Recovery, helped by **Bree**'s Heal" in text and "Stamina: 8/30" in text
    stored = await kit.stored(table)
    assert stored.creature("Ash").vitals.recoveries == 1


async def test_heal_grants_a_save_and_a_failed_heros_save_offers_the_token(table: Table) -> None:
    """ "Heal": the target "can make a saving throw against one effect they are suffering that is ended by a
    saving throw"; a failed save's reply carries the hero-token button."""
    await kit.ready(table)
    await harm_kit.edit(table, _with("Ash", Condition.DAZED))
    kit.ok(await table.bob.slash(table.channel, "turn act", combatant="Bree"))
    result = await table.bob.slash(table.channel, "turn heal", target="Ash", use="save")
    assert "**Ash** saves against dazed: d10 **2** — fails" in kit.ok(result)
    assert result.response is not None
    labels = [c.label for row in result.response.message.components for c in getattr(row, "children", [])]
    assert labels == ["Spend a hero token: succeed instead"]
