"""Negotiations: an NPC's Interest and Patience, motivations and pitfalls, arguments, discovery and the offer.

Rules: Draw Steel Heroes, "Negotiation" ("Interest and Patience", "Motivations and Pitfalls", "Making
Arguments", "Discovering Motivations and Pitfalls", "Ending a Negotiation", "The Offer").
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable
from dataclasses import dataclass

from bot.rules.dice import Dice
from bot.rules.errors import RuleError
from bot.rules.power import CRITICAL_NATURAL, PowerRoll, RollKind, roll_power

LOW = 0
HIGH = 5
"""Interest and Patience each run from 0 to 5 ("Interest and Patience")."""
TRAITS_MAX = 12
"""At most the twelve motivations between an NPC's motivations and pitfalls (each is one of the twelve)."""
NPC_MAX = 80
"""The longest NPC name kept."""


class NegotiationError(RuleError):
    """A negotiation request the rules refuse."""


class Attitude(enum.StrEnum):
    """The NPC's first attitude, which sets its starting Interest and Patience ("Interest and Patience")."""

    HOSTILE = "hostile"
    SUSPICIOUS = "suspicious"
    NEUTRAL = "neutral"
    OPEN = "open"
    FRIENDLY = "friendly"
    TRUSTING = "trusting"

    @property
    def interest(self) -> int:
        return _ATTITUDES[self][0]

    @property
    def patience(self) -> int:
        return _ATTITUDES[self][1]


_ATTITUDES: dict[Attitude, tuple[int, int]] = {
    Attitude.HOSTILE: (1, 2),
    Attitude.SUSPICIOUS: (2, 2),
    Attitude.NEUTRAL: (2, 3),
    Attitude.OPEN: (3, 3),
    Attitude.FRIENDLY: (3, 4),
    Attitude.TRUSTING: (3, 5),
}


class Motivation(enum.StrEnum):
    """The twelve motivations; each pitfall is one of them too ("Motivations and Pitfalls")."""

    BENEVOLENCE = "benevolence"
    DISCOVERY = "discovery"
    FREEDOM = "freedom"
    GREED = "greed"
    HIGHER_AUTHORITY = "higher authority"
    JUSTICE = "justice"
    LEGACY = "legacy"
    PEACE = "peace"
    POWER = "power"
    PROTECTION = "protection"
    REVELRY = "revelry"
    VENGEANCE = "vengeance"

    @classmethod
    def from_text(cls, text: str) -> Motivation:
        """A motivation as typed: case, spaces, `-` and `_` ignored (`Higher-Authority`)."""
        key = " ".join(text.replace("-", " ").replace("_", " ").casefold().split())
        found = _BY_KEY.get(key)
        if found is None:
            raise NegotiationError(
                f"`{text[:40]}` isn't a motivation: type one of {', '.join(m.value for m in cls)}."
            )
        return found


_BY_KEY = {m.value: m for m in Motivation}


class Appeal(enum.StrEnum):
    """What an argument appeals to ("Making Arguments")."""

    MOTIVATION = "motivation"
    NONE = "none"
    PITFALL = "pitfall"


class Row(enum.Enum):
    """The rows of the arguments table ("Making Arguments")."""

    NEW_MOTIVATION = "new"
    USED_MOTIVATION = "used"
    NO_MOTIVATION = "none"
    PITFALL = "pitfall"

    @property
    def words(self) -> str:
        return _ROW_WORDS[self]


_ROW_WORDS = {
    Row.NEW_MOTIVATION: "a motivation not yet used",
    Row.USED_MOTIVATION: "a motivation already used",
    Row.NO_MOTIVATION: "no motivation and no pitfall",
    Row.PITFALL: "a pitfall",
}


class Offer(enum.Enum):
    """The NPC's offer at the end: six offers, by Interest ("The Offer")."""

    NO_AND = 0
    NO = 1
    NO_BUT = 2
    YES_BUT = 3
    YES = 4
    YES_AND = 5

    @property
    def words(self) -> str:
        return _OFFER_WORDS[self][0]

    @property
    def meaning(self) -> str:
        return _OFFER_WORDS[self][1]


