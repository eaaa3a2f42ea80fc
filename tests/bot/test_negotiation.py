"""A negotiation through SimCord: /negotiation start with hidden motivations and pitfalls, heroes' arguments
and discovery, the Director's one-click reveal and the lie's extra Interest, the offer, the close with
Victories; the import of a Forge Steel file, undo, a restart mid-way, the setting that shows words, and the
hidden information kept out of every public message, the tracker, the log and the players' autocomplete."""

from __future__ import annotations

import re

import discord
import pytest
from simcord import ChannelHandle

from bot.settings import Settings
from bot.store import ChannelKey, Store
from tests.bot import encounter_kit as kit
from tests.bot import scene_kit
from tests.bot.conftest import Table, build_bot
from tests.bot.files_kit import CdnServer, fixture
from tests.bot.roll_kit import Loaded, loaded
from tests.rules.test_negotiation import ATTITUDE_TABLE

HIDDEN = ("greed", "legacy", "peace")


@pytest.fixture
def dice() -> Loaded:
    return Loaded()


def trackers(channel: ChannelHandle) -> list[discord.Message]:
    return [
        m for m in channel.history() if m.embeds and (m.embeds[0].title or "").startswith("Negotiation with")
    ]


def named(text: str, words: tuple[str, ...] = HIDDEN) -> set[str]:
    return {w for w in words if re.search(rf"\b{w}\b", text, re.IGNORECASE)}


def public_text(channel: ChannelHandle) -> str:
    """Everything the channel shows everyone: every message's content and embeds, and its buttons."""
    parts = []
    for message in channel.history():
        parts.append(message.content or "")
        if message.embeds:
            parts.append(kit.body(message) + "\n" + (message.embeds[0].footer.text or ""))
        parts += kit.labels(message)
    return "\n".join(parts)


async def heroes(table: Table) -> None:
    await scene_kit.heroes(table, ash="P2 I0", bree="P0 I1")


async def ready(table: Table) -> None:
    await table.configure_director_role()
    await heroes(table)
    started = await scene_kit.start_negotiation(table, "neutral", "greed, legacy", npc="Baron Vell")
    assert started.response is not None and not started.response.ephemeral
    assert "Baron Vell" in started.response.content and not named(started.response.content)
    (mine,) = started.followups
    assert mine.ephemeral and named(kit.body(mine.message)) == set(HIDDEN)  # the Director's view


async def test_a_whole_negotiation(table: Table, store: Store) -> None:
    await ready(table)
    [tracker] = trackers(table.channel)
    assert "Interest\n2/5" in kit.body(tracker) and "Patience\n3/5" in kit.body(tracker)

    loaded(table).load(9, 8)  # Ash appeals to greed: 17 + P2, tier 3: Interest +1, Patience +0
    text = kit.ok(await table.alice.slash(table.channel, "negotiation argue", motivation="greed"))
    assert "appeals to a motivation: greed" in text and "Tier 3" in text and "Interest 3/5" in text

    loaded(table).load(10, 9)  # Bree reads him: natural 19, tier 3: the Director picks what is revealed
    shown = await table.bob.slash(table.channel, "negotiation discover")
    assert shown.response is not None and "Tier 3" in shown.response.content
    message = shown.response.message
    assert kit.labels(message) == ["Director: pick what is revealed"]
    kit.refused(await table.bob.click(message, label="Director: pick what is revealed"))
    pick = await table.director.click(message, label="Director: pick what is revealed")
    assert pick.response is not None and pick.response.ephemeral
    assert kit.labels(pick.response.message) == ["Motivation: legacy", "Pitfall: peace"]
    revealed = kit.ok(await table.director.click(pick.response.message, label="Pitfall: peace"))
    assert "pitfall is revealed: **peace**" in revealed
    kit.refused(await table.director.click(message, label="Director: pick what is revealed"))  # one only

    # legacy is still hidden: nowhere public, not in the players' log, not marked in their autocomplete
    assert named(public_text(table.channel)) == {"greed", "peace"}
    log = await table.alice.slash(table.channel, "negotiation log")
    files = (log.response or log.followups[0]).attachments
    assert files
    for attachment in files:
        assert "legacy" not in (await attachment.read()).decode()
    offered = await table.alice.autocomplete(table.channel, "negotiation argue", "motivation", "")
    assert [c["name"] for c in offered[:2]] == ["greed (motivation, revealed)", "peace (pitfall, revealed)"]
    assert "legacy" in [c["name"] for c in offered]  # one of the twelve, unmarked
    theirs = await table.director.autocomplete(table.channel, "negotiation argue", "motivation", "leg")
    assert [c["name"] for c in theirs] == ["legacy (motivation, hidden)"]

    loaded(table).load(3, 3)  # Ash lies with no motivation: 6 + 2, tier 1: Interest −1, Patience −1
    lied = await table.alice.slash(table.channel, "negotiation argue", appeals="none", lie=True)
    assert lied.response is not None and "Interest 2/5, Patience 2/5" in lied.response.content
    kit.refused(
        await table.alice.click(lied.response.message, label="Director: caught lying, take 1 more Interest")
    )
    taken = kit.ok(
        await table.director.click(
            lied.response.message, label="Director: caught lying, take 1 more Interest"
        )
    )
    assert "now 1/5" in taken

    loaded(table).load(10, 10)  # Ash appeals to legacy: tier 3, a motivation not yet used
    text = kit.ok(await table.alice.slash(table.channel, "negotiation argue", motivation="legacy"))
    assert "appeals to a motivation: legacy" in text and "Interest 2/5, Patience 2/5" in text

    asked = await table.bob.slash(table.channel, "negotiation offer")
    offer = asked.followups[0] if asked.followups else asked.response
    assert offer is not None and "No, but…" in offer.content
    [tracker] = trackers(table.channel)
    assert "No, but…" in kit.body(tracker)
    refused = kit.refused(await table.bob.click(offer.message, label="Award 1 Victory each and close"))
    assert "Director" in refused
    closed = kit.ok(await table.director.click(offer.message, label="Award 1 Victory each and close"))
    assert "1 Victory each to Ash, Bree" in closed
    stored = await store.view(ChannelKey(table.guild.id, table.channel.id))
    assert stored.encounter is None or not stored.encounter.active
    assert {h.data["progress"]["victories"] for h in stored.heroes.values()} == {1}
    await kit.start(table)  # the channel is free again


