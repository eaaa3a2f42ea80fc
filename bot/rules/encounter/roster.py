"""Who is in the encounter: adding creatures (one, several numbered, a minion squad), bringing in a roster
hero, removing a creature or a whole squad.

Rules, each cited where it is applied: Draw Steel, Combat, "Enemies Act In Groups", "Determine Surprise",
"Stamina", "Temporary Stamina", "End of Round"; Monsters, "Minions"; Draw Steel, The Basics, "Heroic
Resources".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.rules import resources, stamina
from bot.rules.ability import Ability
from bot.rules.characteristics import Characteristics
from bot.rules.creature import Creature
from bot.rules.damage import DamageModifiers
from bot.rules.encounter.model import CREATURES_MAX, Encounter, EncounterError, NameTaken, fold
from bot.rules.encounter.rounds import carry_on
from bot.rules.forced import MEDIUM, Size, size_of
from bot.rules.hero import HeroSheet
from bot.rules.kit import KitDamageBonus
from bot.rules.names import clean_name
from bot.rules.squads import new_squad
from bot.rules.standard import hero_free_strikes
from bot.rules.turns import Entry, EntryKind, Phase, add_entry, remove_entry
from bot.rules.turns.model import Controller, Side

COUNT_MAX = 40
"""Most creatures one `add_creatures` call adds."""


@dataclass(frozen=True, slots=True)
class NewCreatures:
    """What `/encounter add` asks for. `count` > 1 numbers the names ("Goblin 1".."Goblin 4", or from
    `number_from`); `squad` names a minion squad the `count` minions form (they share one Stamina pool and one
    turn); `group` is the enemy group the new entries join; `turns` 2 for a solo creature; `stability`,
    `abilities` and `size` come from a stat block (`bot.content.bestiary`) or a roster sheet. Groups are
    Draw Steel, Combat, "Enemies Act In Groups"; squads Monsters, "Minions" (`bot.rules.squads`); creatures
    that can't be surprised (`can_be_surprised` False) Draw Steel, Combat, "Determine Surprise"."""

    name: str
    stamina: int
    side: str
    is_hero: bool = False
    owner_id: int | None = None
    count: int = 1
    squad: str | None = None
    group: str | None = None
    turns: int = 1
    characteristics: Characteristics = field(default_factory=Characteristics)
    modifiers: DamageModifiers = field(default_factory=DamageModifiers)
    recoveries: int = 0
    can_be_surprised: bool = True
    level: int = 1
    stability: int = 0
    abilities: tuple[Ability, ...] = ()
    kit_bonuses: tuple[KitDamageBonus, ...] = ()
    number_from: int = 1
    size: Size = MEDIUM


def _check_room(encounter: Encounter, adding: int) -> None:
    if len(encounter.creatures) + adding > CREATURES_MAX:
        room = CREATURES_MAX - len(encounter.creatures)
        raise EncounterError(
            f"An encounter holds at most {CREATURES_MAX} creatures: there is room for {room} more."
        )


def _names(spec: NewCreatures) -> tuple[str, ...]:
    base = clean_name(spec.name)
    if spec.count == 1 and spec.squad is None:
        return (base,)
    return tuple(clean_name(f"{base} {n}") for n in range(spec.number_from, spec.number_from + spec.count))


def add_creatures(encounter: Encounter, spec: NewCreatures) -> tuple[Encounter, tuple[str, ...]]:
    """Add `spec.count` creatures (or one squad of them); returns the new encounter and the new names."""
    side = _checked_side(encounter, spec)
    names = _names(spec)
    _check_room(encounter, len(names))
    squad_name = clean_name(spec.squad) if spec.squad is not None else None
    group = clean_name(spec.group) if spec.group is not None else None
    _check_names_free(encounter, (*names, *([squad_name] if squad_name else [])), group)
    if side.controller is Controller.PLAYERS and spec.owner_id is None and spec.is_hero:
        raise EncounterError("A hero needs a player: give the member who controls it.")
    creatures = tuple(_creature(spec, name, squad_name) for name in names)
    turns = encounter.turns
    for entry in _entries(spec, names, squad_name, group):
        turns = add_entry(turns, entry).state
    squads = encounter.squads
    if squad_name is not None:
        squads = (*squads, new_squad(squad_name, names, spec.stamina))
    updated = dataclasses.replace(
        encounter, creatures=(*encounter.creatures, *creatures), squads=squads, turns=turns
    )
    return carry_on(updated).encounter, names  # nobody could act until now: the next round starts


