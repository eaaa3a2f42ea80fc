"""Heroic resources in the encounter (bot/rules/encounter/heroic.py: gain, spend, set, gains by trigger) and
helping another creature (bot/rules/encounter/helping.py: the Heal main action, Recoveries while dying)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules.conditions import Condition, Duration
from bot.rules.dice import FixedDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, new_encounter_state
from bot.rules.encounter.flow import act, begin
from bot.rules.encounter.harm import add_condition, damage
from bot.rules.encounter.helping import HealUse, heal_action, spend_recovery
from bot.rules.encounter.heroic import gain, set_value, spend, triggered_gains
from bot.rules.errors import RuleError
from bot.rules.hero import new_sheet
from bot.rules.resources import GainTrigger, ResourceGain, read_gain_trigger
from bot.rules.turns import Controller, current


def _fight() -> Encounter:
    enc = new_encounter_state()
    for spec in (
        NewCreatures("Ash", 30, "heroes", is_hero=True, owner_id=1, recoveries=2),
        NewCreatures("Bree", 24, "heroes", is_hero=True, owner_id=2, recoveries=3),
        NewCreatures("Ogre", 30, "director"),
    ):
        enc, _ = add_creatures(enc, spec)
    return begin(enc, FixedDice([]), first="heroes").encounter


@pytest.mark.parametrize(
    ("words", "trigger"),
    [
        ("Start of your turn", GainTrigger.START_OF_TURN),
        ("You start your turn.", GainTrigger.START_OF_TURN),
        ("You take damage", GainTrigger.TAKE_DAMAGE),
        ("You take damage.", GainTrigger.TAKE_DAMAGE),
        ("The first time each combat round that you take damage", GainTrigger.FIRST_DAMAGE_EACH_ROUND),
        ("You become winded or are dying", GainTrigger.WINDED_OR_DYING),
        ("The first time you become winded or are dying in an encounter", GainTrigger.FIRST_WINDED_OR_DYING),
        (
            "The first time each combat round that the Director uses an ability that costs Malice",
            GainTrigger.MALICE_ABILITY_EACH_ROUND,
        ),
        ("The first time any hero is made winded during the encounter", GainTrigger.FIRST_HERO_WINDED),
        ("A creature within your line of effect rolls a natural 19 or 20", GainTrigger.NATURAL_19_OR_20),
        ("A hero, including you, dies", GainTrigger.HERO_DIES),
        ("The first time each combat round that a creature is force moved", GainTrigger.OTHER),
        ("You take damage that isn’t untyped", GainTrigger.OTHER),
        ("A creature judged by you deals damage to you", GainTrigger.OTHER),
    ],
)
def test_gain_triggers_read_from_the_class_wording(words: str, trigger: GainTrigger) -> None:
    """Each class's heroic resource section lists its gains; the bot applies the ones it can see."""
    assert read_gain_trigger(words) is trigger


def test_gain_spend_and_set() -> None:
    """Draw Steel, The Basics, "Heroic Resources": "you spend your Heroic Resources to activate your most
    powerful abilities" -- never more than you have."""
    enc, hero, value = gain(_fight(), "ash", 3)
    assert (hero, value) == ("Ash", 3)
    enc, _, value = spend(enc, "Ash", 2, resource_name="wrath")
    assert value == 1
    with pytest.raises(RuleError, match="Not enough wrath"):
        spend(enc, "Ash", 2, resource_name="wrath")
    with pytest.raises(RuleError, match="not a hero"):
        gain(enc, "Ogre", 1)
    enc, _, value = set_value(enc, "Ash", 5)
    assert spend(enc, "Ash", 5)[0].resources["Ash"] == 0


def test_gains_by_trigger_happen_by_themselves() -> None:
    """A Fury's gains (Heroes ch. 5): 1 when you take damage; 1d3 when you become winded or are dying."""
    gains = {
        "Ash": (
            ResourceGain(GainTrigger.TAKE_DAMAGE, "1"),
            ResourceGain(GainTrigger.WINDED_OR_DYING, "1d3"),
        )
    }
    before = _fight()
    hurt, _ = damage(before, "Ash", 5)
    after, gained = triggered_gains(before, hurt, gains, FixedDice([]))
    assert [(g.hero, g.amount) for g in gained] == [("Ash", 1)] and after.resources["Ash"] == 1
    worse, _ = damage(after, "Ash", 12)  # 25 -> 13: winded (15)
    final, gained = triggered_gains(after, worse, gains, FixedDice([3]))
    assert [(g.hero, g.amount) for g in gained] == [("Ash", 1), ("Ash", 2)] and final.resources[
        "Ash"
    ] == 4  # d3: a d6 of 3 is 2
    healed, _ = spend_recovery(final, "Ash")  # no longer winded, no damage: nothing
    assert triggered_gains(final, healed, gains, FixedDice([]))[1] == ()


