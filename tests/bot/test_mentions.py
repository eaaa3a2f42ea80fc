"""Replies ping nobody unless a command passes explicit `AllowedMentions`; `inert` defuses user text."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands
from simcord.env import Env

from bot.client import DrawSteelBot
from bot.replies import inert, send
from bot.rules.dice import Dice
from bot.settings import Settings
from bot.store import Store
from tests.bot.conftest import Table, build_bot


@app_commands.command(name="shout", description="test: echo text with default mentions")
async def shout(interaction: discord.Interaction[Any], text: str) -> None:
    await send(interaction, content=text)


@app_commands.command(name="ping-me", description="test: an explicit user mention")
async def ping_me(interaction: discord.Interaction[Any]) -> None:
    user = interaction.user
    await send(
        interaction, content=f"{user.mention}, your turn!", mentions=discord.AllowedMentions(users=[user])
    )


@app_commands.command(name="followup-shout", description="test: followups also ping nobody")
async def followup_shout(interaction: discord.Interaction[Any], text: str) -> None:
    await interaction.response.defer()
    await send(interaction, content=text)


@pytest.fixture
def simcord_bot(settings: Settings, store: Store, dice: Dice) -> DrawSteelBot:
    bot = build_bot(settings, store, dice)
    commands: tuple[app_commands.Command[Any, ..., None], ...] = (shout, ping_me, followup_shout)
    for command in commands:
        bot.tree.add_command(command)
    return bot


def pings(message: Any) -> tuple[bool, list[int], list[int]]:
    stored = message._message  # SimCord's backend record: who was actually pinged
    return stored.mention_everyone, list(stored.ping_user_ids), list(stored.ping_role_ids)


@pytest.mark.parametrize("command", ["shout", "followup-shout"])
async def test_default_replies_ping_nobody(table: Table, command: str) -> None:
    mentionable = table.guild.create_role("Heroes", mentionable=True)
    text = f"@everyone @here {table.bob.mention} <@&{mentionable.id}> <@&{table.director_role.id}>"

    result = await table.alice.slash(table.channel, command, text=text)

    assert result.response is not None
    assert result.response.content == text  # rendered as typed...
    assert pings(result.response) == (False, [], [])  # ...but nobody is pinged
    message = result.response.message
    assert not message.mention_everyone


async def test_explicit_mentions_do_ping(table: Table) -> None:
    result = await table.alice.slash(table.channel, "ping-me")

    assert result.response is not None
    assert pings(result.response) == (False, [table.alice.id], [])


async def test_inert_text_in_a_reply_renders_and_pings_nobody(simcord_env: Env, table: Table) -> None:
    result = await table.alice.slash(table.channel, "shout", text=inert(f"**@everyone** {table.bob.mention}"))
    assert result.response is not None
    assert pings(result.response) == (False, [], [])
    assert "@everyone" not in result.response.content
    assert table.bob.mention not in result.response.content


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Ash", "Ash"),
        ("@everyone", "@\u200beveryone"),
        ("@here!", "@\u200bhere!"),
        ("<@123>", "<@\u200b123>"),
        ("<@!123>", "<@!\u200b123>"),
        ("<@&1>", "<@&\u200b1>"),
        ("<#42>", "<#\u200b42>"),
        ("**bold**", "\\*\\*bold\\*\\*"),
        ("`code`", "\\`code\\`"),
        ("__u__ ~~s~~ ||x||", "\\_\\_u\\_\\_ \\~\\~s\\~\\~ \\|\\|x\\|\\|"),
        ("> quote", "\\> quote"),
        ("[x](http://e)", "\\[x\\]\\(http://e\\)"),
    ],
)
def test_inert(raw: str, shown: str) -> None:
    assert inert(raw) == shown
