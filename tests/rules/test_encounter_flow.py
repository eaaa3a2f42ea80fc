"""The encounter's flow (bot/rules/encounter/flow.py): begin in each mode, Malice at the start of combat
and of each round, heroic resources and hero-token benefits at a turn's start, rounds that roll over, and the
end (Victories, temporary Stamina, Malice, surges, resources, roster sheets)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules import codec
from bot.rules.characteristics import Characteristics
from bot.rules.conditions import Condition, Duration
from bot.rules.dice import FixedDice
from bot.rules.encounter import (
    Encounter,
    NewCreatures,
    add_creatures,
    add_hero,
    new_encounter_state,
    written_back,
)
from bot.rules.encounter.flow import (
    act,
    award_unawarded,
    begin,
    choose_first_side,
    end_turn,
    finish,
    pass_part,
    skip,
)
from bot.rules.errors import RuleError
from bot.rules.hero import new_sheet
from bot.rules.resources import Malice, Progress, Rounding
from bot.rules.stamina import Vitals
from bot.rules.turns import Controller, Mode, Phase, Side, add_condition, eligible, mark_surprised
from bot.rules.turns.events import FirstTurnRolled, RoundStarted, SaveDue


def _encounter(mode: Mode = Mode.DRAW_STEEL, sides: tuple[Side, ...] | None = None) -> Encounter:
    enc = new_encounter_state(mode, sides) if sides is not None else new_encounter_state(mode)
    hero_side = sides[0].id if sides is not None else "heroes"
    foe_side = sides[1].id if sides is not None else "director"
    for spec in (
        NewCreatures(
            "Ash", 30, hero_side, is_hero=True, owner_id=1, characteristics=Characteristics(agility=3)
        ),
        NewCreatures("Bree", 24, hero_side, is_hero=True, owner_id=2),
        NewCreatures("Goblin", 10, foe_side, count=2),
    ):
        enc, _ = add_creatures(enc, spec)
    return enc


@pytest.mark.parametrize(
    ("roll", "chooser"),
    [(6, Controller.PLAYERS), (10, Controller.PLAYERS), (5, Controller.DIRECTOR), (1, Controller.DIRECTOR)],
)
def test_draw_steel_begin_rolls_the_d10_and_waits_for_the_choice(roll: int, chooser: Controller) -> None:
    flow = begin(_encounter(), FixedDice([roll]))
    assert flow.events == (FirstTurnRolled(roll, 6, chooser),)
    assert flow.encounter.turns.phase is Phase.SETUP
    with pytest.raises(RuleError):
        begin(flow.encounter, FixedDice([roll]))
    other = Controller.DIRECTOR if chooser is Controller.PLAYERS else Controller.PLAYERS
    with pytest.raises(RuleError):
        choose_first_side(flow.encounter, "heroes", other)
    chosen = choose_first_side(flow.encounter, "Director", chooser)
    assert chosen.encounter.turns.phase is Phase.IN_ROUND and chosen.encounter.turns.round == 1
    assert set(eligible(chosen.encounter.turns)) == {"Goblin 1", "Goblin 2"}


@pytest.mark.parametrize(
    ("victories", "rounding", "start"),
    [
        ((3, 4), Rounding.DOWN, 3),
        ((3, 4), Rounding.UP, 4),
        ((3, 4), Rounding.NEAREST, 4),
        ((0, 0), Rounding.UP, 0),
    ],
)
def test_malice_starts_at_the_average_victories_then_grows_each_round(
    victories: tuple[int, int], rounding: Rounding, start: int
) -> None:
    flow = begin(
        _encounter(),
        FixedDice([]),
        first="heroes",
        victories=dict(zip(("Ash", "Bree"), victories, strict=True)),
        rounding=rounding,
    )
    # round 1: + 2 heroes in the fight + 1
    assert flow.encounter.malice == Malice(start + 3)
    assert flow.malice_gained == 3
    assert flow.encounter.resources == {"Ash": victories[0], "Bree": victories[1]}


def test_first_sets_the_side_outright_and_skips_the_roll() -> None:
    flow = begin(_encounter(), FixedDice([]), first="director")
    assert flow.events[-1] == RoundStarted(1)
    assert set(eligible(flow.encounter.turns)) == {"Goblin 1", "Goblin 2"}
    with pytest.raises(RuleError, match="No side"):
        begin(_encounter(), FixedDice([]), first="dragons")


def test_a_side_all_surprised_loses_first_without_a_roll() -> None:
    enc = _encounter()
    turns = enc.turns
    for goblin in ("Goblin 1", "Goblin 2"):
        turns = mark_surprised(turns, goblin).state
    flow = begin(enc.with_turns(turns), FixedDice([]))
    assert flow.encounter.turns.phase is Phase.IN_ROUND
    assert set(eligible(flow.encounter.turns)) == {"Ash", "Bree"}


def test_rounds_roll_over_and_malice_counts_heroes_still_fighting() -> None:
    flow = begin(_encounter(), FixedDice([]), first="heroes")
    enc = flow.encounter
    malice = enc.malice.value
    for name in ("Ash", "Goblin 1", "Bree", "Goblin 2"):
        enc = act(enc, name, Controller.DIRECTOR, FixedDice([])).encounter
        step = end_turn(enc)
        enc = step.encounter
    assert enc.turns.round == 2 and enc.turns.phase is Phase.IN_ROUND
    assert RoundStarted(2) in step.events
    assert enc.malice.value == malice + 2 + 2
    # a dead hero is out of the fight
    dead = dataclasses.replace(enc.creature("Bree"), vitals=Vitals(24, -12, is_hero=True))
    enc = enc.with_creature(dead)
    enc = skip(enc, "heroes").encounter
    before = enc.malice.value
    enc = skip(enc, "director").encounter
    assert enc.turns.round == 3 and enc.malice.value == before + 1 + 3


def test_turn_start_gains_the_heroic_resource_and_frees_the_token_benefit() -> None:
    enc = dataclasses.replace(
        begin(_encounter(), FixedDice([]), first="heroes").encounter, tokens_used=("Ash",)
    )
    flow = act(enc, "Ash", Controller.PLAYERS, FixedDice([]), gains={"Ash": "2"})
    assert flow.gains == (("Ash", 2),)
    assert flow.encounter.resources["Ash"] == 2
    assert flow.encounter.tokens_used == ()
    goblin = act(end_turn(flow.encounter).encounter, "Goblin 1", Controller.DIRECTOR, FixedDice([]))
    assert goblin.gains == ()


def test_any_turn_start_frees_every_heros_token_benefit() -> None:
    """Draw Steel, The Basics, "Hero Tokens": one benefit per turn — anyone's turn is a new window."""
    enc = begin(_encounter(), FixedDice([]), first="heroes").encounter
    ash = end_turn(act(enc, "Ash", Controller.PLAYERS, FixedDice([])).encounter).encounter
    spent = dataclasses.replace(ash, tokens_used=("Ash",))
    goblin = act(spent, "Goblin 1", Controller.DIRECTOR, FixedDice([]))
    assert goblin.encounter.tokens_used == ()


