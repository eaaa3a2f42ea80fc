"""Rounds that roll over: once a round is over the next one starts by itself, however the round ended.

draw-steel-turn-order.txt "End of Round": "Once all creatures on both sides of a battle have acted, the combat
round ends and a new combat round begins." The turn engine ends a round as soon as nobody can act any more
(`bot.rules.turns`): after a turn ends or a side is skipped, and also when the last creature still to act
dies, is knocked out or leaves outside a turn (a free strike, a Director's damage, a removal). Every
encounter change that can end a round calls `carry_on`, which starts the next round at once with its Malice
(Monsters "Malice": + the heroes still in the fight + the round number). The same holds when a whole side is
gone: the other side's creatures act one after another ("Creatures Take Turns").

When nobody could act in a new round (every creature dead, knocked out or gone), the encounter waits between
rounds: the next round starts as soon as a creature can act again (healed awake, or added), or the Director
ends the encounter.

Public API: `Rounds`, `heroes_in_fight`, `start_round`, `carry_on`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules import resources, turns
from bot.rules.encounter.model import Encounter
from bot.rules.turns import Phase, TurnState
from bot.rules.turns.events import Event, RoundStarted


@dataclass(frozen=True, slots=True)
class Rounds:
    """The encounter after rounds started (or not), the turn engine's events in order, the Malice gained."""

    encounter: Encounter
    events: tuple[Event, ...] = ()
    malice_gained: int = 0


def heroes_in_fight(encounter: Encounter) -> int:
    """Heroes still in the fight: on the battlefield and not dead (Monsters "Malice")."""
    return sum(1 for c in encounter.heroes() if not c.vitals.dead)


def _awake(state: TurnState) -> bool:
    """Somebody alive and conscious: they can act in a new round (surprise keeps creatures out of round 0 or
    1 only, which never starts between rounds)."""
    return any(not e.dead and not e.unconscious for e in state.entries)


def _malice(encounter: Encounter, events: Sequence[Event]) -> tuple[Encounter, int]:
    """Malice for every round that started in `events` (the teams' surprise round 0 gains nothing)."""
    gained = 0
    malice = encounter.malice
    for event in events:
        if isinstance(event, RoundStarted) and event.round >= 1:
            before = malice.value
            malice = resources.malice_start_of_round(malice, heroes_in_fight(encounter), event.round)
            gained += malice.value - before
    return dataclasses.replace(encounter, malice=malice), gained


def start_round(encounter: Encounter, prior: Sequence[Event] = ()) -> Rounds:
    """Start the next round (round 1 from setup; teams with a surprise: round 0). A first round that surprise
    keeps everyone out of is over at once (teams-combat.md "Surprise", fast-slow-turns-combat.md
    "Surprise"): the round after it starts then."""
    events = list(prior)
    gained = 0
    updated = encounter
    for _ in range(2):  # a round surprise emptied, then the next: surprise lasts one round only
        transition = turns.next_round(updated.turns)
        updated, malice = _malice(updated.with_turns(transition.state), transition.events)
        events += transition.events
        gained += malice
        if updated.turns.phase is not Phase.BETWEEN_ROUNDS or not _awake(updated.turns):
            break
    return Rounds(updated, tuple(events), gained)


def carry_on(encounter: Encounter, prior: Sequence[Event] = ()) -> Rounds:
    """The encounter with the next round started if the round is over and somebody can act in a new one
    (otherwise unchanged: a round still running, combat not begun or over, or nobody awake)."""
    if encounter.turns.phase is not Phase.BETWEEN_ROUNDS or not _awake(encounter.turns):
        return Rounds(encounter, tuple(prior))
    return start_round(encounter, prior)
