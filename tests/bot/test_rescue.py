"""The hero token that saves a hero through SimCord: a damage reply that makes a hero dying or dead carries
"Spend 2 hero tokens: regain N first" for the hero's player (and the tracker carries it until the hero's
next turn starts); pressing it re-applies the damage after the regain as one undoable event, even after
other changes; it is refused to anyone but the hero's player or the Director."""

from __future__ import annotations

import discord
from simcord.results import InteractionResult

from tests.bot import encounter_kit as kit
from tests.bot import harm_kit
from tests.bot.conftest import Table

LABEL = "Spend 2 hero tokens: regain 10 first"


def labels(result: InteractionResult) -> list[str]:
    """The labels of the buttons on a reply."""
    assert result.response is not None
    return [item["label"] for row in result.response.components for item in row.get("components", [])]


def tracker_labels(message: discord.Message) -> list[str]:
    out: list[str] = []
    for row in message.components:
        if isinstance(row, discord.ActionRow):
            out += [getattr(item, "label", None) or "" for item in row.children]
    return out


async def start(table: Table, tokens: int = 2) -> None:
    await table.configure_director_role()  # hero tokens are a server Director's to award
    await harm_kit.start(table)
    if tokens:
        kit.ok(await table.director.slash(table.channel, "tokens award", count=tokens))
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=20))  # 10 left


async def test_the_button_regains_first_then_takes_the_damage(table: Table) -> None:
    """Draw Steel, The Basics, "Spending Hero Tokens": "You can spend 2 hero tokens on your turn or when you
    take damage (no action required) to regain Stamina equal to your Recovery value before taking the damage."
    """
    await start(table)

    hit = await table.director.slash(table.channel, "stamina damage", target="Ash", amount=12)

    assert hit.response is not None
    assert "Stamina: -2/30 · dying" in hit.response.content
    assert labels(hit) == [LABEL]
    assert LABEL in tracker_labels(
        kit.tracker(table.channel)
    )  # the tracker offers it too, for this change's window

    refused = await table.bob.click(hit.response.message, label=LABEL)
    assert (
        refused.ephemeral and refused.response is not None and "Only Ash's player" in refused.response.content
    )

    pressed = await table.alice.click(hit.response.message, label=LABEL)
    assert pressed.response is not None and not pressed.ephemeral
    assert pressed.response.content == (
        "🛡️ **Ash** spends 2 hero tokens and regains 10 Stamina before the damage · Stamina: 8/30 · winded "
        "(was -2) · Hero tokens left: 0"
    )
    enc = await harm_kit.current(table)
    assert enc.creature("Ash").vitals.stamina == 8 and enc.rescues == ()
    assert LABEL not in tracker_labels(kit.tracker(table.channel))

    again = await table.alice.click(hit.response.message, label=LABEL)
    assert again.ephemeral and again.response is not None and "over" in again.response.content

    kit.ok(await table.director.slash(table.channel, "encounter undo"))  # one event: tokens and Stamina
    enc = await harm_kit.current(table)
    stored = await table.store.view(harm_kit.key(table))
    assert enc.creature("Ash").vitals.stamina == -2 and stored.tokens == 2


async def test_open_after_other_changes(table: Table) -> None:
    """Play by post: the player answers after other changes; the offer is still theirs."""
    await start(table)
    hit = await table.director.slash(
        table.channel, "strike", targets="Ash", damage="12/12/12", attacker="Ogre"
    )
    assert hit.response is not None and labels(hit) == [LABEL]
    kit.ok(await table.director.slash(table.channel, "malice gain", amount=1))

    late = await table.alice.click(hit.response.message, label=LABEL)

    assert not late.ephemeral and late.response is not None and "Stamina: 8/30" in late.response.content
    assert (await harm_kit.current(table)).creature("Ash").vitals.stamina == 8


async def test_no_button_without_two_hero_tokens_or_when_the_hero_stands(table: Table) -> None:
    await start(table, tokens=1)
    hit = await table.director.slash(table.channel, "stamina damage", target="Ash", amount=12)
    assert hit.response is not None and labels(hit) == []
    kit.ok(await table.director.slash(table.channel, "tokens award", count=1))
    light = await table.director.slash(table.channel, "stamina damage", target="Bree", amount=3)
    assert labels(light) == []
