"""Forced movement: push, pull and slide distances, stability, size, and slamming into creatures and objects.

Rules: Draw Steel, Combat, "Forced Movement" (push X, pull X, slide X; "vertical"), "BIG VERSUS LITTLE",
"STABILITY", "SLAMMING INTO CREATURES", "SLAMMING INTO OBJECTS" and "HURLING THROUGH OBJECTS".

Every function takes plain values (distances, stability, sizes, a melee-weapon flag), so an ability's tier
effect can call them as well as a command.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from bot.rules.errors import RuleError

DISTANCE_MAX = 99
"""Longest forced movement one effect gives (a bound, not a rule)."""
_SIZE_LETTERS = {"T": 0, "S": 1, "M": 2, "L": 3}
_SIZE = re.compile(r"^\s*(?:1\s*([TSMLtsml])|(\d{1,2}))\s*$")
_MOVE = re.compile(r"^\s*(vertical\s+)?(push|pull|slide)\s+(\d{1,2})\s*$", re.IGNORECASE)


class ForcedError(RuleError):
    """A forced movement request the rules refuse."""


class ForcedKind(enum.StrEnum):
    """The three kinds of forced movement: push X, pull X, slide X (Draw Steel, Combat, "Forced Movement")."""

    PUSH = "push"
    PULL = "pull"
    SLIDE = "slide"


@dataclass(frozen=True, slots=True)
class ForcedMovement:
    """One forced movement effect (`push 2`, `vertical pull 3`): its kind, its distance X, and whether it may
    move the target vertically."""

    kind: ForcedKind
    distance: int
    vertical: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.distance <= DISTANCE_MAX:
            raise ForcedError(f"A forced movement's distance runs from 0 to {DISTANCE_MAX}.")

    @classmethod
    def parse(cls, text: str) -> ForcedMovement:
        """Read "push 3", "Slide 1", "vertical pull 2", as an ability's tier text writes it
        (`bot.rules.tiers`)."""
        m = _MOVE.match(text)
        if m is None:
            raise ForcedError("Forced movement must look like push 3, pull 2, slide 1 or vertical push 3.")
        return cls(ForcedKind(m.group(2).lower()), int(m.group(3)), m.group(1) is not None)

    def format(self) -> str:
        return f"{'vertical ' if self.vertical else ''}{self.kind.value} {self.distance}"

    def reduced_by(self, stability: int) -> int:
        """The squares left after the target's stability (never below 0): `forced_distance`."""
        return forced_distance(self.distance, stability)


@dataclass(frozen=True, slots=True, order=True)
class Size:
    """A creature's size: 1T, 1S, 1M, 1L (all 1 square), then 2, 3, ... ordered from smallest to largest."""

    rank: int

    @classmethod
    def parse(cls, text: str | int) -> Size:
        """Read "1T", "1S", "1M", "1L", "2", "3" ... (or the number 2, 3 ...; a bare 1 is 1M)."""
        m = _SIZE.match(str(text))
        if m is None or (m.group(2) is not None and int(m.group(2)) < 1):
            raise ForcedError("A size is 1T, 1S, 1M, 1L or a number of squares from 2, e.g. size: 2.")
        if m.group(1) is not None:
            return cls(_SIZE_LETTERS[m.group(1).upper()])
        squares = int(m.group(2))
        return cls(_SIZE_LETTERS["M"] if squares == 1 else squares + 2)

    def format(self) -> str:
        for letter, rank in _SIZE_LETTERS.items():
            if rank == self.rank:
                return f"1{letter}"
        return str(self.rank - 2)


MEDIUM = Size(_SIZE_LETTERS["M"])
"""Size 1M: a creature's size when nothing says otherwise (heroes without a Size feature are 1M)."""


def size_of(text: str) -> Size:
    """The size `text` names ("1S", "2"), or 1M when it names none (a stat block typed by hand before sizes
    were checked)."""
    try:
        return Size.parse(text)
    except ForcedError:
        return MEDIUM


def _as_size(size: Size | str | int) -> Size:
    return size if isinstance(size, Size) else Size.parse(size)


def size_bonus(
    mover_size: Size | str | int | None, target_size: Size | str | int | None, melee_weapon: bool
) -> int:
    """1 when a larger creature moves a smaller target with a melee weapon ability, else 0 ("BIG VERSUS
    LITTLE": "When a larger creature force moves a smaller target with a melee weapon ability, the distance
    of the forced movement is increased by 1. If a smaller creature force moves a larger target with a melee
    weapon ability, the distance doesn't change"). Unknown sizes give no bonus."""
    if not melee_weapon or mover_size is None or target_size is None:
        return 0
    return 1 if _as_size(mover_size) > _as_size(target_size) else 0


