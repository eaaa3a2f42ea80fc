"""The tracker through a whole encounter played with the real commands (/encounter, /turn, /stamina,
/condition): posted by /encounter start, edited in place by every change, its controls carrying the stored
version, reposted by /encounter status, a final summary without controls at the end."""

from __future__ import annotations

import discord

from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table
from tests.bot.encounter_kit import body, last_posted


def trackers(table: Table) -> list[discord.Message]:
    return [
        m for m in table.channel.history() if m.embeds and (m.embeds[0].title or "").startswith(("⚔️", "🏁"))
    ]


def line_of(message: discord.Message, name: str) -> str:
    return next(line for line in body(message).splitlines() if f"**{name}**" in line)


def custom_ids(message: discord.Message) -> list[str]:
    ids: list[str] = []
    for row in message.components:
        if isinstance(row, discord.ActionRow):
            ids += [c for c in (getattr(item, "custom_id", None) for item in row.children) if c]
    return ids


async def shows_the_stored_version(table: Table, message: discord.Message) -> None:
    """The tracker's controls carry the channel's current version, so a press on it is never stale; the
    embed shows no "Version N" footer (the version stays inside the buttons' ids)."""
    stored = await table.store.view(kit.key(table))
    assert stored.encounter is not None
    assert message.embeds[0].footer.text is None
    ids = custom_ids(message)
    assert ids and all(i.split(":")[3].split("~")[0] == str(stored.version) for i in ids), ids


async def test_one_tracker_follows_the_whole_encounter(table: Table) -> None:
    await kit.start(table)
    [tracker] = trackers(table)  # the start itself posts it
    await kit.add_party(table)
    await kit.begin(table, first="heroes")
    [same] = trackers(table)
    assert same.id == tracker.id
    text = body(same)
    assert "Round 1" in text and "Picks now: Heroes" in text and "May act: Ash, Bree" in text
    assert "**Goblin 1** ██████████ Stamina: 10/10" in text and "Malice: 3" in text
    await shows_the_stored_version(table, same)

    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=18))
    kit.ok(
        await table.director.slash(
            table.channel,
            "condition add",
            target="Ash",
            condition="frightened",
            duration="eot",
            source="Goblin 1",
        )
    )
    [now] = trackers(table)
    assert now.id == tracker.id
    ash = line_of(now, "Ash")
    assert ash.startswith("▶️") and "████░░░░░░ Stamina: 12/30 winded" in ash
    assert "frightened (Goblin 1, EoT)" in ash
    assert "Acting: Ash" in body(now)
    await shows_the_stored_version(table, now)

    kit.ok(await table.alice.slash(table.channel, "turn end"))
    [now] = trackers(table)
    assert line_of(now, "Ash").startswith("✅") and "frightened" not in line_of(now, "Ash")  # EoT ended
    assert "Picks now: Director" in body(now)
    await shows_the_stored_version(table, now)

    status = await table.alice.slash(table.channel, "encounter status")
    assert status.ephemeral
    [moved] = trackers(table)
    assert moved.id != tracker.id and last_posted(table.channel).id == moved.id
    await shows_the_stored_version(table, moved)

    confirm = await table.director.slash(table.channel, "encounter end")
    assert confirm.response is not None
    end_id = confirm.response.components[0]["components"][0]["custom_id"]
    kit.ok(await table.director.click(confirm.response, custom_id=end_id))
    [final] = trackers(table)
    assert final.id == moved.id
    assert (final.embeds[0].title or "").startswith("🏁") and final.components == []
    assert "Encounter over" in body(final) and "Ash (Stamina: 12/30 winded)" in body(final)
