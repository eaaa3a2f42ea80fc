"""`/help` lists every command with an example, through real dispatch."""

from __future__ import annotations

import discord
from simcord.env import Env

from bot.client import DrawSteelBot
from bot.help import HelpEntry, HelpLine, docstring_line
from exts.help._cog import help_entries, help_pages, listed
from tests.bot.conftest import Table


def page_text(embed: discord.Embed) -> str:
    return "\n".join([embed.description or "", *(f"{f.name}\n{f.value}" for f in embed.fields)])


async def test_help_lists_every_registered_command(simcord_env: Env, table: Table) -> None:
    result = await table.alice.slash(table.channel, "help")

    assert result.ephemeral
    assert result.response is not None
    messages = [result.response, *result.followups]
    assert all(m.ephemeral for m in messages)
    text = ""
    for message in messages:
        (embed,) = message.embeds
        assert len(embed) <= 6000 and len(embed.fields) <= 25
        text += page_text(embed)
    bot = simcord_env.bot
    assert isinstance(bot, DrawSteelBot)
    names = sorted(command.qualified_name for command in bot.tree.walk_commands())
    assert "dice" in names and "help" in names
    documented = {entry.command for entry in help_entries(bot)}
    assert set(names) <= documented, f"commands without a /help entry: {set(names) - documented}"
    for entry in listed(help_entries(bot)):
        assert f"`{entry.line.example}`" in text
    for entry in help_entries(bot):
        assert entry.line.example.startswith(f"/{entry.command}")
    # each command once: one line per command that runs (no family's own line besides its
    # commands' lines, as `/malice show` twice under /malice)
    lines = [line for line in text.splitlines() if line.startswith("`/")]
    runnable = [c for c in bot.tree.walk_commands() if not isinstance(c, discord.app_commands.Group)]
    assert len(lines) == len(set(lines)) == len(runnable), sorted(lines)


async def test_help_for_one_family(table: Table) -> None:
    result = await table.alice.slash(table.channel, "help", command="/dice")
    assert result.response is not None
    (embed,) = result.response.embeds
    assert "`/dice 3d6+2`" in page_text(embed)
    assert "/help" not in page_text(embed)


async def test_help_for_an_unknown_command(table: Table) -> None:
    result = await table.alice.slash(table.channel, "help", command="banana")
    assert result.ephemeral and result.response is not None
    assert result.response.content.startswith("No command by that name: type /help")


def test_pages_split_a_long_list_and_keep_every_entry() -> None:
    entries = tuple(
        HelpEntry(
            f"fam{n // 10} cmd{n}", HelpLine(f"/fam{n // 10} cmd{n} option:{'x' * 40}", "Does a thing. " * 5)
        )
        for n in range(120)
    )
    pages = help_pages(entries)
    assert len(pages) > 1
    text = "".join(page_text(p) for p in pages)
    for entry in entries:
        assert f"`{entry.line.example}`" in text
    for page in pages:
        assert len(page) <= 6000 and len(page.fields) <= 25
    assert pages[0].footer.text == f"Page 1 of {len(pages)}"


async def test_help_works_in_threads(table: Table) -> None:
    result = await table.bob.slash(table.thread, "help")
    assert result.ephemeral and result.response is not None


async def test_commands_are_guild_only(simcord_env: Env) -> None:
    bot = simcord_env.bot
    assert isinstance(bot, DrawSteelBot)
    for command in bot.tree.get_commands():
        payload = command.to_dict(bot.tree)
        assert payload.get("contexts") == [0], command.name
        assert payload.get("integration_types") == [0], command.name


async def test_help_carries_the_creator_license(table: Table) -> None:
    """The licence line for the game content the bot repeats from uploaded files is in /help."""
    result = await table.alice.slash(table.channel, "help")
    messages = [result.response, *result.followups]
    last = messages[-1]
    assert last is not None
    (embed,) = last.embeds
    assert embed.footer.text is not None
    assert "published under the DRAW STEEL Creator License" in embed.footer.text
    assert "DRAW STEEL © 2024 MCDM Productions, LLC." in embed.footer.text


async def test_help_command_option_autocompletes_families_and_commands(table: Table) -> None:
    choices = await table.alice.autocomplete(table.channel, "help", "command", "enc")
    values = [choice["value"] for choice in choices]
    assert "encounter" in values
    assert "encounter start" in values
    assert all("enc" in value for value in values)
    assert len(values) == len(set(values))


def test_a_docstring_gives_the_help_line_its_wrapped_paragraphs_joined() -> None:
    doc = """Add a card
    (tiers split by ;).

    Example: /ability add name:Mind Spike
    tiers:2; 4; 6

    More for developers.
    """
    assert docstring_line(doc) == HelpLine(
        "/ability add name:Mind Spike tiers:2; 4; 6", "Add a card (tiers split by ;)."
    )
    assert docstring_line("Only for developers.") is None
    assert docstring_line(None) is None
