"""Power rolls through real dispatch: a downgraded natural 19/20 test, `action` (a critical only
on a main action), `auto_tier` as a list, `situation` by name on /roll and /strike, and /turn defend and
/turn aid applied to strikes and shown on the tracker while they last."""

from __future__ import annotations

import discord
import pytest
from simcord.results import ResponseMessage

from tests.bot import encounter_kit as kit
from tests.bot import harm_kit
from tests.bot.conftest import Table
from tests.bot.roll_kit import LoadedDice, description, reply


@pytest.fixture
def dice() -> LoadedDice:
    return LoadedDice()


def notes(message: ResponseMessage) -> str:
    (embed,) = message.embeds
    return next((f.value or "" for f in embed.fields if f.name == "Notes"), "")


def tracker_text(table: Table) -> str:
    message: discord.Message = kit.tracker(table.channel)
    embed = message.embeds[0]
    return "\n".join([embed.description or "", *(f.value or "" for f in embed.fields)])


# --- /roll ------------------------------------------------------------------------------------------------
async def test_a_downgraded_natural_19_test_takes_the_lower_tiers_outcome(
    table: Table, dice: LoadedDice
) -> None:
    """Draw Steel, The Basics, "Downgrade a Power Roll": "you can downgrade it to select the outcome of a
    lower tier" — a hard test rolled as a natural 19 and downgraded to tier 2 fails."""
    dice.load(10, 9)
    shown = reply(await table.alice.slash(table.channel, "roll", kind="test", difficulty="hard"))
    assert "success with a reward (hard)" in shown.content
    edited = reply(await table.alice.click(shown.message, label="Downgrade to tier 2"))
    assert "Tier 2" in description(edited) and "Result: failure (hard)" in description(edited)
    assert "success with a reward" not in edited.content
    assert "the lower tier's outcome is chosen" in notes(edited)


@pytest.mark.parametrize(
    ("action", "critical"),
    [(None, True), ("main", True), ("triggered", False), ("free-strike", False), ("maneuver", False)],
)
async def test_roll_action_a_critical_only_on_a_main_action(
    table: Table, dice: LoadedDice, action: str | None, critical: bool
) -> None:
    """Draw Steel, The Basics, "Natural Roll": a natural 19 or 20 is always tier 3, and "on certain types of
    power rolls, this is a critical hit": a main action's; not a free strike's or a triggered action's."""
    dice.load(10, 10)
    options = {"action": action} if action is not None else {}
    shown = reply(await table.alice.slash(table.channel, "roll", **options))
    assert "Tier 3" in description(shown)
    assert ("Critical" in description(shown)) is critical
    assert ("Critical" in shown.content) is critical
    if not critical:
        assert f"no critical hit, which needs a main action ({action})" in notes(shown)
        downgraded = reply(await table.alice.click(shown.message, label="Downgrade to tier 2"))
        assert "Critical" not in downgraded.content  # the action travels with the buttons


async def test_roll_action_is_for_ability_rolls(table: Table) -> None:
    result = await table.alice.slash(table.channel, "roll", kind="test", action="triggered")
    assert result.ephemeral and "kind:ability" in reply(result).content


@pytest.mark.parametrize(
    ("auto", "faces", "tier", "note"),
    [
        ("3,1", (1, 1), 1, "they cancel"),
        ("3, 3", (1, 1), 3, "Automatic outcome: tier 3"),
        ("1,2", (9, 9), 3, "they cancel"),
    ],
)
async def test_roll_names_automatic_tiers_from_several_effects(
    table: Table, dice: LoadedDice, auto: str, faces: tuple[int, int], tier: int, note: str
) -> None:
    """Draw Steel, The Basics, "Automatic Tier Outcomes": "If you are under multiple effects that each grant
    you a different automatic outcome, those effects cancel each other out and all automatic outcomes are
    ignored." """
    dice.load(*faces)
    shown = reply(await table.alice.slash(table.channel, "roll", auto_tier=auto))
    assert f"Tier {tier}" in description(shown)
    assert note in notes(shown)


async def test_roll_situations_by_name(table: Table, dice: LoadedDice) -> None:
    """Draw Steel, Combat, "Flanking" ("you gain an edge on melee strikes against them") and "High Ground"
    ("they gain an edge on the power roll against that target"): two edges make a double edge."""
    dice.load(5, 5)
    shown = reply(await table.alice.slash(table.channel, "roll", situation="flanking, high ground"))
    lines = description(shown)
    assert "Modifiers: flanking (edge), high ground (edge), double edge (tier +1)" in lines
    assert "Total: 10" in lines and "Tier 2" in lines
    edited = reply(await table.alice.click(shown.message, label="Downgrade to tier 1"))
    assert "flanking (edge), high ground (edge)" in "\n".join(description(edited))


async def test_roll_situation_refused_where_its_text_does_not_apply(table: Table) -> None:
    """Draw Steel, Combat, "Flanking": "an edge on melee strikes" — not on a test; being squeezed does
    apply to tests ("your ability rolls and tests take a bane")."""
    refused = await table.alice.slash(table.channel, "roll", kind="test", situation="flanking")
    assert refused.ephemeral and "not tests" in reply(refused).content
    unknown = await table.alice.slash(table.channel, "roll", situation="ambush")
    assert unknown.ephemeral and "flanking, high ground" in reply(unknown).content


