"""A Forge Steel export as uploaded: its size, its JSON, what kind of export it is, and typed field access.

A file is hostile until read, and refused while it is read, never after: over `MAX_BYTES`, not JSON, the
wrong kind, an unknown shape, too many of something (`at_most`) or over its CPU budget (`ReadBudget`) each
raise a one-line `ForgeSteelError` saying what to upload instead (docs/architecture.md, *Reading Forge Steel
files*). Public API: `MAX_BYTES`, `Kind`, `kind_of`, `load_export`, `Fields`, `ReadBudget`,
`READ_CPU_SECONDS`, `at_most`; the errors `ForgeSteelError`, `FileTooLarge`, `NotJson`, `WrongKind`,
`UnknownFormat`, `BadValue`, `TooMany`, `OverBudget`.
"""

from __future__ import annotations

import enum
import json
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from bot.rules.errors import RuleError

_T = TypeVar("_T")

MAX_BYTES = 2 * 1024 * 1024
"""The largest file read: a level-10 hero is about 200 KB, a big monster group about 100 KB."""


class ForgeSteelError(RuleError):
    """A Forge Steel file the bot can't read; nothing from it is stored. The message is one line whatever
    the file's text it quotes (a name with a line break in it stays on the refusal's one line)."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


class FileTooLarge(ForgeSteelError):
    """The file is over `MAX_BYTES`."""


class NotJson(ForgeSteelError):
    """The file isn't JSON (not a Forge Steel export)."""


class WrongKind(ForgeSteelError):
    """A Forge Steel export of another kind (a hero given to the monster import, ...)."""


class UnknownFormat(ForgeSteelError):
    """A Forge Steel export whose shape this code doesn't know (a newer Forge Steel, or another app)."""


class BadValue(ForgeSteelError):
    """A value the rules refuse (a characteristic out of range ...)."""


class TooMany(ForgeSteelError):
    """The file holds more of something (features, abilities, kits ...) than a Forge Steel file does."""


class OverBudget(ForgeSteelError):
    """The file took more CPU to read than `READ_CPU_SECONDS`."""


READ_CPU_SECONDS = 0.5
"""The CPU a file may take to read (a level-10 hero takes a few milliseconds); past it, it is refused."""
#: How many objects and list items are read between two looks at the clock (about a millisecond's work).
_CHECK_EVERY = 1024


class ReadBudget:
    """The CPU one file may take to read, from its creation on. `Fields` spends one unit per object and list
    it hands out and one per list item; every `_CHECK_EVERY` units the reading thread's CPU time is looked
    at (`clock`, `time.thread_time`: waiting for the CPU or the GIL isn't counted), and past `seconds`
    (`READ_CPU_SECONDS` unless given) the reading stops with `OverBudget`. Create it in the reading thread."""

    __slots__ = ("_clock", "_left", "_limit")

    def __init__(self, seconds: float | None = None, clock: Callable[[], float] = time.thread_time) -> None:
        self._clock = clock
        self._limit = clock() + (READ_CPU_SECONDS if seconds is None else seconds)
        self._left = _CHECK_EVERY

    def spend(self, items: int) -> None:
        self._left -= items + 1
        if self._left > 0:
            return
        self._left = _CHECK_EVERY
        if self._clock() > self._limit:
            raise OverBudget(
                "That file takes far more work to read than any Forge Steel export: export it again from "
                "Forge Steel (unedited)."
            )


def at_most(count: int, limit: int, what: str) -> None:
    """Refuse a file as soon as it holds more than `limit` `what` (counted while reading, so nothing a file
    repeats can multiply the reader's work)."""
    if count > limit:
        raise TooMany(
            f"That file has more than {limit} {what}, more than a Forge Steel export has: export it again "
            "from Forge Steel (unedited)."
        )


class Kind(enum.StrEnum):
    """The kinds of Forge Steel export, with what each is called and which command takes it."""

    HERO = "hero"
    MONSTER = "monster"
    MONSTER_GROUP = "monster group"
    ENCOUNTER = "encounter"
    NEGOTIATION = "negotiation"
    MONTAGE = "montage"
    SOURCEBOOK = "sourcebook"

    @property
    def extension(self) -> str:
        """What Forge Steel ends the file name with: `.ds-` and its name, hyphenated (`.ds-monster-group`)."""
        return ".ds-" + self.value.replace(" ", "-")

    @property
    def command(self) -> str:
        """The command that imports the kind, named by its first word (a monster group goes to `/monster
        import`); none imports a sourcebook whole."""
        return "" if self is Kind.SOURCEBOOK else f"/{self.value.split()[0]} import"


#: The fields that tell each kind, checked in this order (a sourcebook holds monster groups).
_MARKERS: tuple[tuple[Kind, frozenset[str]], ...] = (
    (Kind.HERO, frozenset({"ancestry", "class", "career"})),
    (Kind.SOURCEBOOK, frozenset({"monsterGroups"})),
    (Kind.MONSTER_GROUP, frozenset({"monsters"})),
    (Kind.MONSTER, frozenset({"role", "stamina", "features"})),
    (Kind.ENCOUNTER, frozenset({"groups"})),
    (Kind.NEGOTIATION, frozenset({"interest", "patience", "motivations", "pitfalls"})),
    (Kind.MONTAGE, frozenset({"sections", "outcomes"})),
)


