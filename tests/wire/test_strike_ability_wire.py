"""Strikes by ability over the wire (issue 20 "Done when": "The three heroes, the goblins, the solo dragon and
the Goblin Ambush play a full encounter in a wire-level test: strikes by ability, kit bonuses, potency
conditions landing, a squad of minions, the free strike"): the production bot in-process against the
loopback fake Discord. The goblins and the Thorn Dragon are uploaded (`/monster import`, downloaded from their
attachment URLs), the Goblin Ambush brought in with `/encounter import`; Keth and Jennet, the fixture heroes
as the Forge Steel import makes their roster sheets, are on the channel's roster and come in with
`/encounter hero`. The dice are loaded, so every number is known."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from bot.client import DrawSteelBot, create_bot
from bot.content.forgesteel.hero import read_hero
from bot.content.forgesteel.hero_sheet import to_sheet
from bot.play import encounter_of
from bot.rules import codec
from bot.rules.conditions import Condition
from bot.rules.encounter import Encounter
from bot.settings import Settings
from bot.store import Change, ChannelKey, Store, Table
from tests.bot.ability_kit import Loaded
from tests.bot.conftest import TEST_WAIT_LIMIT
from tests.content.forgesteel_files import fixture_bytes
from tests.wire.fake_discord import EPHEMERAL, FakeDiscord, FakeMember, Json
from tests.wire.test_fake_discord import TOKEN, WITHIN, online


class Game:
    """The fake Discord, the bot's store, the loaded dice and the channel's key."""

    def __init__(self, fake: FakeDiscord, store: Store, dice: Loaded) -> None:
        self.fake, self.store, self.dice = fake, store, dice
        self.key = ChannelKey(fake.guild.id, fake.guild.channel.id)

    def member(self, name: str) -> FakeMember:
        return self.fake.member(name)

    async def reply(self, sent: int) -> Json:
        """The interaction's reply: its response, or the followup filling a deferral."""
        callback = await self.fake.wait_for_callback(sent, within=WITHIN)
        if callback.json["type"] == 5:
            (followup,) = await self.fake.wait_for_followup(sent, within=WITHIN, count=1)
            return followup
        data: Json = callback.json["data"]
        return data

    async def say(self, user: str, command: str, sub: str | None = None, /, **options: Any) -> str:
        """`/command [sub] options...` as `user`: the public reply's content."""
        if sub is not None:
            raw = [{"name": k, "type": _type(v), "value": v} for k, v in options.items()]
            sent = await self.fake.slash(
                command, raw_options=[{"name": sub, "type": 1, "options": raw}], user=self.member(user)
            )
        else:
            sent = await self.fake.slash(command, options, user=self.member(user))
        reply = await self.reply(sent)
        assert not int(reply.get("flags", 0)) & EPHEMERAL, reply.get("content")
        return str(reply["content"])

    async def upload(self, name: str, sub: str, filename: str) -> str:
        attachment = self.fake.upload(filename, fixture_bytes(filename))
        options = [
            {"name": sub, "type": 1, "options": [{"name": "file", "type": 11, "value": attachment["id"]}]}
        ]
        sent = await self.fake.slash(
            name,
            raw_options=options,
            resolved={"attachments": {attachment["id"]: attachment}},
            user=self.member("owner"),
        )
        return str((await self.reply(sent))["content"])

    async def encounter(self) -> Encounter:
        return encounter_of(await self.store.view(self.key))


def _type(value: object) -> int:
    return {str: 3, bool: 5, int: 4}[type(value)]


@contextlib.asynccontextmanager
async def playing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Game]:
    async with FakeDiscord() as fake:
        fake.add_member("bob")
        fake.add_member("cara")
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
        settings = Settings(token=TOKEN, database_url=f"sqlite+aiosqlite:///{tmp_path}/bot.db")
        store = await Store.open(settings.database_url, migrate=True, wait_limit=TEST_WAIT_LIMIT)
        dice = Loaded()
        bot: DrawSteelBot = create_bot(settings, store=store, dice=dice)
        async with online(fake, bot, store, TOKEN):
            yield Game(fake, store, dice)


async def _roster(game: Game) -> None:
    """Keth (alice's), Jennet (bob's) and Ashley (cara's) on the channel's roster, as the Forge Steel import
    makes them."""

    def change(table: Table) -> Change[None]:
        for name, owner in (("Keth", "alice"), ("Jennet", "bob"), ("Ashley", "cara")):
            sheet = to_sheet(read_hero(fixture_bytes(f"{name}.ds-hero")))
            table.add_hero(game.member(owner).user.id, name, codec.to_data(sheet))
        return Change("heroes", None)

    await game.store.mutate(game.key, game.member("owner").user.id, "hero.create", change)


