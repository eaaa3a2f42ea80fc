"""What the bot understands of one tier's text on an ability card: damage (with its dice, if it rolls any),
potency effects, forced movement.

Rules: Draw Steel, Combat, "Damage Types" (the types a tier can name), "Forced Movement" (push, pull,
slide; vertical); Draw Steel, The Basics, "Characteristics" (the letters M/A/R/I/P); Heroes ch. 7
"Potency", ch. 5 "Conditions". The card's form is Forge Steel's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.rules.characteristics import Characteristic, Characteristics
from bot.rules.conditions import Condition, Duration
from bot.rules.damage import (
    DamageDice,
    DamageError,
    DamageType,
    Potency,
    PotencyCheck,
    potency_lands,
    potency_value,
)
from bot.rules.forced import ForcedError, ForcedMovement

#: Distinct tier texts kept parsed: a table's abilities repeat the same few dozen texts strike after strike.
PARSED_KEPT = 1024


@dataclass(frozen=True, slots=True)
class AbilityDamage:
    """A tier's damage: dice if it rolls any ("2d6 + 7 + A damage"), a number, plus the highest of the listed
    characteristics ("3 + M or A damage"), of one damage type."""

    base: int
    characteristics: tuple[Characteristic, ...] = ()
    dtype: DamageType = DamageType.UNTYPED
    dice: DamageDice | None = None

    def amount(self, scores: Characteristics) -> int:
        """The flat damage for this striker (besides any dice): the base plus the highest listed score, never
        negative."""
        extra = max((scores.get(c) for c in self.characteristics), default=0)
        return max(0, self.base + extra)

    def format(self) -> str:
        """`3 + M or A fire damage`, `2d6 + 7 + A damage`, `2d10 damage` (as the card writes it)."""
        parts = [self.dice.format()] if self.dice is not None else []
        if self.base or self.dice is None:
            parts.append(str(self.base))
        if self.characteristics:
            parts.append(" or ".join(c.letter for c in self.characteristics))
        kind = "" if self.dtype is DamageType.UNTYPED else f" {self.dtype.value}"
        return f"{' + '.join(parts)}{kind} damage"

    def total(self, scores: Characteristics, bonus: int = 0) -> str:
        """What the damage comes to for this striker, as Forge Steel shows it on a hero's card: the dice and
        one number (`2d6 + 10`), or the number alone (`10`); `bonus` is added (a kit's)."""
        flat = self.amount(scores) + bonus
        return f"{self.dice.format()} + {flat}" if self.dice is not None else str(flat)


@dataclass(frozen=True, slots=True)
class PotencyTest:
    """`M < 2` (a monster's card: the number written) or `M < [weak]` (a hero's card: `strength`): a
    characteristic against a number, or against weak / average / strong = the striker's highest
    characteristic −2 / −1 / ±0, as `bot.rules.damage` gives potency (Heroes ch. 7 "Potency")."""

    characteristic: Characteristic
    value: int | None = None
    strength: Potency | None = None

    def potency(self, striker: Characteristics) -> int:
        """The number the target's characteristic must be below: written, or from the striker's highest
        characteristic (weak −2, average −1, strong ±0)."""
        if self.strength is not None:
            return potency_value(self.strength, striker)
        return self.value if self.value is not None else 0

    def check(self, target: Characteristics, striker: Characteristics) -> PotencyCheck:
        """Whether the effect lands on `target`: its characteristic is lower than the potency."""
        return potency_lands(target.get(self.characteristic), self.potency(striker))

    def format(self) -> str:
        """`M < 2` or `M < [weak]`."""
        against = f"[{self.strength.value}]" if self.strength is not None else str(self.value)
        return f"{self.characteristic.letter} < {against}"


@dataclass(frozen=True, slots=True)
class ConditionEffect:
    """Conditions a tier imposes, with their duration, behind a potency test or always; the conditions and
    their durations are `bot.rules.conditions`' (Heroes ch. 5 "Conditions").

    `duration` is None when the card writes none (grabbed and prone last until they are ended by their own
    rules). `unread` is the effect text of a potency the parser couldn't read as conditions: shown verbatim
    when the potency lands. `text` is the clause as the card writes it."""

    conditions: tuple[Condition, ...]
    duration: Duration | None = None
    potency: PotencyTest | None = None
    unread: str = ""
    text: str = ""


@dataclass(frozen=True, slots=True)
class TierEffect:
    """One tier text as understood: its damage, condition effects, forced movement
    (`bot.rules.forced.ForcedMovement`) and the clauses left as written (`rest`, shown verbatim)."""

    text: str
    damage: AbilityDamage | None = None
    effects: tuple[ConditionEffect, ...] = ()
    forced: tuple[ForcedMovement, ...] = ()
    rest: tuple[str, ...] = ()

    @property
    def fully_parsed(self) -> bool:
        """Whether every part of the text was understood (nothing left to show verbatim)."""
        return not self.rest and not any(e.unread for e in self.effects)

    @property
    def unread(self) -> tuple[str, ...]:
        """Everything shown verbatim: clauses not understood and potency effects not read as conditions."""
        return (*self.rest, *(e.text for e in self.effects if e.unread))


# --- tables -----------------------------------------------------------------------------------------------
_LETTER = "[MARIP]"
_DAMAGE_TYPES = "|".join(t.value for t in DamageType if t is not DamageType.UNTYPED)
_LETTERS = rf"{_LETTER}(?:\s*(?:,|or|,\s*or)\s*{_LETTER})*"
_DAMAGE = re.compile(
    rf"^(?:(?P<count>\d{{1,2}})d(?P<sides>\d{{1,3}})(?:\s*\+\s*(?P<dice_base>\d{{1,4}}))?|(?P<base>\d{{1,4}}))"
    rf"(?:\s*\+\s*(?P<chars>{_LETTERS}))?\s+(?:(?P<type>{_DAMAGE_TYPES})\s+)?damage"
    rf"(?:\s*\+\s*(?P<chars2>{_LETTERS})\s+damage)?\b\s*(?P<more>.*)$",
    re.IGNORECASE,
)
_POTENCY = (
    # "M < 2", "M<-1", "M < [weak]", "M < weak", followed by an optional comma
    re.compile(
        rf"^(?P<char>{_LETTER})\s*<\s*(?:(?P<num>[-−]?\d{{1,2}})|\[?(?P<strength>weak|average|avg|strong)\]?)"
        r"\s*,?\s*(?P<body>.+)$",
        re.IGNORECASE,
    ),
    # the older "M (weak)"
    re.compile(rf"^(?P<char>{_LETTER})\s*\((?P<strength>weak|average|avg|strong)\)\s*,?\s*(?P<body>.+)$"),
)
_STRENGTHS = {
    "weak": Potency.WEAK,
    "average": Potency.AVERAGE,
    "avg": Potency.AVERAGE,
    "strong": Potency.STRONG,
}
_CONDITIONS = {c.value: c for c in Condition if c not in (Condition.SURPRISED, Condition.CUSTOM)}
_DURATIONS: tuple[tuple[re.Pattern[str], Duration], ...] = (
    (re.compile(r"\s*\(\s*save\s+ends\s*\)$", re.IGNORECASE), Duration.SAVE),
    (re.compile(r"\s*\(\s*eot\s*\)$", re.IGNORECASE), Duration.EOT),
    (
        re.compile(
            r"\s*\(?\s*until\s+the\s+end\s+of\s+(?:their|its|the\s+target's)\s+next\s+turn\s*\)?$",
            re.IGNORECASE,
        ),
        Duration.EOT,
    ),
    (
        re.compile(r"\s*\(?\s*(?:until\s+the\s+)?end\s+of\s+(?:the\s+)?encounter\s*\)?$", re.IGNORECASE),
        Duration.ENCOUNTER,
    ),
)
#: Words before the conditions that say nothing more: "the target is grabbed", "they are slowed".
_SUBJECT = re.compile(r"^(?:the\s+target\s+is|target\s+is|they\s+are|is|are)\s+(?:made\s+)?", re.IGNORECASE)
#: "grabbed by you", "frightened of you": the striker is the source, which the strike knows.
_BY_STRIKER = re.compile(r"\s+(?:by|of)\s+you$", re.IGNORECASE)
#: Clauses that say nothing happens.
_NOTHING = frozenset({"no effect"})
_CONDITION_JOINS = re.compile(r"\s*,\s*and\s+|\s*,\s*|\s+and\s+", re.IGNORECASE)
_MARKUP = re.compile(r"\*\*|__|`|(?<!\w)\*|\*(?!\w)")


def _plain(clause: str) -> str:
    """A clause without Markdown emphasis or code marks, curly quotes straightened, spaces collapsed."""
    text = _MARKUP.sub("", clause).replace("’", "'").replace("−", "-")
    return " ".join(text.split()).removesuffix(".")


def _letters(text: str | None) -> tuple[Characteristic, ...]:
    if not text:
        return ()
    found = re.findall(rf"(?<![A-Za-z]){_LETTER}(?![A-Za-z])", text, re.IGNORECASE)
    return tuple(dict.fromkeys(Characteristic.from_text(letter) for letter in found))


def _conditions(body: str) -> tuple[tuple[Condition, ...], Duration | None] | None:
    """`bleeding and weakened (save ends)` -> the conditions and duration; None when it is anything else."""
    duration: Duration | None = None
    for pattern, found in _DURATIONS:
        stripped = pattern.sub("", body)
        if stripped != body:
            body, duration = stripped, found
            break
    body = _BY_STRIKER.sub("", _SUBJECT.sub("", body.strip()))
    words = [w.strip().lower() for w in _CONDITION_JOINS.split(body) if w.strip()]
    if not words or any(w not in _CONDITIONS for w in words):
        return None
    return tuple(dict.fromkeys(_CONDITIONS[w] for w in words)), duration


# --- clause readers: each adds what it read to the `_Reading` and says True, or False: not its kind ---------
@dataclass(slots=True)
class _Reading:
    damage: AbilityDamage | None = None
    effects: list[ConditionEffect] = field(default_factory=list)
    forced: list[ForcedMovement] = field(default_factory=list)
    rest: list[str] = field(default_factory=list)


def _read_nothing(clause: str, plain: str, out: _Reading) -> bool:
    return plain.lower() in _NOTHING


def _read_damage(clause: str, plain: str, out: _Reading) -> bool:
    m = _DAMAGE.match(plain)
    if m is None or out.damage is not None:
        return False
    try:
        dice = DamageDice(int(m.group("count")), int(m.group("sides"))) if m.group("sides") else None
    except DamageError:  # more dice than a strike rolls: shown as written
        return False
    dtype = DamageType.parse(m.group("type") or "")
    letters = _letters(m.group("chars")) + _letters(m.group("chars2"))
    base = int(m.group("base") or m.group("dice_base") or 0)
    out.damage = AbilityDamage(base, tuple(dict.fromkeys(letters)), dtype, dice)
    more = re.sub(r"^(?:,|and|,\s*and)\s*", "", m.group("more"), flags=re.IGNORECASE).strip()
    if more:
        _read_clause(more, out)
    return True


def _read_forced(clause: str, plain: str, out: _Reading) -> bool:
    try:
        out.forced.append(ForcedMovement.parse(plain))
    except ForcedError:  # not forced movement, or farther than any effect moves: shown as written
        return False
    return True


def _read_potency(clause: str, plain: str, out: _Reading) -> bool:
    for pattern in _POTENCY:
        m = pattern.match(plain)
        if m is not None:
            break
    else:
        return False
    characteristic = Characteristic.from_text(m.group("char"))
    strength = m.groupdict().get("strength")
    test = (
        PotencyTest(characteristic, strength=_STRENGTHS[strength.lower()])
        if strength
        else PotencyTest(characteristic, value=int(m.group("num")))
    )
    body = m.group("body")
    read = _conditions(body)
    if read is None:
        out.effects.append(ConditionEffect((), None, test, unread=body, text=clause))
    else:
        out.effects.append(ConditionEffect(read[0], read[1], test, text=clause))
    return True


def _read_condition(clause: str, plain: str, out: _Reading) -> bool:
    read = _conditions(plain)
    if read is None:
        return False
    out.effects.append(ConditionEffect(read[0], read[1], None, text=clause))
    return True


_READERS: tuple[Callable[[str, str, _Reading], bool], ...] = (
    _read_nothing,
    _read_damage,
    _read_forced,
    _read_potency,
    _read_condition,
)


def _read_clause(clause: str, out: _Reading) -> None:
    plain = _plain(clause)
    if not plain:
        return
    if not any(reader(clause, plain, out) for reader in _READERS):
        out.rest.append(clause)


@functools.lru_cache(maxsize=PARSED_KEPT)
def parse_tier(text: str) -> TierEffect:
    """Read one tier text (`6 + A damage; A < [strong] slowed (EoT)`) into a `TierEffect`. Never raises:
    what isn't understood is kept as written. The result is immutable, so a text is read once (cached).

    The text is split at its semicolons into clauses; each clause is offered to the readers in `_READERS`
    in turn ("no effect", damage, forced movement, a potency effect, a condition that always lands). A clause
    no reader understands is kept verbatim in `TierEffect.rest`, and the effect of a potency whose effect
    isn't plain conditions is kept verbatim in `ConditionEffect.unread`: nothing is dropped and nothing
    guessed."""
    out = _Reading()
    for clause in text.split(";"):
        _read_clause(clause.strip(), out)
    return TierEffect(
        text=text,
        damage=out.damage,
        effects=tuple(out.effects),
        forced=tuple(out.forced),
        rest=tuple(out.rest),
    )