def test_turn_end_prompts_saves_and_ends_eot_conditions() -> None:
    enc = begin(_encounter(), FixedDice([]), first="heroes").encounter
    turns = add_condition(enc.turns, "Ash", Condition.DAZED, Duration.SAVE).state
    turns = add_condition(turns, "Ash", Condition.SLOWED, Duration.EOT).state
    enc = act(enc.with_turns(turns), "Ash", Controller.PLAYERS, FixedDice([])).encounter
    flow = end_turn(enc)
    assert SaveDue("Ash", Condition.DAZED, "") in flow.events
    assert [c.condition for c in flow.encounter.turns.conditions] == [Condition.DAZED]


def test_a_player_cannot_pick_for_the_directors_side() -> None:
    enc = begin(_encounter(), FixedDice([]), first="director").encounter
    with pytest.raises(RuleError):
        act(enc, "Goblin 1", Controller.PLAYERS, FixedDice([]))
    with pytest.raises(RuleError):
        end_turn(enc)


@pytest.mark.parametrize("mode", [Mode.FAST_SLOW, Mode.TEAMS])
def test_modes_without_a_roll_start_the_round_at_once(mode: Mode) -> None:
    sides = (Side("red", Controller.PLAYERS, "Red"), Side("blue", Controller.PLAYERS, "Blue"))
    enc = _encounter(mode, sides if mode is Mode.TEAMS else None)
    flow = begin(enc, FixedDice([]), team_order=("Blue",) if mode is Mode.TEAMS else ())
    assert flow.encounter.turns.phase is Phase.IN_ROUND
    if mode is Mode.TEAMS:
        assert [s.id for s in flow.encounter.turns.sides] == ["blue", "red"]
        assert set(eligible(flow.encounter.turns)) == {"Goblin 1", "Goblin 2"}
    else:
        assert set(eligible(flow.encounter.turns)) == {"Ash", "Bree"}
        with pytest.raises(RuleError):
            begin(enc, FixedDice([]), first="heroes")


