"""`/roll` over Discord's wire protocol: the production bot (real discord.py HTTP and gateway) against the
loopback fake Discord of tests/wire, in-process so the dice can be forced.

What a client reading the raw messages sees: the contract labels in the content and the embed, the Downgrade
button answered with response type 7 (the message edited in place), raw option values outside the declared
ranges and choices answered with one ephemeral line, and a button pressed after the bot process was replaced
by a new one on the same database.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.rules.dice import FixedDice
from tests.wire.fake_discord import EPHEMERAL, FakeMember
from tests.wire.in_process_kit import WITHIN, answered, bot_running, wire

INTEGER, STRING = 4, 3


def embed_text(message: dict[str, Any]) -> list[str]:
    (embed,) = message["embeds"]
    return str(embed.get("description", "")).splitlines()


def custom_ids(message: dict[str, Any]) -> dict[str, str]:
    return {c["label"]: c["custom_id"] for row in message["components"] for c in row["components"]}


async def test_roll_downgrade_and_a_press_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with wire(tmp_path, monkeypatch) as live:
        fake = live.fake
        alice: FakeMember = fake.member("alice")
        async with bot_running(live, FixedDice([10, 9])):
            sent = await fake.slash("roll", {"bonus": 2, "tiers": "2 damage; 5 damage; 7 damage"}, user=alice)
            body = await answered(fake, sent)
            assert body["type"] == 4 and not int(body["data"].get("flags") or 0) & EPHEMERAL
            content = body["data"]["content"]
            for label in ("Dice: 10 + 9", "Total: 21", "Tier 3", "Critical"):
                assert label in content
            message_id = fake.interactions[sent].response_message_id
            assert message_id is not None
            message = fake.messages[message_id]
            assert {"Dice: 10 + 9", "Total: 21", "Tier 3", "Critical"} <= set(embed_text(message))

            other = await fake.click(
                message, custom_ids(message)["Downgrade to tier 2"], user=fake.member("dana")
            )
            refusal = await answered(fake, other)
            assert refusal["type"] == 4 and int(refusal["data"]["flags"]) & EPHEMERAL
            assert "Tier 3" in fake.messages[message_id]["content"]

        # A new bot process on the same database: the button still works, its roll read from the store.
        await fake.wait_until(lambda: not fake.sessions, within=WITHIN)
        async with bot_running(live, FixedDice([])):
            pressed = await fake.click(message, custom_ids(message)["Downgrade to tier 2"], user=alice)
            update = await answered(fake, pressed)
            assert update["type"] == 7
            edited = fake.messages[message_id]
            assert "Tier 2" in edited["content"] and "Critical" in edited["content"]
            lines = embed_text(edited)
            assert (
                "Tier 2" in lines and "Downgraded from tier 3" in lines and "Outcome: **5 damage**" in lines
            )
            assert list(custom_ids(edited)) == ["Downgrade to tier 1"]


@pytest.mark.parametrize(
    ("option", "kind", "value", "hint"),
    [
        ("edges", INTEGER, -1, "edges:1"),
        ("auto_tier", STRING, "4", "auto_tier:3"),
        ("characteristic", STRING, "charisma", "might, agility, reason, intuition or presence"),
        ("label", STRING, "x" * 101, "label:"),
    ],
)
async def test_raw_values_outside_the_declared_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str, kind: int, value: Any, hint: str
) -> None:
    async with wire(tmp_path, monkeypatch) as live, bot_running(live, FixedDice([5, 5])):
        fake = live.fake
        sent = await fake.slash("roll", raw_options=[{"name": option, "type": kind, "value": value}])
        body = await answered(fake, sent)
        assert body["type"] == 4
        assert int(body["data"]["flags"]) & EPHEMERAL
        text = body["data"]["content"]
        assert hint in text and "\n" not in text
        assert not body["data"].get("embeds") and not body["data"].get("components")