async def test_heroes_goblins_and_the_thorn_dragon_strike_by_ability(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with playing(tmp_path, monkeypatch) as game:
        assert (await game.upload("monster", "import", "Goblin.ds-monster-group")).startswith(
            "📖 Bestiary (Goblin)"
        )
        assert (
            await game.upload("monster", "import", "Thorn Dragon.ds-monster")
            == "📖 Bestiary: added Thorn Dragon."
        )
        await game.say("owner", "encounter", "start")
        ambush = await game.upload("encounter", "import", "Goblin Ambush.ds-encounter")
        assert "as the squad **Goblin Sniper squad** (Goblin Sniper)" in ambush
        await game.say("owner", "encounter", "add", monster="Thorn Dragon")
        await _roster(game)
        await game.say("alice", "encounter", "hero", name="Keth")
        await game.say("bob", "encounter", "hero", name="Jennet")
        await game.say("cara", "encounter", "hero", name="Ashley")
        await game.say("owner", "encounter", "begin")
        await game.say("owner", "malice", "gain", amount=3)

        # a hero's ability with its kit bonus: Brutal Slam, 9 + M2 + Panther 4; push 4 against stability 6
        game.dice.load(9, 8)
        text = await game.say("alice", "strike", ability="Brutal Slam", targets="Thorn Dragon")
        assert text.startswith("⚔️ **Keth** uses **Brutal Slam** (5/8/15 damage · Might · kit +0/+0/+4)")
        assert "Dice: 9 + 8 · bonus +2 · Total: 19 · Tier 3" in text
        assert "**Thorn Dragon** — Tier 3: 15 damage" in text and "↳ push 4 → 0, stability 6" in text

        # a monster's ability for Malice, its written potency landing: Shadow Chains, A<1 on Jennet's A -1
        game.dice.load(6, 5)
        text = await game.say(
            "owner", "strike", attacker="Goblin Assassin 1", ability="Shadow Chains", targets="Jennet"
        )
        assert "Total: 13 · Tier 2" in text and "😈 3 Malice spent · 0 left" in text
        assert "**Jennet** — Tier 2: 4 corruption damage" in text
        assert "↳ A < 1: restrained (save ends) — lands (A -1)" in text

        # a squad of minions: Jennet's signature ability into two snipers' shared pool (not Area: it takes
        # 6 + 6, every sniper's 3); restrained, Jennet's rolls take a bane
        game.dice.load(4, 4)
        text = await game.say(
            "bob",
            "strike",
            ability="Your Allies Cannot Save You!",
            targets="Goblin Sniper 1, Goblin Sniper 2",
        )
        assert "**Goblin Sniper 1** — Tier 1 (Total: 9, bane (−2)): 12 holy damage" in text
        assert "4 minions killed: Goblin Sniper 1, Goblin Sniper 2, Goblin Sniper 3, Goblin Sniper 4" in text

        # Ashley (no kit) at the other squad: Inertial Step, 7 + A2 at tier 2
        game.dice.load(7, 5)
        text = await game.say("cara", "strike", ability="Inertial Step", targets="Goblin Spinecleaver 1")
        assert text.startswith("⚔️ **Ashley** uses **Inertial Step** (7/9/12 damage · Agility)")
        assert "**Goblin Spinecleaver 1** — Tier 2: 9 damage" in text

        # the free strikes: Keth's melee one takes the kit bonus once; the dragon's deals its 5
        game.dice.load(10, 9, 3, 3)
        text = await game.say(
            "alice", "strike", ability="Melee Weapon Free Strike", targets="Goblin Underboss"
        )
        assert (
            "(4/7/13 damage · Might · kit +0/+0/+4)" in text and "Tier 3" in text and "Critical" not in text
        )
        text = await game.say(
            "owner", "strike", attacker="Thorn Dragon", ability="Free Strike", targets="Keth"
        )
        assert "**Keth** — Tier 1: 5 damage" in text

        enc = await game.encounter()
        assert enc.creature("Thorn Dragon").vitals.stamina == 250 - 15
        assert [c.condition for c in enc.turns.conditions_of("Jennet")] == [Condition.RESTRAINED]
        squad = enc.squad("Goblin Sniper squad")
        assert squad is not None and squad.alive == ()
        assert enc.malice.value == 0
