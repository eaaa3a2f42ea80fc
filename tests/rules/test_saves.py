"""Saving throws the encounter owes (bot/rules/encounter/saves.py): one at the end of each of the affected
creature's turns, kept across a round's end, extra ones from Heal, no others; the hero token after a
failure."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import codec
from bot.rules.conditions import Condition, Duration
from bot.rules.dice import FixedDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, new_encounter_state, saves
from bot.rules.encounter.flow import act, begin, end_turn
from bot.rules.encounter.harm import add_condition
from bot.rules.errors import RuleError
from bot.rules.turns import Controller


def _fight() -> Encounter:
    """Ash (hero) and an Imp; round 1, the heroes first; the Imp is restrained (save ends), Ash dazed."""
    enc = new_encounter_state()
    for spec in (
        NewCreatures("Ash", 30, "heroes", is_hero=True, owner_id=1),
        NewCreatures("Imp", 10, "director"),
    ):
        enc, _ = add_creatures(enc, spec)
    enc = begin(enc, FixedDice([]), first="heroes").encounter
    enc, _ = add_condition(enc, "Imp", Condition.RESTRAINED, Duration.SAVE)
    enc, _ = add_condition(enc, "Ash", Condition.DAZED, Duration.SAVE)
    return enc


def _turn(enc: Encounter, who: str) -> Encounter:
    by = Controller.PLAYERS if who == "Ash" else Controller.DIRECTOR
    return end_turn(act(enc, who, by, FixedDice([])).encounter).encounter


def test_a_save_due_at_the_end_of_the_round_stays_due_into_the_next() -> None:
    """ "A save that falls due stays due until it is rolled, whatever starts in between." The Imp
    takes the round's last turn; round 2 begins; its save is still owed, and rolled once."""
    enc = _turn(_turn(_fight(), "Ash"), "Imp")
    assert enc.turns.round == 2
    assert [s.creature_id for s in saves.due(enc)] == ["Ash", "Imp"]
    enc, result = saves.roll_owed(enc, FixedDice([3]), "Imp")
    assert (result.target, result.label, result.success) == ("Imp", "restrained", False)
    assert saves.due(enc, "Imp") == ()


def test_no_save_beyond_those_owed() -> None:
    """Conditions chapter: a "save ends" condition gets one saving throw at the end of each of the affected
    creature's turns -- `/save` can't be repeated until it succeeds."""
    enc = _fight()
    with pytest.raises(RuleError, match="no save due"):
        saves.roll_owed(enc, FixedDice([9]), "Imp")
    enc = _turn(_turn(enc, "Ash"), "Imp")
    enc, failed = saves.roll_owed(enc, FixedDice([1]), "Imp")
    assert not failed.success
    with pytest.raises(RuleError, match="no save due"):
        saves.roll_owed(enc, FixedDice([9]), "Imp")


def test_heal_grants_one_extra_save() -> None:
    """Draw Steel, Combat, "Heal": the target "can make a saving throw against one effect they are
    suffering that is ended by a saving throw"."""
    enc, owed = saves.grant_save(_fight(), "Ash")
    assert owed.extra and owed.condition is Condition.DAZED
    enc, result = saves.roll_owed(enc, FixedDice([7]), "Ash")
    assert result.success and saves.due(enc) == ()
    with pytest.raises(RuleError):
        saves.grant_save(enc, "Ash")  # dazed ended: nothing a save ends


def test_a_hero_token_only_right_after_a_failed_save() -> None:
    """Draw Steel, The Basics, "Spending Hero Tokens": "You can spend a hero token when you fail a saving
    throw, letting you succeed on the save instead." """
    enc = _turn(_fight(), "Ash")
    with pytest.raises(RuleError, match="just failed"):
        saves.token_save(enc, "Ash")
    enc, result = saves.roll_owed(enc, FixedDice([2]), "Ash")
    assert not result.success
    saved, label = saves.token_save(enc, "Ash")
    assert label == "dazed" and not saved.turns.conditions_of("Ash")
    later = act(enc, "Imp", Controller.DIRECTOR, FixedDice([])).encounter  # the engine moved on
    with pytest.raises(RuleError, match="just failed"):
        saves.token_save(later, "Ash")


def test_a_successful_save_leaves_nothing_for_a_token() -> None:
    """Only a FAILED save can be turned by a hero token ("when you fail a saving throw")."""
    enc, result = saves.roll_owed(_turn(_fight(), "Ash"), FixedDice([8]), "Ash")
    assert result.success
    with pytest.raises(RuleError):
        saves.token_save(enc, "Ash")


def test_the_directors_creatures_roll_every_save_owed() -> None:
    """With automatic saves, the Director's creatures roll their saves when their turn ends."""
    enc = _turn(_turn(_fight(), "Ash"), "Imp")
    assert saves.director_creatures(enc) == ("Imp",)
    enc, results = saves.roll_all(enc, FixedDice([6]), saves.director_creatures(enc))
    assert [(r.target, r.success) for r in results] == [("Imp", True)]
    assert [s.creature_id for s in saves.due(enc)] == ["Ash"]


def test_the_state_round_trips() -> None:
    enc, _ = saves.roll_owed(_turn(_fight(), "Ash"), FixedDice([1]), "Ash")
    assert enc.saves_due == () and enc.failed_saves
    enc = _turn(enc, "Imp")
    assert codec.load(Encounter, codec.to_data(enc)) == enc


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(["turn", "save", "heal"]), max_size=12),
    st.lists(st.integers(1, 10), min_size=12, max_size=12),
)
def test_saves_rolled_never_exceed_turn_ends_plus_extra(steps: list[str], rolls: list[int]) -> None:
    """Property: the Imp rolls at most one save per end of its turn plus one per extra save granted."""
    enc = _fight()
    owed = rolled = 0
    dice = FixedDice(rolls)
    for step in steps:
        alive = any(c.creature_id == "Imp" for c in enc.turns.conditions)
        if step == "turn":
            who = "Ash" if enc.turns.turns == () else "Imp"
            if who == "Imp" and alive:
                owed += 1
            enc = _turn(enc, who)
        elif step == "heal" and alive:
            enc, _ = saves.grant_save(enc, "Imp")
            owed += 1
        elif step == "save":
            try:
                enc, _ = saves.roll_owed(enc, dice, "Imp")
            except RuleError:
                continue
            rolled += 1
        assert rolled <= owed


def test_a_granted_save_names_its_condition_when_there_is_a_choice() -> None:
    """Draw Steel, Combat, "Heal": a saving throw "against one effect they are suffering that is ended by a
    saving throw" -- one effect: with two such conditions the condition is named; with none, no save (the
    refusals `harm.save` checked, here on the one save rule)."""
    enc, _ = add_condition(_fight(), "Imp", Condition.CUSTOM, Duration.SAVE, custom_text="marked")
    with pytest.raises(saves.SaveError, match="pick the condition"):
        saves.grant_save(enc, "Imp")
    enc, owed = saves.grant_save(enc, "Imp", Condition.CUSTOM, "Marked")
    assert (owed.condition, owed.custom_text) == (Condition.CUSTOM, "marked")
    fresh = new_encounter_state()
    fresh, _ = add_creatures(fresh, NewCreatures("Ogre", 10, "director"))
    with pytest.raises(saves.SaveError, match="no condition a save ends"):
        saves.grant_save(fresh, "Ogre")
