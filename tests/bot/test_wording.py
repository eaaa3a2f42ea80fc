"""The words of the turn replies and pings, through the real commands on SimCord: the Director
is one person, so the Director *picks*, *skips*, *chooses* and *goes* first; the heroes and the players
*pick*."""

from __future__ import annotations

import re
from typing import Any

import pytest
from simcord.env import Env

from bot.client import DrawSteelBot
from bot.rules.power import PowerRollError, RollAction
from exts.turn._views import does
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table
from tests.bot.roll_kit import Loaded


@pytest.fixture
def dice() -> Loaded:
    """Loaded results first, then 5s (the d10 for who goes first comes first)."""
    return Loaded()


@pytest.mark.parametrize(
    ("subject", "verb", "said"),
    [
        ("the Director", "pick", "the Director picks"),
        ("the Director", "skip", "the Director skips"),
        ("the Director", "choose", "the Director chooses"),
        ("the Director", "go", "the Director goes"),
        ("team Red", "pick", "team Red picks"),
        ("the heroes", "pick", "the heroes pick"),
        ("the players", "choose", "the players choose"),
    ],
)
def test_the_verb_agrees_with_who_does_it(subject: str, verb: str, said: str) -> None:
    """ "the Director **picks** who acts", "the Director **skips**", "the Director **chooses** which side goes
    first"."""
    assert does(subject, verb) == said


async def test_the_director_picks_and_skips_in_the_replies_and_the_ping(table: Table) -> None:
    """After a hero's turn: "Next: the Director picks who acts", once, the ping in front; the Director's
    skip says "the Director skips the rest of their turns"."""
    await kit.ready(table)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    text = kit.ok(await table.alice.slash(table.channel, "turn end"))
    assert text.count("picks who acts") == 1  # said once, the ping in front
    assert "Next: the Director picks who acts" in kit.pings(table)[-1][0]
    assert "the Director pick " not in text
    text = kit.ok(await table.director.slash(table.channel, "turn skip"))
    assert "the Director skips the rest of their turns this round" in text
    assert "Next: the heroes pick who acts" in text


async def test_the_director_chooses_which_side_goes_first_and_goes_first(table: Table, dice: Loaded) -> None:
    """The d10 won by the Director: "the Director chooses which side goes first" (reply, ping and a player's
    refused press), then "The Director goes first"."""
    await kit.start(table)
    await kit.add_party(table)
    dice.load(3)
    result = await table.director.slash(table.channel, "encounter begin")
    assert "the Director chooses which side goes first" in kit.ok(result)
    assert "the Director chooses which side goes first" in kit.pings(table)[-1][0]
    assert result.response is not None
    shown = result.response.message
    text = kit.refused(await table.alice.click(shown, label="Heroes go first"))
    assert text.startswith("The Director chooses which side goes first")
    text = kit.ok(await table.director.click(shown, label="Director goes first"))
    assert "The Director goes first." in text


async def test_the_director_picks_a_fast_turn(table: Table) -> None:
    """Fast/slow: once the players wait for the slow turns, "Next: the Director picks a fast turn"."""
    await kit.start(table, mode="fast-slow")
    await kit.add_party(table)
    await kit.begin(table, first=None)
    kit.ok(await table.alice.slash(table.channel, "turn skip"))
    text = kit.ok(await table.bob.slash(table.channel, "turn skip"))
    assert "Next: the Director picks a fast turn" in text
    assert "the Director picks a fast turn" in kit.pings(table)[-1][0]


async def test_a_turn_start_says_only_what_is_not_available_in_the_books_words(table: Table) -> None:
    """Draw Steel, Combat, "Free Maneuvers", "Triggered Actions and Free Triggered Actions": a fresh turn says
    nothing of its actions; a dazed hero's names what dazed takes away, as the book names it ("free
    maneuver", never "free-maneuver")."""
    await kit.ready(table)
    fresh = kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    assert fresh.splitlines() == ["▶️ **Ash** starts their turn — round 1."]
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    kit.ok(await table.director.slash(table.channel, "turn end"))
    kit.ok(
        await table.director.slash(
            table.channel, "condition add", target="Bree", condition="dazed", duration="save"
        )
    )
    dazed = kit.ok(await table.bob.slash(table.channel, "turn act", combatant="Bree"))
    assert "Not available now: free maneuver, triggered action, free triggered action." in dazed
    assert "can still use" not in dazed
    said = [m.content for m in table.channel.history()]
    assert not [text for text in said if "free-maneuver" in text or "free-triggered" in text]


#: Action names as the code spells them (the book says free maneuver, free triggered action, free strike).
CODE_WORDS = re.compile(r"free-(maneuver|triggered|strike)", re.IGNORECASE)


async def test_commands_help_and_refusals_say_the_books_action_names(table: Table, simcord_env: Env) -> None:
    """Every command's and option's description and every choice's name as Discord shows them, /help's
    pages, and the refusal of an action a roll can't be made as: "free strike", never "free-strike"."""
    bot = simcord_env.bot
    assert isinstance(bot, DrawSteelBot)
    shown: list[str] = []

    def walk(payload: dict[str, Any]) -> None:
        shown.append(payload.get("description") or "")
        shown.extend(choice["name"] for choice in payload.get("choices") or [])
        for option in payload.get("options") or []:
            walk(option)

    for command in bot.tree.get_commands():
        walk(command.to_dict(bot.tree))
    strike = bot.tree.get_command("strike")
    assert strike is not None
    (action,) = [o for o in strike.to_dict(bot.tree)["options"] if o["name"] == "action"]
    assert "free strike" in [choice["name"] for choice in action["choices"]]
    helped = await table.alice.slash(table.channel, "help")
    for message in [m for m in (helped.response, *helped.followups) if m is not None]:
        shown += [kit.body(message)] if message.embeds else [message.content]
    with pytest.raises(PowerRollError) as refused:  # what a typed action that isn't one is told
        RollAction.from_text("dash")
    assert "free strike" in str(refused.value)
    assert not [text for text in [*shown, str(refused.value)] if CODE_WORDS.search(text)]
