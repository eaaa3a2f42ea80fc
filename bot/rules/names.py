"""Names of heroes, creatures, squads, groups, teams and custom conditions: the one validator and the one key.

Neutralising mentions and markdown is the renderer's job (`bot.replies.inert`), not this module's.
"""

from __future__ import annotations

import unicodedata

from bot.rules.errors import RuleError

NAME_MAX = 64

#: Invisible characters outside category Cf: the combining grapheme joiner, the Hangul fillers, the
#: Khmer inherent vowels, the Mongolian variation selectors, the Braille blank and the variation selectors.
_INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))
)


class BadNameError(RuleError):
    """A name that can't be used."""


def _shown(char: str) -> bool:
    return char not in _INVISIBLE and unicodedata.category(char) != "Cf"


def visible(text: str) -> str:
    """`text` without its invisible and format characters (spacing kept as it is)."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if _shown(ch))


def name_key(text: str) -> str:
    """The key two names are compared by everywhere (the roster, the encounter's creatures, squads, groups,
    teams, custom conditions): NFKC, case-folded, invisibles dropped, spacing collapsed, so `Ash` and `Ash`
    with a zero-width space are the same name."""
    if text.isascii():
        return " ".join(text.split()).casefold()
    folded = unicodedata.normalize("NFKC", visible(text)).casefold()
    return " ".join(visible(folded).split())


def clean_name(text: str) -> str:
    """Return `text` tidied for use as a name, or raise `BadNameError`.

    Drops invisible characters (format characters such as zero-width spaces, joiners and bidi overrides,
    Unicode category Cf; the Hangul and Braille fillers; variation selectors), collapses runs of whitespace
    to one space, and refuses names that are empty after that, longer than `NAME_MAX` characters, or hold
    control characters; any other Unicode is fine."""
    for ch in text:
        if unicodedata.category(ch) == "Cc" and not ch.isspace():
            raise BadNameError("Names can't contain control characters: type the name as plain text.")
    name = " ".join(visible(text).split())
    if not name:
        raise BadNameError("Give a name: it can't be empty or invisible.")
    if len(name) > NAME_MAX:
        raise BadNameError(f"Names can be at most {NAME_MAX} characters: type a shorter name.")
    return name
