"""The hero token that saves a hero: when damage would make a hero dying or dead and the party has 2 hero
tokens, the hero's player may spend them to regain Stamina equal to the recovery value BEFORE taking that
damage (Draw Steel, The Basics, "Spending Hero Tokens": "You can spend 2 hero tokens on your turn or when you
take damage (no action required) to regain Stamina equal to your Recovery value before taking the damage").

The bot can't ask before the damage lands, so it offers the spend with the damage's reply: the offer
(`Rescue`) is kept in the encounter (`Encounter.rescues`) with the channel version right after that damage;
accepting it re-applies the same damage (what got through weakness and immunity, and whether it would knock
out instead) to the hero's Stamina from before it, with the regain first — valid only while nothing else has
changed (the version still the offer's).

Public API: `Rescue`, `RescueResult`, `RescueError`, `TOO_LATE`, `RESCUE_COST`, `live_rescues(encounter,
version)`, `offer_rescues(encounter, hits, tokens, version)`, `rescue(encounter, index, version)`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.rules.encounter.model import Encounter
from bot.rules.encounter.rescue_state import Rescue as Rescue  # kept apart: the model holds it
from bot.rules.encounter.sync import sync
from bot.rules.errors import RuleError
from bot.rules.resources import TokenBenefit
from bot.rules.stamina import Vitals, lose_stamina, regain_recovery_value

if TYPE_CHECKING:
    from bot.rules.encounter.harm import Hit

RESCUE_COST = TokenBenefit.STAMINA.cost
"""Hero tokens the spend costs (2)."""
TOO_LATE = (
    "Too late: the encounter has changed since that damage. Spend 2 hero tokens to regain Stamina with "
    "/tokens spend use:regain instead."
)


class RescueError(RuleError):
    """A hero-token rescue the rules refuse."""


@dataclass(frozen=True, slots=True)
class RescueResult:
    """An accepted offer: the hero, the regain, and their vitals as the damage left them, then now."""

    creature_id: str
    regain: int
    before: Vitals
    after: Vitals


def _falls(before: Vitals, after: Vitals) -> bool:
    """The damage made the hero dying or dead ("Dying and Death")."""
    return (after.dying and not before.dying) or (after.dead and not before.dead)


def offer_rescues(encounter: Encounter, hits: Iterable[Hit], tokens: int, version: int) -> Encounter:
    """The encounter with this damage's offers (replacing older ones): one per hero the `hits` made dying or
    dead, when the party has `RESCUE_COST` tokens and the hero hasn't used a hero-token benefit this turn.
    `version` is the channel version the damage is committed as."""
    offers: list[Rescue] = []
    if tokens >= RESCUE_COST:
        for hit in hits:
            before, after = hit.before, hit.after
            if before is None or after is None or before.knocked_out or not _falls(before, after):
                continue
            creature = encounter.creature(hit.target)
            if not creature.is_hero or creature.id in encounter.tokens_used:
                continue
            offers.append(
                Rescue(
                    creature.id,
                    before.stamina,
                    before.temporary,
                    hit.dealt,
                    before.recovery_value,
                    version,
                    after.knocked_out,
                )
            )
    if not offers and not encounter.rescues:
        return encounter
    return dataclasses.replace(encounter, rescues=tuple(offers))


def live_rescues(encounter: Encounter, version: int) -> tuple[Rescue, ...]:
    """The offers still good at channel `version` (none once anything else has changed)."""
    return tuple(r for r in encounter.rescues if r.version == version)


def rescue(encounter: Encounter, index: int, version: int) -> tuple[Encounter, RescueResult]:
    """Accept offer `index` at channel `version`: the hero's Stamina from before the damage, the recovery
    value regained, then the same damage (`bot.rules.stamina.lose_stamina`). Spending the tokens is the
    caller's (`bot.hero_tokens.spend_benefit`, in the same transaction)."""
    offers = live_rescues(encounter, version)
    if not 0 <= index < len(encounter.rescues) or encounter.rescues[index] not in offers:
        raise RescueError(TOO_LATE)
    offer = encounter.rescues[index]
    creature = encounter.creature(offer.creature_id)
    now = creature.vitals
    before = dataclasses.replace(
        now, stamina=offer.stamina, temporary=offer.temporary, knocked_out=False, slain=False
    )
    after = lose_stamina(regain_recovery_value(before), offer.dealt, knock_out_instead=offer.knock_out)
    updated = encounter.with_creature(dataclasses.replace(creature, vitals=after))
    updated = dataclasses.replace(sync(updated, creature.id), rescues=())
    return updated, RescueResult(creature.id, offer.regain, now, after)
