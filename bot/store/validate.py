"""Checks run on everything before it is written, so bad input is a clear `InvalidValue`, never a crash.

The limits (names, Discord ids, JSON data, the hero-token pool, heroes per campaign) are listed in
docs/store.md, *Limits*.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

import orjson

from bot.rules import names
from bot.store.errors import InvalidValue

NAME_LIMIT = 64
#: Room for the case-folded, NFKC-normalised key of a 64-character name (a few characters expand a lot).
NAME_KEY_LIMIT = 256
SUMMARY_LIMIT = 2000
KIND_LIMIT = 40
TOKEN_LIMIT = 1_000_000
#: Most heroes one campaign's roster holds.
HERO_LIMIT = 200
#: Most heroes of one member in a campaign's roster: nobody fills the campaign's places alone.
HEROES_PER_MEMBER = 10
DEPTH_LIMIT = 64
JSON_BYTES_LIMIT = 1_000_000
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
#: What no saved string may hold: NUL, and lone surrogates (which can't be encoded as UTF-8).
_UNSAVABLE = re.compile("[\x00\ud800-\udfff]")


def _bad_char(text: str) -> str | None:
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Cs", "Zl", "Zp"):
            return char
    return None


def name(value: object, what: str = "name") -> str:
    """A trimmed display name of 1–64 characters without control characters."""
    if not isinstance(value, str):
        raise InvalidValue(f"The {what} must be text.")
    text = value.strip()
    if not text:
        raise InvalidValue(f"The {what} can't be empty — type a name.")
    if len(text) > NAME_LIMIT:
        raise InvalidValue(f"The {what} is too long: use at most {NAME_LIMIT} characters.")
    if _bad_char(text) is not None:
        raise InvalidValue(f"The {what} contains a control character — type it without line breaks or tabs.")
    if len(name_key(text)) > NAME_KEY_LIMIT:
        raise InvalidValue(f"The {what} is too long: use fewer or simpler characters.")
    return text


def name_key(text: str) -> str:
    """The key that must be unique per channel: the rules' one name key (`bot.rules.names.name_key`)."""
    return names.name_key(text)


def snowflake(value: object, what: str = "id") -> int:
    """A Discord id: a positive 64-bit integer."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidValue(f"The {what} must be a whole number.")
    if not 1 <= value <= INT64_MAX:
        raise InvalidValue(f"The {what} is not a valid Discord id.")
    return value


def optional_snowflake(value: object, what: str = "id") -> int | None:
    """A Discord id or None."""
    return None if value is None else snowflake(value, what)


def tokens(value: object) -> int:
    """The size of a hero-token pool."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidValue("Hero tokens must be a whole number.")
    if value < 0:
        raise InvalidValue("The party has no hero tokens left to spend.")
    if value > TOKEN_LIMIT:
        raise InvalidValue(f"Hero tokens are limited to {TOKEN_LIMIT:,}.")
    return value


def text(value: object, what: str, limit: int) -> str:
    """Free text (summaries): at most `limit` characters, no NUL or lone surrogates."""
    if not isinstance(value, str):
        raise InvalidValue(f"The {what} must be text.")
    if len(value) > limit:
        raise InvalidValue(f"The {what} is too long: use at most {limit} characters.")
    if _UNSAVABLE.search(value):
        raise InvalidValue(f"The {what} contains a character that can't be saved.")
    return value


def kind(value: object) -> str:
    """An event kind such as `strike` or `encounter.start`."""
    if not isinstance(value, str) or not value or len(value) > KIND_LIMIT:
        raise InvalidValue(f"An event kind must be 1–{KIND_LIMIT} characters.")
    if not all(c.isascii() and (c.isalnum() or c in "._:-") for c in value):
        raise InvalidValue("An event kind may use letters, digits and . _ : - only.")
    return value


def _where(path: tuple[str | int, ...]) -> str:
    """A short, readable location such as `encounter state.combatants[3].stamina` (long paths elided)."""
    parts = [f"[{p}]" if isinstance(p, int) else f".{p[:20]}" for p in path]
    if len(parts) > 6:
        parts = [*parts[:3], "…", *parts[-2:]]
    return "".join(parts).lstrip(".") or "the value"


