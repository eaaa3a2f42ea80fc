"""Dice damage through SimCord: a card's tier that rolls dice ("2d6 + 11 + A damage", the Shadow's Coup de
Grâce) and `/strike damage:2d6+3` are rolled with the bot's dice when the strike is applied; the reply shows
each die and the total, the event log keeps the rolled value and undo takes back exactly that."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules.ability import Ability, ActionType, PowerRollSpec
from bot.rules.characteristics import Characteristic
from bot.rules.encounter import Encounter
from tests.bot import ability_kit as kit
from tests.bot import harm_kit
from tests.bot.conftest import Table
from tests.bot.encounter_kit import ok, refused
from tests.bot.roll_kit import Loaded

COUP_DE_GRACE = Ability(
    "Coup de Grâce",
    ActionType.MAIN,
    ("Melee", "Ranged", "Strike", "Weapon"),
    cost=0,
    power_roll=PowerRollSpec(
        (Characteristic.AGILITY,),
        ("2d6 + 7 + A damage", "2d6 + 11 + A damage", "2d6 + 16 + A damage"),
    ),
)


@pytest.fixture
def dice() -> Loaded:
    return Loaded()


def with_coup_de_grace(enc: Encounter) -> Encounter:
    brannoc = enc.creature("Brannoc")
    return enc.with_creature(dataclasses.replace(brannoc, abilities=(*brannoc.abilities, COUP_DE_GRACE)))


async def summaries(table: Table) -> list[str]:
    view = await table.store.view(harm_kit.key(table))
    assert view.encounter is not None and view.encounter.id is not None
    return [e.summary for e in await table.store.events(view.encounter.id, guild_id=table.guild.id)]


async def test_a_dice_tier_is_rolled_and_undo_takes_back_the_rolled_damage(
    table: Table, dice: Loaded
) -> None:
    """Brannoc (A1; his Wolfpelt kit adds +2 at tier 2) rolls 6 + 6 + A1 = 13, tier 2; the damage dice
    roll 3 and 5: 3 + 5 + 11 + 1 + 2 = 22 damage to the Cinder Wyrm."""
    await kit.start(table)
    await harm_kit.edit(table, with_coup_de_grace)
    before = await kit.current(table)
    dice.load(6, 6, 3, 5)
    text = ok(
        await table.alice.slash(table.channel, "strike", ability="Coup de Grâce", targets="Cinder Wyrm")
    )
    lines = text.splitlines()
    assert (
        lines[0]
        == "⚔️ **Brannoc** uses **Coup de Grâce** (2d6+9/2d6+14/2d6+20 damage · Agility · kit +1/+2/+3)"
    )
    assert lines[1] == "Dice: 6 + 6 · bonus +1 · Total: 13 · Tier 2"
    assert lines[2] == "🎲 Tier 2 damage: 2d6 [3, 5] + 14 = 22"
    assert "22 damage" in lines[3]
    after = await kit.current(table)
    assert after.creature("Cinder Wyrm").vitals.stamina == 220 - 22
    logged = (await summaries(table))[-1]
    assert "Cinder Wyrm (tier 2, rolled 2d6 [3, 5] + 14 = 22): 22 damage" in logged

    dice.load(1, 1)  # were undo to roll again, it would find these
    undone = ok(await table.alice.slash(table.channel, "encounter undo"))
    assert r"rolled 2d6 \[3, 5\] + 14 = 22" in undone  # the summary, Markdown escaped
    assert await kit.current(table) == before


async def test_strike_damage_takes_dice(table: Table, dice: Loaded) -> None:
    """`/strike damage:2d6+3`: the same dice damage at every tier, rolled as the strike is applied (Ash's
    7 + 9 = 16, tier 2; the dice 4 and 6: 13 fire damage, less the Ogre's fire immunity 5)."""
    await harm_kit.start(table)
    dice.load(7, 9, 4, 6)
    text = ok(await table.alice.slash(table.channel, "strike", targets="Ogre", damage="2d6+3", type="fire"))
    lines = text.splitlines()
    assert lines[0] == "⚔️ **Ash** strikes (2d6+3/2d6+3/2d6+3)"
    assert lines[2] == "🎲 Tier 2 damage: 2d6 [4, 6] + 3 = 13"
    assert lines[3].startswith("**Ogre** — Tier 2: 8 fire damage (of 13: fire immunity 5)")
    assert (await harm_kit.current(table)).creature("Ogre").vitals.stamina == 20 - 8
    assert "Ogre (tier 2, rolled 2d6 [4, 6] + 3 = 13): 8 fire damage" in (await summaries(table))[-1]


@pytest.mark.parametrize("damage", ["2d6+", "2d6 3", "30d6", "2d6+3/4"])
async def test_a_bad_dice_damage_gets_a_one_line_hint(table: Table, damage: str) -> None:
    await harm_kit.start(table)
    before = await harm_kit.current(table)
    text = refused(await table.alice.slash(table.channel, "strike", targets="Ogre", damage=damage))
    assert "2d6+3" in text and "\n" not in text
    assert await harm_kit.current(table) == before
