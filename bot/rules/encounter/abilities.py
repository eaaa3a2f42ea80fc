"""The abilities a creature of the encounter may use: its own cards, then the standard ones
every creature has.

Rules: Draw Steel, Combat, "Free Strikes", "Standard Free Strikes", "Grab", "Knockback", "Charge" (the cards
are `bot.rules.standard`'s).
"""

from __future__ import annotations

from bot.rules.ability import Ability
from bot.rules.creature import Creature
from bot.rules.errors import RuleError
from bot.rules.names import name_key
from bot.rules.standard import (
    FREE_STRIKE,
    MELEE_FREE_STRIKE,
    charge,
    grab,
    hero_standard_abilities,
    knockback,
)

NAMES_SHOWN = 5
"""Ability names an unknown name's refusal lists."""


class UnknownAbility(RuleError):
    """A strike names an ability the striker doesn't have."""


_HERO_STANDARD = tuple((name_key(a.name), a) for a in hero_standard_abilities())
_DIRECTOR_STANDARD = tuple((name_key(a.name), a) for a in (grab(), knockback(), charge()))
"""The standard cards (immutable, so made once) with their names' keys."""


def _keyed(creature: Creature) -> list[tuple[str, Ability]]:
    """The creature's abilities with their names' keys: its own, then the standard ones its own don't
    replace (a creature's own card comes before a standard one of the same name; names compare ignoring
    case and spacing).

    Draw Steel, Combat, "Free Strikes", "Standard Free Strikes", "Grab", "Knockback", "Charge":
    - a hero has the Melee and Ranged Weapon Free Strikes, Grab, Knockback and Charge (a roster hero whose
      kit lengthens the free strikes carries its own: `bot.rules.encounter.roster.carried_abilities`);
    - a monster brought from a bestiary carries its own Free Strike first (`bot.content.bestiary`); every
      Director creature has Grab, Knockback and Charge.
    """
    own = [(name_key(a.name), a) for a in creature.abilities]
    taken = {key for key, _ in own}
    standard = _HERO_STANDARD if creature.is_hero else _DIRECTOR_STANDARD
    return own + [(key, a) for key, a in standard if key not in taken]


def ability_names(creature: Creature, typed: str = "") -> list[str]:
    """The names of the creature's abilities containing `typed` (ignoring case), its own first."""
    typed_key = name_key(typed)
    return [a.name for key, a in _keyed(creature) if typed_key in key]


def find_ability(creature: Creature, name: str) -> Ability:
    """The creature's ability named `name` (ignoring case), or `UnknownAbility` naming a few it has."""
    wanted = name_key(name)
    for key, ability in _keyed(creature):
        if key == wanted:
            return ability
    names = ability_names(creature)
    shown = ", ".join(names[:NAMES_SHOWN]) + (", ..." if len(names) > NAMES_SHOWN else "")
    raise UnknownAbility(
        f"{creature.id} has no ability named '{' '.join(name.split())[:64]}': pick one from the list "
        f"({shown})."
    )


def charge_strike(creature: Creature) -> Ability:
    """The strike a Charge makes (Draw Steel, Combat, "Charge": "make a melee free strike against a target
    when you end your move"): a hero's Melee Weapon Free Strike, a monster's Free Strike; refused, saying how
    to strike by hand, for a creature without a free strike card."""
    wanted = (name_key(MELEE_FREE_STRIKE), name_key(FREE_STRIKE))
    for key, ability in _keyed(creature):
        if key in wanted:
            return ability
    raise UnknownAbility(
        f"{creature.id} has no free strike card to charge with: strike with damage: (its free strike damage) "
        "and melee: True."
    )