async def test_it_ends_by_itself(table: Table) -> None:
    """ "The negotiation ends by itself when Interest reaches 0 or 5 or Patience reaches 0": a hostile NPC
    (Interest 1) hit on its pitfall is at 0: the offer "No, and…" is posted at once."""
    await table.configure_director_role()
    await heroes(table)
    kit.ok(await scene_kit.start_negotiation(table, "hostile"))
    loaded(table).load(10, 10)
    argued = await table.alice.slash(table.channel, "negotiation argue", motivation="peace")
    assert argued.response is not None and "touches a pitfall: peace" in argued.response.content
    (offer,) = argued.followups
    assert "No, and…" in offer.content and "Award 1 Victory each and close" in kit.labels(offer.message)
    refused = kit.refused(await table.alice.slash(table.channel, "negotiation argue", appeals="none"))
    assert "over" in refused


async def test_players_see_words_when_the_director_chooses(table: Table) -> None:
    await table.configure_director_role()
    kit.ok(await table.director.slash(table.channel, "settings", negotiation_numbers=False))
    await heroes(table)
    kit.ok(await scene_kit.start_negotiation(table, "open"))
    [tracker] = trackers(table.channel)
    assert "listening" in kit.body(tracker) and "3/5" not in kit.body(tracker)
    mine = await table.director.slash(table.channel, "negotiation status")
    assert mine.response is not None and mine.response.ephemeral and "3/5" in kit.body(mine.response.message)


async def test_the_tracker_follows_a_settings_change_at_once(table: Table) -> None:
    """Switching the setting shows on the running negotiation's tracker and the players' status without
    waiting for its next step."""
    await table.configure_director_role()
    await heroes(table)
    kit.ok(await scene_kit.start_negotiation(table, "open"))
    [tracker] = trackers(table.channel)
    assert "Interest\n3/5" in kit.body(tracker)
    kit.ok(await table.director.slash(table.channel, "settings", negotiation_numbers=False))
    [tracker] = trackers(table.channel)
    assert "listening" in kit.body(tracker) and "3/5" not in kit.body(tracker)
    theirs = await table.alice.slash(table.channel, "negotiation status")
    assert theirs.response is not None and "3/5" not in kit.body(theirs.response.message)
    kit.ok(await table.director.slash(table.channel, "settings", negotiation_numbers=True))
    [tracker] = trackers(table.channel)
    assert "Interest\n3/5" in kit.body(tracker)


async def test_import_undo_and_a_restart(
    table: Table, settings: Settings, store: Store, cdn_server: CdnServer
) -> None:
    await table.configure_director_role()
    await heroes(table)
    file = fixture("Reeve Halden.ds-negotiation")
    imported = await table.director.slash(table.channel, "negotiation import", file=file)
    message = imported.response or imported.followups[0]
    assert "Reeve Halden" in message.content and not named(message.content, ("greed", "freedom"))
    [tracker] = trackers(table.channel)
    assert "Patience\n4/5" in kit.body(tracker)

    loaded(table).load(1, 1)  # Ash argues with no motivation: tier 1: Interest −1, Patience −1
    kit.ok(await table.alice.slash(table.channel, "negotiation argue"))
    undone = kit.ok(await table.alice.slash(table.channel, "negotiation undo"))
    assert "Ash argued" in undone
    [tracker] = trackers(table.channel)
    assert "Interest\n2/5" in kit.body(tracker) and "Patience\n4/5" in kit.body(tracker)

    loaded(table).load(9, 8)  # Bree reads him: 17 + I1, tier 3
    shown = await table.bob.slash(table.channel, "negotiation discover")
    assert shown.response is not None

    restarted = Loaded()
    await table.env.restart_bot(build_bot(settings, store, restarted))
    restarted.load(9, 9)  # Ash appeals to higher authority: 18 + 2, tier 3
    text = kit.ok(await table.alice.slash(table.channel, "negotiation argue", motivation="higher authority"))
    assert "Interest 3/5, Patience 4/5" in text
    [again] = trackers(table.channel)
    assert again.id == tracker.id  # the same tracker, edited after the restart
    undone = kit.ok(await table.alice.slash(table.channel, "negotiation undo"))  # after the restart too
    assert "Ash argued" in undone
    [again] = trackers(table.channel)
    assert "Interest\n2/5" in kit.body(again)
    restarted.load(9, 9)
    kit.ok(await table.alice.slash(table.channel, "negotiation argue", motivation="higher authority"))
    # the discovery's button still works after the restart: the Director picks, one click reveals
    pick = await table.director.click(shown.response.message, label="Director: pick what is revealed")
    assert pick.response is not None and kit.labels(pick.response.message) == [
        "Motivation: greed",
        "Pitfall: freedom",
    ]
    revealed = kit.ok(await table.director.click(pick.response.message, label="Motivation: greed"))
    assert "motivation is revealed: **greed**" in revealed