def test_agility_rolls_the_order_within_each_side() -> None:
    # Ash 2d10+3 = 5, Bree 2d10 = 20: Bree first among the heroes
    flow = begin(_encounter(Mode.AGILITY), FixedDice([1, 1, 10, 10, 5, 5, 6, 6]), first="heroes")
    assert eligible(flow.encounter.turns) == ("Bree",)


def test_begin_needs_combatants() -> None:
    with pytest.raises(RuleError, match="Add combatants"):
        begin(new_encounter_state(), FixedDice([]))


def test_finish_awards_victories_clears_and_writes_back_roster_sheets() -> None:
    sheet = new_sheet(30, 3)
    sheet = dataclasses.replace(sheet, progress=Progress(2, 0))
    enc = new_encounter_state()
    enc, _ = add_hero(enc, "h1", 1, "Ash", sheet)
    enc, _ = add_creatures(enc, NewCreatures("Bree", 24, "heroes", is_hero=True, owner_id=2))
    enc, _ = add_creatures(enc, NewCreatures("Goblin", 10, "director"))
    enc = begin(enc, FixedDice([]), first="heroes", victories={"Ash": 2}).encounter
    hurt = dataclasses.replace(enc.creature("Ash").vitals, stamina=12, temporary=5, recoveries=1)
    enc = dataclasses.replace(
        enc.with_creature(dataclasses.replace(enc.creature("Ash"), vitals=hurt)), surges={"Ash": 2}
    )
    done = finish(enc, victory=True, sheets={"h1": sheet})
    assert done.victors == ("Ash", "Bree")
    assert done.encounter.turns.phase is Phase.ENDED
    assert done.encounter.malice == Malice(0) and done.encounter.surges == {}
    assert set(done.encounter.resources.values()) == {0}
    written = done.sheets["h1"]
    assert (written.vitals.stamina, written.vitals.temporary, written.vitals.recoveries) == (12, 0, 1)
    assert written.progress.victories == 3
    lost = finish(enc, victory=False, sheets={"h1": sheet})
    assert lost.victors == () and lost.sheets["h1"].progress.victories == 2
    with pytest.raises(RuleError):
        finish(done.encounter, victory=True, sheets={})


