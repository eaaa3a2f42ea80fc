"""The tracker over Discord's wire protocol: the production bot (real discord.py HTTP and gateway) against the
loopback fake Discord of tests/wire, in-process.

What a client reading the raw requests sees: the tracker posted with the bot token (`POST
/channels/{id}/messages`, never an interaction webhook) after the interaction was answered, later changes as
`PATCH` of that same message, the same message edited by a new bot process on the same database, a deleted
tracker (404) replaced by a new message, and no request that could ping anybody.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.rules.dice import FixedDice
from bot.store import ChannelKey
from tests.wire.fake_discord import FakeDiscord, FakeMember, Recorded
from tests.wire.harness import seed_encounters
from tests.wire.in_process_kit import WITHIN, Wire, bot_running, wire


@contextlib.asynccontextmanager
async def seeded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Wire]:
    """`wire` with the harness's encounter in the first guild's channel, dana its Director."""
    async with wire(tmp_path, monkeypatch) as live:
        guild = live.fake.guild
        dana, alice = live.fake.member("dana"), live.fake.member("alice")
        await seed_encounters(
            live.settings.database_url, [ChannelKey(guild.id, guild.channel.id)], dana.user.id, alice.user.id
        )
        yield live


async def gain(fake: FakeDiscord, amount: int) -> int:
    """`/malice gain amount:N` by the Director (the seeded encounter's director); the interaction id."""
    dana: FakeMember = fake.member("dana")
    sent = await fake.slash(
        "malice",
        raw_options=[
            {"name": "gain", "type": 1, "options": [{"name": "amount", "type": 4, "value": amount}]}
        ],
        user=dana,
    )
    callback = await fake.wait_for_callback(sent, within=WITHIN)
    assert callback.json["type"] == 4 and "Malice" in callback.json["data"]["content"]
    return sent


def tracker_request(channel_id: int, method: str, message_id: int | None = None) -> Any:
    path = f"/channels/{channel_id}/messages" + (f"/{message_id}" if message_id is not None else "")

    def matches(request: Recorded) -> bool:
        return request.method == method and request.path == path

    return matches


def description(request: Recorded) -> str:
    (embed,) = request.json["embeds"]
    return str(embed["description"])


async def test_posted_then_edited_then_edited_again_by_a_new_process_then_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with seeded(tmp_path, monkeypatch) as live:
        fake, store = live.fake, live.store
        channel_id = fake.guild.channel.id
        async with bot_running(live, FixedDice([])):
            await gain(fake, 2)
            post = await fake.wait_for_request(tracker_request(channel_id, "POST"), within=WITHIN)
            assert post.json["allowed_mentions"] == {"parse": []}
            assert "Malice: 2" in description(post) and "Picks now: Heroes" in description(post)
            (embed,) = post.json["embeds"]
            assert embed["title"] == "⚔️ Bench ambush"
            assert any("Stamina: 30/30" in field["value"] for field in embed["fields"])
            message_id = max(fake.messages)  # the tracker is the newest message
            assert fake.messages[message_id]["embeds"] == post.json["embeds"]

            mark = len(fake.requests)
            await gain(fake, 3)
            edit = await fake.wait_for_request(
                tracker_request(channel_id, "PATCH", message_id), within=WITHIN, after=mark
            )
            assert "Malice: 5" in description(edit) and edit.json["allowed_mentions"] == {"parse": []}

        # A new bot process on the same database edits the same message.
        await fake.wait_until(lambda: not fake.sessions, within=WITHIN)
        async with bot_running(live, FixedDice([])):
            mark = len(fake.requests)
            await gain(fake, 1)
            edit = await fake.wait_for_request(
                tracker_request(channel_id, "PATCH", message_id), within=WITHIN, after=mark
            )
            assert "Malice: 6" in description(edit)

            # Somebody deleted the tracker: the next change posts a new one (and the store remembers it).
            del fake.messages[message_id]
            mark = len(fake.requests)
            await gain(fake, 1)
            repost = await fake.wait_for_request(
                tracker_request(channel_id, "POST"), within=WITHIN, after=mark
            )
            assert "Malice: 7" in description(repost)
            found = await store.view(ChannelKey(fake.guild.id, channel_id))
            assert found.encounter is not None and found.encounter.id is not None
            (posted,) = [  # the bot-token message left in the channel (the replies are the interactions')
                int(i)
                for i, m in fake.messages.items()
                if m["channel_id"] == str(channel_id) and m.get("webhook_id") is None
            ]
            for _ in range(int(WITHIN / 0.05)):  # the id is stored just after the post
                info = await store.find_encounter(found.encounter.id, guild_id=fake.guild.id)
                if info is not None and info.tracker_message_id == posted:
                    break
                await asyncio.sleep(0.05)
            assert info is not None and info.tracker_message_id == posted
        posts = [r for r in fake.requests if tracker_request(channel_id, "POST")(r)]
        assert len(posts) == 2
        assert not any(r.method == "PATCH" and r.path.startswith("/webhooks/") for r in fake.requests)
