"""Catch Breath in the action economy, and choosing fast or slow turns.

Draw Steel, Combat, "Catch Breath": "A creature who uses the Catch Breath maneuver spends a Recovery and
regains Stamina equal to their recovery value." "Taking a Turn": "Each creature in combat ... gets to take a
main action, a maneuver, and a move action on their turn." So with the action economy enforced, Catch Breath
off the hero's turn is refused, as the turn engine refuses other maneuvers; Teams Combat and
Shadow of the Demon Lord, Combat have no maneuvers, so there it costs an action.

Shadow of the Demon Lord, Combat, "Anatomy of a Round": "During each round, players who want to take a turn
(fast or slow) do so in that part of the round, in any order they choose."
"""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules.dice import FixedDice, SeededDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, flow, harm, new_encounter_state
from bot.rules.errors import RuleError
from bot.rules.turns import ActionKind, Controller, Mode, Speed, current, eligible
from bot.rules.turns.events import SpeedChosen

NO_DICE = FixedDice([])


def _begun(mode: Mode, enforce: bool) -> Encounter:
    """Ash (hurt, 2 Recoveries) and Bree against two goblins; round 1, the heroes first."""
    enc = new_encounter_state(mode, enforce_actions=enforce)
    heroes, foes = enc.turns.sides[0].id, enc.turns.sides[-1].id
    enc, _ = add_creatures(enc, NewCreatures("Ash", 30, heroes, is_hero=True, owner_id=1, recoveries=2))
    enc, _ = add_creatures(enc, NewCreatures("Bree", 24, heroes, is_hero=True, owner_id=2))
    enc, _ = add_creatures(enc, NewCreatures("Goblin", 10, foes, count=2))
    hurt = dataclasses.replace(enc.creature("Ash").vitals, stamina=10)
    enc = enc.with_creature(dataclasses.replace(enc.creature("Ash"), vitals=hurt))
    first = {} if mode is Mode.FAST_SLOW else {"first": heroes}
    return flow.begin(enc, SeededDice(2), **first).encounter


MODES_AND_COSTS = [
    (Mode.DRAW_STEEL, ActionKind.MANEUVER),
    (Mode.AGILITY, ActionKind.MANEUVER),
    (Mode.TEAMS, ActionKind.ACTION),
    (Mode.FAST_SLOW, ActionKind.ACTION),
]


@pytest.mark.parametrize(("mode", "cost"), MODES_AND_COSTS)
def test_enforced_catch_breath_off_the_heros_turn_is_refused(mode: Mode, cost: ActionKind) -> None:
    enc = _begun(mode, enforce=True)
    with pytest.raises(RuleError, match="It isn't Ash's turn"):  # nobody's turn
        harm.catch_breath(enc, "Ash")
    bree = flow.act(enc, "Bree", Controller.DIRECTOR, NO_DICE, override=True).encounter
    with pytest.raises(RuleError, match="It isn't Ash's turn"):  # an ally's turn
        harm.catch_breath(bree, "Ash")
    # on Ash's own turn it is their maneuver (an action in the games without maneuvers)
    ash = flow.act(enc, "Ash", Controller.DIRECTOR, NO_DICE, override=True).encounter
    caught, healed = harm.catch_breath(ash, "Ash")
    turn = current(caught.turns)
    assert turn is not None and turn.used == (cost,)
    assert healed.after.stamina == 20 and healed.after.recoveries == 1


@pytest.mark.parametrize(("mode", "cost"), MODES_AND_COSTS)
def test_without_enforcement_catch_breath_off_turn_is_recorded_nowhere(mode: Mode, cost: ActionKind) -> None:
    enc = _begun(mode, enforce=False)
    caught, healed = harm.catch_breath(enc, "Ash")
    assert caught.turns == enc.turns and healed.after.stamina == 20


def _fast_slow() -> Encounter:
    return _begun(Mode.FAST_SLOW, enforce=False)


def test_a_player_chooses_a_slow_turn_for_one_creature() -> None:
    enc = flow.choose_speed(_fast_slow(), "Ash", Speed.SLOW)
    assert SpeedChosen("Ash", Speed.SLOW) in enc.events
    assert eligible(enc.encounter.turns) == ("Bree",)  # Ash waits for the slow turns
    enc = flow.end_turn(flow.act(enc.encounter, "Bree", Controller.PLAYERS, NO_DICE).encounter)
    assert set(eligible(enc.encounter.turns)) == {"Goblin 1", "Goblin 2"}  # the GM's fast turns


def test_one_players_pass_moves_only_their_creatures_to_the_slow_turns() -> None:
    enc = flow.pass_part(_fast_slow(), Controller.PLAYERS, ["Ash"])
    assert enc.events == (SpeedChosen("Ash", Speed.SLOW),)
    assert eligible(enc.encounter.turns) == ("Bree",)


def test_no_fast_turn_once_the_slow_turns_began() -> None:
    enc = _fast_slow()
    for name in ("Ash", "Goblin 1"):
        enc = flow.choose_speed(enc, name, Speed.SLOW).encounter
    enc = flow.end_turn(flow.act(enc, "Bree", Controller.PLAYERS, NO_DICE).encounter).encounter
    enc = flow.end_turn(flow.act(enc, "Goblin 2", Controller.DIRECTOR, NO_DICE).encounter).encounter
    enc = flow.act(enc, "Ash", Controller.PLAYERS, NO_DICE).encounter  # the slow turns begin
    with pytest.raises(RuleError, match="fast turns are over"):
        flow.choose_speed(enc, "Goblin 1", Speed.FAST)
    with pytest.raises(RuleError, match="only used in the fast/slow"):
        flow.choose_speed(_begun(Mode.DRAW_STEEL, enforce=False), "Ash", Speed.FAST)