def _checked_side(encounter: Encounter, spec: NewCreatures) -> Side:
    """The side the new creatures join; refuses a count, Stamina, squad or side the rules don't allow."""
    if not 1 <= spec.count <= COUNT_MAX:
        raise EncounterError(f"Add from 1 to {COUNT_MAX} creatures at a time.")
    if spec.stamina < 1:
        raise EncounterError("Stamina must be at least 1: type the creature's Stamina maximum.")
    if spec.squad is not None and spec.is_hero:
        raise EncounterError("Heroes can't be minions: leave out the squad.")
    side = encounter.turns.side(spec.side)
    if side is None:
        raise EncounterError(
            f"No side '{spec.side}' in this encounter: use "
            + ", ".join(s.name or s.id for s in encounter.turns.sides)
            + "."
        )
    return side


def _check_names_free(encounter: Encounter, names: Iterable[str], group: str | None) -> None:
    """Refuse a new name (creature or squad) already in the encounter or the same as the group's, and a group
    named like a creature already in it."""
    for name in names:
        if encounter.has(name) or (group is not None and fold(name) == fold(group)):
            raise NameTaken(name)
    if group is not None and any(fold(c.id) == fold(group) for c in encounter.creatures):
        raise NameTaken(group)


def _creature(spec: NewCreatures, name: str, squad_name: str | None) -> Creature:
    return Creature.create(
        id=name,
        name=name,
        max_stamina=spec.stamina,
        is_hero=spec.is_hero,
        recoveries=spec.recoveries,
        level=spec.level,
        characteristics=spec.characteristics,
        modifiers=spec.modifiers,
        owner_id=spec.owner_id,
        squad_id=squad_name,
        stability=spec.stability,
        abilities=spec.abilities,
        kit_bonuses=spec.kit_bonuses,
        size=spec.size,
    )


def _entries(
    spec: NewCreatures, names: tuple[str, ...], squad_name: str | None, group: str | None
) -> tuple[Entry, ...]:
    """The turn entries of the new creatures: one for the squad (its minions act together), else one each."""
    if squad_name is not None:
        return (
            Entry(
                id=squad_name,
                side=spec.side,
                kind=EntryKind.SQUAD,
                name=squad_name,
                group=group,
                members=names,
                turns_per_round=spec.turns,
                cannot_be_surprised=not spec.can_be_surprised,
            ),
        )
    return tuple(
        Entry(
            id=name,
            side=spec.side,
            name=name,
            group=group,
            turns_per_round=spec.turns,
            cannot_be_surprised=not spec.can_be_surprised,
        )
        for name in names
    )


def add_hero(
    encounter: Encounter, hero_id: str, owner_id: int, name: str, sheet: HeroSheet, side: str = "heroes"
) -> tuple[Encounter, str]:
    """Bring a roster hero in with its current Stamina, Recoveries, characteristics and damage modifiers; its
    creature carries the sheet's abilities (`carried_abilities`), kit damage bonuses, stability and size, as a
    stat block's carries its Free Strike and abilities.

    Once combat has begun (the d10 rolled or round 1 started) the hero's heroic resource starts at their
    Victories, as `flow.begin` gives the heroes present at the start (Draw Steel, The Basics, "Heroic
    Resources": a hero who joins a combat already under way starts with their Victories, as at the start of
    combat).
    """
    if hero_id in encounter.roster.values():
        raise EncounterError(f"{name} is already in this encounter.")
    spec = NewCreatures(
        name=name,
        stamina=sheet.vitals.max_stamina,
        side=side,
        is_hero=True,
        owner_id=owner_id,
        characteristics=sheet.characteristics,
        modifiers=sheet.modifiers,
        recoveries=sheet.vitals.max_recoveries,
        level=sheet.level,
        stability=sheet.stability,
        abilities=carried_abilities(sheet),
        kit_bonuses=sheet.kit_bonuses,
        size=size_of(sheet.size),
    )
    updated, (creature_id,) = add_creatures(encounter, spec)
    creature = dataclasses.replace(updated.creature(creature_id), vitals=sheet.vitals)
    updated = updated.with_creature(creature)
    res = updated.resources
    if _combat_begun(updated):
        start = resources.resource_start_of_combat(
            resources.HeroicResource(creature_id), sheet.progress.victories
        )
        res = {**res, creature_id: start.value}
    return (
        dataclasses.replace(updated, roster={**updated.roster, creature_id: hero_id}, resources=res),
        creature_id,
    )