_OFFER_WORDS = {
    Offer.NO_AND: ("No, and…", "the NPC refuses and acts against the heroes"),
    Offer.NO: ("No.", "the NPC refuses"),
    Offer.NO_BUT: ("No, but…", "the NPC offers a lesser thing, or one with a cost"),
    Offer.YES_BUT: ("Yes, but…", "the NPC agrees, with a cost or a condition"),
    Offer.YES: ("Yes.", "the NPC agrees"),
    Offer.YES_AND: ("Yes, and…", "the NPC agrees and gives more than was asked"),
}


def offer_for(interest: int) -> Offer:
    """The offer Interest gives: 0 "No, and…" up to 5 "Yes, and…" ("The Offer")."""
    return Offer(clamp(interest))


def clamp(value: int) -> int:
    """Interest and Patience stay within 0 to 5 ("Interest and Patience")."""
    return max(LOW, min(HIGH, value))


@dataclass(frozen=True, slots=True)
class Trait:
    """One of the NPC's motivations or pitfalls; hidden from the players until `revealed`. `note` is the
    Director's own text for it (a Forge Steel file's description)."""

    motivation: Motivation
    revealed: bool = False
    note: str = ""


@dataclass(frozen=True, slots=True)
class Argument:
    """One argument made: who, what it appealed to, its tier, and what it changed. `lie` marks an argument
    the Director may answer with 1 more Interest lost (`take_lie_interest`); `lie_taken` once taken."""

    hero: str
    appeal: Appeal
    motivation: Motivation | None
    row: Row
    tier: int
    interest: int
    patience: int
    natural: int = 0
    repeated: bool = False
    lie: bool = False
    lie_taken: bool = False


@dataclass(frozen=True, slots=True)
class Negotiation:
    """A negotiation's state, as the store keeps it: the NPC, Interest and Patience, motivations and
    pitfalls, the motivations already appealed to (`used`), the arguments made, and whether the heroes
    called for the offer."""

    npc: str
    interest: int
    patience: int
    attitude: Attitude | None = None
    motivations: tuple[Trait, ...] = ()
    pitfalls: tuple[Trait, ...] = ()
    used: tuple[Motivation, ...] = ()
    arguments: tuple[Argument, ...] = ()
    called: bool = False
    owed: bool = False
    """A tier 3 discovery whose motivation or pitfall the Director hasn't picked yet (`reveal_owed`)."""

    @property
    def ended(self) -> bool:
        """Over when Interest reaches 0 or 5, Patience reaches 0, or the heroes called for the offer
        ("Ending a Negotiation")."""
        return self.called or self.interest in (LOW, HIGH) or self.patience == LOW

    @property
    def offer(self) -> Offer:
        return offer_for(self.interest)

    def is_motivation(self, motivation: Motivation) -> bool:
        return any(t.motivation is motivation for t in self.motivations)

    def is_pitfall(self, motivation: Motivation) -> bool:
        return any(t.motivation is motivation for t in self.pitfalls)

    def hidden(self) -> tuple[tuple[Motivation, bool], ...]:
        """The unrevealed motivations (False) and pitfalls (True), in order: what a tier 3 discovery may
        reveal."""
        return tuple((t.motivation, False) for t in self.motivations if not t.revealed) + tuple(
            (t.motivation, True) for t in self.pitfalls if not t.revealed
        )


def _traits(items: Iterable[Motivation | Trait]) -> tuple[Trait, ...]:
    """Each motivation once, first mention kept, in order."""
    kept: dict[Motivation, Trait] = {}
    for item in items:
        trait = item if isinstance(item, Trait) else Trait(item)
        kept.setdefault(trait.motivation, trait)
    return tuple(kept.values())


def start(
    npc: str,
    attitude: Attitude,
    motivations: Iterable[Motivation | Trait],
    pitfalls: Iterable[Motivation | Trait],
) -> Negotiation:
    """A negotiation with the Interest and Patience the first attitude sets ("Interest and Patience")."""
    return begin(npc, attitude.interest, attitude.patience, motivations, pitfalls, attitude)


