"""Spending a hero-token benefit: the ONE function every command (and the /roll Reroll button) uses.

Rules: Draw Steel, The Basics, "Hero Tokens" (`spend_benefit`). Call these inside a `bot.play.commit` change
function (a refusal changes nothing).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.play import active_encounter, put_encounter
from bot.rules.encounter import Encounter, creature_of_hero
from bot.rules.encounter.model import fold
from bot.rules.errors import RuleError
from bot.rules.resources import HeroTokens, TokenBenefit, new_turn, spend_tokens
from bot.store import Hero, Table


class NoHero(RuleError):
    """No hero matches the request."""


@dataclass(frozen=True, slots=True)
class Spender:
    """The hero spending: its display name, the encounter creature id (None outside an encounter or when the
    hero is not in it), the roster hero (None for an encounter-only hero) and the owner's member id."""

    name: str
    creature_id: str | None
    roster: Hero | None
    owner_id: int | None

    @property
    def key(self) -> str:
        """What `Encounter.tokens_used` records: the creature id (else the roster name, unrecorded)."""
        return self.creature_id if self.creature_id is not None else self.name


def _roster_named(table: Table, name: str) -> Hero | None:
    key = fold(name)
    return next((h for h in table.heroes.values() if fold(h.name) == key), None)


def resolve_hero(table: Table, hero: str | int) -> Spender:
    """Which hero `hero` names: a name is a hero creature of the active encounter (any case) or a roster
    hero's (its creature when it is in the encounter); a member id is the hero creature that member controls
    in the active encounter, else the roster hero they own. `NoHero` with what to type instead."""
    encounter = active_encounter(table)
    if isinstance(hero, int):
        if encounter is not None:
            mine = next((c for c in encounter.heroes() if c.owner_id == hero), None)
            if mine is not None:
                roster_id = encounter.roster.get(mine.id)
                return Spender(mine.name, mine.id, table.heroes.get(roster_id or ""), mine.owner_id)
        owned = next((h for h in table.heroes.values() if h.owner_id == hero), None)
        if owned is None:
            raise NoHero("You have no hero here: name the hero, or create one with /hero create.")
        creature_id = creature_of_hero(encounter, owned.id) if encounter is not None else None
        return Spender(owned.name, creature_id, owned, owned.owner_id)
    if encounter is not None:
        key = fold(hero)
        creature = next((c for c in encounter.creatures if fold(c.id) == key), None)
        if creature is not None:
            if not creature.is_hero:
                raise NoHero(f"{creature.name} is not a hero: only heroes spend hero tokens.")
            roster_id = encounter.roster.get(creature.id)
            return Spender(creature.name, creature.id, table.heroes.get(roster_id or ""), creature.owner_id)
    named = _roster_named(table, hero)
    if named is None:
        raise NoHero("No hero by that name here: pick one from /hero show.")
    creature_id = creature_of_hero(encounter, named.id) if encounter is not None else None
    return Spender(named.name, creature_id, named, named.owner_id)


def spend_benefit(table: Table, hero: str | int, benefit: TokenBenefit) -> HeroTokens:
    """Spend `benefit.cost` tokens from the channel's pool for `hero` (a name or a member id:
    `resolve_hero`), recording the hero in the active encounter's `tokens_used` (one benefit per hero per
    turn). Writes `table.tokens` (and the encounter) and returns the pool after the spend with who used a
    benefit this turn. Only the tokens are spent: the benefit itself (surges, a save, Stamina) is the
    caller's to apply.

    Draw Steel, The Basics, "Hero Tokens" ("Spending Hero Tokens": the party shares the pool; each hero can
    use only one benefit per turn or test), through `bot.rules.resources.spend_tokens`. The pool is
    `table.tokens`; who used a benefit this turn is the active encounter's `tokens_used`, keyed by creature
    id (docs/architecture.md, *The framework*)."""
    spender = resolve_hero(table, hero)
    encounter = active_encounter(table)
    used = encounter.tokens_used if encounter is not None and spender.creature_id is not None else ()
    spent = spend_tokens(HeroTokens(table.tokens, used), spender.key, benefit)
    table.tokens = spent.pool
    if encounter is not None and spender.creature_id is not None:
        put_encounter(table, dataclasses.replace(encounter, tokens_used=spent.used_by))
    return spent


def clear_used(encounter: Encounter, creature_id: str | None = None) -> Encounter:
    """A new turn: heroes may use a hero-token benefit again (`creature_id`: only that hero; None: all)."""
    tokens = new_turn(HeroTokens(0, encounter.tokens_used), creature_id)
    return dataclasses.replace(encounter, tokens_used=tokens.used_by)