def kind_of(obj: object) -> Kind | None:
    """Which kind of Forge Steel export `obj` (decoded JSON) is, or None when it is none the bot knows."""
    if not isinstance(obj, dict):
        return None
    for kind, markers in _MARKERS:
        if markers <= obj.keys():
            return kind
    return None


def _wanted_files(wanted: tuple[Kind, ...]) -> str:
    return " or ".join(f"`{k.extension}`" for k in wanted)


def load_export(data: bytes, *wanted: Kind, budget: ReadBudget | None = None) -> tuple[Kind, Fields]:
    """Check and decode an uploaded export that must be one of `wanted`: its kind and its top object (whose
    lists are read within `budget`, when given)."""
    files = _wanted_files(wanted)
    if len(data) > MAX_BYTES:
        raise FileTooLarge(
            f"That file is over {MAX_BYTES // (1024 * 1024)} MB: upload the {files} file Forge Steel "
            "exported."
        )
    try:
        obj = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise NotJson(
            f"That file isn't a Forge Steel export (it isn't JSON): upload a {files} file."
        ) from None
    kind = kind_of(obj)
    if kind is None:
        if isinstance(obj, dict):
            raise UnknownFormat(
                "That file isn't in a Forge Steel format this bot reads (a newer Forge Steel, or another "
                f"app's file): export it again as a {files} file."
            )
        raise WrongKind(f"That JSON isn't a Forge Steel export: upload a {files} file.")
    if kind not in wanted:
        where = f" (use {kind.command} for it)" if kind.command else ""
        raise WrongKind(f"That's a Forge Steel {kind.value}{where}: upload a {files} file here.")
    return kind, Fields(obj, kind.value, budget)


class Fields:
    """One JSON object of an export, read field by field: a field of the wrong type raises `UnknownFormat`
    naming it; a missing field gives the default given (Forge Steel's own updaters fill the same defaults
    for older files)."""

    __slots__ = ("_budget", "_obj", "_path")

    def __init__(self, obj: dict[str, Any], path: str, budget: ReadBudget | None = None) -> None:
        self._obj = obj
        self._path = path
        self._budget = budget

    def __contains__(self, key: str) -> bool:
        return key in self._obj

    def _bad(self, key: str, what: str) -> UnknownFormat:
        return UnknownFormat(
            f"The {self._path} has `{key}` as something other than {what}, which this bot doesn't read (a "
            "newer Forge Steel format?): export it again from Forge Steel, or enter it by hand."
        )

    def raw(self, key: str) -> Any:
        return self._obj.get(key)

    def _typed(self, key: str, default: _T, kind: type[_T], what: str) -> _T:
        """The value at `key` when it is a `kind`, `default` when missing; refused naming `what` otherwise."""
        value = self._obj.get(key)
        if value is None:
            return default
        if not isinstance(value, kind):
            raise self._bad(key, what)
        return value

    def text(self, key: str, default: str = "") -> str:
        return self._typed(key, default, str, "text")

    def known(self, key: str, default: str, names: Mapping[str, _T], what: str, instead: str) -> _T:
        """The value `names` gives the text at `key` (case and spacing ignored); a text it doesn't hold is
        refused in one line: `what` names it, `instead` says what to do."""
        text = self.text(key, default)
        found = names.get(" ".join(text.lower().split()))
        if found is None:
            raise UnknownFormat(
                f"{what} `{text[:40]}` isn't one this bot knows (a newer Forge Steel?): {instead}"
            )
        return found

    def integer(self, key: str, default: int = 0) -> int:
        value = self._obj.get(key)
        if value is None:
            return default
        if isinstance(value, float) and value.is_integer() and abs(value) < 1e9:
            return int(value)
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) >= 10**9:
            raise self._bad(key, "a number")
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        return self._typed(key, default, bool, "true or false")

    def obj(self, key: str, name: str | None = None) -> Fields:
        """The object at `key` (an empty one when missing)."""
        value = self._obj.get(key)
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise self._bad(key, "an object")
        if self._budget is not None:
            self._budget.spend(0)
        return Fields(value, name or f"{self._path} {key}", self._budget)

    def optional(self, key: str, name: str | None = None) -> Fields | None:
        """The object at `key`, or None when it is missing or null."""
        return None if self._obj.get(key) is None else self.obj(key, name)

    def items(self, key: str) -> list[Any]:
        """The list at `key` (empty when missing)."""
        value = self._obj.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self._bad(key, "a list")
        if self._budget is not None:
            self._budget.spend(len(value))
        return value

    def objects(self, key: str, name: str | None = None) -> list[Fields]:
        """The list of objects at `key`."""
        out = []
        for i, item in enumerate(self.items(key)):
            if not isinstance(item, dict):
                raise self._bad(f"{key}[{i}]", "an object")
            out.append(Fields(item, name or f"{self._path} {key}", self._budget))
        return out

    def texts(self, key: str) -> tuple[str, ...]:
        """The list of strings at `key` (a lone string is read as a list of one, as older files had)."""
        value = self._obj.get(key)
        if isinstance(value, str):
            return (value,) if value else ()
        items = self.items(key)
        if not all(isinstance(i, str) for i in items):
            raise self._bad(key, "a list of text")
        return tuple(items)