def begin(
    npc: str,
    interest: int,
    patience: int,
    motivations: Iterable[Motivation | Trait],
    pitfalls: Iterable[Motivation | Trait],
    attitude: Attitude | None = None,
    *,
    unwritten: bool = False,
) -> Negotiation:
    """A negotiation at the Interest and Patience given (a Forge Steel file's), which must leave it running
    ("Ending a Negotiation"); the NPC has one or more motivations and one or more pitfalls, none of them
    both ("Motivations and Pitfalls"). `unwritten`: a file may leave either list empty (Forge Steel starts
    a new negotiation so, and a Director may keep them in mind): every argument then appeals to no
    motivation."""
    name = " ".join(npc.split())
    if not name or len(name) > NPC_MAX:
        raise NegotiationError(f"Name the NPC in 1 to {NPC_MAX} characters: e.g. npc:Baron Vell.")
    if not LOW < interest < HIGH or not LOW < patience <= HIGH:
        raise NegotiationError(
            f"A negotiation starts at Interest 1 to 4 and Patience 1 to 5, not {interest} and {patience}: "
            "one of those would end it at once."
        )
    wants, fears = _traits(motivations), _traits(pitfalls)
    if not unwritten and (not wants or not fears):
        raise NegotiationError(
            "An NPC has at least one motivation and one pitfall: e.g. motivations:greed,legacy "
            "pitfalls:peace."
        )
    both = {t.motivation for t in wants} & {t.motivation for t in fears}
    if both:
        raise NegotiationError(
            f"{', '.join(sorted(both))} can't be both a motivation and a pitfall: keep it in one list."
        )
    return Negotiation(name, interest, patience, attitude, wants, fears)


def roll_test(dice: Dice, bonus: int = 0, edges: int = 0, banes: int = 0) -> PowerRoll:
    """A hero's test for an argument or a discovery ("Making Arguments": usually Presence, sometimes Reason
    or Intuition): an ordinary power-roll test."""
    return roll_power(dice, bonus=bonus, edges=edges, banes=banes, kind=RollKind.TEST)


@dataclass(frozen=True, slots=True)
class ArgueResult:
    """An argument's outcome: the new state, the argument as recorded, and what it counted as
    (`row`: which row of the table was read)."""

    state: Negotiation
    argument: Argument
    row: Row
    revealed: Trait | None = None


_TABLE: dict[Row, tuple[tuple[int, int], tuple[int, int], tuple[int, int]]] = {
    Row.NEW_MOTIVATION: ((0, -1), (1, -1), (1, 0)),
    Row.USED_MOTIVATION: ((0, -1), (0, -1), (0, -1)),
    Row.NO_MOTIVATION: ((-1, -1), (0, -1), (1, -1)),
    Row.PITFALL: ((-1, -1), (-1, -1), (-1, -1)),
}
"""(Interest, Patience) changes by row and tier ("Making Arguments"); a pitfall is always tier 1."""


def _row(state: Negotiation, appeal: Appeal, motivation: Motivation | None) -> Row:
    """Which row an argument reads: an appeal to one of the NPC's pitfalls is a pitfall, to one of its
    motivations a motivation (used or not), to anything else no motivation at all."""
    if appeal is Appeal.PITFALL or (motivation is not None and state.is_pitfall(motivation)):
        return Row.PITFALL
    if appeal is Appeal.NONE or motivation is None or not state.is_motivation(motivation):
        return Row.NO_MOTIVATION
    return Row.USED_MOTIVATION if motivation in state.used else Row.NEW_MOTIVATION


def _check_open(state: Negotiation) -> None:
    if state.ended:
        raise NegotiationError("This negotiation is over: start a new one with /negotiation start.")


def argue(
    state: Negotiation,
    hero: str,
    appeal: Appeal,
    motivation: Motivation | None,
    roll: PowerRoll,
    *,
    repeated: bool = False,
    lie: bool = False,
) -> ArgueResult:
    """A hero's argument, read by the table ("Making Arguments"): a pitfall is automatically tier 1, a
    repeated argument counts as tier 1, and with no motivation or pitfall a natural 19 or 20 costs no
    Patience. A motivation or pitfall the argument names is revealed (the NPC's reaction shows it) and the
    motivation counts as used from then on."""
    _check_open(state)
    if appeal is Appeal.MOTIVATION and motivation is None:
        raise NegotiationError("Name the motivation the argument appeals to: e.g. motivation:greed.")
    named = None if appeal is Appeal.NONE else motivation
    row = _row(state, appeal, named)
    if row is Row.PITFALL and named is not None and not state.is_pitfall(named):
        named = None  # the Director's call that it touched a pitfall: the name given isn't one to record
    tier = 1 if row is Row.PITFALL or repeated else roll.tier
    interest, patience = _TABLE[row][tier - 1]
    if row is Row.NO_MOTIVATION and roll.natural >= CRITICAL_NATURAL:
        patience = 0
    argument = Argument(hero, appeal, named, row, tier, interest, patience, roll.natural, repeated, lie)
    new = dataclasses.replace(
        state,
        interest=clamp(state.interest + interest),
        patience=clamp(state.patience + patience),
        arguments=(*state.arguments, argument),
    )
    revealed = None
    if named is not None and row is not Row.NO_MOTIVATION:
        new, revealed = _revealed(new, named, row is Row.PITFALL)
        if row is not Row.PITFALL and named not in new.used:
            new = dataclasses.replace(new, used=(*new.used, named))
    return ArgueResult(new, argument, row, revealed)


