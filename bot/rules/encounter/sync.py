"""What every harm and help change shares: the harm error, the creature a name means, the amounts a command
may give, and the turn entry's flags kept in step with Stamina.

Rules: Draw Steel, Combat, "End of Round" (`sync`), "Taking a Turn" (`use_on_turn`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.rules.creature import Creature
from bot.rules.damage import DAMAGE_MAX
from bot.rules.encounter.model import Encounter, UnknownCreature, fold
from bot.rules.encounter.rounds import carry_on
from bot.rules.errors import RuleError
from bot.rules.squads import Squad
from bot.rules.stamina import Vitals
from bot.rules.turns import ActionKind, Phase, current, set_flags, use_action

AMOUNT_MAX = DAMAGE_MAX
"""Largest amount of damage, healing or Stamina one command gives."""


class HarmError(RuleError):
    """A damage, healing, strike or Malice request the rules refuse."""


@dataclass(frozen=True, slots=True)
class Healing:
    """A Stamina change that isn't damage: the creature and its vitals before and after."""

    target: str
    before: Vitals
    after: Vitals


# --- lookups and flags -----------------------------------------------------------------------------------
def target(encounter: Encounter, name: str) -> Creature:
    """The creature named `name` (case-insensitive); a minion squad's name means its first living minion."""
    try:
        return encounter.find(name)
    except UnknownCreature:
        key = fold(name)
        squad = next((s for s in encounter.squads if fold(s.id) == key), None)
        if squad is None:
            raise
        if not squad.alive:
            raise HarmError(f"Every minion of {squad.id} is dead already.") from None
        return encounter.creature(squad.alive[0])


def living_minion(encounter: Encounter, creature: Creature) -> Squad:
    assert creature.squad_id is not None
    squad = encounter.squad(creature.squad_id)
    if squad is None:  # pragma: no cover - the roster keeps squads and minions together
        raise HarmError(f"{creature.id}'s squad is missing: remove and add the squad again.")
    if creature.id not in squad.alive:
        raise HarmError(f"{creature.id} is dead already: pick a living creature.")
    return squad


def sync(encounter: Encounter, creature_id: str) -> Encounter:
    """Keep the turn entry's dead / unconscious flags in step with the creature (or its squad): a creature
    that dies gets `dead`, one knocked out `unconscious`, a minion squad whose minions all died `dead`
    (`bot.rules.turns.set_flags`); healing or a correction that brings one back clears them. A round that
    ends because of it (nobody left to act) gives way to the next (`rounds.carry_on`: Draw Steel, Combat,
    "End of Round")."""
    if encounter.turns.phase is Phase.ENDED:
        return encounter
    creature = encounter.creature(creature_id)
    entry = encounter.entry_of(creature_id)
    if creature.squad_id is not None:
        squad = encounter.squad(creature.squad_id)
        dead = squad is not None and squad.defeated
        unconscious = False
    elif entry.id == creature_id:
        dead, unconscious = creature.vitals.dead, creature.vitals.knocked_out
    else:  # pragma: no cover - only minions share an entry
        return encounter
    if entry.dead == dead and entry.unconscious == unconscious:
        return encounter
    flagged = set_flags(encounter.turns, entry.id, dead=dead, unconscious=unconscious).state
    return carry_on(encounter.with_turns(flagged)).encounter  # the last to act gone: the next round


def check_amount(amount: int, what: str) -> None:
    if amount < 0:
        raise HarmError(f"The {what} can't be negative: type a number from 0 to {AMOUNT_MAX}.")
    if amount > AMOUNT_MAX:
        raise HarmError(f"The {what} can be at most {AMOUNT_MAX}: type a smaller number.")


def change_vitals(encounter: Encounter, creature: Creature, after: Vitals) -> tuple[Encounter, Healing]:
    updated = sync(encounter.with_creature(dataclasses.replace(creature, vitals=after)), creature.id)
    return updated, Healing(creature.id, creature.vitals, after)


def use_on_turn(
    encounter: Encounter,
    creature_id: str,
    kind: ActionKind,
    *,
    given_back: bool = False,
    needs_turn: bool = False,
) -> Encounter:
    """Record `kind` used by the creature when it is its own turn (Draw Steel, Combat, "Taking a Turn";
    `bot.rules.turns.use_action`: refused when none is left and the table enforces the action economy);
    `given_back` checks it but records nothing. Off its turn (a free strike, a triggered action, an ally's
    help) nothing is used, unless `needs_turn` (a maneuver) and the table enforces the action economy in a
    round: then it is refused."""
    entry = encounter.entry_of(creature_id)
    now = current(encounter.turns)
    if now is None or now.entry != entry.id:
        if needs_turn and encounter.turns.enforce_actions and encounter.turns.phase is Phase.IN_ROUND:
            use_action(encounter.turns, entry.id, kind)  # refuses: an on-turn action off the turn
        return encounter
    spent = use_action(encounter.turns, entry.id, kind).state
    return encounter if given_back else encounter.with_turns(spent)
