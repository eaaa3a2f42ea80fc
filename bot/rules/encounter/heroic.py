"""A hero's heroic resource in the encounter: gained, spent, set, and the gains that come by themselves.

Rules: Draw Steel, The Basics, "Heroic Resources" ("you spend your Heroic Resources to activate your most
powerful abilities"); Draw Steel, Combat, "Combat Start" (a heroic ability can't be used "without spending
their Heroic Resource on it"); each class's gains (Heroes ch. 5) as `bot.rules.resources.ResourceGain`s:
the start of the hero's turn is `flow.act`'s, and taking damage (every time, or the first time each combat
round) and becoming winded or dying are `triggered_gains`' (comparing the encounter before and after a
change). The value lives in `Encounter.resources` (creature id -> value).

Public API: `HeroicError`, `resource_value`, `gain`, `spend` (the ONE
function a heroic resource is spent through, an ability's cost too), `set_value`, `triggered_gains`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from bot.rules.dice import Dice
from bot.rules.encounter.harm import target
from bot.rules.encounter.model import Encounter
from bot.rules.errors import RuleError
from bot.rules.resources import (
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
    """The hero's heroic resource now (`hero_id`: the hero's creature id)."""
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
    """The hero spends `cost` (never below 0 unless the class allows it: `bot.rules.resources`)."""
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


def _took_damage(before: Vitals, after: Vitals) -> bool:
    return after.stamina + after.temporary < before.stamina + before.temporary


def _became_winded_or_dying(before: Vitals, after: Vitals) -> bool:
    return (after.winded and not before.winded) or (after.dying and not before.dying)


def triggered_gains(
    before: Encounter,
    after: Encounter,
    gains: Mapping[str, tuple[ResourceGain, ...]],
    dice: Dice,
) -> tuple[Encounter, tuple[tuple[str, int], ...]]:
    """The gains `after` brought (hero creature id -> its sheet's gains): a hero who took damage gains each
    "you take damage" gain, and a "first time each combat round" gain once a round; a hero who became
    winded or dying gains that gain. Only while a round is running. Returns the encounter and
    (id, amount)s."""
    if after.turns.phase is not Phase.IN_ROUND:
        return after, ()
    was = {c.id: c.vitals for c in before.creatures}
    updated = after
    gained: list[tuple[str, int]] = []
    round_mark = f":{after.turns.round}"
    for creature in after.heroes():
        old = was.get(creature.id)
        if old is None or creature.vitals.dead:
            continue
        for g in gains.get(creature.id, ()):
            if g.trigger is GainTrigger.TAKE_DAMAGE:
                due = _took_damage(old, creature.vitals)
            elif g.trigger is GainTrigger.WINDED_OR_DYING:
                due = _became_winded_or_dying(old, creature.vitals)
            elif g.trigger is GainTrigger.FIRST_DAMAGE_EACH_ROUND:
                mark = f"{creature.id}:{g.trigger.value}{round_mark}"
                due = _took_damage(old, creature.vitals) and mark not in updated.resource_gained
                if due:
                    kept = tuple(m for m in updated.resource_gained if m.endswith(round_mark))
                    updated = dataclasses.replace(updated, resource_gained=(*kept, mark))
            else:
                continue
            amount = roll_gain(dice, g) if due else 0
            if amount:
                value = min(RESOURCE_MAX, updated.resources.get(creature.id, 0) + amount)
                updated = dataclasses.replace(updated, resources={**updated.resources, creature.id: value})
                gained.append((creature.id, amount))
    return updated, tuple(gained)
