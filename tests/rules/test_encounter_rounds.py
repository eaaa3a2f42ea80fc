"""Rounds that never stick (bot/rules/encounter/rounds.py): when the last creature still
to act in a round dies, is knocked out or is removed outside a turn, the next round starts by itself, as it
does when a turn ends; the same when a whole side is gone.

Draw Steel, Combat, "End of Round": "Once all creatures on both sides of a battle have acted, the combat
round ends and a new combat round begins." "Creatures Take Turns": "The creatures who have yet to act get to
take their turns in any order they choose, without turns in between from the other side."
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.rules.damage import TieredDamage
from bot.rules.dice import FixedDice, SeededDice
from bot.rules.encounter import (
    Encounter,
    NewCreatures,
    add_creatures,
    flow,
    harm,
    new_encounter_state,
    remove,
    rounds,
)
from bot.rules.encounter.model import RoundNews
from bot.rules.errors import RuleError
from bot.rules.power import PowerRoll
from bot.rules.turns import Controller, Mode, Phase, Side, current, eligible, waiting
from bot.rules.turns.events import RoundStarted

TEAMS = (Side("blue", Controller.PLAYERS, "Blue"), Side("red", Controller.DIRECTOR, "Red"))
NO_DICE = FixedDice([])


def _encounter(mode: Mode = Mode.DRAW_STEEL) -> Encounter:
    """Ash and Bree (heroes) against Goblin 1 and Goblin 2, begun: round 1, the heroes' side first."""
    enc = new_encounter_state(mode, TEAMS) if mode is Mode.TEAMS else new_encounter_state(mode)
    heroes, foes = enc.turns.sides[0].id, enc.turns.sides[1].id
    enc, _ = add_creatures(enc, NewCreatures("Ash", 30, heroes, is_hero=True, owner_id=1, recoveries=2))
    enc, _ = add_creatures(enc, NewCreatures("Bree", 24, heroes, is_hero=True, owner_id=2))
    enc, _ = add_creatures(enc, NewCreatures("Goblin", 10, foes, count=2))
    first = {} if mode is Mode.FAST_SLOW else {"first": heroes}
    return flow.begin(enc, SeededDice(5), **first).encounter


def _turn(enc: Encounter, name: str) -> Encounter:
    entry = enc.turns.entry(name)
    assert entry is not None
    by = enc.turns.side(entry.side)
    assert by is not None
    started = flow.act(enc, name, by.controller, NO_DICE).encounter
    return flow.end_turn(started).encounter


def _all_but_one(mode: Mode = Mode.DRAW_STEEL) -> tuple[Encounter, str]:
    """Round 1 played by normal picks until one creature is left to act: a goblin (the heroes pick first, or
    act first in each fast/slow part)."""
    enc = _encounter(mode)
    while len(waiting(enc.turns)) > 1:
        enc = _turn(enc, eligible(enc.turns)[0])
    (last,) = waiting(enc.turns)
    assert last.startswith("Goblin") and enc.turns.round == 1
    return enc, last


def _free_strike(enc: Encounter, name: str) -> Encounter:
    roll = PowerRoll(dice=(6, 6), bonus=0, edges=0, banes=0, main_action=False)
    return harm.strike(enc, roll, "Ash", [name], TieredDamage.parse("20/20/20"))[0]


GONE: dict[str, Callable[[Encounter, str], Encounter]] = {
    "dies (/stamina damage)": lambda enc, name: harm.damage(enc, name, 20)[0],
    "is knocked out": lambda enc, name: harm.damage(enc, name, 20, knock_out=True)[0],
    "dies of a free strike": _free_strike,
    "is removed (/encounter remove)": lambda enc, name: remove(enc, name)[0],
}


@pytest.mark.parametrize("how", list(GONE))
@pytest.mark.parametrize("mode", list(Mode))
def test_the_last_creature_to_act_gone_outside_a_turn_starts_the_next_round(how: str, mode: Mode) -> None:
    enc, last = _all_but_one(mode)
    malice = enc.malice.value
    after = GONE[how](enc, last)
    assert after.turns.phase is Phase.IN_ROUND and after.turns.round == 2
    assert after.malice.value == malice + 2 + 2  # Monsters "Malice": + heroes in the fight + the round
    assert eligible(after.turns)
    # the change tells the round it started, with its Malice, for the reply
    assert rounds.news_since(enc, after) == RoundNews((2,), 4)
    assert rounds.news_since(after, harm.damage(after, "Ash", 1)[0]) is None
    # and play goes on: somebody acts in round 2, then ends their turn
    pick = eligible(after.turns)[0]
    assert current(_turn(after, pick).turns) is None


def test_a_whole_side_gone_leaves_the_others_to_act_then_the_next_round_starts() -> None:
    """The goblins both die while the heroes still have to act: the heroes act back to back, then round 2
    starts, in which only the heroes act."""
    enc = _encounter()
    enc = _turn(enc, "Ash")
    enc = harm.damage(harm.damage(enc, "Goblin 1", 20)[0], "Goblin 2", 20)[0]
    assert eligible(enc.turns) == ("Bree",) and enc.turns.round == 1
    enc = _turn(enc, "Bree")
    assert enc.turns.round == 2 and set(eligible(enc.turns)) == {"Ash", "Bree"}
    # the heroes' last creature to act gone: the next round starts with the goblins' side gone too
    enc = _turn(enc, "Ash")
    enc = harm.damage(enc, "Bree", 60)[0]
    assert enc.turns.round == 3 and eligible(enc.turns) == ("Ash",)


def test_nobody_left_to_act_waits_until_somebody_can_then_the_round_starts() -> None:
    """Every creature down: no round can run (the reply says what to do); bringing one back (the Director's
    Stamina correction wakes them) or adding one starts it."""
    enc = _encounter()
    for name in ("Goblin 1", "Goblin 2"):
        enc = harm.damage(enc, name, 20)[0]
    enc = harm.damage(enc, "Bree", 60)[0]
    enc = harm.damage(enc, "Ash", 60, knock_out=True)[0]
    assert enc.turns.phase is Phase.BETWEEN_ROUNDS and enc.turns.round == 1
    with pytest.raises(RuleError, match="Nobody can act in a new round"):
        flow.act(enc, "Ash", Controller.PLAYERS, NO_DICE)
    with pytest.raises(RuleError, match="already begun"):
        flow.begin(enc, NO_DICE)
    woken = harm.set_stamina(enc, "Ash", 5)[0]
    assert woken.turns.phase is Phase.IN_ROUND and woken.turns.round == 2
    assert eligible(woken.turns) == ("Ash",)
    added, _ = add_creatures(enc, NewCreatures("Orc", 12, "director"))
    assert added.turns.phase is Phase.IN_ROUND and eligible(added.turns) == ("Orc",)


def test_a_turn_that_ends_the_round_still_reports_the_new_round() -> None:
    enc, last = _all_but_one()
    ended = flow.end_turn(flow.act(enc, last, Controller.DIRECTOR, NO_DICE).encounter)
    assert RoundStarted(2) in ended.events and ended.malice_gained == 4
