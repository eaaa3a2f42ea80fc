"""The baseline actions that change rolls (bot.rules.encounter.baseline): Defend and Aid Attack, applied to
strikes against and by the right creatures and ending as the text says; and what a strike is made as."""

from __future__ import annotations

import pytest

from bot.rules import codec
from bot.rules.conditions import Condition, Duration
from bot.rules.damage import TieredDamage
from bot.rules.dice import FixedDice
from bot.rules.encounter import (
    Encounter,
    NewCreatures,
    add_creatures,
    baseline,
    flow,
    harm,
    new_encounter_state,
)
from bot.rules.encounter.model import AidAttack
from bot.rules.power import PowerRoll, RollAction
from bot.rules.turns import ActionKind, Controller, current

DAMAGE = TieredDamage.parse("1/2/3")


def running() -> Encounter:
    """Round 1, the heroes pick first: Ash and Bree (heroes), Goblin 1 and Goblin 2 (the Director's)."""
    enc = new_encounter_state()
    enc, _ = add_creatures(enc, NewCreatures("Ash", 30, "heroes", is_hero=True, owner_id=1))
    enc, _ = add_creatures(enc, NewCreatures("Bree", 30, "heroes", is_hero=True, owner_id=2))
    enc, _ = add_creatures(enc, NewCreatures("Goblin", 20, "director", count=2))
    return flow.begin(enc, FixedDice([10]), first="heroes").encounter


def act(enc: Encounter, name: str, by: Controller) -> Encounter:
    return flow.act(enc, name, by, FixedDice([])).encounter


def end(enc: Encounter) -> Encounter:
    return flow.end_turn(enc).encounter


def roll(d1: int = 6, d2: int = 6) -> PowerRoll:
    return PowerRoll(dice=(d1, d2), main_action=True)


def banes_on(enc: Encounter, attacker: str, target: str) -> tuple[int, int, tuple[str, ...]]:
    _, result = harm.strike(enc, roll(), attacker, [target], DAMAGE)
    (hit,) = result.targets
    return hit.edges, hit.banes, hit.reasons


def test_defend_gives_a_double_bane_until_the_start_of_the_defenders_next_turn() -> None:
    """Draw Steel, Combat, "Defend": "When a creature takes the Defend main action, ability rolls made
    against them have a double bane until the start of their next turn." """
    enc = act(running(), "Ash", Controller.PLAYERS)
    enc = baseline.defend(enc, "Ash")
    now = current(enc.turns)
    assert now is not None and now.used == (ActionKind.MAIN,)  # Defend is a main action
    assert enc.defending == ("Ash",)
    assert codec.load(Encounter, codec.to_data(enc)) == enc
    enc = act(end(enc), "Goblin 1", Controller.DIRECTOR)
    assert banes_on(enc, "Goblin 1", "Ash") == (0, 2, ("Ash is defending",))
    assert banes_on(enc, "Goblin 1", "Bree") == (0, 0, ())  # only rolls against the defender
    enc = act(end(enc), "Bree", Controller.PLAYERS)
    enc = act(end(enc), "Goblin 2", Controller.DIRECTOR)
    assert banes_on(enc, "Goblin 2", "Ash") == (0, 2, ("Ash is defending",))  # still round 1
    enc = end(enc)  # round 2 begins
    enc = act(enc, "Ash", Controller.PLAYERS)  # the start of Ash's next turn
    assert enc.defending == ()
    assert banes_on(enc, "Goblin 1", "Ash") == (0, 0, ())


def test_defend_gives_nothing_while_the_defender_has_someone_taunted() -> None:
    """Draw Steel, Combat, "Defend": "A creature gains no benefit from this action while another creature
    is taunted by them." """
    enc = baseline.defend(act(running(), "Ash", Controller.PLAYERS), "Ash")
    taunting, _ = harm.add_condition(enc, "Goblin 1", Condition.TAUNTED, Duration.EOT, source="Ash")
    assert banes_on(taunting, "Goblin 2", "Ash") == (0, 0, ())
    assert banes_on(enc, "Goblin 2", "Ash") == (0, 2, ("Ash is defending",))