def _clean(value: Any, path: tuple[str | int, ...], depth: int) -> Any:
    if depth > DEPTH_LIMIT:
        raise InvalidValue(f"The data at {_where(path)} is nested too deeply.")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if not INT64_MIN <= value <= INT64_MAX:
            raise InvalidValue(f"The number at {_where(path)} is too large to save.")
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidValue(f"The number at {_where(path)} is not finite.")
        return float(value)
    if isinstance(value, str):
        if _UNSAVABLE.search(value):
            raise InvalidValue(f"The text at {_where(path)} contains a character that can't be saved.")
        return value[:]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidValue(f"The data at {_where(path)} has a key that is not text.")
            _clean(key, (*path, key), depth + 1)
            out[key] = _clean(item, (*path, key), depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        return [_clean(item, (*path, index), depth + 1) for index, item in enumerate(value)]
    raise InvalidValue(f"The data at {_where(path)} is a {type(value).__name__}, which can't be saved.")


class _Slow(Exception):
    """Raised by the quick check when a value needs the careful (copying, message-giving) path."""


def _check(value: Any, like: Any, depth: int) -> None:
    """Check that `value` is clean JSON data of exact built-in types, in place; `_Slow` for anything else
    (even if valid). Parts that are `like`'s very objects (at the same place) were checked before and are
    skipped."""
    if value is like:
        return
    kind = type(value)
    if kind is str:
        if "\x00" in value:
            raise _Slow
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise _Slow from None
        return
    if kind is int:
        if INT64_MIN <= value <= INT64_MAX:
            return
        raise _Slow
    if kind is dict:
        if depth >= DEPTH_LIMIT:
            raise _Slow
        like_items = like if type(like) is dict else {}
        for key, item in value.items():
            if type(key) is not str or "\x00" in key:
                raise _Slow
            if item is not (like_item := like_items.get(key)):  # a shared part needs no call
                _check(item, like_item, depth + 1)
        return
    if kind is list:
        if depth >= DEPTH_LIMIT:
            raise _Slow
        like_list = like if type(like) is list else []
        # by position (a list that grew or shrank at its end keeps the rest in place)
        for item, like_item in zip(value, like_list, strict=False):
            if item is not like_item:
                _check(item, like_item, depth + 1)
        for item in value[len(like_list) :]:
            _check(item, None, depth + 1)
        return
    if value is None or kind is bool:
        return
    if kind is float and math.isfinite(value):
        return
    raise _Slow


def json_data(value: object, what: str, *, like: object = None) -> Any:
    """Validated JSON data: `value` itself when it is clean data of exact built-in types, else a fresh,
    clean copy (tuples become lists, subclasses their base types). `like` is data validated before, such
    as the same field's last saved value: where `value` shares its objects, they are not checked again
    (an encounter's unchanged creatures, say)."""
    try:
        _check(value, like, 0)
        return value
    except _Slow:
        return _clean(value, (what,), 0)
    except RecursionError:
        raise InvalidValue(f"The {what} is nested too deeply.") from None


def json_object(value: object, what: str, *, like: object = None) -> dict[str, Any]:
    """Validated JSON data that must be a mapping (see `json_data`)."""
    if not isinstance(value, dict):
        raise InvalidValue(f"The {what} must be a mapping.")
    cleaned: dict[str, Any] = json_data(value, what, like=like)
    return cleaned


def check_size(value: Any, what: str) -> str:
    """Encode `value` compactly; refuse it when it exceeds the size limit."""
    encoded = dumps(value)
    if len(encoded) > JSON_BYTES_LIMIT:
        raise InvalidValue(f"The {what} is too large to save.")
    return encoded


def dumps(value: Any) -> str:
    """Compact JSON as stored in the database (orjson: ten times the standard library's speed on an
    encounter state). It refuses what JSON can't hold (non-text keys, integers beyond 64 bits, other
    types), but writes NaN and infinities as null: the store checks every value first (`json_data`)."""
    return orjson.dumps(value).decode()
