"""/settings through SimCord: show, change each setting, Director-only (Manage Channels or the Director role),
and refusals that change nothing."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from bot.store import GuildSettings
from bot.ui.settings import SETTINGS
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


async def test_change_every_setting(table: Table) -> None:
    mod = table.add_channel_manager("mo")
    result = await mod.slash(
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
    # the Director role now directs: its member changes a setting
    await table.director.slash(table.channel, "settings", malice_rounding="up")
    assert (await current(table)).malice_rounding == "up"


async def test_players_cant_see_or_change_settings(table: Table) -> None:
    await table.configure_director_role()
    refused(await table.alice.slash(table.channel, "settings"), "Only the Director")
    refused(await table.alice.slash(table.channel, "settings", turn_pings=False), "Only the Director")
    assert (await current(table)).turn_pings is True


async def test_without_a_configured_role_only_manage_channels_directs(table: Table) -> None:
    refused(await table.director.slash(table.channel, "settings", turn_pings=False), "Only the Director")
    assert (await current(table)).turn_pings is True


async def test_clear_the_director_role(table: Table) -> None:
    await table.configure_director_role()
    await table.director.slash(table.channel, "settings", clear_director_role=True)
    assert (await current(table)).director_role_id is None
    refused(await table.director.slash(table.channel, "settings", turn_pings=False), "Only the Director")


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
    """Issue 22 §4: "Every setting's default is listed in docs/commands.md and in /settings itself." Every
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
