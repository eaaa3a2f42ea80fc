"""`/help`: every command with an example.

The table is assembled from the loaded cogs: each cog declares
`help_entries: ClassVar[tuple[HelpEntry, ...]]`, and `/help` lists them in load order (`bot.client.COGS`).
A test checks that every registered slash command has an entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.replies import send
from bot.ui.embeds import Colour, make_embed


@dataclass(frozen=True, slots=True)
class HelpEntry:
    """One line of `/help`: the command's qualified name (no slash), an example, what it does."""

    command: str
    example: str
    summary: str


def help_entries(bot: commands.Bot) -> tuple[HelpEntry, ...]:
    """Every loaded cog's entries, in load order."""
    entries: list[HelpEntry] = []
    for cog in bot.cogs.values():
        entries.extend(getattr(cog, "help_entries", ()))
    return tuple(entries)


def help_embed(entries: tuple[HelpEntry, ...]) -> discord.Embed:
    lines = [f"`{entry.example}` — {entry.summary}" for entry in entries]
    return make_embed("Draw Steel bot — commands", "\n".join(lines), colour=Colour.INFO)


class Meta(commands.Cog):
    """About the bot itself."""

    help_entries: ClassVar[tuple[HelpEntry, ...]] = (
        HelpEntry("help", "/help", "List every command with an example."),
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="List every command with an example.")
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await send(interaction, embed=help_embed(help_entries(self.bot)), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Meta(bot))
