"""A collision the Director reports, applied to the encounter: slam damage (`bot.rules.forced.slam`) dealt
through the one damage pipeline (`bot.rules.encounter.harm.damage`: untyped damage, so a damage immunity
reduces it).

Rules: Draw Steel, Combat, "SLAMMING INTO CREATURES", "SLAMMING INTO OBJECTS", "HURLING THROUGH OBJECTS".
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.creature import Creature
from bot.rules.encounter.harm import HarmError, Hit, damage, target
from bot.rules.encounter.model import Encounter
from bot.rules.forced import Into, Material, Slam, slam


def _alive(encounter: Encounter, creature: Creature) -> bool:
    squad = encounter.squad(creature.squad_id) if creature.squad_id is not None else None
    return creature.id in squad.alive if squad is not None else not creature.vitals.dead


@dataclass(frozen=True, slots=True)
class SlamResult:
    """The collision (`Slam`), its settings, and each creature's hit: the one moved first (none when the
    damage that moved it killed it already)."""

    slam: Slam
    into: Into
    remaining: int
    hits: tuple[Hit, ...]
    material: Material | None = None
    thickness: int = 1


def slam_into(
    encounter: Encounter,
    name: str,
    remaining: int,
    into: Into,
    other: str | None = None,
    material: Material | None = None,
    thickness: int = 1,
) -> tuple[Encounter, SlamResult]:
    """Creature `name` force moved into a creature (`other`, when it is in the encounter) or an object, with
    `remaining` squares of forced movement left.

    Draw Steel, Combat, "SLAMMING INTO CREATURES" ("both creatures take 1 damage for each square remaining in
    the first creature's forced movement"), "SLAMMING INTO OBJECTS" ("2 damage plus 1 damage for each square
    remaining"), "HURLING THROUGH OBJECTS" (the table of materials), and "If a creature is killed by damage
    from an ability or effect that also force moves them, a second creature they are slammed into still
    takes damage".
    """
    moved = target(encounter, name)
    second = target(encounter, other) if other is not None else None
    if second is not None and into is not Into.CREATURE:
        raise HarmError(
            "Only a creature is slammed into another creature: use into:creature, or leave out other."
        )
    if second is not None and second.id == moved.id:
        raise HarmError(f"{moved.id} can't slam into themselves: name the other creature.")
    collision = slam(remaining, into, material, thickness)
    updated, hits = encounter, list[Hit]()
    if _alive(encounter, moved):
        updated, hit = damage(encounter, moved.id, collision.target_damage)
        hits.append(hit)
    elif second is None:
        raise HarmError(f"{moved.id} is dead already: name the creature they were slammed into as other.")
    if second is not None:
        updated, other_hit = damage(updated, second.id, collision.other_damage)
        hits.append(other_hit)
    return updated, SlamResult(collision, into, remaining, tuple(hits), material, thickness)
