"""A hero's kit: what it adds to the hero's numbers and to the damage of weapon abilities.

Rules: Draw Steel's kits, as Forge Steel's `Kit` stores them and its `HeroLogic` applies them.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

TierValues = tuple[int, int, int]


class Reach(enum.StrEnum):
    """Which weapon abilities a kit damage bonus is for."""

    MELEE = "melee"
    RANGED = "ranged"

    @property
    def keyword(self) -> str:
        return "Melee" if self is Reach.MELEE else "Ranged"


@dataclass(frozen=True, slots=True)
class Kit:
    """One kit's numbers: Stamina per echelon, speed, stability, disengage, distance bonuses and the damage
    bonuses per tier (None: the kit has none of that kind). A kit adds its Stamina per echelon, speed,
    stability and disengage to the hero's; with more than one kit, the best of each applies. Its distance
    bonuses lengthen the distances of its Melee (or Ranged) Weapon abilities."""

    name: str
    stamina: int = 0
    speed: int = 0
    stability: int = 0
    disengage: int = 0
    melee_distance: int = 0
    ranged_distance: int = 0
    melee_damage: TierValues | None = None
    ranged_damage: TierValues | None = None

    def damage(self, reach: Reach) -> TierValues | None:
        return self.melee_damage if reach is Reach.MELEE else self.ranged_damage


@dataclass(frozen=True, slots=True)
class KitDamageBonus:
    """A damage bonus per tier (tier 1, 2, 3) for melee or ranged weapon abilities, and the kit(s) giving
    it (`Panther`, or `Cloak and Dagger / Raider` when two kits give the same). A kit's melee damage bonus
    is added to the damage of abilities with the Melee and Weapon keywords, its ranged damage bonus to those
    with Ranged and Weapon."""

    name: str
    reach: Reach
    tiers: TierValues

    def applies_to(self, keywords: Iterable[str]) -> bool:
        """Whether an ability with these keywords takes the bonus: Weapon and Melee (or Ranged)."""
        words = {k.casefold() for k in keywords}
        return "weapon" in words and self.reach.keyword.casefold() in words


def damage_bonuses(kits: Iterable[Kit]) -> tuple[KitDamageBonus, ...]:
    """The kit damage bonuses that apply, melee before ranged per kit. With several kits, kits whose bonus is
    the same are shown once (their names joined), and a bonus lower on every tier than another of the same
    kind is dropped: the better one always applies."""
    merged: dict[tuple[Reach, TierValues], list[str]] = {}
    for kit in kits:
        for reach in Reach:
            tiers = kit.damage(reach)
            if tiers is not None:
                merged.setdefault((reach, tiers), []).append(kit.name)
    bonuses = [KitDamageBonus(" / ".join(names), reach, tiers) for (reach, tiers), names in merged.items()]
    return tuple(b for b in bonuses if not any(_worse(b, other) for other in bonuses))


def _worse(bonus: KitDamageBonus, other: KitDamageBonus) -> bool:
    return (
        other is not bonus
        and other.reach is bonus.reach
        and all(mine < theirs for mine, theirs in zip(bonus.tiers, other.tiers, strict=True))
    )
