"""`create_bot`: intents, default mentions, store ownership, and the sharded variant under real dispatch."""

from __future__ import annotations

import dataclasses

import discord
import pytest
import simcord

from bot.client import COGS, DrawSteelBot, ShardedDrawSteelBot, create_bot
from bot.rules.dice import SeededDice, SystemDice
from bot.settings import Settings
from bot.store import Store


def test_intents_are_minimal_and_nothing_pings(settings: Settings) -> None:
    bot = create_bot(settings)
    assert bot.intents == discord.Intents(guilds=True)
    assert not bot.intents.message_content and not bot.intents.members and not bot.intents.presences
    mentions = bot.allowed_mentions
    assert mentions is not None
    assert (mentions.everyone, mentions.users, mentions.roles, mentions.replied_user) == (
        False,
        False,
        False,
        False,
    )
    assert isinstance(bot.dice, SystemDice)
    assert bot.cog_modules == COGS


def count_closes(monkeypatch: pytest.MonkeyPatch) -> list[Store]:
    closed: list[Store] = []
    real_close = Store.close

    async def close(self: Store) -> None:
        closed.append(self)
        await real_close(self)

    monkeypatch.setattr(Store, "close", close)
    return closed


async def test_the_bot_opens_and_closes_its_own_store(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed = count_closes(monkeypatch)
    bot = create_bot(settings, dice=SeededDice(1))
    async with simcord.run(bot) as env:
        opened = bot.store
        assert isinstance(opened, Store)
        channel = env.create_guild().create_text_channel("combat")
        alice = env.guild.add_member(env.create_user("alice"))
        result = await alice.slash(channel, "dice", expression="1d6")
        assert result.response is not None and "1d6 [" in result.response.content
    await bot.close()
    assert closed == [opened]
    with pytest.raises(RuntimeError):
        _ = bot.store


async def test_an_injected_store_is_left_to_its_owner(
    settings: Settings, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed = count_closes(monkeypatch)
    bot = create_bot(settings, store=store)
    async with simcord.run(bot):
        assert bot.store is store
    await bot.close()
    assert closed == []


async def test_sharded_bot_serves_its_shards(settings: Settings, store: Store) -> None:
    sharded = dataclasses.replace(settings, shard_count=2, shard_ids=(0, 1))
    bot = create_bot(sharded, store=store, dice=SeededDice(2))
    assert isinstance(bot, ShardedDrawSteelBot) and isinstance(bot, DrawSteelBot)
    assert isinstance(bot, discord.AutoShardedClient)
    async with simcord.run(bot) as env:
        guild = env.create_guild(shard_id=1)
        channel = guild.create_text_channel("combat")
        alice = guild.add_member(env.create_user("alice"))
        result = await alice.slash(channel, "dice", expression="2d6")
        assert result.response is not None and "2d6 [" in result.response.content
        assert bot.get_guild(guild.id) is not None
        assert bot.get_guild(guild.id).shard_id == 1  # type: ignore[union-attr]
