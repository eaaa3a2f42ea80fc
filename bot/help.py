"""`HelpEntry`: one line of `/help`, which every cog declares in its `help_entries` (`exts.help` lists
them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class HelpEntry:
    """One line of `/help`: the command's qualified name (no slash), an example, what it does."""

    command: str
    example: str
    summary: str
