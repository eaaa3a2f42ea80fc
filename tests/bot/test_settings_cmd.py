"""/settings through SimCord: show, change each setting, server Directors only (the Director role or Manage
Server at the server level; never a channel's Manage Channels), and refusals that change nothing."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import discord

from bot.store import GuildSettings
from exts.settings._views import SETTINGS
from tests.bot.conftest import Table
from tests.bot.test_heroes import embed_text, refused


async def current(table: Table) -> GuildSettings:
    return await table.store.get_settings(table.guild.id)


async def test_show_without_options(table: Table) -> None:
    await table.configure_director_role()
    result = await table.director.slash(table.channel, "settings")
    assert result.ephemeral
    shown = embed_text(result)
    assert f"Director role: <@&{table.director_role.id}>" in shown
    assert "Turn pings: on" in shown and "Malice rounding: down" in shown
    assert "Hero tokens reset each session: on" in shown and "exact Stamina: on" in shown


def shown_to_everyone(table: Table) -> None:
    """The server's admins let everyone see /settings (Integrations): the bot still decides."""
    table.allow_command("settings", table.guild.default_role)


def test_settings_is_hidden_from_members_without_manage_server(table: Table) -> None:
    """ "`/settings` carries `default_member_permissions` = Manage Server, so Discord hides it from
    others; the bot still checks." """
    settings = table.env.bot.tree.get_command("settings")
    assert settings is not None and settings.default_permissions == discord.Permissions(manage_guild=True)


async def test_change_every_setting(table: Table) -> None:
    admin = table.add_server_manager("max")
    result = await admin.slash(
        table.channel,
        "settings",
        director_role=table.director_role,
        turn_pings=False,
        tokens_reset_per_session=False,
        malice_rounding="nearest",
        show_monster_stamina=False,
        enforce_action_economy=False,
    )
    assert "Settings updated" in embed_text(result) and "Malice rounding: nearest" in embed_text(result)
    assert await current(table) == GuildSettings(
        table.guild.id,
        director_role_id=table.director_role.id,
        turn_pings=False,
        tokens_reset_per_session=False,
        malice_rounding="nearest",
        show_monster_stamina=False,
        enforce_action_economy=False,
    )
    # the Director role now directs: its member changes a setting (once the admins let the role see it)
    table.allow_command("settings", table.director_role)
    await table.director.slash(table.channel, "settings", malice_rounding="up")
    assert (await current(table)).malice_rounding == "up"


async def test_players_cant_see_or_change_settings(table: Table) -> None:
    await table.configure_director_role()
    shown_to_everyone(table)
    role = f"<@&{table.director_role.id}>"
    only = f"Only a server Director (the {role} role or Manage Server) can use /settings."
    refused(await table.alice.slash(table.channel, "settings"), only)
    refused(await table.alice.slash(table.channel, "settings", turn_pings=False), only)
    assert (await current(table)).turn_pings is True


async def test_without_a_configured_role_only_manage_server_directs(table: Table) -> None:
    shown_to_everyone(table)
    refused(await table.director.slash(table.channel, "settings", turn_pings=False), "Only a server Director")
    assert (await current(table)).turn_pings is True
    await table.add_server_manager("max").slash(table.channel, "settings", turn_pings=False)
    assert (await current(table)).turn_pings is False


async def test_manage_channels_on_one_channel_cant_change_settings(table: Table) -> None:
    """ "Manage Channels on one channel is enough to change server-wide settings" (a hole): Server
    Directors are "members with **Manage Server** at the server level (guild permissions, ignoring channel
    overwrites)"."""
    shown_to_everyone(table)
    mo = table.add_channel_only_manager("mo")
    result = await mo.slash(table.channel, "settings", director_role=table.director_role)
    refused(result, "Only a server Director")
    assert (await current(table)).director_role_id is None
    refused(await table.add_channel_manager("cy").slash(table.channel, "settings"), "Only a server Director")


async def test_clear_the_director_role(table: Table) -> None:
    await table.configure_director_role()
    await table.director.slash(table.channel, "settings", clear_director_role=True)
    assert (await current(table)).director_role_id is None
    refused(await table.director.slash(table.channel, "settings", turn_pings=False), "Only a server Director")


async def test_bad_combinations_are_refused(table: Table) -> None:
    await table.configure_director_role()
    refused(
        await table.director.slash(
            table.channel, "settings", director_role=table.director_role, clear_director_role=True
        ),
        "not both",
    )
    everyone = table.guild.default_role
    refused(await table.director.slash(table.channel, "settings", director_role=everyone), "@everyone")
    assert (await current(table)).director_role_id == table.director_role.id


def _docs_defaults() -> dict[str, str]:
    """The settings table of docs/commands.md: option -> default."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "commands.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+?) \|", text, flags=re.MULTILINE)
    return dict(rows)


async def test_every_setting_shows_its_default_here_and_in_the_docs(table: Table) -> None:
    """ "Every setting's default is listed in docs/commands.md and in /settings itself." Every
    field of `GuildSettings` has a row, /settings shows its value and default, and the docs say the same
    default."""
    fields = {f.name for f in dataclasses.fields(GuildSettings)} - {"guild_id"}
    assert {s.attribute for s in SETTINGS} == fields
    await table.configure_director_role()
    await table.store.update_settings(table.guild.id, turn_pings=False)
    shown = embed_text(await table.director.slash(table.channel, "settings"))
    assert "Turn pings: off — `turn_pings` (default: on)" in shown
    assert "Malice rounding: down — `malice_rounding` (default: down)" in shown
    assert f"Director role: <@&{table.director_role.id}> — `director_role` (default: none)" in shown
    documented = _docs_defaults()
    for setting in SETTINGS:
        assert f"— `{setting.option}` (default: {setting.default})" in shown
        assert documented.get(setting.option) == setting.default, setting.option
