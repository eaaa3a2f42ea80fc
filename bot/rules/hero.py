"""A roster hero's sheet: what a hero keeps between encounters.

Rules: draw-steel-basics.md "Characteristics", "Victories", "Experience", "Heroic Resources", "Respite";
draw-steel-combat.txt "Stamina", "DAMAGE IMMUNITY", "DAMAGE WEAKNESS".

The store keeps a sheet as codec data in `Hero.data` (`bot.rules.codec.to_data` / `load(HeroSheet, data)`).
Public API: `HeroSheet`, `new_sheet(...)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.rules.characteristics import Characteristics
from bot.rules.damage import DamageModifiers
from bot.rules.resources import Progress
from bot.rules.stamina import Vitals


@dataclass(frozen=True, slots=True)
class HeroSheet:
    """A hero's lasting numbers: Stamina and Recoveries (`vitals`), characteristics M/A/R/I/P, immunities and
    weaknesses, Victories and XP, level, and the heroic resource's name and per-turn gain ("1d3", "2")."""

    vitals: Vitals
    characteristics: Characteristics = field(default_factory=Characteristics)
    modifiers: DamageModifiers = field(default_factory=DamageModifiers)
    progress: Progress = field(default_factory=Progress)
    level: int = 1
    resource_name: str = "heroic resource"
    resource_gain: str = "0"


def new_sheet(
    max_stamina: int,
    recoveries: int,
    characteristics: Characteristics | None = None,
    modifiers: DamageModifiers | None = None,
    level: int = 1,
) -> HeroSheet:
    """A fresh hero at full Stamina and Recoveries."""
    return HeroSheet(
        vitals=Vitals.fresh(max_stamina, recoveries, is_hero=True),
        characteristics=characteristics or Characteristics(),
        modifiers=modifiers or DamageModifiers(),
        level=level,
    )
