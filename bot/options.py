"""Checks of a command's typed options, shared by the cogs (what Discord's own limits don't cover).

Each refuses the command with `bot.replies.fail` and a one-line reason that says what to type instead.
"""

from __future__ import annotations

from bot.replies import fail


def check_text(value: str | None, what: str, limit: int) -> None:
    """Refuse a text option longer than `limit` characters (None passes: the option was left out)."""
    if value is not None and len(value) > limit:
        fail(f"The {what} can be at most {limit} characters: type a shorter one.")


def check_range(value: int, low: int, high: int, what: str) -> None:
    """Refuse a number option outside `low`..`high`."""
    if not low <= value <= high:
        fail(f"{what} must be a number from {low} to {high}.")
