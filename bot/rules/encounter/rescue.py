"""The hero token that saves a hero: when damage makes a hero dying or dead and the party has 2 hero tokens,
the hero's player may spend them to regain Stamina equal to the recovery value BEFORE taking that damage;
off a damage, the spend is the hero's own turn's (`token_regain`).

Rules: Draw Steel, The Basics, "Spending Hero Tokens".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.rules.encounter.model import Encounter
from bot.rules.encounter.rescue_state import Rescue as Rescue  # kept apart: the model holds it
from bot.rules.encounter.sync import sync
from bot.rules.errors import RuleError
from bot.rules.resources import TokenBenefit
from bot.rules.stamina import Vitals, heal, lose_stamina, regain_recovery_value
from bot.rules.turns import Phase, current

if TYPE_CHECKING:
    from bot.rules.encounter.harm import Hit

RESCUE_COST = TokenBenefit.STAMINA.cost
"""Hero tokens the spend costs (2)."""
OVER = (
    "That offer is over: it lasts until it is answered or the hero's next turn starts. On the hero's turn, "
    "spend 2 hero tokens to regain Stamina with /tokens spend use:regain."
)


class RescueError(RuleError):
    """A hero-token rescue the rules refuse."""


@dataclass(frozen=True, slots=True)
class RescueResult:
    """A regain bought with 2 hero tokens: the hero, the recovery value, their vitals before and after, and
    the offer it answered (None: spent on the hero's own turn, no damage involved)."""

    creature_id: str
    regain: int
    before: Vitals
    after: Vitals
    offer: Rescue | None = None


def _falls(before: Vitals, after: Vitals) -> bool:
    """The damage made the hero dying or dead ("Dying and Death")."""
    return (after.dying and not before.dying) or (after.dead and not before.dead)


def live_rescues(encounter: Encounter) -> tuple[Rescue, ...]:
    """The offers still open: their hero is still in the encounter, which still runs, and the round after the
    damage's has not ended (an offer also ends when its hero's turn starts: `turn_started`)."""
    turns = encounter.turns
    if turns.phase is Phase.ENDED:
        return ()
    here = {c.id for c in encounter.creatures}
    return tuple(r for r in encounter.rescues if r.creature_id in here and turns.round <= r.round + 1)


def _keep(encounter: Encounter, rescues: tuple[Rescue, ...]) -> Encounter:
    return encounter if rescues == encounter.rescues else dataclasses.replace(encounter, rescues=rescues)


def offer_rescues(encounter: Encounter, hits: Iterable[Hit], tokens: int, version: int) -> Encounter:
    """The encounter with this damage's offers added: one per hero the `hits` made dying or dead, when the
    party has `RESCUE_COST` tokens and the hero hasn't used a hero-token benefit this turn. `version` is the
    channel version the damage is committed as. The open offers stay, but a hero's older one.

    Draw Steel, The Basics, "Spending Hero Tokens": "You can spend 2 hero tokens on your turn or when you take
    damage (no action required) to regain Stamina equal to your Recovery value before taking the damage".
    The bot can't ask before the damage lands, and in play by post the player answers much later, so the
    damage keeps an offer (`Rescue`) in the encounter (`Encounter.rescues`): it stays open whatever else
    happens until the player answers (`rescue`), or the hero's next turn starts (`turn_started`); for a hero
    who takes no turn (dead, unconscious, their side skipped) it ends with the round after the damage's
    (`live_rescues`). A hero's newer offer replaces their older one.
    """
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
                    encounter.turns.round,
                    len(offers),
                )
            )
    heroes = {o.creature_id for o in offers}
    kept = tuple(r for r in live_rescues(encounter) if r.creature_id not in heroes)
    return _keep(encounter, kept + tuple(offers))


def find_rescue(encounter: Encounter, version: int, ordinal: int) -> Rescue:
    """The open offer a button names (the damage's `version`, its `ordinal`), or `RescueError(OVER)`."""
    for offer in live_rescues(encounter):
        if offer.version == version and offer.ordinal == ordinal:
            return offer
    raise RescueError(OVER)


