"""Setting up an encounter through the real commands (/encounter start, add, begin), for any SimCord test.

    await encounter_kit.start(table)                 # the Director starts a draw-steel encounter in #combat
    await encounter_kit.add_party(table)             # Ash (alice), Bree (bob), Goblin 1, Goblin 2
    await encounter_kit.add(table, name="Orc", stamina=5)  # one more /encounter add by the Director
    await encounter_kit.begin(table, first="heroes") # round 1, the heroes pick first
    await encounter_kit.ready(table)                 # all three at once

`ok(result)` asserts a public reply and returns its content; `refused(result)` asserts a one-line ephemeral
refusal and returns it; `tracker(channel)` is the newest tracker message, `private_status(table)` the
Director's private one as text; `pinged(message)` who a message really pinged (user ids, role ids);
`stored(table)` the encounter as stored now; `body(message)` an embed as text and `labels(message)` its
buttons' labels.
"""

from __future__ import annotations

from typing import Any

import discord
from simcord import ChannelHandle
from simcord.results import InteractionResult

from bot.play import encounter_of
from bot.rules.encounter import Encounter
from bot.store import ChannelKey
from tests.bot.conftest import Table


def ok(result: InteractionResult) -> str:
    """The public reply's content (fails the test on a refusal)."""
    message = result.response or (result.followups[0] if result.followups else None)
    assert message is not None, result
    assert not message.ephemeral, message.content
    return message.content


def refused(result: InteractionResult) -> str:
    """The one-line ephemeral refusal."""
    message = result.response or (result.followups[0] if result.followups else None)
    assert message is not None, result
    assert message.ephemeral, message.content
    assert "\n" not in message.content.strip()
    return message.content


async def start(
    table: Table, mode: str = "draw-steel", channel: ChannelHandle | None = None, **options: Any
) -> str:
    return ok(await table.director.slash(channel or table.channel, "encounter start", mode=mode, **options))


async def add(table: Table, channel: ChannelHandle | None = None, **options: Any) -> str:
    """The Director's `/encounter add options` in `channel` (default: #combat): the public reply."""
    return ok(await table.director.slash(channel or table.channel, "encounter add", **options))


async def add_party(
    table: Table,
    channel: ChannelHandle | None = None,
    *,
    hero_side: str = "heroes",
    foe_side: str = "director",
) -> None:
    ash = {"characteristics": "M2 A3", "recoveries": 2}
    await add(table, channel, name="Ash", stamina=30, side=hero_side, player=table.alice, **ash)
    await add(table, channel, name="Bree", stamina=24, side=hero_side, player=table.bob)
    await add(table, channel, name="Goblin", stamina=10, side=foe_side, count=2)


async def begin(table: Table, first: str | None = "heroes", channel: ChannelHandle | None = None) -> str:
    options = {"first": first} if first is not None else {}
    return ok(await table.director.slash(channel or table.channel, "encounter begin", **options))


async def ready(table: Table, first: str = "heroes", channel: ChannelHandle | None = None) -> None:
    """A draw-steel encounter with the party, begun: round 1, `first` picks."""
    await start(table, channel=channel)
    await add_party(table, channel)
    await begin(table, first, channel)


def key(table: Table, channel: ChannelHandle | None = None) -> ChannelKey:
    return ChannelKey(table.guild.id, (channel or table.channel).id)


async def stored(table: Table, channel: ChannelHandle | None = None) -> Encounter:
    return encounter_of(await table.store.view(key(table, channel)))


async def private_status(table: Table) -> str:
    """The Director's private tracker (`/encounter status private:True`) as text."""
    result = await table.director.slash(table.channel, "encounter status", private=True)
    assert result.ephemeral and result.response is not None and result.response.embeds
    return body(result.response)


def tracker(channel: ChannelHandle) -> discord.Message:
    """The newest tracker message in `channel` (an embed titled with the ⚔️ mark, with components)."""
    found = [m for m in channel.history() if m.embeds and (m.embeds[0].title or "").startswith("⚔️")]
    assert found, "no tracker in the channel"
    return max(found, key=lambda m: m.id)


def labels(message: discord.Message) -> list[str]:
    """The labels of a message's buttons, row by row."""
    return [
        getattr(item, "label", "") or ""
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for item in row.children
    ]


def body(message: discord.Message) -> str:
    """A message's embed as text: title, description, then each field's name and value, a line each."""
    embed = message.embeds[0]
    parts = [embed.title or "", embed.description or ""]
    for field in embed.fields:
        parts += [field.name or "", field.value or ""]
    return "\n".join(parts)


def pinged(table: Table, message: discord.Message) -> tuple[list[int], list[int]]:
    """Who a message really pinged: (user ids, role ids) as SimCord's backend recorded them."""
    record = table.env.backend.get_message(message.channel.id, message.id)
    return list(record.ping_user_ids), list(record.ping_role_ids)


def pings(table: Table, channel: ChannelHandle | None = None) -> list[tuple[str, list[int], list[int]]]:
    """Every message in the channel that pinged somebody: (content, user ids, role ids), oldest first."""
    out = []
    for message in (channel or table.channel).history():
        users, roles = pinged(table, message)
        if users or roles:
            out.append((message.content, users, roles))
    return out


def bot_messages(channel: ChannelHandle) -> list[discord.Message]:
    return list(channel.history())


def last_posted(channel: ChannelHandle) -> discord.Message:
    """The newest message in `channel` other than Discord's "pinned a message" notices (pinning the tracker
    leaves one below it)."""
    return [m for m in channel.history() if m.type is not discord.MessageType.pins_add][-1]