def test_first_damage_each_round_gains_once_a_round() -> None:
    """ "The first time each combat round that you take damage": once a round, however often hit."""
    gains = {"Ash": (ResourceGain(GainTrigger.FIRST_DAMAGE_EACH_ROUND, "1"),)}
    enc = _fight()
    for _ in range(3):
        hurt, _ = damage(enc, "Ash", 1)
        enc, _ = triggered_gains(enc, hurt, gains, FixedDice([]))
    assert enc.resources["Ash"] == 1


def test_first_winded_or_dying_in_an_encounter_gains_once() -> None:
    """ "The first time you become winded or are dying in an encounter": winded, healed, winded again and
    then dying gives it once."""
    gains = {"Ash": (ResourceGain(GainTrigger.FIRST_WINDED_OR_DYING, "2"),)}
    enc = _fight()
    hurt, _ = damage(enc, "Ash", 20)
    enc, gained = triggered_gains(enc, hurt, gains, FixedDice([]))
    assert [(g.hero, g.amount) for g in gained] == [("Ash", 2)]
    healed, _ = spend_recovery(enc, "Ash")
    worse, _ = damage(healed, "Ash", 40)
    assert triggered_gains(healed, worse, gains, FixedDice([]))[1] == ()


def test_naturals_gain_each_time() -> None:
    """ "Whenever a creature ... rolls a natural 19 or 20": every such roll; an 18 gives nothing."""
    gains = {"Ash": (ResourceGain(GainTrigger.NATURAL_19_OR_20, "3"),)}
    enc = _fight()
    after, gained = triggered_gains(enc, enc, gains, FixedDice([]), naturals=(19, 18, 20))
    assert after.resources["Ash"] == 6 and len(gained) == 1


def test_a_start_of_turn_gain_from_the_imported_gains() -> None:
    """A sheet whose start-of-turn gain came as a (trigger, value) gain uses it at the start of its turn."""
    sheet = dataclasses.replace(
        new_sheet(30, 2), resource_gains=(ResourceGain(GainTrigger.START_OF_TURN, "2"),)
    )
    assert sheet.turn_gain == "2"
    flow = act(_fight(), "Ash", Controller.PLAYERS, FixedDice([]), gains={"Ash": sheet.turn_gain})
    assert flow.encounter.resources["Ash"] == 2


def test_allies_help_a_dying_hero_spend_a_recovery() -> None:
    """Draw Steel, Combat, "Dying and Death": "While you are dying, ... your allies can help you spend
    Recoveries in combat"; "Heal": "The target creature can spend a Recovery to regain Stamina"."""
    enc, _ = damage(_fight(), "Ash", 35)  # -5: dying
    assert enc.creature("Ash").vitals.dying
    enc = act(enc, "Bree", Controller.PLAYERS, FixedDice([])).encounter
    healed, outcome = heal_action(enc, FixedDice([]), "Bree", "Ash", HealUse.RECOVERY)
    assert outcome.healing is not None
    assert (outcome.healing.after.stamina, outcome.healing.after.recoveries) == (5, 1)
    cur = current(healed.turns)
    assert cur is not None and "main" in [k.value for k in cur.used]


def test_a_director_creature_regains_a_third_of_its_stamina() -> None:
    """Draw Steel, Combat, "No Recoveries": "a Director-controlled creature regains Stamina equal to
    one-third of their Stamina maximum"."""
    enc, _ = damage(_fight(), "Ogre", 20)
    _, healing = spend_recovery(enc, "Ogre")
    assert healing.after.stamina == 20


def test_heal_grants_one_saving_throw() -> None:
    """ "Heal": the target "can make a saving throw against one effect they are suffering that is ended by a
    saving throw"."""
    enc, _ = add_condition(_fight(), "Ash", Condition.SLOWED, Duration.SAVE)
    enc, outcome = heal_action(enc, FixedDice([4]), "Bree", "Ash", HealUse.SAVE)
    assert outcome.save is not None and not outcome.save.success
    with pytest.raises(RuleError, match="Heal helps another"):
        heal_action(enc, FixedDice([4]), "Ash", "Ash", HealUse.RECOVERY)
