"""The abilities a creature of the encounter may use: its own cards, then the standard ones every creature has
(issue 20 §3).

Rules (draw-steel-combat.txt "Free Strikes", "Standard Free Strikes", "Grab", "Knockback", "Charge"; the
cards are `bot.content.standard`'s):
- a hero has the Melee and Ranged Weapon Free Strikes, Grab, Knockback and Charge (a roster hero whose kit
  lengthens the free strikes carries its own: `bot.rules.encounter.roster.carried_abilities`);
- a monster brought from a bestiary carries its own Free Strike first (`bot.content.bestiary`); every Director
  creature has Grab, Knockback and Charge.
A creature's own card comes before a standard one of the same name. Names compare ignoring case and spacing.

Public API: `abilities_of(creature)`, `find_ability(creature, name)`, `ability_names(creature, typed)`,
`UnknownAbility`.
"""

from __future__ import annotations

from bot.content.ability import Ability
from bot.content.standard import charge, grab, hero_standard_abilities, knockback
from bot.rules.creature import Creature
from bot.rules.errors import RuleError
from bot.rules.names import name_key

NAMES_SHOWN = 5
"""Ability names an unknown name's refusal lists."""


class UnknownAbility(RuleError):
    """A strike names an ability the striker doesn't have."""


def abilities_of(creature: Creature) -> tuple[Ability, ...]:
    """The creature's own abilities, then the standard ones it has that its own don't replace."""
    standard = hero_standard_abilities() if creature.is_hero else (grab(), knockback(), charge())
    own = {name_key(a.name) for a in creature.abilities}
    return (*creature.abilities, *(a for a in standard if name_key(a.name) not in own))


def ability_names(creature: Creature, typed: str = "") -> list[str]:
    """The names of the creature's abilities containing `typed` (ignoring case), in `abilities_of`'s order."""
    key = name_key(typed)
    return [a.name for a in abilities_of(creature) if key in name_key(a.name)]


def find_ability(creature: Creature, name: str) -> Ability:
    """The creature's ability named `name` (ignoring case), or `UnknownAbility` naming a few it has."""
    key = name_key(name)
    for ability in abilities_of(creature):
        if name_key(ability.name) == key:
            return ability
    names = ability_names(creature)
    shown = ", ".join(names[:NAMES_SHOWN]) + (", ..." if len(names) > NAMES_SHOWN else "")
    raise UnknownAbility(
        f"{creature.id} has no ability named '{' '.join(name.split())[:64]}': pick one from the list "
        f"({shown})."
    )
