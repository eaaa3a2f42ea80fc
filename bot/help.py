"""Each command's line of `/help`, declared with the command (`exts.help` lists them).

A command says it in its docstring: the first paragraph is what it does, and a paragraph
`Example: /family command option: value` shows how to type it. A command family (a group, which has no
function of its own) carries its line in its `extras` (`guild_group`, `help_line`).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from discord import app_commands

#: The key of a command family's `extras` that holds its `HelpLine`.
HELP_KEY = "help"
EXAMPLE = "Example: "


@dataclass(frozen=True, slots=True)
class HelpLine:
    """What `/help` says of a command: an example of typing it, what it does."""

    example: str
    summary: str


@dataclass(frozen=True, slots=True)
class HelpEntry:
    """One line of `/help`: the command's qualified name (no slash) and its `HelpLine`."""

    command: str
    line: HelpLine


def help_line(example: str, summary: str) -> dict[str, Any]:
    """A command family's `extras` carrying its `/help` line: an example (as typed, with a slash) and what
    the family is for."""
    return {HELP_KEY: HelpLine(example, summary)}


def guild_group(name: str, description: str, example: str, summary: str | None = None) -> app_commands.Group:
    """A command family (`/name ...`): guild-only, as every command of the bot, with its `/help` line (what
    it does: `summary`, else its `description`)."""
    line = help_line(example, description if summary is None else summary)
    return app_commands.Group(name=name, description=description, guild_only=True, extras=line)


def docstring_line(doc: str | None) -> HelpLine | None:
    """The `/help` line a command's docstring gives (None: it has no `Example:` paragraph). A paragraph's
    lines join with single spaces, so a long one may wrap."""
    paragraphs = [" ".join(p.split("\n")) for p in inspect.cleandoc(doc or "").split("\n\n")]
    example = next((p for p in paragraphs if p.startswith(EXAMPLE)), None)
    if example is None:
        return None
    return HelpLine(example.removeprefix(EXAMPLE), paragraphs[0])


def help_entry(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> HelpEntry | None:
    """The command's `/help` line (None: it declares none)."""
    if isinstance(command, app_commands.Command):
        line = docstring_line(command.callback.__doc__)
    else:
        line = command.extras.get(HELP_KEY)
    if not isinstance(line, HelpLine):
        return None
    return HelpEntry(command.qualified_name, line)
