"""Through SimCord: the My hero card for a player arriving late (the tracker's My hero button and /hero me):
what happened to their creatures since each one's last turn, their Stamina, conditions and heroic resource,
what they may do now (the abilities their resource affords, whether they are dying), seen only by them and
about their own creatures only."""

from __future__ import annotations

from typing import Any

from simcord.results import InteractionResult

from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table
from tests.bot.files_kit import CdnServer, fixture


def card(result: InteractionResult) -> str:
    """The card's text (title and description), asserting it is seen only by the one who asked."""
    message: Any = result.response
    assert message is not None and message.ephemeral, result
    (embed,) = message.embeds
    return f"{embed.title}\n{embed.description}"


async def test_the_card_tells_what_happened_since_your_last_turn(table: Table) -> None:
    """Ash takes her turn; then the goblins hurt her and slow her, and Bree is hurt too: alice's My hero
    press shows Ash's Stamina, her condition, the two changes since her turn (not what happened before it,
    not Bree's), that she has acted this round."""
    await kit.ready(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=2))  # before
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=5))
    kit.ok(
        await table.director.slash(
            table.channel, "condition add", target="Ash", condition="slowed", duration="save"
        )
    )
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Bree", amount=3))
    text = card(await table.alice.click(kit.tracker(table.channel), label="My hero"))
    assert text.startswith("🛡️ My hero: Ash")
    assert "Stamina: 23/30" in text and "(winded)" not in text
    assert "Conditions: slowed (save ends)" in text
    assert "Since your last turn__ (2):" in text
    assert "Ash takes 5 damage" in text and "slowed" in text
    assert "2 damage" not in text and "Bree" not in text
    assert "you have acted this round" in text


async def test_only_your_own_creatures_and_a_stranger_is_told_how_to_join(table: Table) -> None:
    """Bob's card is Bree's alone; a member with no creature in the encounter gets one line saying how to
    bring a hero in."""
    await kit.ready(table)
    text = card(await table.bob.slash(table.channel, "hero me"))
    assert "Bree" in text and "Ash" not in text
    assert "your turn is still to come this round" in text
    cy = table.add_player("cy")
    refusal = kit.refused(await cy.slash(table.channel, "hero me"))
    assert refusal == "You have no creature in this encounter: bring your hero in with /encounter hero."


async def test_the_card_lists_the_abilities_you_can_afford_and_says_you_are_dying(
    table: Table, cdn_server: CdnServer
) -> None:
    """Brannoc (Rage 0) can use his signature Crushing Blow; Sweep Back (3) and Blood Price (5) not yet. At 0
    Stamina he is dying: the card says he bleeds, can't Catch Breath and when he dies."""
    kit.ok(await table.alice.slash(table.channel, "hero import", file=fixture("Brannoc.ds-hero")))
    await kit.start(table)
    kit.ok(await table.alice.slash(table.channel, "encounter hero", name="Brannoc"))
    await kit.add(table, name="Ogre", stamina=60, side="director")
    await kit.begin(table)
    text = card(await table.alice.slash(table.channel, "hero me"))
    assert "Rage: 0" in text
    assert "You can use: Crushing Blow" in text
    assert "Not yet (0 Rage): Sweep Back (3), Blood Price (5)" in text
    assert "Dying" not in text
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Brannoc", amount=31))
    text = card(await table.alice.slash(table.channel, "hero me"))
    assert "💀 **Dying**: you are bleeding and can't Catch Breath" in text
    assert "You die at -15 Stamina" in text
