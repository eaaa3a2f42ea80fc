"""Campaigns (/campaign show | join | leave): a channel and all its threads share one roster, hero-token pool
and Victories; a server Director may make a channel play in another channel's campaign (#ooc and #combat
sharing one party) and leave it again. The store keeps the link (`Store.join_campaign`, docs/store.md
*Campaigns*); who may do it is decided in `bot.permissions`. Once connected, `python -m bot` merges every
thread's roster from before campaigns into its parent's campaign (`merge_old_threads`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import BotCog, DrawSteelBot
from bot.help import guild_group
from bot.permissions import require, server_standing
from bot.play import channel_key
from bot.replies import fail, send
from bot.store import ChannelKey
from exts.heroes._campaign_views import campaign_text

log = logging.getLogger("exts.heroes")

#: Channels asked of Discord per start (those not in the gateway's memory: archived threads, deleted ones).
LOOKUPS_MAX = 500

#: Channels that can be a campaign's home: a campaign is a text or forum channel with all its threads.
CAMPAIGN_CHANNELS = frozenset({discord.ChannelType.text, discord.ChannelType.news, discord.ChannelType.forum})


async def merge_old_threads(bot: DrawSteelBot) -> int:
    """Merge the roster and pool each thread kept on its own before campaigns into its parent's campaign,
    whether or not anyone plays in the thread again (the store merges one on its next command, too). The
    database never stored a thread's parent: the store lists the channels that may be such threads
    (`Store.unplaced`), Discord says which are threads of which parent, and reading a thread with its parent
    merges it (`Campaigns.adopt`, logged). Only this process's servers; returns how many threads it read."""
    read = lookups = 0
    for guild_id, channel_id in await bot.store.unplaced():
        if bot.get_guild(guild_id) is None:  # another shard's server, or one the bot has left
            continue
        channel = bot.get_channel(channel_id)
        if channel is None:
            if lookups >= LOOKUPS_MAX:
                log.warning("campaign: %d channels asked of Discord; the rest wait for a restart", lookups)
                break
            lookups += 1
            try:
                channel = await bot.fetch_channel(channel_id)
            except discord.HTTPException:  # deleted, or hidden from the bot: nothing to merge into
                continue
        if not isinstance(channel, discord.Thread) or channel.guild.id != guild_id:
            continue
        await bot.store.view(ChannelKey(guild_id, channel_id, channel.parent_id, channel.name), shared=True)
        read += 1
    return read


async def require_server_director(bot: DrawSteelBot, interaction: discord.Interaction[Any], key: str) -> None:
    """Only a server Director changes which campaign a channel plays in (`bot.permissions.RULES[key]`)."""
    _, at, role = await server_standing(interaction, bot.store)
    require(key, at, director_role_id=role)


class Campaign(BotCog):
    """Which campaign a channel plays in (/campaign)."""

    campaign = guild_group(
        "campaign",
        "Which roster and hero tokens this channel uses.",
        "/campaign show",
        "Whose roster and hero tokens this channel uses.",
    )

    def __init__(self, bot: DrawSteelBot) -> None:
        super().__init__(bot)
        self._merging: asyncio.Task[None] | None = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process, in `python -m bot` (`DrawSteelBot.timers`; tests call `merge_old_threads`)."""
        if self.bot.timers and self._merging is None:
            self._merging = asyncio.create_task(self._merge(), name="campaign.merge_old_threads")

    async def _merge(self) -> None:
        try:
            await merge_old_threads(self.bot)
        except Exception:  # the next command in a thread still merges it
            log.exception("campaign: merging the old threads' rosters stopped")

    async def cog_unload(self) -> None:
        if self._merging is not None:
            self._merging.cancel()

    @campaign.command(
        name="show", description="Show this channel's campaign: heroes, hero tokens, who shares it."
    )
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """This channel's campaign and who shares it.

        Example: /campaign show
        """
        info = await self.bot.store.campaign(channel_key(interaction))
        await send(interaction, content=campaign_text(info))

    @campaign.command(
        name="join", description="Director: play in another channel's campaign (its heroes, tokens)."
    )
    async def join(
        self,
        interaction: discord.Interaction[Any],
        channel: app_commands.AppCommandChannel,
    ) -> None:
        """Director: play here with that channel's heroes and tokens.

        Example: /campaign join channel:#main-campaign

        Args:
            channel: The channel whose campaign this channel and its threads join
        """
        await require_server_director(self.bot, interaction, "/campaign join")
        if channel.type not in CAMPAIGN_CHANNELS:
            fail("Pick a text or forum channel: its threads share its campaign.")
        info = await self.bot.store.join_campaign(channel_key(interaction), channel.id)
        await send(interaction, content=campaign_text(info))

    @campaign.command(name="leave", description="Director: play in this channel's own campaign again.")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Director: back to this channel's own campaign.

        Example: /campaign leave
        """
        await require_server_director(self.bot, interaction, "/campaign leave")
        info = await self.bot.store.leave_campaign(channel_key(interaction))
        await send(interaction, content=campaign_text(info))


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Campaign(bot))
