"""Durations as people type them (`15m`, `2h`, `1d`, `1h30m`, `30s`, `off`) and as the bot writes them back.

Used by the timed settings (`/settings nudge_after:12h argument_timer:30s`, `exts.reminders._service`)."""

from __future__ import annotations

import re

from bot.replies import fail

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
OFF = ("off", "none", "0", "no", "false")
_PART = re.compile(r"(\d{1,6})\s*([smhd])")
_WHOLE = re.compile(r"(?:\d{1,6}\s*[smhd]\s*)+")


def parse_duration(text: str, *, low: int, high: int, what: str) -> int | None:
    """Seconds for `text` (None for `off`), refused unless within `low`..`high` seconds."""
    clean = text.strip().lower()
    if clean in OFF:
        return None
    if not _WHOLE.fullmatch(clean):
        fail(f"Type {what} as a duration like 15m, 2h or 1d (or off).")
    seconds = sum(int(amount) * UNITS[unit] for amount, unit in _PART.findall(clean))
    if not low <= seconds <= high:
        fail(f"{what.capitalize()} is between {duration_text(low)} and {duration_text(high)} (or off).")
    return seconds


def duration_text(seconds: int | None) -> str:
    """`12h`, `1h 30m`, `30s`, `7d`; `off` for None."""
    if seconds is None:
        return "off"
    parts = []
    rest = seconds
    for unit in ("d", "h", "m", "s"):
        amount, rest = divmod(rest, UNITS[unit])
        if amount:
            parts.append(f"{amount}{unit}")
    return " ".join(parts) or "0s"
