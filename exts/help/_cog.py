"""`/help`: every command with an example.

The table is assembled from the loaded exts: each command declares its line (`bot.help`: a command's
docstring, a family's `extras`), and `/help` lists them in load order (`bot.client.COGS`),
a field per command family, each command once (`listed`). The list is longer than one message may hold
(6,000 characters across its embeds), so it is cut into pages, the first as the reply and the rest as
follow-ups (all visible only to the caller);
`/help command:roll` shows one family. A test checks that every registered slash command has an entry.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.content import CREATOR_LICENSE
from bot.embeds import Colour, Field, make_embed
from bot.help import HelpEntry, help_entry
from bot.replies import fail, send


def help_entries(bot: commands.Bot) -> tuple[HelpEntry, ...]:
    """Every loaded cog's entries, in load order."""
    entries: list[HelpEntry] = []
    for cog in bot.cogs.values():
        entries.extend(e for c in cog.walk_app_commands() if (e := help_entry(c)) is not None)
    return tuple(entries)


PAGE_BUDGET = 5000
"""Characters of fields per help page (Discord allows 6,000 per message, title and footer included)."""
FIELD_BUDGET = 1000
FIELDS_PER_PAGE = 20
AUTOCOMPLETE_MAX = 25


def _family(entry: HelpEntry) -> str:
    return entry.command.split()[0]


def listed(entries: tuple[HelpEntry, ...]) -> tuple[HelpEntry, ...]:
    """Each command once: a command's first entry only, and no line of a family's own (`/malice`) when its
    commands (`/malice show`, `/malice gain`) have lines: the field is titled with the family already."""
    names = {entry.command for entry in entries}
    seen: set[str] = set()
    kept: list[HelpEntry] = []
    for entry in entries:
        group = any(name.startswith(entry.command + " ") for name in names)
        if entry.command not in seen and not group:
            kept.append(entry)
        seen.add(entry.command)
    return tuple(kept)


def _fields(entries: tuple[HelpEntry, ...]) -> list[Field]:
    """One field per command family (more when a family's lines pass a field's 1,024 characters), each
    command once (`listed`)."""
    fields: list[Field] = []
    families: dict[str, list[str]] = {}
    for entry in listed(entries):
        families.setdefault(_family(entry), []).append(f"`{entry.line.example}` — {entry.line.summary}")
    for family, lines in families.items():
        chunk: list[str] = []
        for line in lines:
            if chunk and sum(len(c) + 1 for c in chunk) + len(line) > FIELD_BUDGET:
                fields.append(Field(f"/{family}", "\n".join(chunk)))
                chunk = []
            chunk.append(line[:FIELD_BUDGET])
        fields.append(Field(f"/{family}", "\n".join(chunk)))
    return fields


def _footer(number: int, total: int) -> str | None:
    """The page number, and on the last page the licence line for the game content the bot repeats."""
    page = f"Page {number} of {total}" if total > 1 else None
    if number < total:
        return page
    return CREATOR_LICENSE if page is None else f"{page} · {CREATOR_LICENSE}"


def help_pages(entries: tuple[HelpEntry, ...]) -> list[discord.Embed]:
    """The help as pages that each fit one message."""
    pages: list[list[Field]] = [[]]
    used = 0
    for field in _fields(entries):
        size = len(field.name) + len(field.value)
        if pages[-1] and (used + size > PAGE_BUDGET or len(pages[-1]) >= FIELDS_PER_PAGE):
            pages.append([])
            used = 0
        pages[-1].append(field)
        used += size
    total = len(pages)
    return [
        make_embed(
            "Draw Steel bot — commands",
            colour=Colour.INFO,
            fields=fields,
            footer=_footer(number, total),
        )
        for number, fields in enumerate(pages, start=1)
    ]


class Meta(commands.Cog):
    """About the bot itself."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="List every command with an example.")
    @app_commands.guild_only()
    async def help(
        self, interaction: discord.Interaction[Any], command: app_commands.Range[str, 1, 100] | None = None
    ) -> None:
        """List every command with an example, or one family.

        Example: /help command:roll

        Args:
            command: Only this command or family, e.g. roll or encounter
        """
        entries = help_entries(self.bot)
        if command is not None:
            wanted = " ".join(command.strip().lstrip("/").split()).casefold()
            entries = tuple(e for e in entries if e.command == wanted or _family(e) == wanted)
            if not entries:
                fail("No command by that name: type /help to see them all, or e.g. /help command:roll.")
        for page in help_pages(entries):
            await send(interaction, embed=page, ephemeral=True)

    @help.autocomplete("command")
    async def _command_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Command families and commands whose name contains what was typed so far."""
        typed = " ".join(current.strip().lstrip("/").split()).casefold()
        names: dict[str, None] = {}
        for entry in help_entries(self.bot):
            names.setdefault(_family(entry))
            names.setdefault(entry.command)
        return [app_commands.Choice(name=f"/{n}", value=n) for n in names if typed in n][:AUTOCOMPLETE_MAX]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Meta(bot))
