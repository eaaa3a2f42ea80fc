"""Where an interaction's state lives: `channel_key(interaction)`, for the commands (`bot.play`) and the
error path (`bot.quoted`) alike."""

from __future__ import annotations

from typing import Any

import discord

from bot.replies import fail
from bot.store import ChannelKey


def channel_key(interaction: discord.Interaction[Any]) -> ChannelKey:
    """Where this interaction's state lives: its guild and its channel or thread (with a thread's parent and
    name: a thread plays in its parent's campaign, docs/store.md *Campaigns*)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        fail("Use this in a server's text channel or thread, not in direct messages.")
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return ChannelKey(interaction.guild_id, interaction.channel_id, channel.parent_id, channel.name)
    return ChannelKey(interaction.guild_id, interaction.channel_id)
