"""A command's line of `/help`, declared with the command: `extras=help_line(example, summary)` in its
`@group.command(...)` or `app_commands.Group(...)` (`exts.help` lists them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from discord import app_commands

#: The key of a command's `extras` that holds its `HelpLine`.
HELP_KEY = "help"


@dataclass(frozen=True, slots=True)
class HelpLine:
    """What `/help` says of a command: an example of typing it, what it does."""

    example: str
    summary: str


@dataclass(frozen=True, slots=True)
class HelpEntry:
    """One line of `/help`: the command's qualified name (no slash), an example, what it does."""

    command: str
    example: str
    summary: str


def help_line(example: str, summary: str) -> dict[str, Any]:
    """A command's `extras` carrying its `/help` line: an example (the command as typed, with a slash) and
    what the command does."""
    return {HELP_KEY: HelpLine(example, summary)}


def help_entry(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> HelpEntry | None:
    """The command's `/help` line (None: it declares none)."""
    line = command.extras.get(HELP_KEY)
    if not isinstance(line, HelpLine):
        return None
    return HelpEntry(command.qualified_name, line.example, line.summary)


def guild_group(name: str, description: str, example: str, summary: str) -> app_commands.Group:
    """A command family (`/name ...`): guild-only, as every command of the bot, with its `/help` line."""
    return app_commands.Group(
        name=name, description=description, guild_only=True, extras=help_line(example, summary)
    )
