"""The Director's secrets in a montage and a negotiation, audited through SimCord: a montage (with imported
twists and outcome texts) and then a negotiation played to their close in one channel, and at each step
every public message, every player's log files (Markdown and JSON, while each runs and after) and every
autocomplete a player can trigger scanned for the texts that were never revealed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from discord import app_commands

from bot.rules.negotiation import Motivation
from tests.bot import encounter_kit as kit
from tests.bot import scene_kit
from tests.bot.conftest import Table
from tests.bot.files_kit import CdnServer, fixture
from tests.bot.roll_kit import Loaded, loaded
from tests.bot.test_negotiation import public_text

#: The montage's texts that must never show: the outcomes it doesn't reach, the imported twist.
FAILURE = "The sea takes them one by one."
DRAFT = "The tide rises over their heads."  # the failure's first text: the rewrite's undo data keeps it
PARTIAL = "You make it, but the packs are lost to the sea."  # the file's partial success
TWIST = ("Undertow", "dragged toward open water", "wide margin")
REACHED = "Everyone reaches the shore before dark."  # the file's total success: shown once reached
#: The negotiation's motivation and pitfall never revealed (greed is revealed by an argument).
HIDDEN = ("legacy", "peace")


@pytest.fixture
def dice() -> Loaded:
    return Loaded()


def leaked(text: str, montage_only: bool = False) -> list[str]:
    """The secrets `text` shows: the montage's as written, the negotiation's hidden traits as words."""
    found = [s for s in (FAILURE, DRAFT, PARTIAL, *TWIST) if s.casefold() in text.casefold()]
    if not montage_only:
        found += [w for w in HIDDEN if re.search(rf"\b{w}\b", text, re.IGNORECASE)]
    return found


async def log_files(table: Table, command: str, **options: Any) -> str:
    """A player's log of the channel's scene (the running one, else the last that ended), every file."""
    result = await table.alice.slash(table.channel, command, **options)
    message = result.response or result.followups[0]
    assert message.attachments, message.content
    return "\n".join([(await a.read()).decode() for a in message.attachments])


#: Every (command, option) of the bot that has an autocomplete, read from its command tree once.
_AUTOCOMPLETED: list[tuple[str, str]] = []


async def players_autocomplete(table: Table) -> str:
    """What every autocomplete of every command offers a player here, typed empty and with each secret's
    start: the labels and values, one a line. The negotiation's `motivation:` offers the twelve
    motivations whatever the NPC's: it is checked for its order and marks instead (they would tell)."""
    if not _AUTOCOMPLETED:
        for command in table.env.bot.tree.walk_commands():
            if isinstance(command, app_commands.Command):
                _AUTOCOMPLETED.extend(
                    (command.qualified_name, p.display_name) for p in command.parameters if p.autocomplete
                )
    assert ("montage test", "challenge") in _AUTOCOMPLETED and (
        "negotiation argue",
        "motivation",
    ) in _AUTOCOMPLETED
    lines = []
    for command, option in _AUTOCOMPLETED:
        for typed in ("", "u", "le", "pe"):
            offered = await table.alice.autocomplete(table.channel, command, option, typed)
            if (command, option) == ("negotiation argue", "motivation"):
                motivation_order(offered, typed)
                continue
            lines += [f"{command} {option}: {c['name']} = {c['value']}" for c in offered]
    return "\n".join(lines)


def motivation_order(offered: list[dict[str, Any]], typed: str) -> None:
    """A player's `motivation:` choices: the revealed ones first and marked so, then the rest of the twelve
    in their own order, unmarked (so the hidden ones are told by nothing)."""
    names = [c["name"] for c in offered]
    marked = [n for n in names if "(" in n]
    assert all(n.endswith("revealed)") for n in marked), names
    rest = [n for n in names if "(" not in n]
    assert rest == [m.value for m in Motivation if typed in m.value and m.value in rest], names


def scan(where: str, text: str, montage_only: bool = False) -> None:
    assert not leaked(text, montage_only), (where, leaked(text, montage_only), text)


#: What the autocompletes offer a player before any scene: the lists that hold every motivation's name
#: whatever runs (`/negotiation start`'s, `/help`'s) are told apart from what a scene adds.
_BEFORE: set[str] = set()


