"""Through SimCord: heroic resource gains that others' deeds grant come by themselves, once per their limit,
and the reply that brought them says so. The heroes are our own fixtures (`tests/fixtures/forgesteel/`):
Quill, whose Discipline comes the first time each combat round the Director uses an ability that costs
Malice, and Lark, whose Drama comes the first time any hero is winded in the encounter, on a natural 19 or
20 and when a hero dies."""

from __future__ import annotations

import dataclasses

import pytest

from bot.content.bestiary import add_monsters
from bot.play import put_sheet, sheet_of
from bot.rules.dice import Dice, FixedDice
from bot.rules.resources import GainTrigger, ResourceGain
from bot.store import Change, ChannelKey
from bot.store import Table as StoreTable
from tests.bot import encounter_kit as kit
from tests.bot import harm_kit
from tests.bot.ability_kit import BOGLINGS
from tests.bot.conftest import Table
from tests.bot.files_kit import CdnServer, fixture

MALICE_GAIN = "**Quill** gains 1 Discipline (the Director used an ability that costs Malice"


@pytest.fixture
def dice() -> Dice:
    return FixedDice([10, 9] * 20)  # every power roll a natural 19


async def _fight(table: Table, *heroes: str) -> None:
    """The heroes imported (alice's), brought into an encounter with an Ogre, round 1 begun."""
    for name in heroes:
        kit.ok(await table.alice.slash(table.channel, "hero import", file=fixture(f"{name}.ds-hero")))
    await kit.start(table)
    for name in heroes:
        kit.ok(await table.alice.slash(table.channel, "encounter hero", name=name))
    await kit.add(table, name="Ogre", stamina=60, side="director")
    await kit.begin(table)


async def test_the_null_gains_discipline_when_the_director_spends_malice_once_a_round(
    table: Table, cdn_server: CdnServer
) -> None:
    """ "The first time each combat round that the Director uses an ability that costs Malice": 1
    Discipline, in the Malice spend's reply; a second spend that round gives none."""
    await _fight(table, "Quill")
    text = kit.ok(await table.director.slash(table.channel, "malice spend", amount=1))
    assert f"{MALICE_GAIN}, the first time this round): now 1." in text
    assert (await kit.stored(table)).resources["Quill"] == 1
    assert "Discipline 1" in kit.body(kit.tracker(table.channel))  # the class's word, on the tracker too
    text = kit.ok(await table.director.slash(table.channel, "malice spend", amount=1))
    assert "gains" not in text
    assert (await kit.stored(table)).resources["Quill"] == 1


async def test_a_malice_ability_used_in_a_strike_gives_the_null_discipline(
    table: Table, cdn_server: CdnServer
) -> None:
    """A monster's ability with a Malice cost, used through /strike, is the Director using an ability that
    costs Malice: the strike's reply says Quill's gain."""
    await _fight(table, "Quill")
    await harm_kit.edit(table, lambda enc: add_monsters(enc, BOGLINGS["Bogling Stabber"], 1, "director")[0])
    kit.ok(await table.director.slash(table.channel, "malice gain", amount=5))
    text = kit.ok(
        await table.director.slash(
            table.channel, "strike", attacker="Bogling Stabber", ability="Mud Chains", targets="Quill"
        )
    )
    assert "😈 3 Malice spent" in text
    assert MALICE_GAIN in text


async def test_the_troubadour_gains_drama_on_a_natural_19_or_20(table: Table, cdn_server: CdnServer) -> None:
    """ "Whenever a creature within your line of effect rolls a natural 19 or 20": 3 Drama each time (the
    bot has no map, so line of effect is assumed), said in the strike's reply."""
    await _fight(table, "Lark")
    text = kit.ok(
        await table.director.slash(table.channel, "strike", attacker="Ogre", targets="Lark", damage="1/2/3")
    )
    assert "**Lark** gains 3 Drama (a natural 19 or 20): now 3." in text
    text = kit.ok(
        await table.director.slash(table.channel, "strike", attacker="Ogre", targets="Lark", damage="1/2/3")
    )
    assert "**Lark** gains 3 Drama (a natural 19 or 20): now 6." in text


async def test_the_troubadour_gains_drama_when_a_hero_is_first_winded_and_when_a_hero_dies(
    table: Table, cdn_server: CdnServer
) -> None:
    """ "The first time any hero is made winded during the encounter": 2 Drama, once an encounter;
    "When you or another hero dies": 10 Drama. Each said in the damage's reply."""
    await _fight(table, "Lark", "Quill")
    text = kit.ok(await table.director.slash(table.channel, "stamina damage", target="Quill", amount=14))
    assert "**Lark** gains 2 Drama (a hero became winded, the first time this encounter): now 2." in text
    text = kit.ok(await table.director.slash(table.channel, "stamina damage", target="Lark", amount=14))
    assert "gains" not in text  # Lark winded too: once an encounter
    text = kit.ok(await table.director.slash(table.channel, "stamina damage", target="Quill", amount=30))
    assert "**Lark** gains 10 Drama (a hero died): now 12." in text
    assert (await kit.stored(table)).resources["Lark"] == 12


async def test_a_sheet_imported_before_the_bot_knew_a_trigger_gains_by_it(table: Table) -> None:
    """A roster sheet keeps each gain's words: one stored as a trigger the bot didn't know then ("other") is
    read again from them, so the Null's Malice gain comes without importing the hero again."""
    kit.ok(await table.alice.slash(table.channel, "hero create", name="Vey", stamina=24, recoveries=8))
    words = "The first time each combat round that the Director uses an ability that costs Malice"

    def change(t: StoreTable) -> Change[None]:
        hero = t.hero_named("Vey")
        assert hero is not None
        old = ResourceGain(GainTrigger.OTHER, "1", words)
        put_sheet(
            hero, dataclasses.replace(sheet_of(hero), resource_name="Discipline", resource_gains=(old,))
        )
        return Change("setup", None)

    await table.store.mutate(ChannelKey(table.guild.id, table.channel.id), table.director.id, "setup", change)
    await kit.start(table)
    kit.ok(await table.alice.slash(table.channel, "encounter hero", name="Vey"))
    await kit.add(table, name="Ogre", stamina=60, side="director")
    await kit.begin(table)
    text = kit.ok(await table.director.slash(table.channel, "malice spend", amount=1))
    assert "**Vey** gains 1 Discipline (the Director used an ability that costs Malice" in text
