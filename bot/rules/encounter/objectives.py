"""Objectives with round counters, and the villain actions a leader or solo uses once per encounter.

Rules: Draw Steel, Combat, "How Combat Ends", "Objective Endings"; Draw Steel: Monsters, "Villain Actions".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection

from bot.rules.ability import ActionType
from bot.rules.creature import Creature
from bot.rules.encounter.model import Encounter
from bot.rules.encounter.objective_state import Objective as Objective  # kept apart: the model holds them
from bot.rules.encounter.objective_state import Outcome as Outcome
from bot.rules.encounter.objective_state import VillainActions as VillainActions
from bot.rules.errors import RuleError
from bot.rules.names import name_key
from bot.rules.turns import Phase

OBJECTIVES_MAX = 10
"""Most objectives one encounter holds (the tracker must stay readable)."""
OBJECTIVE_TEXT_MAX = 200
ROUNDS_MAX = 99
VILLAIN_ACTIONS = 3
"""A leader or solo's villain actions (Monsters, "Villain Actions")."""
ACTION_NAME_MAX = 64


class ObjectiveError(RuleError):
    """A request about objectives or villain actions the rules refuse."""


def _clean(text: str) -> str:
    return " ".join(text.split())


def add_objective(encounter: Encounter, text: str, rounds: int | None = None) -> Encounter:
    """The encounter with a new open objective (a counter of `rounds` rounds when given: the rounds it lasts,
    the round in progress counting as the first).

    Draw Steel, Combat, "How Combat Ends": "the Director can set objectives when they build the encounter.
    Once the heroes achieve those objectives ... the Director can end the encounter"; "Objective Endings":
    "HOLD THEM OFF ... protect a particular position for a number of rounds determined by you", "STOP THE
    ACTION ... Objectives in this category have a timer associated with them. If the heroes don't achieve
    the objective in a certain number of rounds, the conditions of the battle could well change."
    """
    clean = _clean(text)
    if not clean:
        raise ObjectiveError("Describe the objective: text: Hold the bridge.")
    if len(clean) > OBJECTIVE_TEXT_MAX:
        raise ObjectiveError(f"An objective is at most {OBJECTIVE_TEXT_MAX} characters: type a shorter one.")
    if rounds is not None and not 1 <= rounds <= ROUNDS_MAX:
        raise ObjectiveError(f"rounds must be a number from 1 to {ROUNDS_MAX} (or leave it out).")
    if len(encounter.objectives) >= OBJECTIVES_MAX:
        raise ObjectiveError(f"An encounter holds at most {OBJECTIVES_MAX} objectives.")
    if any(name_key(o.text) == name_key(clean) for o in encounter.objectives):
        raise ObjectiveError(f"'{clean}' is already an objective: give it other words.")
    return dataclasses.replace(encounter, objectives=(*encounter.objectives, Objective(clean, rounds)))


def open_ones(encounter: Encounter) -> tuple[Objective, ...]:
    return tuple(o for o in encounter.objectives if o.outcome is Outcome.OPEN)


def find_objective(encounter: Encounter, key: str) -> int:
    """The index of the objective `key` names: its number in the list (1-based), its text (ignoring case), or
    the start of exactly one open objective's text."""
    stripped = key.strip()
    if stripped.isascii() and stripped.isdigit() and 1 <= int(stripped) <= len(encounter.objectives):
        return int(stripped) - 1
    folded = name_key(_clean(key))
    for index, objective in enumerate(encounter.objectives):
        if name_key(objective.text) == folded:
            return index
    starts = [
        i
        for i, o in enumerate(encounter.objectives)
        if o.outcome is Outcome.OPEN and name_key(o.text).startswith(folded)
    ]
    if folded and len(starts) == 1:
        return starts[0]
    raise ObjectiveError("No such objective: pick one from the list (or see the tracker).")


def resolve(encounter: Encounter, key: str, outcome: Outcome) -> tuple[Encounter, Objective]:
    """The objective `key` names marked achieved or failed (an open one only): the Director marks it, and an
    open objective stays open until then."""
    index = find_objective(encounter, key)
    objective = encounter.objectives[index]
    if objective.outcome is not Outcome.OPEN:
        raise ObjectiveError(f"'{objective.text}' is already {objective.outcome.value}.")
    done = dataclasses.replace(objective, outcome=outcome)
    objectives = tuple(done if i == index else o for i, o in enumerate(encounter.objectives))
    return dataclasses.replace(encounter, objectives=objectives), done


def count_down(encounter: Encounter, round_number: int) -> tuple[Encounter, tuple[str, ...]]:
    """Round `round_number` starts: each open objective's counter loses a round, and the texts of those that
    hit 0 are returned. The round in progress when an objective is set counts as its first, so round 1
    (which follows the setup) and the surprise round 0 take nothing off. Called by `rounds.start_round`, the
    one round-start rule; when a counter hits 0 the Director decides whether the encounter ends in victory."""
    if round_number < 2 or not encounter.objectives:
        return encounter, ()
    due: list[str] = []
    objectives = []
    for objective in encounter.objectives:
        if objective.outcome is Outcome.OPEN and objective.left:
            objective = dataclasses.replace(objective, left=objective.left - 1)
            if objective.left == 0:
                due.append(objective.text)
        objectives.append(objective)
    return dataclasses.replace(encounter, objectives=tuple(objectives)), tuple(due)