def carried_abilities(sheet: HeroSheet) -> tuple[Ability, ...]:
    """The abilities a roster hero's creature carries: the sheet's own, after the Melee and Ranged Weapon Free
    Strikes (`bot.rules.standard.hero_free_strikes`) only when a kit lengthens their distance; else a strike
    finds the standard ones by name (it has them for every hero: the encounter's data stays small)."""
    if sheet.melee_distance_bonus <= 0 and sheet.ranged_distance_bonus <= 0:
        return sheet.abilities
    strikes = hero_free_strikes(
        melee_distance_bonus=sheet.melee_distance_bonus, ranged_distance_bonus=sheet.ranged_distance_bonus
    )
    return (*strikes, *sheet.abilities)


def _combat_begun(encounter: Encounter) -> bool:
    """Combat has begun once the first round started or the d10 for who goes first was rolled."""
    state = encounter.turns
    return state.phase is not Phase.SETUP or state.first is not None


def written_back(
    encounter: Encounter, sheets: Mapping[str, HeroSheet], creature_ids: Iterable[str] | None = None
) -> dict[str, HeroSheet]:
    """The roster sheets of the heroes `creature_ids` (default: every roster hero) as they leave this
    encounter: the Stamina, Recoveries and knocked-out state they have now, temporary Stamina gone (Draw
    Steel, Combat, "Temporary Stamina": it disappears at the end of an encounter). `sheets` are the roster
    sheets by roster hero id; the result maps roster hero id -> updated sheet.

    Call it with the encounter from BEFORE `remove` (a roster hero removed mid-fight keeps their wounds: Draw
    Steel, Combat, "Stamina", a roster hero who leaves keeps the Stamina and Recoveries spent) and at the end
    (`flow.finish` does).
    """
    wanted = set(encounter.roster) if creature_ids is None else set(creature_ids)
    out: dict[str, HeroSheet] = {}
    for creature_id, hero_id in encounter.roster.items():
        sheet = sheets.get(hero_id)
        if creature_id not in wanted or sheet is None:
            continue
        vitals = stamina.end_of_encounter(encounter.creature(creature_id).vitals)
        out[hero_id] = dataclasses.replace(sheet, vitals=vitals)
    return out


def creature_of_hero(encounter: Encounter, hero_id: str) -> str | None:
    """The creature roster hero `hero_id` is in this encounter (None: not in it)."""
    return next((cid for cid, roster_id in encounter.roster.items() if roster_id == hero_id), None)


def in_play(encounter: Encounter, hero_id: str, sheet: HeroSheet) -> HeroSheet | None:
    """The roster sheet of hero `hero_id` with the Stamina and Recoveries the hero has in this encounter
    right now (temporary Stamina and a knocked-out state included), or None when the hero is not in it. The
    sheet itself only catches up when the hero leaves or the encounter ends (`written_back`)."""
    creature_id = creature_of_hero(encounter, hero_id)
    if creature_id is None:
        return None
    return dataclasses.replace(sheet, vitals=encounter.creature(creature_id).vitals)


def into_play(encounter: Encounter, hero_id: str, sheet: HeroSheet) -> Encounter:
    """The encounter with roster hero `hero_id`'s creature taking `sheet`'s Stamina and Recoveries, level,
    characteristics, damage modifiers, stability, abilities, kit damage bonuses and size (a sheet edited
    mid-fight: start from `in_play`, so the fight's wounds are kept); unchanged when the hero is not in it."""
    creature_id = creature_of_hero(encounter, hero_id)
    if creature_id is None:
        return encounter
    creature = dataclasses.replace(
        encounter.creature(creature_id),
        vitals=sheet.vitals,
        level=sheet.level,
        characteristics=sheet.characteristics,
        modifiers=sheet.modifiers,
        stability=sheet.stability,
        abilities=carried_abilities(sheet),
        kit_bonuses=sheet.kit_bonuses,
        size=size_of(sheet.size),
    )
    return encounter.with_creature(creature)