async def test_refusals_are_one_line(table: Table) -> None:
    await heroes(table)
    refused = kit.refused(await table.alice.slash(table.channel, "negotiation argue"))
    assert "No negotiation is running here" in refused
    for command in ("negotiation status", "montage status"):  # not "No encounter": a scene's own words
        refused = kit.refused(await table.alice.slash(table.channel, command))
        assert refused.startswith(f"No {command.split()[0]} is running here"), refused
    refused = kit.refused(await scene_kit.start_negotiation(table, "open", "money"))
    assert "isn't a motivation" in refused
    kit.ok(await scene_kit.start_negotiation(table, "open"))
    refused = kit.refused(await table.bob.slash(table.channel, "negotiation argue", hero="Ash"))
    assert "Ash" in refused
    refused = kit.refused(await table.director.slash(table.channel, "encounter start"))
    assert "negotiation is already running" in refused


async def test_a_lie_at_the_end_changes_the_offer(table: Table) -> None:
    """ "A hero caught in a lie that didn't raise Interest may lose 1 more Interest": taken after the
    argument that ended the negotiation, the offer follows the new Interest and is posted again."""
    await table.configure_director_role()
    await heroes(table)
    kit.ok(await scene_kit.start_negotiation(table, "suspicious"))
    loaded(table).load(6, 6)  # 12 + P2, tier 2 with no motivation: Interest +0, Patience −1
    kit.ok(await table.alice.slash(table.channel, "negotiation argue", appeals="none"))
    loaded(table).load(6, 6)
    lied = await table.alice.slash(table.channel, "negotiation argue", appeals="none", lie=True)
    assert lied.response is not None
    (offer,) = lied.followups
    assert "run out of patience" in offer.content and "No, but…" in offer.content
    label = "Director: caught lying, take 1 more Interest"
    taken = await table.director.click(lied.response.message, label=label)
    assert taken.response is not None and "now 1/5" in taken.response.content
    (again,) = taken.followups
    assert "No." in again.content and "Award 1 Victory each and close" in kit.labels(again.message)


@pytest.mark.parametrize(("attitude", "interest", "patience"), ATTITUDE_TABLE)
async def test_the_attitude_sets_interest_and_patience(
    table: Table, attitude: str, interest: int, patience: int
) -> None:
    """ "/negotiation start npc: attitude: motivations: pitfalls: sets Interest and Patience from the attitude
    table" (the rules' table as the rules tests write it out, apart from the code)."""
    await table.configure_director_role()
    kit.ok(await scene_kit.start_negotiation(table, attitude))
    [tracker] = trackers(table.channel)
    assert f"Interest\n{interest}/5" in kit.body(tracker) and f"Patience\n{patience}/5" in kit.body(tracker)


async def test_a_natural_19_and_the_discovery_tiers(table: Table) -> None:
    """ "With no motivation or pitfall, a natural 19 or 20 costs no Patience"; discovering: "tier 1: Patience
    −1 and nothing learned; tier 2: nothing learned, no Patience lost" — through the commands."""
    await table.configure_director_role()
    await heroes(table)
    kit.ok(await scene_kit.start_negotiation(table, "friendly"))  # Interest 3, Patience 4
    loaded(table).load(10, 9)  # natural 19 + P2, no motivation: tier 3, Interest +1, no Patience lost
    text = kit.ok(await table.alice.slash(table.channel, "negotiation argue", appeals="none"))
    assert "a natural 19 costs no Patience" in text and "Interest 4/5, Patience 4/5" in text
    loaded(table).load(1, 2)  # Bree reads him: 3 + I1, tier 1
    text = kit.ok(await table.bob.slash(table.channel, "negotiation discover"))
    assert "Tier 1: nothing learned, Patience -1 (now 3/5)" in text
    loaded(table).load(6, 6)  # 12 + I1, tier 2
    text = kit.ok(await table.bob.slash(table.channel, "negotiation discover"))
    assert "Tier 2: nothing learned, no Patience lost" in text
    [tracker] = trackers(table.channel)
    assert "Patience\n3/5" in kit.body(tracker) and not named(kit.body(tracker))
