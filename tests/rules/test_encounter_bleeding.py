"""Bleeding on the encounter (bot.rules.encounter.bleeding): a dying hero bleeds, and a bleeding creature
loses 1d6 + its level Stamina for a main action, a triggered action or a Might or Agility roll."""

from __future__ import annotations

import pytest

from bot.rules import codec
from bot.rules.conditions import BleedingTrigger, Condition, Duration
from bot.rules.damage import DamageModifiers
from bot.rules.dice import FixedDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, flow, harm, new_encounter_state
from bot.rules.encounter.bleeding import bleed, bleeding_while_dying, is_bleeding
from bot.rules.encounter.harm import HarmError


def table() -> Encounter:
    enc = new_encounter_state()
    specs = [
        NewCreatures("Ash", 30, "heroes", is_hero=True, owner_id=7, recoveries=2, level=3),
        NewCreatures("Ogre", 20, "director", modifiers=DamageModifiers.parse("all 5")),
        NewCreatures("Minion", 4, "director", count=3, squad="Pack"),
    ]
    for spec in specs:
        enc, _ = add_creatures(enc, spec)
    return enc


def test_a_dying_hero_is_bleeding_until_they_stop_dying() -> None:
    """Draw Steel, Combat, "Dying and Death": "When your Stamina is 0 or lower, you are dying. ...
    Additionally, you are bleeding, and this instance of the condition can't be negated or removed in any way
    until you are no longer dying." """
    enc, _ = harm.damage(table(), "Ash", 30)
    assert bleeding_while_dying(enc, "Ash") and is_bleeding(enc, "Ash")
    with pytest.raises(HarmError, match="because they are dying"):
        harm.remove_condition(enc, "Ash", Condition.BLEEDING)
    healed, _ = harm.heal(enc, "Ash", 1)
    assert not is_bleeding(healed, "Ash")
    assert not is_bleeding(table(), "Ash") and not bleeding_while_dying(enc, "Ogre")


def test_a_dying_hero_with_the_condition_too_keeps_bleeding_when_it_is_removed() -> None:
    enc, _ = harm.add_condition(table(), "Ash", Condition.BLEEDING, Duration.SAVE)
    enc, _ = harm.damage(enc, "Ash", 31)
    enc, _ = harm.remove_condition(enc, "Ash", Condition.BLEEDING)
    assert is_bleeding(enc, "Ash")


@pytest.mark.parametrize("trigger", list(BleedingTrigger))
def test_a_bleeding_creature_loses_1d6_plus_its_level(trigger: BleedingTrigger) -> None:
    """ "whenever a bleeding creature uses a main action or a triggered action, or makes a test or
    ability roll using Might or Agility, it loses Stamina equal to 1d6 + its level once that is resolved.
    Nothing prevents this loss." """
    enc, _ = harm.damage(table(), "Ash", 30)  # dying: Stamina 0
    enc, bled = bleed(enc, FixedDice([4]), "Ash", trigger)
    assert bled is not None and (bled.roll, bled.level, bled.lost) == (4, 3, 7)
    assert enc.creature("Ash").vitals.stamina == -7
    assert codec.load(type(bled), codec.to_data(bled)) == bled


def test_nothing_prevents_the_loss() -> None:
    """Immunity doesn't reduce it (the Ogre has damage immunity 5), nor does temporary Stamina absorb it."""
    enc, _ = harm.add_condition(table(), "Ogre", Condition.BLEEDING, Duration.SAVE)
    enc, _ = harm.give_temporary(enc, "Ogre", 10)
    enc, bled = bleed(enc, FixedDice([6]), "Ogre", BleedingTrigger.MAIN_ACTION)
    ogre = enc.creature("Ogre").vitals
    assert bled is not None and bled.lost == 7 and (ogre.stamina, ogre.temporary) == (13, 10)


def test_no_bleeding_no_loss_and_the_dead_dont_bleed() -> None:
    enc = table()
    assert bleed(enc, FixedDice([6]), "Ash", BleedingTrigger.MAIN_ACTION) == (enc, None)
    dead, _ = harm.damage(enc, "Ash", 45)
    assert bleed(dead, FixedDice([6]), "Ash", BleedingTrigger.MAIN_ACTION) == (dead, None)


def test_bleeding_can_kill_a_dying_hero_and_the_turn_engine_knows() -> None:
    enc = table()
    enc = flow.begin(enc, FixedDice([10, 9, 1, 2, 3, 4]), first=enc.turns.sides[0].id).encounter
    enc, _ = harm.damage(enc, "Ash", 44)  # −14: dies at −15
    enc, bled = bleed(enc, FixedDice([1]), "Ash", BleedingTrigger.TRIGGERED_ACTION)
    assert bled is not None and bled.killed == ("Ash",)
    entry = enc.turns.entry("Ash")
    assert entry is not None and entry.dead


def test_a_bleeding_minion_loses_it_from_the_pool() -> None:
    enc, _ = harm.add_condition(table(), "Minion 2", Condition.BLEEDING, Duration.SAVE)
    enc, bled = bleed(enc, FixedDice([1]), "Minion 2", BleedingTrigger.MAIN_ACTION)
    assert bled is not None and bled.lost == 2 and bled.killed == ()
    squad = enc.squad("Pack")
    assert squad is not None and squad.pool == 12 - 2