def remove(encounter: Encounter, name: str) -> tuple[Encounter, tuple[str, ...]]:
    """Remove a creature, or a whole squad by the squad's name; returns the removed creature ids. A single
    minion leaves its squad by dying, not by removal. Removing the last creature still to act ends the round,
    and the next one starts (Draw Steel, Combat, "End of Round"; `rounds.carry_on`)."""
    key = fold(name)
    entry = next((e for e in encounter.turns.entries if fold(e.id) == key), None)
    if entry is None:
        creature = encounter.find(name)
        raise EncounterError(
            f"{creature.id} is a minion of {creature.squad_id}: remove the whole squad by its name."
        )
    gone = set(entry.creature_ids)
    turns = remove_entry(encounter.turns, entry.id).state
    updated = dataclasses.replace(
        encounter,
        turns=turns,
        creatures=tuple(c for c in encounter.creatures if c.id not in gone),
        squads=tuple(s for s in encounter.squads if s.id != entry.id),
        surges={k: v for k, v in encounter.surges.items() if k not in gone},
        resources={k: v for k, v in encounter.resources.items() if k not in gone},
        roster={k: v for k, v in encounter.roster.items() if k not in gone},
        tokens_used=tuple(t for t in encounter.tokens_used if t not in gone),
        rescues=tuple(r for r in encounter.rescues if r.creature_id not in gone),
        villains={k: v for k, v in encounter.villains.items() if k not in gone},
    )
    # the last creature still to act removed: the round is over and the next one starts
    return carry_on(updated).encounter, tuple(c.id for c in encounter.creatures if c.id in gone)


def rename_hero(encounter: Encounter, hero_id: str, new_name: str) -> Encounter:
    """The encounter with roster hero `hero_id`'s creature under `new_name` (the roster hero was renamed):
    its id and name wherever the encounter refers to it (the creature, its turn entry, turns taken,
    initiative, conditions on it or from it, surges, heroic resource, roster link, hero-token use and rescue);
    unchanged when the hero is not in it. A creature's id is its name (`bot.rules.encounter.model`), so the
    new name must be free in the encounter (`NameTaken`)."""
    old = creature_of_hero(encounter, hero_id)
    new = clean_name(new_name)
    if old is None or new == old:
        return encounter
    if fold(new) != fold(old) and encounter.has(new):
        raise NameTaken(new)

    def swap(name: str) -> str:
        return new if name == old else name

    turns = encounter.turns
    turns = dataclasses.replace(
        turns,
        entries=tuple(dataclasses.replace(e, id=new, name=new) if e.id == old else e for e in turns.entries),
        initiative=tuple(dataclasses.replace(i, unit=swap(i.unit)) for i in turns.initiative),
        turns=tuple(dataclasses.replace(t, entry=swap(t.entry)) for t in turns.turns),
        skipped=tuple(swap(unit) for unit in turns.skipped),
        reacted=tuple(swap(unit) for unit in turns.reacted),
        conditions=tuple(
            dataclasses.replace(
                c,
                creature_id=swap(c.creature_id),
                source_id=None if c.source_id is None else swap(c.source_id),
            )
            for c in turns.conditions
        ),
    )
    return dataclasses.replace(
        encounter,
        creatures=tuple(
            dataclasses.replace(c, id=new, name=new) if c.id == old else c for c in encounter.creatures
        ),
        turns=turns,
        surges={swap(k): v for k, v in encounter.surges.items()},
        resources={swap(k): v for k, v in encounter.resources.items()},
        roster={swap(k): v for k, v in encounter.roster.items()},
        tokens_used=tuple(swap(t) for t in encounter.tokens_used),
        rescues=tuple(dataclasses.replace(r, creature_id=swap(r.creature_id)) for r in encounter.rescues),
    )
