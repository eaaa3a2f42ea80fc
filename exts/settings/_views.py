"""The guild's settings as /settings shows them: one line per setting with its value, the option that changes
it and its default (`SETTINGS`, a table: a new setting is one more row).

Each row names a `GuildSettings` field and how to write its value; the default is that field's own default,
written the same way, so the two never disagree. docs/commands.md lists the same rows (a test compares them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.durations import duration_text
from bot.embeds import Colour, make_embed
from bot.store import GuildSettings

DEFAULTS = GuildSettings(guild_id=0)


def on_off(value: bool) -> str:
    return "on" if value else "off"


def role_text(role_id: int | None) -> str:
    return f"<@&{role_id}>" if role_id else "none"


def plain(value: Any) -> str:
    return str(value)


@dataclass(frozen=True, slots=True)
class Setting:
    """One line of /settings: the option, what it is called, how its value reads, and the `GuildSettings`
    field it sets (the option's own name unless given)."""

    option: str
    label: str
    show: Callable[[Any], str]
    field: str = ""

    @property
    def attribute(self) -> str:
        return self.field or self.option

    def value(self, settings: GuildSettings) -> str:
        return self.show(getattr(settings, self.attribute))

    @property
    def default(self) -> str:
        return self.show(getattr(DEFAULTS, self.attribute))


SETTINGS: tuple[Setting, ...] = (
    Setting("director_role", "Director role", role_text, field="director_role_id"),
    Setting("turn_pings", "Turn pings", on_off),
    Setting("tokens_reset_per_session", "Hero tokens reset each session", on_off),
    Setting("malice_rounding", "Malice rounding", plain),
    Setting("show_monster_stamina", "Players see monsters' exact Stamina", on_off),
    Setting("enforce_action_economy", "Action economy enforced", on_off),
    Setting("auto_saves", "The Director's creatures roll their saves", on_off),
    Setting("nudge_after", "Nudge a side that hasn't picked after", duration_text),
    Setting("argument_timer", "Argument timer", duration_text),
    Setting("negotiation_numbers", "Players see a negotiation's Interest and Patience as numbers", on_off),
)


def settings_line(setting: Setting, settings: GuildSettings) -> str:
    """`Turn pings: on — `turn_pings` (default: on)`."""
    return f"{setting.label}: {setting.value(settings)} — `{setting.option}` (default: {setting.default})"


def settings_embed(settings: GuildSettings) -> discord.Embed:
    """The guild's settings, one per line, with the option that changes each and its default."""
    lines = [settings_line(setting, settings) for setting in SETTINGS]
    return make_embed("Settings", "\n".join(lines), colour=Colour.INFO)