async def scan_all(table: Table, logs: tuple[tuple[str, dict[str, Any]], ...] = ()) -> None:
    scan("public messages", public_text(table.channel))
    offered = (await players_autocomplete(table)).splitlines()
    scan("autocomplete", "\n".join(line for line in offered if line not in _BEFORE))
    scan("autocomplete", "\n".join(offered), montage_only=True)
    for command, options in logs:
        scan(command, await log_files(table, command, **options))


async def montage(table: Table) -> None:
    kit.ok(await table.director.slash(table.channel, "montage start", name="Causeway", difficulty="easy"))
    imported = await table.director.slash(
        table.channel, "montage import", file=fixture("Flooded Causeway.ds-montage")
    )
    private = [m for m in imported.followups if m.ephemeral]
    assert private and "Undertow" in private[-1].content and PARTIAL in private[-1].content  # they exist
    for text in (DRAFT, FAILURE):
        written = await table.director.slash(
            table.channel, "montage outcome", result="total failure", text=text
        )
        assert written.response is not None and written.response.ephemeral
    await scan_all(table, (("montage log", {}),))

    loaded(table).load(6, 7, 10, 10)  # Ash assists Bree (tier 2: an edge), Bree reads the tide: success
    kit.ok(await table.alice.slash(table.channel, "montage assist", hero="Bree"))
    kit.ok(await table.bob.slash(table.channel, "montage test", challenge="Read the Tide"))
    mine = await table.director.slash(table.channel, "montage status")
    assert mine.response is not None and mine.response.ephemeral and FAILURE in (mine.response.content or "")
    theirs = await table.alice.slash(table.channel, "montage status")
    assert theirs.response is not None
    scan("a player's status", (theirs.response.content or "") + kit.body(theirs.response.message))
    await scan_all(table, (("montage log", {}),))

    loaded(table).load(10, 10)  # round 2: Ash wades across: the second success, a total success
    ended = kit.ok(
        await table.alice.slash(
            table.channel, "montage test", challenge="Wade the Shallows", characteristic="might"
        )
    )
    assert "Total success" in ended and REACHED in ended  # the outcome reached is shown, and only it
    kit.ok(await table.director.slash(table.channel, "montage award", victories=1, malice=1))
    await scan_all(table, (("montage log", {}), ("encounter log", {})))


async def negotiation(table: Table) -> None:
    kit.ok(await scene_kit.start_negotiation(table, "neutral", "greed, legacy", npc="Baron Vell"))
    await scan_all(table, (("negotiation log", {}),))
    mine = await table.director.autocomplete(table.channel, "negotiation argue", "motivation", "leg")
    assert [c["name"] for c in mine] == ["legacy (motivation, hidden)"]  # the Director's alone
    loaded(table).load(9, 8)  # Ash appeals to greed, tier 3: greed is revealed
    kit.ok(await table.alice.slash(table.channel, "negotiation argue", motivation="greed"))
    loaded(table).load(1, 2)  # Bree reads him badly: tier 1, nothing learned
    kit.ok(await table.bob.slash(table.channel, "negotiation discover"))
    loaded(table).load(5, 5)  # Ash argues with no motivation, lying: tier 1
    kit.ok(await table.alice.slash(table.channel, "negotiation argue", appeals="none", lie=True))
    theirs = await table.bob.slash(table.channel, "negotiation status")
    assert theirs.response is not None
    scan("a player's status", kit.body(theirs.response.message))
    await scan_all(table, (("negotiation log", {}),))
    kit.ok(await table.bob.slash(table.channel, "negotiation offer"))
    kit.ok(await table.director.slash(table.channel, "negotiation close", victories=0))
    await scan_all(table, (("negotiation log", {}), ("encounter log", {})))


async def test_no_secret_of_a_montage_or_a_negotiation_reaches_the_players(
    table: Table, cdn_server: CdnServer
) -> None:
    await table.configure_director_role()
    await scene_kit.heroes(table)
    _BEFORE.clear()
    _BEFORE.update((await players_autocomplete(table)).splitlines())
    await montage(table)
    await negotiation(table)
    # the montage's log, read by its number after the negotiation ran in the channel, still hides its secrets
    rows = await table.store.recent_encounters(table.channel.id, guild_id=table.guild.id, limit=5)
    [montage_id] = [r.id for r in rows if r.state.get("kind") == "montage"]
    scan(
        "the montage's log", await log_files(table, "encounter log", encounter=montage_id), montage_only=True
    )
