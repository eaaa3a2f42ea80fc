"""Campaigns (/campaign show | join | leave): a channel and all its threads share one roster, hero-token pool
and Victories; a server Director may make a channel play in another channel's campaign (#ooc and #combat
sharing one party) and leave it again. The store keeps the link (`Store.join_campaign`, docs/store.md
*Campaigns*); who may do it is decided in `bot.permissions`.
"""

from __future__ import annotations

from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import DrawSteelBot
from bot.help import HelpEntry
from bot.permissions import require, server_standing
from bot.play import channel_key
from bot.replies import fail, send
from exts.heroes._campaign_views import campaign_text

#: Channels that can be a campaign's home: a campaign is a text or forum channel with all its threads.
CAMPAIGN_CHANNELS = frozenset({discord.ChannelType.text, discord.ChannelType.news, discord.ChannelType.forum})


async def require_server_director(bot: DrawSteelBot, interaction: discord.Interaction[Any], key: str) -> None:
    """Only a server Director changes which campaign a channel plays in (`bot.permissions.RULES[key]`)."""
    _, at, role = await server_standing(interaction, bot.store)
    require(key, at, director_role_id=role)


class Campaign(commands.Cog):
    """Which campaign a channel plays in (/campaign)."""

    help_entries: ClassVar[tuple[HelpEntry, ...]] = (
        HelpEntry("campaign", "/campaign show", "Whose roster and hero tokens this channel uses."),
        HelpEntry("campaign show", "/campaign show", "This channel's campaign and who shares it."),
        HelpEntry(
            "campaign join",
            "/campaign join channel:#main-campaign",
            "Director: play here with that channel's heroes and tokens.",
        ),
        HelpEntry("campaign leave", "/campaign leave", "Director: back to this channel's own campaign."),
    )

    campaign = app_commands.Group(
        name="campaign", description="Which roster and hero tokens this channel uses.", guild_only=True
    )

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot

    @campaign.command(
        name="show", description="Show this channel's campaign: heroes, hero tokens, who shares it."
    )
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        info = await self.bot.store.campaign(channel_key(interaction))
        await send(interaction, content=campaign_text(info))

    @campaign.command(
        name="join", description="Director: play in another channel's campaign (its heroes, tokens)."
    )
    @app_commands.describe(channel="The channel whose campaign this channel and its threads join")
    async def join(
        self,
        interaction: discord.Interaction[Any],
        channel: app_commands.AppCommandChannel,
    ) -> None:
        await require_server_director(self.bot, interaction, "/campaign join")
        if channel.type not in CAMPAIGN_CHANNELS:
            fail("Pick a text or forum channel: its threads share its campaign.")
        info = await self.bot.store.join_campaign(channel_key(interaction), channel.id)
        await send(interaction, content=campaign_text(info))

    @campaign.command(name="leave", description="Director: play in this channel's own campaign again.")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await require_server_director(self.bot, interaction, "/campaign leave")
        info = await self.bot.store.leave_campaign(channel_key(interaction))
        await send(interaction, content=campaign_text(info))


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Campaign(bot))
