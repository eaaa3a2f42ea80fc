"""Rounds that roll over: once a round is over the next one starts by itself, however the round ended.

Draw Steel, Combat, "End of Round": "Once all creatures on both sides of a battle have acted, the combat
round ends and a new combat round begins." Every change that can end a round calls `carry_on`, which starts
the next with its Malice (Monsters "Malice") and counts the objectives down (Draw Steel, Combat, "Objective
Endings"); with nobody able to act it waits until someone can. `news_since(before, after)` tells a change
outside a turn the rounds it started. Public API: `Rounds`, `heroes_in_fight`, `start_round`, `carry_on`,
`news_since`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules import resources, turns
from bot.rules.encounter import objectives
from bot.rules.encounter.model import Encounter, RoundNews
from bot.rules.turns import Phase, TurnState
from bot.rules.turns.events import Event, RoundStarted


@dataclass(frozen=True, slots=True)
class Rounds:
    """The encounter after rounds started (or not), the turn engine's events in order, the Malice gained and
    the objectives whose round counter hit 0 (their texts)."""

    encounter: Encounter
    events: tuple[Event, ...] = ()
    malice_gained: int = 0
    due: tuple[str, ...] = ()


def heroes_in_fight(encounter: Encounter) -> int:
    """Heroes still in the fight: on the battlefield and not dead (Monsters "Malice")."""
    return sum(1 for c in encounter.heroes() if not c.vitals.dead)


def _awake(state: TurnState) -> bool:
    """Somebody alive and conscious: they can act in a new round (surprise keeps creatures out of round 0 or
    1 only, which never starts between rounds)."""
    return any(not e.dead and not e.unconscious for e in state.entries)


def _round_started(encounter: Encounter, events: Sequence[Event]) -> tuple[Encounter, int, tuple[str, ...]]:
    """Malice for every round that started in `events` (the teams' surprise round 0 gains nothing), and the
    objectives' counters counted down (with those that hit 0)."""
    gained = 0
    due: tuple[str, ...] = ()
    malice = encounter.malice
    for event in events:
        if isinstance(event, RoundStarted):
            encounter, hit = objectives.count_down(encounter, event.round)
            due += hit
        if isinstance(event, RoundStarted) and event.round >= 1:
            before = malice.value
            malice = resources.malice_start_of_round(malice, heroes_in_fight(encounter), event.round)
            gained += malice.value - before
    return dataclasses.replace(encounter, malice=malice), gained, due


def start_round(encounter: Encounter, prior: Sequence[Event] = ()) -> Rounds:
    """Start the next round (round 1 from setup; teams with a surprise: round 0). A first round that surprise
    keeps everyone out of is over at once (Teams Combat, "Surprise", Shadow of the Demon Lord, Combat,
    "Surprise"): the round after it starts then."""
    events = list(prior)
    gained = 0
    due: tuple[str, ...] = ()
    updated = encounter
    for _ in range(2):  # a round surprise emptied, then the next: surprise lasts one round only
        transition = turns.next_round(updated.turns)
        updated, malice, hit = _round_started(updated.with_turns(transition.state), transition.events)
        events += transition.events
        gained += malice
        due += hit
        if updated.turns.phase is not Phase.BETWEEN_ROUNDS or not _awake(updated.turns):
            break
    return Rounds(updated, tuple(events), gained, due)


def carry_on(encounter: Encounter, prior: Sequence[Event] = ()) -> Rounds:
    """The encounter with the next round started if the round is over and somebody can act in a new one
    (otherwise unchanged: a round still running, combat not begun or over, or nobody awake); the rounds it
    started are kept as the encounter's `round_news`."""
    if encounter.turns.phase is not Phase.BETWEEN_ROUNDS or not _awake(encounter.turns):
        return Rounds(encounter, tuple(prior))
    started = start_round(encounter, prior)
    numbers = tuple(e.round for e in started.events if isinstance(e, RoundStarted))
    news = RoundNews(numbers, started.malice_gained, started.due)
    return dataclasses.replace(started, encounter=dataclasses.replace(started.encounter, round_news=news))


def news_since(before: Encounter, after: Encounter) -> RoundNews | None:
    """The rounds a change from `before` to `after` started by itself (None when it started none): every
    new round has a higher number, so news that differs is news."""
    news = after.round_news
    return news if news is not None and news != before.round_news else None
