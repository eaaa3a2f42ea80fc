"""Bringing a bestiary's stat blocks into an encounter: `/encounter add monster:` and `/encounter import`.

Rules: Draw Steel: Monsters, "Minions" and "Solo Monsters" (`add_monsters`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.content.forgesteel.encounter import EncounterFile
from bot.content.monster import Monster, Organization
from bot.rules.ability import Ability
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, fold
from bot.rules.errors import RuleError
from bot.rules.forced import size_of
from bot.rules.names import clean_name
from bot.rules.standard import monster_free_strike

SOLO_TURNS = 2
"""Turns a round a solo monster takes (Draw Steel: Monsters, "Solo Monsters")."""


class UnresolvedMonsters(RuleError):
    """An encounter file names monsters the bestiary (and the group uploaded with it) doesn't have."""

    def __init__(self, ids: tuple[str, ...]) -> None:
        self.ids = ids
        listed = ", ".join(f"`{i}`" for i in ids)
        super().__init__(
            f"This server's bestiary has no monster with the id {listed}: import its group first with "
            "/monster import, or upload the group with the encounter (group:)."
        )


@dataclass(frozen=True, slots=True)
class Brought:
    """What one monster brought in: the new creatures' names and their squad's name (minions)."""

    monster: str
    names: tuple[str, ...]
    squad: str | None = None


def carried_abilities(monster: Monster) -> tuple[Ability, ...]:
    """The abilities a creature from `monster` carries into the encounter: its Free Strike, then its own."""
    strike = monster_free_strike(monster.free_strike, monster.free_strike_type, monster.free_strike_distance)
    return (strike, *monster.abilities)


def _numbers(encounter: Encounter, base: str) -> set[int]:
    """The numbers `base` is taken with in the encounter ("Goblin 3" -> 3; "Goblin" itself counts as 1)."""
    pattern = re.compile(re.escape(fold(base)) + r"(?: (\d{1,6}))?")
    taken: set[int] = set()
    names = [c.id for c in encounter.creatures] + [e.id for e in encounter.turns.entries]
    names += [e.group for e in encounter.turns.entries if e.group is not None]
    for name in names:
        match = pattern.fullmatch(fold(name))
        if match is not None:
            taken.add(int(match.group(1) or 1))
    return taken


def _squad_name(encounter: Encounter, base: str) -> str:
    name = clean_name(f"{base} squad")
    if not encounter.has(name):
        return name
    return clean_name(f"{name} {max(_numbers(encounter, name)) + 1}")


def add_monsters(
    encounter: Encounter,
    monster: Monster,
    count: int,
    side: str,
    *,
    name: str | None = None,
    squad: str | None = None,
    group: str | None = None,
) -> tuple[Encounter, Brought]:
    """`count` creatures of `monster` on `side` (minions as one squad, named `squad` or "<name> squad"),
    joining the enemy group `group` if given.

    Draw Steel: Monsters, "Minions": the minions brought in at once, or a Forge Steel slot's, form one squad
    sharing one Stamina pool and one turn (`bot.rules.squads`); "Solo Monsters": a solo gets `SOLO_TURNS`
    turns a round. Every other monster comes in as its stat block says, one creature each, with its Free
    Strike first among its abilities (`carried_abilities`, `bot.rules.standard`). Names taken are numbered
    after the encounter's highest ("Goblin Assassin 3"); a squad is "<name> squad" (docs/commands.md,
    `/encounter add`)."""
    base = clean_name(name or monster.name)
    minion = monster.organization is Organization.MINION
    taken = _numbers(encounter, base)
    after = max(taken, default=0) + 1
    single = count == 1 and not minion
    spec = NewCreatures(
        # one more of a name already there is numbered (`add_creatures` leaves a lone name as given)
        name=f"{base} {after}" if single and taken else base,
        stamina=monster.stamina,
        side=side,
        count=count,
        squad=(squad or _squad_name(encounter, base)) if minion else None,
        group=group,
        turns=SOLO_TURNS if monster.organization is Organization.SOLO else 1,
        characteristics=monster.characteristics,
        modifiers=monster.modifiers,
        level=monster.level,
        stability=monster.stability,
        size=size_of(monster.size),
        abilities=carried_abilities(monster),
        number_from=1 if single else after,
    )
    updated, names = add_creatures(encounter, spec)
    return updated, Brought(monster.name, names, clean_name(spec.squad) if spec.squad else None)


def add_encounter_file(
    encounter: Encounter, file: EncounterFile, monsters: Mapping[str, Monster], side: str
) -> tuple[Encounter, tuple[Brought, ...]]:
    """Every slot of a Forge Steel encounter, its monsters looked up by id in `monsters`, on `side`.
    `UnresolvedMonsters` (nothing added) names every id `monsters` doesn't have."""
    missing = file.missing(monsters.keys())
    if missing:
        raise UnresolvedMonsters(missing)
    brought: list[Brought] = []
    for slot in file.slots:
        monster = monsters[slot.monster_id]
        count = slot.creatures(monster.organization)
        if count < 1:
            continue
        encounter, one = add_monsters(encounter, monster, count, side)
        brought.append(one)
    return encounter, tuple(brought)