def test_finish_without_award_keeps_the_roster_victories_waiting() -> None:
    """Victories are the campaign's: an end nobody with that authority made writes none, and keeps the
    surviving roster heroes for a server Director's award (a hero with no roster sheet is told at once)."""
    sheet = dataclasses.replace(new_sheet(30, 3), progress=Progress(2, 0))
    enc = new_encounter_state()
    enc, _ = add_hero(enc, "h1", 1, "Ash", sheet)
    enc, _ = add_hero(enc, "h2", 3, "Cy", sheet)
    enc, _ = add_creatures(enc, NewCreatures("Bree", 24, "heroes", is_hero=True, owner_id=2))
    dead = dataclasses.replace(enc.creature("Cy").vitals, stamina=-100)
    enc = enc.with_creature(dataclasses.replace(enc.creature("Cy"), vitals=dead))
    done = finish(enc, victory=True, sheets={"h1": sheet, "h2": sheet}, award=False)
    assert done.victors == ("Bree",) and done.encounter.unawarded == ("Ash",)
    assert done.sheets["h1"].progress == Progress(2, 0)
    assert codec.load(Encounter, codec.to_data(done.encounter)).unawarded == ("Ash",)
    awarded = award_unawarded(done.encounter, {"h1": done.sheets["h1"], "h2": done.sheets["h2"]})
    assert set(awarded) == {"h1"} and awarded["h1"].progress == Progress(3, 0)
    assert award_unawarded(done.encounter, {}) == {}  # deleted from the roster since: nothing to award
    lost = finish(enc, victory=False, sheets={"h1": sheet}, award=False)
    assert lost.encounter.unawarded == () and lost.victors == ()


def test_fast_slow_pass_part_sends_the_rest_to_the_slow_turns() -> None:
    enc = begin(_encounter(Mode.FAST_SLOW), FixedDice([])).encounter
    flow = pass_part(enc, Controller.PLAYERS)
    assert set(eligible(flow.encounter.turns)) == {"Goblin 1", "Goblin 2"}
    flow = pass_part(flow.encounter, Controller.DIRECTOR)
    assert set(eligible(flow.encounter.turns)) == {"Ash", "Bree"}
    with pytest.raises(RuleError):
        pass_part(begin(_encounter(), FixedDice([]), first="heroes").encounter, Controller.PLAYERS)


def test_naming_an_all_surprised_side_first_is_refused() -> None:
    enc = _encounter()
    turns = enc.turns
    for goblin in ("Goblin 1", "Goblin 2"):
        turns = mark_surprised(turns, goblin).state
    with pytest.raises(RuleError, match="surprised, so the other side goes first"):
        begin(enc.with_turns(turns), FixedDice([]), first="director")
    # everyone surprised: the Director may still name either side
    for hero in ("Ash", "Bree"):
        turns = mark_surprised(turns, hero).state
    flow = begin(enc.with_turns(turns), FixedDice([]), first="director")
    assert set(eligible(flow.encounter.turns)) == {"Goblin 1", "Goblin 2"}


@pytest.mark.parametrize(("began", "resource"), [(False, None), (True, 4)])
def test_a_hero_joining_after_the_start_gets_their_victories_as_resource(
    began: bool, resource: int | None
) -> None:
    enc = _encounter()
    if began:
        enc = begin(enc, FixedDice([]), first="heroes").encounter
    sheet = dataclasses.replace(new_sheet(20, 2), progress=Progress(4, 0))
    enc, cid = add_hero(enc, "h9", 9, "Cid", sheet)
    assert enc.resources.get(cid) == resource


def test_a_roster_hero_removed_mid_fight_keeps_wounds_but_not_temporary_stamina() -> None:
    sheet = new_sheet(30, 3)
    enc, cid = add_hero(new_encounter_state(), "h1", 1, "Ash", sheet)
    enc, _ = add_creatures(enc, NewCreatures("Goblin", 10, "director"))
    hurt = dataclasses.replace(enc.creature(cid).vitals, stamina=9, temporary=4, recoveries=2)
    enc = enc.with_creature(dataclasses.replace(enc.creature(cid), vitals=hurt))
    assert written_back(enc, {"h1": sheet}, ["Goblin"]) == {}
    assert written_back(enc, {}, [cid]) == {}
    vitals = written_back(enc, {"h1": sheet}, [cid])["h1"].vitals
    assert (vitals.stamina, vitals.temporary, vitals.recoveries) == (9, 0, 2)
