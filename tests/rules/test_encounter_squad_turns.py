"""A minion squad's turn in the encounter aggregate (bot/rules/encounter/flow.py), in every turn structure.

Draw Steel, Combat, "Enemies Act In Groups": "When a group of enemies acts, the Director chooses a
single creature or minion squad to take a turn." Draw Steel, Combat, "Alternative Turn Order": "have each
hero, enemy, and group of enemies make an Agility test" (a squad tests once, with its minions' Agility).
"""

from __future__ import annotations

import pytest

from bot.rules.characteristics import Characteristics
from bot.rules.dice import FixedDice, SeededDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, new_encounter_state
from bot.rules.encounter.flow import act, begin, end_turn
from bot.rules.turns import Controller, Mode, Side, current, eligible
from bot.rules.turns.events import TurnEnded

TEAMS = (Side("blue", Controller.PLAYERS, "Blue"), Side("red", Controller.DIRECTOR, "Red"))


def _encounter(mode: Mode) -> Encounter:
    sides = TEAMS if mode is Mode.TEAMS else None
    enc = new_encounter_state(mode, sides) if sides is not None else new_encounter_state(mode)
    heroes, foes = ("blue", "red") if mode is Mode.TEAMS else ("heroes", "director")
    enc, _ = add_creatures(enc, NewCreatures("Ash", 30, heroes, is_hero=True, owner_id=1))
    enc, _ = add_creatures(
        enc,
        NewCreatures("Rat", 5, foes, count=4, squad="Rats", characteristics=Characteristics(agility=2)),
    )
    return enc


@pytest.mark.parametrize("mode", list(Mode))
def test_a_squad_takes_its_turn_as_one(mode: Mode) -> None:
    first = {"first": "director"} if mode in (Mode.DRAW_STEEL, Mode.AGILITY) else {}
    if mode is Mode.TEAMS:
        first = {"first": "red"}
    flow = begin(_encounter(mode), SeededDice(3), **first)
    if mode is Mode.FAST_SLOW:  # the players' creatures act first in each part
        flow = end_turn(act(flow.encounter, "Ash", Controller.PLAYERS, FixedDice([])).encounter)
    assert "Rats" in eligible(flow.encounter.turns)
    started = act(flow.encounter, "Rats", Controller.DIRECTOR, FixedDice([]))
    turn = current(started.encounter.turns)
    assert turn is not None and turn.entry == "Rats"
    assert started.gains == ()
    ended = end_turn(started.encounter)
    assert TurnEnded("Rats", 1) in ended.events


def test_a_squad_makes_one_agility_test_with_its_minions_agility() -> None:
    flow = begin(_encounter(Mode.AGILITY), FixedDice([1, 1, 5, 5]), first="director")
    totals = {i.unit: i.total for i in flow.encounter.turns.initiative}
    assert totals == {"Ash": 2, "Rats": 12}
