"""A hero's heroic resource in the encounter: gained, spent, set, and the gains that come by themselves.

The value lives in `Encounter.resources` (creature id -> value). Rules: Draw Steel, The Basics, "Heroic
Resources"; Draw Steel, Combat, "Combat Start"; each class's gains (Heroes ch. 5).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from bot.rules.dice import Dice
from bot.rules.encounter.harm import target
from bot.rules.encounter.model import Encounter
from bot.rules.errors import RuleError
from bot.rules.resources import (
    GainLimit,
    GainTrigger,
    HeroicResource,
    ResourceGain,
    gain_resource,
    roll_gain,
    spend_resource,
)
from bot.rules.stamina import Vitals
from bot.rules.turns import Phase

RESOURCE_MAX = 999
"""Most heroic resource one hero holds (a bound, not a rule)."""


class HeroicError(RuleError):
    """A heroic resource change the rules refuse."""


def _hero(encounter: Encounter, name: str) -> str:
    creature = target(encounter, name)
    if not creature.is_hero:
        raise HeroicError(f"{creature.id} is not a hero: only heroes have a heroic resource.")
    return creature.id


def resource_value(encounter: Encounter, name: str) -> HeroicResource:
    """The hero's heroic resource now (`hero_id`: the hero's creature id), kept in `Encounter.resources`
    (creature id -> value)."""
    hero = _hero(encounter, name)
    return HeroicResource(hero, value=encounter.resources.get(hero, 0))


def _put(encounter: Encounter, hero: str, value: int) -> Encounter:
    if value > RESOURCE_MAX:
        raise HeroicError(f"A heroic resource can be at most {RESOURCE_MAX}: use a smaller number.")
    return dataclasses.replace(encounter, resources={**encounter.resources, hero: value})


def gain(encounter: Encounter, name: str, amount: int) -> tuple[Encounter, str, int]:
    """The hero gains `amount` (a class trigger the table applies). Returns the encounter, id and value."""
    resource = resource_value(encounter, name)
    if amount < 1:
        raise HeroicError("Gain at least 1: type a positive number.")
    after = gain_resource(resource, amount).value
    return _put(encounter, resource.hero_id, after), resource.hero_id, after


def spend(
    encounter: Encounter,
    name: str,
    cost: int,
    *,
    resource_name: str = "heroic resource",
    may_go_negative: bool = False,
) -> tuple[Encounter, str, int]:
    """The hero spends `cost` (never below 0 unless the class allows it: `bot.rules.resources`). This is the
    ONE function a heroic resource is spent through, an ability's cost too.

    Draw Steel, The Basics, "Heroic Resources": "you spend your Heroic Resources to activate your most
    powerful abilities"; Draw Steel, Combat, "Combat Start": a heroic ability can't be used "without spending
    their Heroic Resource on it".
    """
    now = resource_value(encounter, name)
    if cost < 1:
        raise HeroicError("Spend at least 1: type a positive number.")
    resource = dataclasses.replace(now, name=resource_name, may_go_negative=may_go_negative)
    try:
        after = spend_resource(resource, cost).value
    except RuleError as error:
        raise HeroicError(f"{error} Gain some first, or pick a cheaper ability.") from None
    return _put(encounter, now.hero_id, after), now.hero_id, after


def set_value(encounter: Encounter, name: str, value: int) -> tuple[Encounter, str, int]:
    """A correction: the hero's heroic resource becomes `value` (0 or more)."""
    hero = _hero(encounter, name)
    if value < 0:
        raise HeroicError(f"Type a number from 0 to {RESOURCE_MAX}.")
    return _put(encounter, hero, value), hero, value


@dataclass(frozen=True, slots=True)
class Gained:
    """A gain that came by itself: the hero (creature id), the amount, why (`GainTrigger`) and the hero's
    value after it."""

    hero: str
    amount: int
    trigger: GainTrigger
    value: int = 0


def _took_damage(before: Vitals, after: Vitals) -> bool:
    return after.stamina + after.temporary < before.stamina + before.temporary


def _became_winded_or_dying(before: Vitals, after: Vitals) -> bool:
    return (after.winded and not before.winded) or (after.dying and not before.dying)


#: Triggers that come from what others do: a dead Troubadour still gains from them ("You still gain
#: drama during combat if you are dead"); the hero's own ones need the hero alive.
_OTHERS = frozenset({GainTrigger.FIRST_HERO_WINDED, GainTrigger.NATURAL_19_OR_20, GainTrigger.HERO_DIES})


