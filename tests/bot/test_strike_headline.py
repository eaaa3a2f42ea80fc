"""/strike's headline against its targets, `downgrade:`, and Charge, through SimCord.

Draw Steel, The Basics, "Power Rolls": one roll, each target its own edges and banes, so an edge or bane
that applies to every target (a restrained attacker's bane: Combat, "Restrained") belongs to the roll the
headline shows, and the headline never shows a tier no target got; "Downgrade a Power Roll": a creature may
take a lower tier's outcome; Combat, "Charge": move, then a melee free strike.
"""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules.encounter import Encounter
from tests.bot import ability_kit as kit
from tests.bot import harm_kit
from tests.bot.conftest import Table
from tests.bot.encounter_kit import ok, refused
from tests.bot.roll_kit import Loaded


@pytest.fixture
def dice() -> Loaded:
    return Loaded()


def defending(name: str):  # type: ignore[no-untyped-def]
    """The creature `name` has taken the Defend main action (ability rolls against it: a double bane)."""

    def change(enc: Encounter) -> Encounter:
        return dataclasses.replace(enc, defending=(*enc.defending, enc.entry_of(name).id))

    return change


async def restrained_brannoc(table: Table) -> None:
    ok(await table.director.slash(table.channel, "condition add", target="Brannoc", condition="restrained"))


async def test_a_bane_on_every_target_is_in_the_headline(table: Table, dice: Loaded) -> None:
    """The restrained Brannoc's bane applies to both targets: the headline shows it and the tier its total
    gives (Total 15, tier 2), never the bare roll's tier 3 that no target got; the Stabber's Defend adds its
    own double bane, shown on its line only."""
    await kit.start(table)
    await restrained_brannoc(table)
    await harm_kit.edit(table, defending("Bogling Stabber"))
    dice.load(9, 8)
    text = ok(
        await table.alice.slash(
            table.channel, "strike", targets="Bogling Brawler, Bogling Stabber", damage="2/4/6"
        )
    )
    lines = text.splitlines()
    assert lines[1] == "Dice: 9 + 8 · bane (−2) · Total: 15 · Tier 2"
    assert lines[2].startswith("**Bogling Brawler** — Tier 2: 4 damage")
    assert lines[3].startswith(
        "**Bogling Stabber** — Tier 2 (Total: 17, double bane (tier −1), Bogling Stabber is defending): "
    )
    assert "Tier 3" not in text


async def test_the_headline_leaves_out_a_tier_when_no_target_has_its_roll(table: Table, dice: Loaded) -> None:
    """Brannoc (restrained: a bane on all) strikes in melee a prone Brawler (an edge: net nothing, 17, tier
    3) and the defending Stabber (a double bane: tier 2): the headline has the shared bane and no tier."""
    await kit.start(table)
    await restrained_brannoc(table)
    ok(
        await table.director.slash(
            table.channel, "condition add", target="Bogling Brawler", condition="prone"
        )
    )
    await harm_kit.edit(table, defending("Bogling Stabber"))
    dice.load(9, 8)
    text = ok(
        await table.alice.slash(
            table.channel, "strike", targets="Bogling Brawler, Bogling Stabber", damage="2/4/6", melee=True
        )
    )
    lines = text.splitlines()
    assert lines[1] == "Dice: 9 + 8 · bane (−2) · Total: 15"
    assert lines[2].startswith("**Bogling Brawler** — Tier 3 (Total: 17): 6 damage")
    assert lines[3].startswith("**Bogling Stabber** — Tier 2 (Total: 17, double bane (tier −1)")


async def test_a_strike_downgrades_to_a_lower_tier(table: Table, dice: Loaded) -> None:
    """`downgrade: 2`: Crushing Blow's 19 (tier 3) takes tier 2's outcome, 9 damage and push 2 (the wyrm's
    stability 4 holds it); a roll already at or below tier 2 keeps its tier."""
    await kit.start(table)
    dice.load(9, 8)
    text = ok(
        await table.alice.slash(
            table.channel, "strike", ability="Crushing Blow", targets="Cinder Wyrm", downgrade=2
        )
    )
    lines = text.splitlines()
    assert lines[1] == "Dice: 9 + 8 · bonus +2 · Total: 19 · Tier 2 (downgraded from 3)"
    assert lines[2].startswith("**Cinder Wyrm** — Tier 2 (downgraded from tier 3): 9 damage")
    assert (await kit.current(table)).creature("Cinder Wyrm").vitals.stamina == 220 - 9
    dice.load(3, 3)
    low = ok(
        await table.bob.slash(table.channel, "strike", targets="Bogling Brawler", damage="3/6/9", downgrade=2)
    )
    assert low.splitlines()[1] == "Dice: 3 + 3 · Total: 6 · Tier 1"
    assert "downgraded" not in low


async def test_charge_strikes_with_the_melee_free_strike(table: Table, dice: Loaded) -> None:
    """`/strike ability:Charge`: Brannoc's Melee Weapon Free Strike (5/9/12 with his kit), a melee strike
    that uses his main action; a monster charges with its own Free Strike."""
    await kit.start(table)
    dice.load(9, 8)
    text = ok(await table.alice.slash(table.channel, "strike", ability="Charge", targets="Bogling Brawler"))
    lines = text.splitlines()
    assert lines[0] == (
        "⚔️ **Brannoc** charges and strikes with **Melee Weapon Free Strike** (5/9/12 damage · Might · kit "
        "+1/+2/+3)"
    )
    assert lines[1] == "Dice: 9 + 8 · bonus +2 · Total: 19 · Tier 3"
    assert lines[2].startswith("**Bogling Brawler** — Tier 3: 12 damage")
    monster = ok(
        await table.director.slash(
            table.channel, "strike", attacker="Bogling Brawler", ability="charge", targets="Marra"
        )
    )
    assert monster.startswith("⚔️ **Bogling Brawler** charges and strikes with **Free Strike**")


async def test_a_villain_action_without_a_roll_says_how_to_mark_it(table: Table) -> None:
    await kit.start(table)
    text = refused(
        await table.director.slash(
            table.channel, "strike", attacker="Cinder Wyrm", ability="Smoke Veil", targets="Brannoc"
        )
    )
    assert text == (
        "Smoke Veil has no power roll: apply its effect by hand and mark it used with /encounter villain use."
    )
    assert (await kit.current(table)).villains == {}
