"""/encounter and /turn over Discord's wire protocol (the loopback fake of tests/wire), the production bot in
process: raw subcommand payloads, the tracker posted with the bot token, a click on its End turn button, and
the pick ping's allowed mentions as sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.wire.fake_discord import EPHEMERAL, FakeDiscord
from tests.wire.in_process_kit import WITHIN, running


def sub(subcommand: str, /, **options: Any) -> list[dict[str, Any]]:
    types = {str: 3, int: 4, bool: 5}
    return [
        {
            "name": subcommand,
            "type": 1,
            "options": [{"name": k, "type": types[type(v)], "value": v} for k, v in options.items()],
        }
    ]


async def answer(fake: FakeDiscord, interaction_id: int) -> dict[str, Any]:
    """The interaction's first answer: the callback's message data, or the first followup after a deferral."""
    callback = await fake.wait_for_callback(interaction_id, within=WITHIN)
    assert isinstance(callback.json, dict)
    if callback.json["type"] in (4, 7):
        data: dict[str, Any] = callback.json["data"]
        return data
    [followup] = await fake.wait_for_followup(interaction_id, within=WITHIN)
    return followup


async def test_an_encounter_over_the_wire(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(tmp_path, monkeypatch) as fake:
        director, alice = fake.member("owner"), fake.member("alice")

        async def run(user: Any, group: str, subcommand: str, **options: Any) -> dict[str, Any]:
            return await answer(
                fake, await fake.slash(group, raw_options=sub(subcommand, **options), user=user)
            )

        started = await run(director, "encounter", "start", mode="draw-steel", name="Wire fight")
        assert "Wire fight" in started["content"] and not int(started.get("flags") or 0) & EPHEMERAL
        await run(alice, "encounter", "add", name="Ash", stamina=30)  # a player's own hero
        await run(director, "encounter", "add", name="Goblin", stamina=10, count=2)
        bad = await run(director, "encounter", "add", name="Orc", stamina=-3)
        assert int(bad.get("flags") or 0) & EPHEMERAL and "Stamina must be" in bad["content"]
        begun = await run(director, "encounter", "begin", first="director")
        assert "Round 1 begins" in begun["content"]
        acting = await run(director, "turn", "act", combatant="Goblin 1")
        assert "**Goblin 1** starts their turn" in acting["content"]

        def tracker() -> dict[str, Any] | None:
            found = [
                m
                for m in fake.messages.values()
                if m["embeds"] and str(m["embeds"][0].get("title", "")).startswith("⚔️") and m["components"]
            ]
            return max(found, key=lambda m: int(m["id"])) if found else None

        def end_button() -> str | None:
            message = tracker()
            if message is None:
                return None
            ids = [c.get("custom_id", "") for row in message["components"] for c in row["components"]]
            live = [i for i in ids if i.startswith("enc:end:")]
            enabled = [
                c
                for row in message["components"]
                for c in row["components"]
                if c.get("custom_id") in live and not c.get("disabled")
            ]
            return enabled[0]["custom_id"] if enabled else None

        custom_id = await fake.wait_until(end_button, within=WITHIN)
        message = tracker()
        assert message is not None
        refused = await answer(fake, await fake.click(message, custom_id, user=alice))
        assert int(refused.get("flags") or 0) & EPHEMERAL and "Only the Director" in refused["content"]
        ended = await answer(fake, await fake.click(message, custom_id, user=director))
        assert "Goblin 1**'s turn ends" in ended["content"]
        # the side that picks next is pinged in the reply itself, and only its member
        assert "pick who acts" in ended["content"]
        allowed = ended["allowed_mentions"]
        assert allowed["parse"] == [] and [int(u) for u in allowed["users"]] == [alice.user.id]
        assert not allowed.get("roles")