async def test_squeezed_test(table: Table, dice: LoadedDice) -> None:
    dice.load(6, 6)
    shown = reply(await table.alice.slash(table.channel, "roll", kind="test", situation="squeezed"))
    assert "Modifiers: squeezed (bane), bane (−2)" in description(shown)
    assert "Total: 10" in description(shown)


# --- /strike ----------------------------------------------------------------------------------------------
async def test_strike_action_situations_and_automatic_tiers(table: Table, dice: LoadedDice) -> None:
    """A free strike's natural 19 is tier 3 and no critical ("Natural Roll"); cover gives a bane on a
    damage-dealing ability ("Cover"), shown by name; automatic tiers that differ cancel."""
    await kit.ready(table)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    dice.load(10, 9)
    text = await harm_kit.strike(
        table, table.alice, targets="Goblin 1", damage="1/2/3", action="free-strike", situation="cover"
    )
    assert "Tier 3" in text and "Critical" not in text
    assert "Situations: cover (bane)" in text
    dice.load(1, 1)  # the free strike used Ash's main action: this one is a triggered action
    text = await harm_kit.strike(
        table, table.alice, targets="Goblin 2", damage="1/2/3", auto_tier="3,2", action="triggered"
    )
    assert "Tier 1" in text


async def test_strike_flanking_needs_a_melee_strike(table: Table, dice: LoadedDice) -> None:
    """Draw Steel, Combat, "Flanking": "you gain an edge on melee strikes against them"."""
    await kit.ready(table)
    dice.load(5, 5)
    refused = await table.alice.slash(
        table.channel, "strike", targets="Goblin 1", damage="1/2/3", situation="flanking"
    )
    assert refused.ephemeral and "melee:true" in reply(refused).content
    dice.load(5, 5)
    text = await harm_kit.strike(
        table, table.alice, targets="Goblin 1", damage="1/2/3", situation="flanking", melee=True
    )
    assert "Situations: flanking (edge)" in text and "Total: 12" in text and "Tier 2" in text


# --- /turn defend, /turn aid ------------------------------------------------------------------------------
async def test_defend_and_aid_attack_apply_to_strikes_and_show_on_the_tracker(
    table: Table, dice: LoadedDice
) -> None:
    """Draw Steel, Combat, "Defend": "ability rolls made against them have a double bane until the start of
    their next turn"; "Aid Attack": "The next ability roll an ally makes against that enemy before the start
    of the aiding creature's next turn gains an edge." """
    await kit.ready(table)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    defended = kit.ok(await table.alice.slash(table.channel, "turn defend"))
    assert "**Ash** defends" in defended and "double bane" in defended
    aided = kit.ok(await table.alice.slash(table.channel, "turn aid", target="Goblin 1"))
    assert "**Ash** aids the attack on **Goblin 1**" in aided
    shown = tracker_text(table)
    assert "🛡️ defending" in shown and "🤝 aiding vs Goblin 1" in shown
    kit.ok(await table.alice.slash(table.channel, "turn end"))

    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    dice.load(6, 6)
    text = await harm_kit.strike(table, table.director, targets="Ash", damage="1/2/3", attacker="Goblin 1")
    # the only target's double bane is the roll's: the headline shows it, the target's line says why
    assert "Dice: 6 + 6 · double bane (tier −1) · Total: 12 · Tier 1" in text
    assert "**Ash** — Tier 1 (Ash is defending)" in text
    kit.ok(await table.director.slash(table.channel, "turn end"))

    kit.ok(await table.bob.slash(table.channel, "turn act", combatant="Bree"))
    dice.load(5, 5)
    text = await harm_kit.strike(table, table.bob, targets="Goblin 1", damage="1/2/3")
    assert "Dice: 5 + 5 · edge (+2) · Total: 12 · Tier 2" in text
    assert "**Goblin 1** — Tier 2 (aided by Ash)" in text
    shown = tracker_text(table)
    assert "aiding vs" not in shown and "🛡️ defending" in shown  # the aid is spent; Defend lasts
    kit.ok(await table.bob.slash(table.channel, "turn end"))
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 2"))
    kit.ok(await table.director.slash(table.channel, "turn end"))  # round 2 begins
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    assert "defending" not in tracker_text(table)  # the start of Ash's next turn


async def test_defend_and_aid_refusals(table: Table) -> None:
    await kit.ready(table)
    off_turn = await table.alice.slash(table.channel, "turn defend", combatant="Ash")
    assert off_turn.ephemeral and "/turn act" in reply(off_turn).content
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    not_mine = await table.bob.slash(table.channel, "turn defend", combatant="Ash")
    assert not_mine.ephemeral
    ally = await table.alice.slash(table.channel, "turn aid", target="Bree")
    assert ally.ephemeral and "chooses an enemy" in reply(ally).content
