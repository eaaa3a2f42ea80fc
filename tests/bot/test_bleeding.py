"""Dying, bleeding and waking through SimCord: a dying hero bleeds (shown on the tracker, not removable), a
bleeding creature's main action, triggered action or Might or Agility roll costs it 1d6 + its level Stamina
in the same reply (undone with the rest), and healing wakes a knocked-out creature."""

from __future__ import annotations

import pytest

from bot.rules.dice import Dice, FixedDice
from bot.rules.encounter import NewCreatures
from exts.tracker._views import creature_line
from tests.bot import encounter_kit as kit
from tests.bot import harm_kit
from tests.bot.conftest import Table
from tests.bot.test_heroes import create


@pytest.fixture
def dice() -> Dice:
    # every d10 and d6 a test makes: 5 (a /strike: 5 + 5, tier 1; a bleeding d6: 5)
    return FixedDice([5] * 60)


async def test_a_dying_hero_is_bleeding_and_it_cant_be_removed(table: Table) -> None:
    """Draw Steel, Combat, "Dying and Death": "Additionally, you are bleeding, and this instance of the
    condition can't be negated or removed in any way until you are no longer dying." """
    await harm_kit.start(table)
    await table.director.slash(table.channel, "stamina damage", target="Ash", amount=30)

    enc = await harm_kit.current(table)
    line = creature_line(enc, enc.entry_of("Ash"), enc.creature("Ash"), False, 0)
    assert "bleeding (while dying)" in line
    removal = await table.director.slash(
        table.channel, "condition remove", target="Ash", condition="bleeding"
    )
    assert removal.ephemeral and removal.response is not None
    assert "bleeds because they are dying" in removal.response.content

    await table.director.slash(table.channel, "stamina heal", target="Ash", amount=5)
    enc = await harm_kit.current(table)
    assert "bleeding" not in creature_line(enc, enc.entry_of("Ash"), enc.creature("Ash"), False, 0)


async def test_a_bleeding_hero_loses_stamina_after_a_strike_in_the_same_reply(table: Table) -> None:
    """ "whenever a bleeding creature uses a main action ... it loses Stamina equal to 1d6 + its
    level once that is resolved. ... The bot rolls and applies it, shown in the same reply, and it can be
    undone with the rest." """
    await harm_kit.start(table)
    await table.director.slash(table.channel, "stamina damage", target="Ash", amount=30)

    result = await table.alice.slash(table.channel, "strike", targets="Goblin 1", damage="3/6/9")

    assert result.response is not None and not result.ephemeral
    text = result.response.content
    assert "**Goblin 1** — Tier 1: 3 damage" in text
    assert "🩸 **Ash** bleeds: loses 6 Stamina (d6 5 + level 1) · Stamina: -6/30 · dying" in text
    enc = await harm_kit.current(table)
    assert enc.creature("Ash").vitals.stamina == -6 and enc.creature("Goblin 1").vitals.stamina == 7
    await table.director.slash(table.channel, "encounter undo")
    enc = await harm_kit.current(table)
    assert enc.creature("Ash").vitals.stamina == 0 and enc.creature("Goblin 1").vitals.stamina == 10


async def test_a_might_roll_makes_a_bleeding_hero_bleed(table: Table) -> None:
    """ "... or makes a test or ability roll using Might or Agility"; a Reason roll doesn't."""
    kit.ok(await create(table, table.alice, name="Vex", characteristics="M2 A1 R0 I0 P0"))  # 30 Stamina
    await harm_kit.start(table, (NewCreatures("Goblin", 10, "director"),))
    kit.ok(await table.alice.slash(table.channel, "encounter hero", name="Vex"))
    kit.ok(await table.director.slash(table.channel, "condition add", target="Vex", condition="bleeding"))

    reason = await table.alice.slash(table.channel, "roll", characteristic="reason", kind="test")
    assert reason.response is not None and "bleeds" not in (reason.response.content or "")
    might = await table.alice.slash(table.channel, "roll", characteristic="might", kind="test")
    assert might.response is not None
    assert "🩸 **Vex** bleeds: loses 6 Stamina (d6 5 + level 1) · Stamina: 24/30" in (
        might.response.content or ""
    )
    assert (await harm_kit.current(table)).creature("Vex").vitals.stamina == 24


async def test_stamina_bleed_for_what_the_bot_cant_see(table: Table) -> None:
    await harm_kit.start(table)
    refused = await table.director.slash(table.channel, "stamina bleed", target="Ogre")
    assert refused.ephemeral and refused.response is not None and "isn't bleeding" in refused.response.content
    kit.ok(await table.director.slash(table.channel, "condition add", target="Ogre", condition="bleeding"))
    result = await table.director.slash(
        table.channel, "stamina bleed", target="Ogre", trigger="triggered-action"
    )
    assert result.response is not None and not result.ephemeral
    assert result.response.content == "🩸 **Ogre** bleeds: loses 6 Stamina (d6 5 + level 1) · Stamina: 14/20"


async def test_healing_wakes_a_knocked_out_creature(table: Table) -> None:
    """Draw Steel, Combat, "Knocking Creatures Out": unconscious "if no one does anything to wake them";
    `/stamina heal` now does, as `/stamina set` did."""
    await harm_kit.start(table)
    await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=12, knock_out=True)
    enc = await harm_kit.current(table)
    assert enc.creature("Goblin 1").vitals.knocked_out and enc.turns.entry("Goblin 1").unconscious  # type: ignore[union-attr]

    healed = await table.director.slash(table.channel, "stamina heal", target="Goblin 1", amount=3)

    assert healed.response is not None and not healed.ephemeral
    enc = await harm_kit.current(table)
    goblin = enc.creature("Goblin 1").vitals
    assert not goblin.knocked_out and goblin.stamina == 3
    entry = enc.turns.entry("Goblin 1")
    assert entry is not None and not entry.unconscious


async def test_stamina_wake_after_an_hour(table: Table) -> None:
    """Draw Steel, Combat, "Knocking Creatures Out": "They then gain 1 Stamina and are no longer
    unconscious." """
    await harm_kit.start(table)
    await table.director.slash(table.channel, "stamina damage", target="Ogre", amount=25, knock_out=True)
    woken = await table.director.slash(table.channel, "stamina wake", target="Ogre")
    assert woken.response is not None and not woken.ephemeral
    assert woken.response.content.startswith("**Ogre** wakes up · Stamina: 1/20")
    again = await table.director.slash(table.channel, "stamina wake", target="Ogre")
    assert again.ephemeral
