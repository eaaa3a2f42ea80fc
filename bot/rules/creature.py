"""The stat block the encounter keeps per combatant.

Rules: Draw Steel, The Basics, "Characteristics", "PCs and NPCs"; Draw Steel, Combat, "Stamina", "DAMAGE
IMMUNITY", "DAMAGE WEAKNESS", "STABILITY", "Size and Space" (1T, 1S, 1M, 1L, then 2, 3 ...).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from bot.rules.ability import Ability
from bot.rules.characteristics import Characteristics
from bot.rules.damage import DamageModifiers, DamageRecord, DamageType, apply_damage
from bot.rules.errors import RuleError
from bot.rules.forced import MEDIUM, Size
from bot.rules.kit import KitDamageBonus
from bot.rules.names import clean_name
from bot.rules.stamina import Vitals

LEVEL_MAX = 20


class CreatureError(RuleError):
    """A stat block the rules refuse."""


@dataclass(frozen=True, slots=True)
class Creature:
    """One combatant: hero or Director creature (a plain frozen dataclass).

    Its `vitals.is_hero` must match `is_hero`. `owner_id` is the Discord member who controls it (None: the
    Director); `squad_id` the minion squad it belongs to, if any; `stability` resists forced movement
    ("STABILITY", never below 0); `abilities` the ability cards it brought from its stat block or roster sheet
    (`bot.rules.ability.Ability`, the model every ability source shares; none: only the standard abilities
    every creature has); `kit_bonuses` a roster hero's kit damage bonuses for Melee or Ranged Weapon
    abilities; `size` its size (1M unless its sheet or stat block says otherwise), for forced movement's "BIG
    VERSUS LITTLE".
    """

    id: str
    name: str
    is_hero: bool
    vitals: Vitals
    level: int = 1
    characteristics: Characteristics = field(default_factory=Characteristics)
    modifiers: DamageModifiers = field(default_factory=DamageModifiers)
    owner_id: int | None = None
    squad_id: str | None = None
    stability: int = 0
    abilities: tuple[Ability, ...] = ()
    kit_bonuses: tuple[KitDamageBonus, ...] = ()
    size: Size = MEDIUM

    def __post_init__(self) -> None:
        if not self.id:
            raise CreatureError("A creature needs an id.")
        if self.name != clean_name(self.name):
            raise CreatureError("Give the name as plain text without extra spaces.")
        if self.vitals.is_hero != self.is_hero:
            raise CreatureError("A hero's vitals must be a hero's (and a Director creature's its own).")
        if not 0 <= self.level <= LEVEL_MAX:
            raise CreatureError(f"Level must be from 0 to {LEVEL_MAX}.")
        if self.stability < 0:
            raise CreatureError("Stability can't be less than 0.")

    @classmethod
    def create(
        cls,
        id: str,
        name: str,
        max_stamina: int,
        is_hero: bool = False,
        recoveries: int = 0,
        level: int = 1,
        characteristics: Characteristics | None = None,
        modifiers: DamageModifiers | None = None,
        owner_id: int | None = None,
        squad_id: str | None = None,
        stability: int = 0,
        abilities: tuple[Ability, ...] = (),
        kit_bonuses: tuple[KitDamageBonus, ...] = (),
        size: Size = MEDIUM,
    ) -> Creature:
        """A fresh creature at full Stamina (and Recoveries, for a hero), its name cleaned and validated with
        `bot.rules.names.clean_name`."""
        return cls(
            id=id,
            name=clean_name(name),
            is_hero=is_hero,
            vitals=Vitals.fresh(max_stamina, recoveries if is_hero else 0, is_hero=is_hero),
            level=level,
            characteristics=characteristics or Characteristics(),
            modifiers=modifiers or DamageModifiers(),
            owner_id=owner_id,
            squad_id=squad_id,
            stability=stability,
            abilities=abilities,
            kit_bonuses=kit_bonuses,
            size=size,
        )


def take_damage(
    creature: Creature,
    amount: int,
    dtype: DamageType = DamageType.UNTYPED,
    multiplier: int = 1,
    halved: bool = False,
    bypass_immunity: bool = False,
    knock_out_instead: bool = False,
) -> tuple[Creature, DamageRecord]:
    """Run the damage pipeline with the creature's own immunities and weaknesses."""
    record = apply_damage(
        creature.vitals,
        amount,
        dtype,
        creature.modifiers,
        multiplier=multiplier,
        halved=halved,
        bypass_immunity=bypass_immunity,
        knock_out_instead=knock_out_instead,
    )
    return dataclasses.replace(creature, vitals=record.after), record