@dataclass(frozen=True, slots=True)
class Observed:
    """What a change did that its encounter after doesn't keep: the natural rolls of the power rolls it made,
    how many creatures it force moved (a strike's pushes, a reported slam) and who dealt damage
    incorporating surges (creature ids)."""

    naturals: tuple[int, ...] = ()
    force_moved: int = 0
    surge_damage_by: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Change:
    """What one change did, as the gains see it: each hero's Stamina before and after, whether the Director
    spent Malice, and what else it did (`Observed`)."""

    was: Mapping[str, Vitals]
    now: Mapping[str, Vitals]
    malice_spent: bool
    observed: Observed

    def times(self, trigger: GainTrigger, hero: str) -> int:
        """How often `trigger` happened for `hero` in the change."""
        old, new = self.was.get(hero), self.now.get(hero)
        if trigger in (GainTrigger.TAKE_DAMAGE, GainTrigger.FIRST_DAMAGE_EACH_ROUND):
            return int(old is not None and new is not None and _took_damage(old, new))
        if trigger in (GainTrigger.WINDED_OR_DYING, GainTrigger.FIRST_WINDED_OR_DYING):
            return int(old is not None and new is not None and _became_winded_or_dying(old, new))
        if trigger is GainTrigger.MALICE_ABILITY_EACH_ROUND:
            return int(self.malice_spent)
        if trigger is GainTrigger.NATURAL_19_OR_20:
            return sum(1 for natural in self.observed.naturals if natural >= 19)
        if trigger is GainTrigger.FIRST_FORCE_MOVED_EACH_ROUND:
            return int(self.observed.force_moved > 0)
        if trigger is GainTrigger.FIRST_SURGE_DAMAGE_EACH_ROUND:
            return int(hero in self.observed.surge_damage_by)
        others = [(self.was[h], v) for h, v in self.now.items() if h in self.was]
        if trigger is GainTrigger.FIRST_HERO_WINDED:
            return int(any(v.winded and not o.winded for o, v in others))
        if trigger is GainTrigger.HERO_DIES:
            return sum(1 for o, v in others if v.dead and not o.dead)
        return 0


def _mark(encounter: Encounter, hero: str, trigger: GainTrigger) -> str | None:
    """The mark a limited gain leaves once taken (None: it comes every time)."""
    if trigger.limit is GainLimit.ROUND:
        return f"{hero}:{trigger.value}:{encounter.turns.round}"
    if trigger.limit is GainLimit.ENCOUNTER:
        return f"{hero}:{trigger.value}:encounter"
    return None


def _marked(encounter: Encounter, mark: str) -> Encounter:
    """The encounter with `mark` kept, and only this round's and the encounter's marks besides."""
    keep = (f":{encounter.turns.round}", ":encounter")
    kept = tuple(m for m in encounter.resource_gained if m.endswith(keep))
    return dataclasses.replace(encounter, resource_gained=(*kept, mark))


def triggered_gains(
    before: Encounter,
    after: Encounter,
    gains: Mapping[str, tuple[ResourceGain, ...]],
    dice: Dice,
    observed: Observed = Observed(),
) -> tuple[Encounter, tuple[Gained, ...]]:
    """The gains `after` brought, comparing the encounter before and after a change (`gains`: hero creature id
    -> its sheet's gains, each class's gains of Heroes ch. 5 as `bot.rules.resources.ResourceGain`s;
    `observed`: what else the change did, such as the natural rolls it made), each once per its limit
    (`GainTrigger.limit`, marks kept in `Encounter.resource_gained`): a hero who took damage, who became
    winded or dying; the Director spending Malice (only on abilities and Malice features: "uses an ability
    that costs Malice"); a natural 19 or 20; a creature force moved; the hero dealing damage with surges; a
    hero becoming winded, a hero dying. Only while a round is running. Returns the encounter and the gains, in
    order. (The gain at the start of the hero's turn is `flow.act`'s.)"""
    if after.turns.phase is not Phase.IN_ROUND:
        return after, ()
    change = _Change(
        {c.id: c.vitals for c in before.heroes()},
        {c.id: c.vitals for c in after.heroes()},
        after.malice.value < before.malice.value,
        observed,
    )
    updated = after
    gained: list[Gained] = []
    for creature in after.heroes():
        for g in gains.get(creature.id, ()):
            if creature.vitals.dead and g.trigger not in _OTHERS:
                continue
            times = change.times(g.trigger, creature.id)
            mark = _mark(updated, creature.id, g.trigger)
            if mark is not None:
                if not times or mark in updated.resource_gained:
                    continue
                times, updated = 1, _marked(updated, mark)
            amount = sum(roll_gain(dice, g) for _ in range(times))
            if amount:
                value = min(RESOURCE_MAX, updated.resources.get(creature.id, 0) + amount)
                updated = dataclasses.replace(updated, resources={**updated.resources, creature.id: value})
                gained.append(Gained(creature.id, amount, g.trigger, value))
    return updated, tuple(gained)