def test_defend_and_aid_are_taken_on_the_creatures_own_turn() -> None:
    enc = act(running(), "Ash", Controller.PLAYERS)
    with pytest.raises(baseline.BaselineError, match="Bree's own turn"):
        baseline.defend(enc, "Bree")
    with pytest.raises(baseline.BaselineError, match="Bree's own turn"):
        baseline.aid(enc, "Bree", "Goblin 1")
    with pytest.raises(baseline.BaselineError, match="chooses an enemy"):
        baseline.aid(enc, "Ash", "Bree")


def test_aid_attack_gives_an_allys_next_roll_against_that_enemy_an_edge() -> None:
    """Draw Steel, Combat, "Aid Attack": "The next ability roll an ally makes against that enemy before the
    start of the aiding creature's next turn gains an edge." """
    enc = baseline.aid(act(running(), "Ash", Controller.PLAYERS), "Ash", "Goblin 1")
    now = current(enc.turns)
    assert now is not None and now.used == (ActionKind.MANEUVER,)  # Aid Attack is a maneuver
    assert enc.aids == (AidAttack("Ash", "Goblin 1"),)
    assert banes_on(enc, "Ash", "Goblin 1") == (0, 0, ())  # the aider is not their own ally
    assert banes_on(enc, "Goblin 2", "Goblin 1") == (0, 0, ())  # nor is the enemy's side
    enc = act(end(enc), "Goblin 1", Controller.DIRECTOR)
    enc = act(end(enc), "Bree", Controller.PLAYERS)
    assert banes_on(enc, "Bree", "Goblin 2") == (0, 0, ())  # only against that enemy
    enc, result = harm.strike(enc, roll(), "Bree", ["Goblin 1"], DAMAGE)
    (hit,) = result.targets
    assert (hit.edges, hit.reasons, hit.roll.total) == (1, ("aided by Ash",), 14)
    assert enc.aids == ()  # the next roll only
    assert banes_on(enc, "Bree", "Goblin 1") == (0, 0, ())


def test_aid_attack_ends_at_the_start_of_the_aiders_next_turn() -> None:
    """Draw Steel, Combat, "Aid Attack": "before the start of the aiding creature's next turn"."""
    enc = baseline.aid(act(running(), "Ash", Controller.PLAYERS), "Ash", "Goblin 1")
    for name, by in (("Goblin 1", Controller.DIRECTOR), ("Bree", Controller.PLAYERS)):
        enc = act(end(enc), name, by)
    enc = act(end(enc), "Goblin 2", Controller.DIRECTOR)
    assert enc.aids == (AidAttack("Ash", "Goblin 1"),)
    enc = act(end(enc), "Ash", Controller.PLAYERS)  # round 2: Ash's next turn starts
    assert enc.aids == ()


@pytest.mark.parametrize(
    ("action", "critical", "used"),
    [
        (RollAction.MAIN, True, ()),  # the critical's extra main action gives it back
        (RollAction.MANEUVER, False, (ActionKind.MANEUVER,)),
        (RollAction.FREE_STRIKE, False, (ActionKind.MAIN,)),
        (RollAction.TRIGGERED, False, ()),
    ],
)
def test_a_strike_is_a_critical_only_as_a_main_action(
    action: RollAction, critical: bool, used: tuple[ActionKind, ...]
) -> None:
    """Draw Steel, The Basics, "Natural Roll": "on certain types of power rolls, this is a critical hit" — a
    natural 19 or 20 on a free strike or a triggered action is tier 3 but no critical; a free strike on
    one's own turn is a main action (Draw Steel, Combat, "Free Strikes": "Every creature can use a free
    strike ability as a main action on their turn")."""
    enc = act(running(), "Ash", Controller.PLAYERS)
    enc, result = harm.strike(enc, roll(10, 9), "Ash", ["Goblin 1"], DAMAGE, action=action)
    assert result.targets[0].tier == 3
    assert result.roll.critical is critical
    now = current(enc.turns)
    assert now is not None and now.used == used
