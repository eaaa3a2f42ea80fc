"""A monster's stat block as the bot keeps it: from a Forge Steel file, or entered by hand.

Rules: Draw Steel, Combat, "Stamina", "DAMAGE IMMUNITY", "DAMAGE WEAKNESS", "STABILITY", "Free Strikes" (on
`Monster`); the organizations are Draw Steel: Monsters'.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from bot.rules.ability import Ability, ActionType
from bot.rules.characteristics import Characteristics
from bot.rules.creature import LEVEL_MAX
from bot.rules.damage import DamageModifiers, DamageType
from bot.rules.errors import RuleError
from bot.rules.standard import charge, grab, knockback, monster_free_strike


class MonsterError(RuleError):
    """A stat block the rules refuse."""


FREE_STRIKE_DISTANCE = 5
"""A monster's free strike reaches 5 squares at range unless a signature ability reaches farther."""


class Organization(enum.StrEnum):
    """How a monster fights in an encounter (Forge Steel's `MonsterOrganizationType`; minion, horde, platoon,
    elite, leader and solo are Draw Steel: Monsters')."""

    MINION = "minion"
    HORDE = "horde"
    PLATOON = "platoon"
    ELITE = "elite"
    LEADER = "leader"
    SOLO = "solo"
    RETAINER = "retainer"
    COMPANION = "companion"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Trait:
    """A feature of the stat block that isn't an ability: its name, Forge Steel's feature type, its text."""

    name: str
    kind: str = "Text"
    text: str = ""


@dataclass(frozen=True, slots=True)
class Monster:
    """One monster's stat block, as a bestiary keeps it. `stamina` is the maximum; `free_strike` the damage of
    its free strike, of `free_strike_type`, at `free_strike_distance` squares (ranged) or melee.

    Draw Steel, Combat, "Stamina": the maximum is at least 1 (winded is `bot.rules.stamina`'s); "STABILITY":
    never below 0; "DAMAGE IMMUNITY" and "DAMAGE WEAKNESS" are its `modifiers`; "Free Strikes": the
    `free_strike` fields."""

    id: str
    name: str
    level: int
    organization: Organization
    stamina: int
    group: str = ""
    role: str = ""
    keywords: tuple[str, ...] = ()
    encounter_value: int = 0
    size: str = "1M"
    speed: int = 5
    movement: tuple[str, ...] = ()
    stability: int = 0
    free_strike: int = 0
    free_strike_type: DamageType = DamageType.UNTYPED
    free_strike_distance: int = FREE_STRIKE_DISTANCE
    characteristics: Characteristics = field(default_factory=Characteristics)
    modifiers: DamageModifiers = field(default_factory=DamageModifiers)
    condition_immunities: tuple[str, ...] = ()
    abilities: tuple[Ability, ...] = ()
    traits: tuple[Trait, ...] = ()
    with_captain: str = ""

    def __post_init__(self) -> None:
        if self.stamina < 1:
            raise MonsterError(f"{self.name}'s Stamina must be at least 1.")
        if not 0 <= self.level <= LEVEL_MAX:
            raise MonsterError(f"{self.name}'s level must be from 0 to {LEVEL_MAX}.")
        if self.stability < 0:
            raise MonsterError(f"{self.name}'s stability can't be less than 0.")

    @property
    def description(self) -> str:
        """`Level 1 Minion Artillery`, `Level 2 Solo` (no role), as a stat block's header reads."""
        organization = "" if self.organization is Organization.NONE else self.organization.value.title()
        role = "" if self.role == "No Role" else self.role
        # a retainer's role comes first ("Level 2 Brute Retainer"), every other organization's last
        words = (role, organization) if self.organization is Organization.RETAINER else (organization, role)
        return " ".join(w for w in (f"Level {self.level}", *words) if w)

    @property
    def villain_actions(self) -> tuple[Ability, ...]:
        return tuple(a for a in self.abilities if a.action is ActionType.VILLAIN)


@dataclass(frozen=True, slots=True)
class MonsterGroup:
    """A Forge Steel monster group: its monsters, its Malice features (each an `Ability` whose `cost` is the
    Malice it takes) and its information texts."""

    id: str
    name: str
    monsters: tuple[Monster, ...]
    malice: tuple[Ability, ...] = ()
    information: tuple[Trait, ...] = ()


def echelon(level: int) -> int:
    """A monster's echelon by its level: levels 1–3 are echelon 1, 4–6 echelon 2, 7–9 echelon 3, 10 and up
    echelon 4."""
    return min(4, max(1, (level - 1) // 3 + 1))


def monster_standard_abilities(monster: Monster) -> tuple[Ability, ...]:
    """A monster's standard abilities: its free strike from its stat block, Grab, Knockback and Charge."""
    strike = monster_free_strike(monster.free_strike, monster.free_strike_type, monster.free_strike_distance)
    return (strike, grab(), knockback(), charge())
