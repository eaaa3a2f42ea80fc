"""/strike and /stamina damage over Discord's wire protocol: the production bot (real discord.py HTTP and
gateway) against the loopback fake Discord of tests/wire, in-process so the dice can be forced.

What a client reading the raw callbacks sees: the contract labels (`Dice: 7 + 9`, `Total: 16`, `Tier 2`,
`Critical`, `Stamina: 4/10`) in the content, a subcommand with raw options, and bad raw values answered with
one ephemeral line that changes nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.play import encounter_of
from bot.rules import codec
from bot.rules.dice import FixedDice
from bot.rules.encounter import NewCreatures, add_creatures, new_encounter_state
from bot.store import Change, ChannelKey, Store, Table
from tests.wire.fake_discord import EPHEMERAL, FakeDiscord
from tests.wire.in_process_kit import answered, bot_running, wire

SUBCOMMAND, STRING, INTEGER = 1, 3, 4


@contextlib.asynccontextmanager
async def running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, faces: list[int]
) -> AsyncIterator[tuple[FakeDiscord, Store, ChannelKey]]:
    """A fake Discord, a store with an encounter in the first guild's channel, and the bot connected."""
    async with wire(tmp_path, monkeypatch) as live:
        fake, store = live.fake, live.store
        key = ChannelKey(fake.guild.id, fake.guild.channel.id)
        state = new_encounter_state()
        alice = fake.member("alice")
        for spec in (
            NewCreatures("Ash", 30, "heroes", is_hero=True, owner_id=alice.user.id),
            NewCreatures("Goblin", 10, "director", count=2),
        ):
            state, _ = add_creatures(state, spec)

        def start(table: Table) -> Change[None]:
            table.begin_encounter("Ambush", fake.member("dana").user.id, codec.to_data(state))
            return Change("Encounter started", None)

        await store.mutate(key, fake.member("dana").user.id, "encounter.start", start)
        # these replies show the goblins' numbers: a server that chose to show them
        await store.update_settings(fake.guild.id, show_monster_stamina=True)
        async with bot_running(live, FixedDice(faces)):
            yield fake, store, key


async def test_strike_labels_on_the_wire(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(tmp_path, monkeypatch, [7, 9, 10, 9]) as (fake, store, key):
        sent = await fake.slash(
            "strike", {"targets": "Goblin 1", "damage": "3/6/9"}, user=fake.member("alice")
        )
        body = await answered(fake, sent)
        crit = await fake.slash(
            "strike", {"targets": "Goblin 2", "damage": "3/6/10"}, user=fake.member("alice")
        )
        critical = await answered(fake, crit)

        assert body["type"] == 4 and not int(body["data"].get("flags") or 0) & EPHEMERAL
        for label in ("Dice: 7 + 9", "Total: 16", "Tier 2", "Stamina: 4/10"):
            assert label in body["data"]["content"]
        assert "Critical" not in body["data"]["content"]
        for label in ("Dice: 10 + 9", "Total: 19", "Tier 3", "Critical", "Stamina: 0/10"):
            assert label in critical["data"]["content"]
        encounter = encounter_of(await store.view(key))
        assert encounter.creature("Goblin 1").vitals.stamina == 4
        assert encounter.creature("Goblin 2").vitals.dead


@pytest.mark.parametrize(
    ("options", "hint"),
    [
        (
            [
                {"name": "target", "type": STRING, "value": "Goblin 1"},
                {"name": "amount", "type": INTEGER, "value": -5},
            ],
            "can't be negative",
        ),
        (
            [
                {"name": "target", "type": STRING, "value": "Nobody"},
                {"name": "amount", "type": INTEGER, "value": 5},
            ],
            "No creature named 'Nobody'",
        ),
        (
            [
                {"name": "target", "type": STRING, "value": "Goblin 1"},
                {"name": "amount", "type": INTEGER, "value": 5},
                {"name": "type", "type": STRING, "value": "banana"},
            ],
            "isn't a damage type",
        ),
    ],
)
async def test_stamina_damage_raw_bad_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: list[dict[str, Any]], hint: str
) -> None:
    async with running(tmp_path, monkeypatch, []) as (fake, store, key):
        before = await store.view(key)
        raw = [{"name": "damage", "type": SUBCOMMAND, "options": options}]
        sent = await fake.slash("stamina", raw_options=raw, user=fake.member("dana"))
        body = await answered(fake, sent)

        assert body["type"] == 4 and int(body["data"]["flags"]) & EPHEMERAL
        assert hint in body["data"]["content"] and "\n" not in body["data"]["content"]
        assert (await store.view(key)).version == before.version


async def test_stamina_damage_on_the_wire(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(tmp_path, monkeypatch, []) as (fake, store, key):
        raw = [
            {
                "name": "damage",
                "type": SUBCOMMAND,
                "options": [
                    {"name": "target", "type": STRING, "value": "goblin 1"},
                    {"name": "amount", "type": INTEGER, "value": 3},
                    {"name": "type", "type": STRING, "value": "fire"},
                ],
            }
        ]
        sent = await fake.slash("stamina", raw_options=raw, user=fake.member("dana"))
        body = await answered(fake, sent)

        assert body["data"]["content"] == "**Goblin 1** takes 3 fire damage · Stamina: 7/10"
        assert encounter_of(await store.view(key)).creature("Goblin 1").vitals.stamina == 7
