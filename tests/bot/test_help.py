"""`/help` lists every command with an example, through real dispatch."""

from __future__ import annotations

from simcord.env import Env

from bot.client import DrawSteelBot
from cogs.meta import help_entries
from tests.bot.conftest import Table


async def test_help_lists_every_registered_command(simcord_env: Env, table: Table) -> None:
    result = await table.alice.slash(table.channel, "help")

    assert result.ephemeral
    assert result.response is not None
    (embed,) = result.response.embeds
    text = embed.description or ""
    bot = simcord_env.bot
    assert isinstance(bot, DrawSteelBot)
    names = sorted(command.qualified_name for command in bot.tree.walk_commands())
    assert "dice" in names and "help" in names
    documented = {entry.command for entry in help_entries(bot)}
    assert set(names) <= documented, f"commands without a /help entry: {set(names) - documented}"
    for entry in help_entries(bot):
        assert f"`{entry.example}`" in text
        assert entry.example.startswith(f"/{entry.command}")


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
