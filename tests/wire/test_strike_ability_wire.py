"""Strikes by ability over the wire ("The three heroes, the goblins, the solo dragon and
the Goblin Ambush play a full encounter in a wire-level test: strikes by ability, kit bonuses, potency
conditions landing, a squad of minions, the free strike"), played with our own fixtures: the production bot
in-process against the loopback fake Discord. The Bogling group and the Cinder Wyrm are uploaded
(`/monster import`, downloaded from their attachment URLs), the Bog Ambush brought in with
`/encounter import`; Brannoc, Marra and Ysolde, the fixture heroes as the Forge Steel import makes their
roster sheets, are on the channel's roster and come in with `/encounter hero`. The dice are loaded, so every
number is known."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.content.forgesteel.hero import read_hero
from bot.content.forgesteel.hero_sheet import to_sheet
from bot.play import encounter_of
from bot.rules import codec
from bot.rules.conditions import Condition
from bot.rules.encounter import Encounter
from bot.store import Change, ChannelKey, Store, Table
from tests.bot.roll_kit import Loaded
from tests.content.forgesteel_files import invented_bytes
from tests.wire.fake_discord import EPHEMERAL, FakeDiscord, FakeMember, Json
from tests.wire.in_process_kit import WITHIN, bot_running, wire


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
        attachment = self.fake.upload(filename, invented_bytes(filename))
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
    async with wire(tmp_path, monkeypatch) as live:
        live.fake.add_member("bob")
        live.fake.add_member("cara")
        dice = Loaded()
        async with bot_running(live, dice):
            yield Game(live.fake, live.store, dice)


async def _roster(game: Game) -> None:
    """Brannoc (alice's), Marra (bob's) and Ysolde (cara's) on the channel's roster, as the Forge Steel import
    makes them."""

    def change(table: Table) -> Change[None]:
        for name, owner in (("Brannoc", "alice"), ("Marra", "bob"), ("Ysolde", "cara")):
            sheet = to_sheet(read_hero(invented_bytes(f"{name}.ds-hero")))
            table.add_hero(game.member(owner).user.id, name, codec.to_data(sheet))
        return Change("heroes", None)

    await game.store.mutate(game.key, game.member("owner").user.id, "hero.create", change)


async def test_heroes_boglings_and_the_cinder_wyrm_strike_by_ability(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with playing(tmp_path, monkeypatch) as game:
        assert (await game.upload("monster", "import", "Bogling.ds-monster-group")).startswith(
            "📖 Bestiary (Bogling)"
        )
        assert (
            await game.upload("monster", "import", "Cinder Wyrm.ds-monster")
            == "📖 Bestiary: added Cinder Wyrm."
        )
        await game.say("owner", "encounter", "start")
        ambush = await game.upload("encounter", "import", "Bog Ambush.ds-encounter")
        assert "as the squad **Bogling Slinger squad**\n" in ambush
        await game.say("owner", "encounter", "add", monster="Cinder Wyrm")
        await _roster(game)
        await game.say("alice", "encounter", "hero", name="Brannoc")
        await game.say("bob", "encounter", "hero", name="Marra")
        await game.say("cara", "encounter", "hero", name="Ysolde")
        await game.say("owner", "encounter", "begin")
        await game.say("owner", "malice", "gain", amount=3)

        # a hero's ability with its kit bonus: Crushing Blow, 8 + M2 + Wolfpelt 3; push 3 against stability 4
        game.dice.load(9, 8)
        text = await game.say("alice", "strike", ability="Crushing Blow", targets="Cinder Wyrm")
        assert text.startswith("⚔️ **Brannoc** uses **Crushing Blow** (6/9/13 damage · Might · kit +1/+2/+3)")
        assert "Dice: 9 + 8 · bonus +2 · Total: 19 · Tier 3" in text
        assert "**Cinder Wyrm** — Tier 3: 13 damage" in text and "↳ push 3 → 0, stability 4" in text

        # a monster's ability for Malice, its written potency landing: Mud Chains, A<1 on Marra's A -1
        game.dice.load(6, 5)
        text = await game.say(
            "owner", "strike", attacker="Bogling Stabber 1", ability="Mud Chains", targets="Marra"
        )
        assert "Total: 13 · Tier 2" in text and "😈 3 Malice spent · 0 left" in text
        assert "**Marra** — Tier 2: 5 corruption damage" in text
        assert "↳ A < 1: restrained (save ends) — lands (A -1)" in text

        # a squad of minions: Marra's signature ability into two slingers' shared pool (not Area: it takes
        # 12 + 12, every slinger's 3); restrained, Marra's rolls take a bane: 9 + 7 + M3 - 2 = 17, tier 3,
        # 7 + M3 + Bulwark 2
        game.dice.load(9, 7)
        text = await game.say(
            "bob",
            "strike",
            ability="Oathbound Strike",
            targets="Bogling Slinger 1, Bogling Slinger 2",
        )
        # the bane applies to both targets: the headline has it, the targets' lines repeat nothing
        assert "Dice: 9 + 7 · bonus +3 · bane (−2) · Total: 17 · Tier 3" in text
        assert "**Bogling Slinger 1** — Tier 3: 24 holy damage" in text
        assert (
            "4 minions killed: Bogling Slinger 1, Bogling Slinger 2, Bogling Slinger 3, Bogling Slinger 4"
            in text
        )

        # Ysolde (no kit) at the other squad: Stone Step, 5 + A3 at tier 2
        game.dice.load(7, 5)
        text = await game.say("cara", "strike", ability="Stone Step", targets="Bogling Cleaver 1")
        assert text.startswith("⚔️ **Ysolde** uses **Stone Step** (6/8/10 damage · Agility)")
        assert "**Bogling Cleaver 1** — Tier 2: 8 damage" in text

        # the free strikes: Brannoc's melee one takes the kit bonus once; the wyrm's deals its 5 fire
        game.dice.load(10, 9, 3, 3)
        text = await game.say("alice", "strike", ability="Melee Weapon Free Strike", targets="Bogling Chief")
        assert (
            "(5/9/12 damage · Might · kit +1/+2/+3)" in text and "Tier 3" in text and "Critical" not in text
        )
        text = await game.say(
            "owner", "strike", attacker="Cinder Wyrm", ability="Free Strike", targets="Brannoc"
        )
        assert "**Brannoc** — Tier 1: 5 fire damage" in text

        enc = await game.encounter()
        assert enc.creature("Cinder Wyrm").vitals.stamina == 220 - 13
        assert [c.condition for c in enc.turns.conditions_of("Marra")] == [Condition.RESTRAINED]
        squad = enc.squad("Bogling Slinger squad")
        assert squad is not None and squad.alive == ()
        assert enc.malice.value == 0
