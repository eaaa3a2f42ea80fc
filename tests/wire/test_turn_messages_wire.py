"""A turn change over the wire is one message that says each thing once: the production bot in-process
against the loopback fake Discord, an encounter of 74 creatures (four heroes of three players, 70 goblins).

Turns are played past the point where the channel has scrolled (`REPOST_AFTER`), and the channel is read as
Discord would show it: each turn's start and end is one public message (the interaction's reply; no ping
posted of its own), each creature is named at most once in it and each member mentioned at most once; no
tracker is reposted and no "pinned a message" notice is left between them (the one for the pinned tracker
was deleted); the pinged pick line links to the tracker.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.rules import codec
from bot.rules.dice import FixedDice, SeededDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, new_encounter_state
from bot.rules.turns import Controller, choose_first, determine_first, next_round
from bot.store import Change, ChannelKey, Table
from exts.tracker import _service as tracker_module
from tests.wire.fake_discord import EPHEMERAL, FakeDiscord, FakeMember, Json
from tests.wire.in_process_kit import WITHIN, Wire, bot_running, wire

HEROES = (("Ash", "alice"), ("Brim", "bob"), ("Cass", "cy"), ("Dara", "alice"))
GOBLINS = 70
NAMES = tuple(name for name, _ in HEROES) + tuple(f"Goblin {n}" for n in range(1, GOBLINS + 1))
PINNED_NOTICE = 6  # Discord's CHANNEL_PINNED_MESSAGE system message


def _state(owners: dict[str, int]) -> dict[str, Any]:
    """The heroes and the goblins, the heroes going first, round 1 started."""
    encounter: Encounter = new_encounter_state()
    for name, player in HEROES:
        hero = NewCreatures(name, 30, "heroes", is_hero=True, owner_id=owners[player], recoveries=8)
        encounter, _ = add_creatures(encounter, hero)
    for number in range(1, GOBLINS + 1):
        encounter, _ = add_creatures(encounter, NewCreatures(f"Goblin {number}", 15, "director"))
    turns = determine_first(encounter.turns, FixedDice([10])).state
    turns = next_round(choose_first(turns, "heroes", Controller.PLAYERS).state).state
    data: dict[str, Any] = codec.to_data(encounter.with_turns(turns))
    return data


async def _seed(live: Wire, key: ChannelKey, director: FakeMember, owners: dict[str, int]) -> None:
    state = _state(owners)

    def change(table: Table) -> Change[None]:
        table.begin_encounter("The long fight", director.user.id, state)
        return Change("Encounter started", None)

    await live.store.mutate(key, director.user.id, "encounter.start", change)


async def _say(
    fake: FakeDiscord, user: FakeMember, command: str, sub: str, **options: Any
) -> tuple[int, Json]:
    """`/command sub options` as `user`: the interaction id and its public reply."""
    raw = [{"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()]
    sent = await fake.slash(command, raw_options=[{"name": sub, "type": 1, "options": raw}], user=user)
    callback = await fake.wait_for_callback(sent, within=WITHIN)
    assert callback.json["type"] == 4, callback.json  # answered at once: one message
    data: Json = callback.json["data"]
    assert not int(data.get("flags") or 0) & EPHEMERAL, data.get("content")
    return sent, data


def _named(text: str, name: str) -> int:
    """How often `name` is named in `text` ("Goblin 7" is not "Goblin 70")."""
    return len(re.findall(rf"(?<![\w]){re.escape(name)}(?![\w])", text))


def _said_once(text: str) -> None:
    for name in NAMES:
        assert _named(text, name) <= 1, (name, text)
    mentions = re.findall(r"<@&?\d+>", text)
    assert len(mentions) == len(set(mentions)), text


def _channel_messages(fake: FakeDiscord, channel_id: int) -> list[Json]:
    return [m for m in fake.messages.values() if m["channel_id"] == str(channel_id)]


async def _tracker_ready(fake: FakeDiscord, channel_id: int) -> Json:
    """The tracker, once posted, pinned and its pin notice deleted."""

    def ready() -> Json | None:
        messages = _channel_messages(fake, channel_id)
        if any(m["type"] == PINNED_NOTICE for m in messages):
            return None
        return next((m for m in messages if m.get("pinned")), None)

    tracker: Json = await fake.wait_until(ready, within=WITHIN)
    return tracker


async def test_each_turn_change_is_one_message_naming_each_creature_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tracker_module, "REPOST_AFTER", 3)  # the channel has scrolled after three replies
    monkeypatch.setattr(tracker_module, "EDIT_GAP", 0.0)
    async with wire(tmp_path, monkeypatch) as live:
        fake = live.fake
        channel = fake.guild.channel
        members = {m.user.username: m for m in fake.guild.members}
        members.update({name: fake.add_member(name) for name in ("bob", "cy")})
        dana = members["dana"]
        owners = {name: members[name].user.id for name in ("alice", "bob", "cy")}
        await _seed(live, ChannelKey(fake.guild.id, channel.id), dana, owners)
        async with bot_running(live, SeededDice(5)):
            await _say(fake, dana, "malice", "gain", amount=1)  # a change: the tracker is posted
            tracker = await _tracker_ready(fake, channel.id)
            mark = len(fake.requests)
            turns = [(members[player], name) for name, player in HEROES]
            goblins = [(dana, f"Goblin {n}") for n in range(1, 5)]
            played = [who for pair in zip(turns, goblins, strict=True) for who in pair]
            sent: list[int] = []
            ends: list[str] = []
            for member, name in played:
                started, start = await _say(fake, member, "turn", "act", combatant=name)
                ended, end = await _say(fake, member, "turn", "end")
                _said_once(start["content"])
                _said_once(end["content"])
                sent += [started, ended]
                ends.append(end["content"])
            skipped, skip = await _say(fake, dana, "turn", "skip")  # the round ends: round 2 begins
            sent.append(skipped)
            _said_once(skip["content"])
            _check_pick_lines([*ends, skip["content"]], tracker, channel.id, fake.guild.id, members)
            assert "Round 2 begins" in skip["content"] and "Malice" in skip["content"]
            _check_channel(fake, channel.id, tracker, sent, mark)


def _check_pick_lines(
    texts: Sequence[str], tracker: Json, channel_id: int, guild_id: int, members: dict[str, FakeMember]
) -> None:
    """Who picks is said once, last, pinging the side in that same line, linked to the tracker."""
    link = f"https://discord.com/channels/{guild_id}/{channel_id}/{tracker['id']}"
    for text in texts:
        [pick] = [line for line in text.splitlines() if "Next:" in line]
        assert pick == text.splitlines()[-1] and link in pick, text
        assert "pick who acts" not in text.replace(pick, "") and "Who may act now" not in text
    director = f"<@{members['dana'].user.id}>"
    assert texts[0].splitlines()[-1].startswith(f"{director} Next: the Director picks who acts")
    assert "and 60 more" in texts[0]  # 70 goblins: ten named, the rest counted, cut in one place
    heroes = texts[1].splitlines()[-1]  # after Goblin 1: Brim (bob), Cass (cy), Dara (alice) may act
    for player in ("alice", "bob", "cy"):
        assert f"<@{members[player].user.id}>" in heroes
    assert "**Brim** (Stamina: 30/30)" in heroes and "Ash" not in heroes


def _check_channel(fake: FakeDiscord, channel_id: int, tracker: Json, sent: list[int], mark: int) -> None:
    """One public message per interaction; nothing else posted meanwhile: no tracker repost, no ping of its
    own, no pin notice."""
    messages = _channel_messages(fake, channel_id)
    for interaction in sent:
        made = [m for m in messages if (m.get("interaction_metadata") or {}).get("id") == str(interaction)]
        assert len(made) == 1, made
    later = fake.requests[mark:]
    posts = [r for r in later if r.method == "POST" and r.path == f"/channels/{channel_id}/messages"]
    assert posts == []  # the tracker stays where it is (pinned), and every ping rode in its reply
    assert not [r for r in later if "/pins/" in r.path]
    assert not [m for m in messages if m["type"] == PINNED_NOTICE]
    assert fake.messages[int(tracker["id"])]["pinned"]