def forced_distance(
    distance: int,
    stability: int = 0,
    *,
    mover_size: Size | str | int | None = None,
    target_size: Size | str | int | None = None,
    melee_weapon: bool = False,
) -> int:
    """The most squares a target can be force moved: `distance`, +1 when a larger creature moves a smaller
    target with a melee weapon ability ("When a larger creature force moves a smaller target with a melee
    weapon ability, the distance of the forced movement is increased by 1"), then reduced by the target's
    stability ("they can reduce that movement up to a number of squares equal to their stability"), never
    below 0. The mover may always move the target fewer squares."""
    if not 0 <= distance <= DISTANCE_MAX:
        raise ForcedError(f"A forced movement's distance runs from 0 to {DISTANCE_MAX}.")
    distance += size_bonus(mover_size, target_size, melee_weapon)
    return max(0, distance - max(0, stability))  # "A creature's stability can't be less than 0"


# --- slamming ---------------------------------------------------------------------------------------------
def _check_remaining(remaining: int) -> None:
    if not 1 <= remaining <= DISTANCE_MAX:
        raise ForcedError(
            f"A slam needs 1 to {DISTANCE_MAX} squares of forced movement left: type how many were left."
        )


def slam_creature(remaining: int) -> int:
    """Creature into creature: "both creatures take 1 damage for each square remaining in the first
    creature's forced movement" ("SLAMMING INTO CREATURES")."""
    _check_remaining(remaining)
    return remaining


def slam_object(remaining: int) -> int:
    """Into an object that doesn't break: "the target takes 2 damage plus 1 damage for each square remaining
    in their forced movement" ("SLAMMING INTO OBJECTS")."""
    _check_remaining(remaining)
    return 2 + remaining


class Material(enum.Enum):
    """Mundane object material ("HURLING THROUGH OBJECTS"): squares of forced movement to break 1 square,
    and the damage the creature moved through it takes."""

    GLASS = "glass"
    WOOD = "wood"
    STONE = "stone"
    METAL = "metal"

    @property
    def break_cost(self) -> int:
        return {"glass": 1, "wood": 3, "stone": 6, "metal": 9}[self.value]

    @property
    def break_damage(self) -> int:
        return {"glass": 3, "wood": 5, "stone": 8, "metal": 11}[self.value]


@dataclass(frozen=True, slots=True)
class Hurl:
    """A creature force moved into an object: squares broken, damage taken, forced movement left."""

    squares_broken: int
    damage: int
    remaining: int


def hurl_through(remaining: int, material: Material, thickness: int = 1) -> Hurl:
    """Force move a creature into `thickness` squares of `material` with `remaining` squares of movement left.

    Each square it can pay for breaks (its cost in movement, its damage); at the first square it can't pay
    for, the movement ends with a slam into an unbroken object (2 + 1 per remaining square). What is left
    after breaking through every square can continue ("HURLING THROUGH OBJECTS", and its worked example:
    slide 5 into a wooden wall after 1 square → 5 damage breaking the first square, then 3 against the next).
    """
    _check_remaining(remaining)
    if thickness < 1:
        raise ForcedError("An object is at least 1 square thick.")
    broken = damage = 0
    while broken < thickness and remaining >= material.break_cost:
        remaining -= material.break_cost
        damage += material.break_damage
        broken += 1
    if broken < thickness and remaining > 0:
        damage += slam_object(remaining)
        remaining = 0
    return Hurl(broken, damage, remaining)


class Into(enum.StrEnum):
    """What a force-moved creature collides with."""

    CREATURE = "creature"
    OBJECT = "object"


@dataclass(frozen=True, slots=True)
class Slam:
    """A collision's damage: to the creature moved, to the creature it slammed into (0 for an object), the
    object's squares broken and the forced movement left to continue with."""

    target_damage: int
    other_damage: int = 0
    squares_broken: int = 0
    remaining: int = 0


def slam(remaining: int, into: Into, material: Material | None = None, thickness: int = 1) -> Slam:
    """The damage of a collision the Director reports, with `remaining` squares of forced movement left:
    into a creature, both take 1 per square; into an object that doesn't break (no `material` given), the
    target takes 2 + 1 per square; into a mundane object of `material`, it may break through
    (`hurl_through`). Where the creatures are on the map is the table's business: the Director reports a
    collision and the squares of forced movement left."""
    if into is Into.CREATURE:
        if material is not None:
            raise ForcedError("A material is for objects: leave it out when the target hit a creature.")
        damage = slam_creature(remaining)
        return Slam(damage, damage)
    if material is None:
        return Slam(slam_object(remaining))
    hurl = hurl_through(remaining, material, thickness)
    return Slam(hurl.damage, 0, hurl.squares_broken, hurl.remaining)