def rescue_of(encounter: Encounter, creature_id: str) -> Rescue | None:
    """The hero's open offer, if any."""
    return next((r for r in live_rescues(encounter) if r.creature_id == creature_id), None)


def turn_started(encounter: Encounter, creature_ids: Collection[str]) -> Encounter:
    """Their turn starts: the offers of `creature_ids` end unanswered (so do those whose time is up)."""
    return _keep(encounter, tuple(r for r in live_rescues(encounter) if r.creature_id not in creature_ids))


def _spared(offer: Rescue, now: Vitals) -> Vitals:
    """`now` as it would be had the regain come before the offer's damage."""
    before = dataclasses.replace(
        now,
        stamina=min(offer.stamina, now.max_stamina),
        temporary=offer.temporary,
        knocked_out=False,
        slain=False,
    )
    fell = lose_stamina(before, offer.dealt, knock_out_instead=offer.knock_out)
    would = lose_stamina(heal(before, offer.regain), offer.dealt, knock_out_instead=offer.knock_out)
    changes = ("stamina", "temporary", "knocked_out", "slain")
    if all(getattr(now, f) == getattr(fell, f) for f in changes):  # nothing touched the hero since
        return dataclasses.replace(now, **{f: getattr(would, f) for f in changes})
    # damage and regains since add up the same either way, save for the cap at the maximum
    stamina = max(now.stamina, min(now.max_stamina, now.stamina + would.stamina - fell.stamina))
    woke = fell.knocked_out and not would.knocked_out and not now.slain
    return dataclasses.replace(now, stamina=stamina, knocked_out=now.knocked_out and not woke)


def rescue(encounter: Encounter, offer: Rescue) -> tuple[Encounter, RescueResult]:
    """Accept an open offer: the hero regains the recovery value as if before that damage (`_spared`; it can
    save a hero the damage killed, who then never died). The offer is answered. Spending the tokens is the
    caller's (`bot.hero_tokens.spend_benefit`, in the same transaction).

    As if spent before that damage: when nothing has touched the hero since, the same damage again after the
    regain; otherwise the Stamina the regain would have spared (the regain is capped at the maximum as it
    stood then) added to the Stamina now, capped at the maximum, with dying or death read again and a
    knock-out the regain would have prevented undone.
    """
    if offer not in live_rescues(encounter):
        raise RescueError(OVER)
    creature = encounter.creature(offer.creature_id)
    now = creature.vitals
    after = _spared(offer, now)
    updated = sync(encounter.with_creature(dataclasses.replace(creature, vitals=after)), creature.id)
    updated = _keep(updated, tuple(r for r in live_rescues(updated) if r.creature_id != creature.id))
    return updated, RescueResult(creature.id, offer.regain, now, after, offer)


def own_turn(encounter: Encounter, creature_id: str) -> bool:
    """A turn is running and it is the creature's (or its squad's)."""
    turn = current(encounter.turns)
    return turn is not None and turn.entry == encounter.entry_of(creature_id).id


def token_regain(encounter: Encounter, creature_id: str) -> tuple[Encounter, RescueResult]:
    """A hero spends 2 hero tokens to regain the recovery value ("on your turn or when you take damage"): the
    hero's open offer when there is one (`rescue`), else now, on the hero's own turn or before combat has
    begun; refused otherwise, with what to do instead. Spending the tokens is the caller's."""
    offer = rescue_of(encounter, creature_id)
    if offer is not None:
        return rescue(encounter, offer)
    creature = encounter.creature(creature_id)
    if encounter.turns.phase is not Phase.SETUP and not own_turn(encounter, creature_id):
        raise RescueError(
            f"{creature.name} can spend 2 hero tokens to regain Stamina only on their turn or when they take "
            f"damage (the button on its reply): wait for {creature.name}'s turn."
        )
    after = regain_recovery_value(creature.vitals)
    updated = sync(encounter.with_creature(dataclasses.replace(creature, vitals=after)), creature.id)
    return updated, RescueResult(creature.id, creature.vitals.recovery_value, creature.vitals, after)