def _revealed(state: Negotiation, motivation: Motivation, pitfall: bool) -> tuple[Negotiation, Trait | None]:
    """The state with that trait revealed, and the trait when it was hidden until now."""
    traits = state.pitfalls if pitfall else state.motivations
    found = next((t for t in traits if t.motivation is motivation), None)
    if found is None or found.revealed:
        return state, None
    shown = tuple(dataclasses.replace(t, revealed=True) if t is found else t for t in traits)
    new = (
        dataclasses.replace(state, pitfalls=shown)
        if pitfall
        else dataclasses.replace(state, motivations=shown)
    )
    return new, dataclasses.replace(found, revealed=True)


def take_lie_interest(state: Negotiation) -> Negotiation:
    """The Director takes 1 more Interest for the last argument, a lie that didn't raise Interest ("Making
    Arguments": a hero caught in a lie may lose 1 more Interest, at the Director's word); once."""
    last = state.arguments[-1] if state.arguments else None
    if last is None or not last.lie or last.interest > 0 or last.lie_taken:
        raise NegotiationError(
            "Only the last argument, a lie that didn't raise Interest, can cost 1 more Interest, and only "
            "once."
        )
    marked = dataclasses.replace(last, lie_taken=True)
    return dataclasses.replace(
        state, interest=clamp(state.interest - 1), arguments=(*state.arguments[:-1], marked)
    )


@dataclass(frozen=True, slots=True)
class DiscoverResult:
    """A discovery's outcome: the new state and the tier; on tier 3, `choices` are what the Director may
    reveal (`reveal`), empty when everything is known already."""

    state: Negotiation
    tier: int
    natural: int
    patience: int
    choices: tuple[tuple[Motivation, bool], ...] = ()


def discover(state: Negotiation, roll: PowerRoll) -> DiscoverResult:
    """A test to learn a motivation or pitfall ("Discovering Motivations and Pitfalls"): tier 1 costs 1
    Patience and learns nothing, tier 2 learns nothing and costs nothing, tier 3 reveals one (the Director
    picks which: `reveal`)."""
    _check_open(state)
    tier = roll.tier
    if tier == 1:
        new = dataclasses.replace(state, patience=clamp(state.patience - 1))
        return DiscoverResult(new, 1, roll.natural, -1)
    choices = state.hidden() if tier == 3 else ()
    new = dataclasses.replace(state, owed=True) if choices else state
    return DiscoverResult(new, tier, roll.natural, 0, choices)


def reveal(state: Negotiation, motivation: Motivation, pitfall: bool) -> tuple[Negotiation, Trait]:
    """Reveal one hidden motivation or pitfall (the Director's word); a discovery owed one is then paid."""
    new, trait = _revealed(state, motivation, pitfall)
    if trait is None:
        what = "pitfall" if pitfall else "motivation"
        raise NegotiationError(f"That isn't a hidden {what} of {state.npc}: pick one still hidden.")
    return dataclasses.replace(new, owed=False), trait


def reveal_owed(state: Negotiation, motivation: Motivation, pitfall: bool) -> tuple[Negotiation, Trait]:
    """The one motivation or pitfall a tier 3 discovery reveals, the Director's pick ("Discovering
    Motivations and Pitfalls"): once per such discovery."""
    if not state.owed:
        raise NegotiationError("No discovery is owed a motivation or pitfall now: it was revealed already.")
    return reveal(state, motivation, pitfall)


def call_for_offer(state: Negotiation) -> Negotiation:
    """The heroes stop and ask for the NPC's offer ("Ending a Negotiation": at any time)."""
    _check_open(state)
    return dataclasses.replace(state, called=True)
