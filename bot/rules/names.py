"""Names of heroes and creatures: the one validator.

Public API: `clean_name(text) -> str`, `NAME_MAX` (64), `BadNameError`.

Strips, collapses runs of whitespace to one space, refuses empty names, names longer than `NAME_MAX`
characters and control characters; any other Unicode is fine. Neutralising mentions and markdown is the
renderer's job, not this module's.
"""

from __future__ import annotations

import unicodedata

from bot.rules.errors import RuleError

NAME_MAX = 64


class BadNameError(RuleError):
    """A name that can't be used."""


def clean_name(text: str) -> str:
    """Return `text` tidied for use as a creature or hero name, or raise `BadNameError`."""
    for ch in text:
        if unicodedata.category(ch) == "Cc" and not ch.isspace():
            raise BadNameError("Names can't contain control characters: type the name as plain text.")
    name = " ".join(text.split())
    if not name:
        raise BadNameError("Give a name: it can't be empty.")
    if len(name) > NAME_MAX:
        raise BadNameError(f"Names can be at most {NAME_MAX} characters: type a shorter name.")
    return name