def achieve_due(encounter: Encounter) -> Encounter:
    """The encounter ends in victory: each open objective whose counter ran out (`Objective.due`) is
    achieved. "How Combat Ends": once the heroes achieve the objectives "the Director can end the
    encounter"; at a counter's 0 the Director was asked whether the encounter ends in victory, and ending it
    in victory answers that the objective was met."""
    if not any(o.due for o in encounter.objectives):
        return encounter
    objectives = tuple(
        dataclasses.replace(o, outcome=Outcome.ACHIEVED) if o.due else o for o in encounter.objectives
    )
    return dataclasses.replace(encounter, objectives=objectives)


# --- villain actions -------------------------------------------------------------------------------------


#: What the encounter remembers of a creature's villain actions when it remembers nothing (one value for all:
#: it is immutable, and every turn's end asks it of every creature).
_NONE_KEPT = VillainActions()


def _kept(encounter: Encounter, creature: Creature) -> VillainActions:
    """The creature's villain actions the Director named and those it used."""
    return encounter.villains.get(creature.id, _NONE_KEPT)


def villain_actions(encounter: Encounter, creature: Creature) -> tuple[str, ...]:
    """The creature's villain actions: its stat block's, else those the Director named."""
    own = tuple(a.name for a in creature.abilities if a.action is ActionType.VILLAIN)
    return own or _kept(encounter, creature).named


def villain_used(encounter: Encounter, creature: Creature) -> tuple[str, ...]:
    return _kept(encounter, creature).used


def _match(names: tuple[str, ...], key: str) -> str | None:
    folded = name_key(_clean(key))
    return next((n for n in names if name_key(n) == folded), None)


def name_villain_action(encounter: Encounter, creature: Creature, name: str) -> tuple[Encounter, str]:
    """The Director names one of a Director creature's villain actions (up to three, when its stat block
    has none). A leader or solo's villain actions come from its stat block (abilities of
    `ActionType.VILLAIN` a bestiary creature carries), else from these names (Monsters, "Villain Actions")."""
    if creature.is_hero or creature.owner_id is not None:
        raise ObjectiveError(
            f"Only the Director's leaders and solos have villain actions, not {creature.id}."
        )
    if any(a.action is ActionType.VILLAIN for a in creature.abilities):
        raise ObjectiveError(
            f"{creature.id}'s stat block has its villain actions: mark one used with /encounter villain use."
        )
    clean = _clean(name)
    if not clean or len(clean) > ACTION_NAME_MAX:
        raise ObjectiveError(f"Name the villain action in 1 to {ACTION_NAME_MAX} characters.")
    current = _kept(encounter, creature)
    if _match(current.named, clean) is not None:
        raise ObjectiveError(f"{creature.id} already has the villain action '{clean}'.")
    if len(current.named) >= VILLAIN_ACTIONS:
        raise ObjectiveError(f"{creature.id} already has {VILLAIN_ACTIONS} villain actions.")
    named = dataclasses.replace(current, named=(*current.named, clean))
    return dataclasses.replace(encounter, villains={**encounter.villains, creature.id: named}), clean


def use_villain_action(encounter: Encounter, creature: Creature, name: str) -> tuple[Encounter, str]:
    """Mark one of the creature's villain actions used: each once per encounter, and a second use is refused.

    Draw Steel: Monsters, "Villain Actions": a leader or solo has three villain actions, each usable once per
    encounter. "No more than one villain action can be used per round" (even with several such creatures),
    "at the end of any other creature's turn": a second in the round is refused.
    """
    actions = villain_actions(encounter, creature)
    if not actions:
        raise ObjectiveError(
            f"{creature.id} has no villain actions: name them with /encounter villain name first."
        )
    found = _match(actions, name)
    if found is None:
        raise ObjectiveError(
            f"{creature.id} has no villain action '{_clean(name)[:64]}': use {', '.join(actions)}."
        )
    current = _kept(encounter, creature)
    if found in current.used:
        raise ObjectiveError(
            f"{creature.id} has already used {found} this encounter: each is once per encounter."
        )
    now = villain_round(encounter)
    if now is not None and encounter.villain_round == now:
        raise ObjectiveError(
            "A villain action was already used this round: one a round, so wait for the next round."
        )
    used = dataclasses.replace(current, used=(*current.used, found))
    villains = {**encounter.villains, creature.id: used}
    return dataclasses.replace(encounter, villains=villains, villain_round=now), found


def villain_round(encounter: Encounter) -> int | None:
    """The round a villain action used now counts in (None outside the rounds: before the encounter begins
    or after it ends). It comes at the end of a turn, so one used in a new round before anyone's turn came
    at the end of the last round's last turn (the bot starts the next round at once) and counts there."""
    turns = encounter.turns
    if turns.phase in (Phase.SETUP, Phase.ENDED):
        return None
    fresh = turns.phase is Phase.IN_ROUND and not turns.turns and turns.round > 0
    return turns.round - 1 if fresh else turns.round


def unused_villains(encounter: Encounter, others_than: Collection[str] = ()) -> tuple[Creature, ...]:
    """The living creatures with a villain action not used yet, but those in `others_than`."""
    return tuple(
        c
        for c in encounter.creatures
        if c.id not in others_than
        and not c.vitals.dead
        and set(villain_actions(encounter, c)) - set(villain_used(encounter, c))
    )


def remind_villain(encounter: Encounter, ended: Collection[str], round_number: int) -> tuple[Encounter, bool]:
    """A turn of round `round_number` just ended (the creatures `ended` took it): whether to remind the
    Director that a villain action may be used now, once a round, while none was used this round and another
    creature still has one unused; the encounter then remembers the round reminded. The reminder doesn't
    name the action: the names are the Director's, shown on their private tracker only."""
    if (
        encounter.villain_round == round_number
        or encounter.villain_reminded == round_number
        or not unused_villains(encounter, ended)
    ):
        return encounter, False
    return dataclasses.replace(encounter, villain_reminded=round_number), True
