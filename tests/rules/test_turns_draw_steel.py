"""Draw Steel turn order scenarios (Draw Steel, Combat; Draw Steel, Combat, "Combat Round" ff.)."""

from __future__ import annotations

import pytest

from bot.rules.codec import load, to_data
from bot.rules.conditions import Condition, Duration, situational_modifiers
from bot.rules.dice import FixedDice
from bot.rules.turns import (
    Controller,
    Entry,
    EntryKind,
    Mode,
    Phase,
    TurnState,
    acted,
    add_condition,
    choose_first,
    current,
    determine_first,
    eligible,
    end_round,
    end_turn,
    first_turn_threshold,
    mark_surprised,
    new_encounter,
    next_round,
    picking,
    picking_side,
    power_roll_modifiers,
    remove_entry,
    set_flags,
    skip_side,
    start_turn,
)
from bot.rules.turns import errors as err
from bot.rules.turns.events import (
    ConditionExpired,
    FirstSideChosen,
    FirstTurnRolled,
    RoundEnded,
    RoundStarted,
    SideSkipped,
    TurnStarted,
)
from tests.rules.test_turns_support import D, H, add, encounter, kinds, take_turn

HEROES = ("h1", "h2", "h3", "h4")
ENEMIES = ("e1", "e2", "e3", "e4", "e5", "e6")


def started(state: TurnState, first: str = "heroes", roll: int = 7) -> TurnState:
    """Roll for first (players choose on 6+), choose `first`, start round 1."""
    t = determine_first(state, FixedDice([roll]))
    chooser = H if roll >= 6 else D
    state = choose_first(t.state, first, chooser).state
    return next_round(state).state


def test_four_heroes_against_six_enemies_ends_with_two_enemies_back_to_back() -> None:
    """Draw Steel, Combat, "Creatures Take Turns": four heroes, six enemies; after four turns each, the
    two enemies left act one after the other to end the round."""
    state = started(encounter(HEROES, ENEMIES))
    sides = []
    for hero, enemy in zip(HEROES, ENEMIES, strict=False):
        assert picking_side(state) == "heroes"
        state = take_turn(state, hero).state
        sides.append("heroes")
        assert picking_side(state) == "director"
        state = take_turn(state, enemy).state
        sides.append("director")
    assert picking_side(state) == "director"
    assert set(eligible(state)) == {"e5", "e6"}
    state = take_turn(state, "e5").state
    assert picking_side(state) == "director"
    t = take_turn(state, "e6")
    assert isinstance(t.events[-1], RoundEnded)
    assert t.state.phase is Phase.BETWEEN_ROUNDS


def test_side_that_went_first_in_round_1_goes_first_in_round_3() -> None:
    """Draw Steel, Combat, "End of Round"."""
    state = started(encounter(("h1", "h2"), ("e1", "e2", "e3")), first="director", roll=3)
    for _ in range(3):
        assert picking_side(state) == "director"
        order = ["e1", "h1", "e2", "h2", "e3"]
        for who in order:
            state = take_turn(state, who).state
        assert state.phase is Phase.BETWEEN_ROUNDS
        round_no = state.round
        t = next_round(state)
        assert t.events == (RoundStarted(round_no + 1),)
        state = t.state
    assert state.round == 4


def test_all_of_one_side_surprised_means_the_other_side_goes_first_without_a_roll() -> None:
    """Draw Steel, Combat, "Determine Who Goes First": no roll (FixedDice([]) would raise)."""
    state = encounter(("h1", "h2"), ("e1", "e2"))
    state = mark_surprised(state, "e1").state
    state = mark_surprised(state, "e2").state
    t = determine_first(state, FixedDice([]))
    assert t.events == (FirstSideChosen("heroes", automatic=True),)
    assert t.state.first is not None and t.state.first.roll is None
    state = next_round(t.state).state
    assert picking_side(state) == "heroes"


def test_a_dead_creature_doesnt_count_for_all_surprised() -> None:
    state = encounter(("h1",), ("e1", "e2"))
    state = mark_surprised(state, "e1").state
    state = set_flags(state, "e2", dead=True).state
    assert determine_first(state, FixedDice([])).state.first.side == "heroes"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("roll", "threshold", "chooser"),
    [(6, 6, H), (10, 6, H), (5, 6, D), (1, 6, D), (5, 5, H), (4, 5, D)],
)
def test_who_goes_first_roll(roll: int, threshold: int, chooser: Controller) -> None:
    """d10: 6 or higher (or the party's lowered threshold), the players choose; otherwise the Director."""
    state = encounter(("h1",), ("e1",))
    t = determine_first(state, FixedDice([roll]), threshold)
    assert t.events == (FirstTurnRolled(roll, threshold, chooser),)
    assert t.state.first is not None
    assert (t.state.first.roll, t.state.first.chooser) == (roll, chooser)
    other = D if chooser is H else H
    with pytest.raises(err.NotYourChoice):
        choose_first(t.state, "heroes", other)
    chosen = choose_first(t.state, "director", chooser)
    assert chosen.state.first is not None and chosen.state.first.side == "director"
    assert chosen.state.first.roll == roll  # the roll and the choice are both recorded


def test_party_uses_its_lowest_threshold() -> None:
    assert first_turn_threshold() == 6
    assert first_turn_threshold([5, 4, 7]) == 4


def test_surprised_until_end_of_round_1_and_gives_an_edge() -> None:
    """Draw Steel, Combat, "Determine Surprise": surprised creatures still act in Draw Steel, ability
    rolls against them gain an edge, and the surprise ends at the end of round 1."""
    state = encounter(("h1",), ("e1", "e2"))
    state = mark_surprised(state, "e1").state
    assert situational_modifiers(
        state.conditions_of("h1"), state.conditions_of("e1"), attacker_id="h1", target_id="e1"
    ) == (1, 0)
    state = started(state)
    state = take_turn(state, "h1").state
    assert "e1" in eligible(state)  # surprised, but may still take their turn
    state = take_turn(state, "e1").state
    t = take_turn(state, "e2")
    expired = ConditionExpired("e1", Condition.SURPRISED, "", "end-of-first-round")
    assert t.events[-2:] == (RoundEnded(1), expired)
    assert not t.state.is_surprised("e1")


def test_group_members_act_one_after_another() -> None:
    """Draw Steel, Combat, "Enemies Act In Groups": the Director picks a creature or squad of a group, then
    another of that group, until all have acted; then the heroes pick."""
    state = encounter(("h1", "h2"))
    state = add(
        state,
        Entry("g-a", "director", group="g"),
        Entry("g-squad", "director", kind=EntryKind.SQUAD, group="g", members=("m1", "m2", "m3")),
        Entry("solo", "director"),
    )
    state = started(state, first="director", roll=1)
    assert set(eligible(state)) == {"g-a", "g-squad", "solo"}
    state = take_turn(state, "g-squad").state
    pick = picking(state)
    assert pick is not None and pick.group == "g" and pick.entries == ("g-a",)
    with pytest.raises(err.GroupInProgress):
        start_turn(state, "h1", D)
    with pytest.raises(err.GroupInProgress):
        start_turn(state, "solo", D)
    state = take_turn(state, "g-a").state
    assert picking_side(state) == "heroes"


def test_solo_creature_acts_twice_but_never_twice_in_a_row() -> None:
    """Solo creatures take 2 turns a round and never back to back (while anyone else can act)."""
    state = encounter(("h1", "h2"))
    state = add(state, Entry("dragon", "director", turns_per_round=2), Entry("kobold", "director"))
    state = started(state, first="director", roll=2)
    state = take_turn(state, "dragon").state
    state = take_turn(state, "h1").state
    # director's pick; dragon took the last director turn but a hero acted since
    assert set(eligible(state)) == {"dragon", "kobold"}
    state = take_turn(state, "dragon").state
    with pytest.raises(err.AlreadyActed):
        start_turn(state, "dragon", D, override=True)
    state = take_turn(state, "h2").state
    state = take_turn(state, "kobold").state
    assert state.phase is Phase.BETWEEN_ROUNDS


def test_solo_cant_go_twice_in_a_row_while_others_can_act() -> None:
    state = encounter(("h1",))
    state = add(state, Entry("dragon", "director", turns_per_round=2), Entry("kobold", "director"))
    state = started(state, first="heroes")
    state = take_turn(state, "h1").state
    state = take_turn(state, "dragon").state
    assert eligible(state) == ("kobold",)
    with pytest.raises(err.TwiceInARow):
        start_turn(state, "dragon", D)
    state = take_turn(state, "kobold").state
    # nobody else can act: the solo may finish the round rather than stall it
    assert eligible(state) == ("dragon",)
    state = take_turn(state, "dragon").state
    assert state.phase is Phase.BETWEEN_ROUNDS


def test_out_of_order_override_uses_the_turn_but_not_the_pick() -> None:
    """A feature lets a hero act right after an ally ends their turn (shadow's Hesitation Is Weakness)."""
    state = started(encounter(("h1", "shadow"), ("e1", "e2")))
    state = take_turn(state, "h1").state
    assert picking_side(state) == "director"
    with pytest.raises(err.WrongSide, match="Director's side's pick"):
        start_turn(state, "shadow", H)
    t = start_turn(state, "shadow", H, override=True)
    assert t.events == (TurnStarted("shadow", "heroes", 1, override=True),)
    state = end_turn(t.state).state
    assert acted(state, "shadow")
    assert picking_side(state) == "director"  # the enemies still pick next
    state = take_turn(state, "e1").state
    state = take_turn(state, "e2").state  # heroes have no one left: back to back
    assert state.phase is Phase.BETWEEN_ROUNDS


def test_override_needs_owner_or_director() -> None:
    state = started(encounter(("h1",), ("e1", "e2")))
    with pytest.raises(err.NotYourCreature):
        start_turn(state, "e1", H, override=True)
    assert start_turn(state, "e1", D, override=True).state.turns[-1].override


def test_director_can_pick_for_the_heroes_after_the_argument_timer() -> None:
    """Draw Steel, Combat, "Argument Timer": the Director chooses a hero to act."""
    state = started(encounter(("h1", "h2"), ("e1",)))
    assert current(start_turn(state, "h2", D).state) is not None


def test_skip_side_and_end_round_early() -> None:
    state = started(encounter(("h1", "h2"), ("e1", "e2", "e3")))
    state = take_turn(state, "h1").state
    t = skip_side(state, "director")
    assert t.events == (SideSkipped("director", ("e1", "e2", "e3")),)
    assert eligible(t.state) == ("h2",)
    state = take_turn(t.state, "h2").state
    assert state.phase is Phase.BETWEEN_ROUNDS
    state = next_round(state).state
    assert state.skipped == ()
    state = take_turn(state, "h1").state
    t = end_round(state)
    assert t.events == (RoundEnded(2, early=True),)


def test_dead_and_removed_creatures_never_block_the_round() -> None:
    state = started(encounter(("h1", "h2"), ("e1", "e2")))
    state = take_turn(state, "h1").state
    state = set_flags(state, "e1", dead=True).state
    state = remove_entry(state, "e2").state
    state = take_turn(state, "h2").state
    assert state.phase is Phase.BETWEEN_ROUNDS


def test_removing_the_last_one_left_ends_the_round() -> None:
    state = started(encounter(("h1",), ("e1", "e2")))
    state = take_turn(state, "h1").state
    state = take_turn(state, "e1").state
    t = remove_entry(state, "e2")
    assert kinds(t.events) == ["EntryRemoved", "RoundEnded"]


def test_creature_added_mid_round_may_act_this_round() -> None:
    state = started(encounter(("h1",), ("e1",)))
    state = take_turn(state, "h1").state
    state = add(state, Entry("reinforcement", "director"))
    state = take_turn(state, "e1").state
    assert eligible(state) == ("reinforcement",)


def test_knocked_out_hero_revived_mid_round_acts_at_the_next_opportunity() -> None:
    state = started(encounter(("h1", "h2", "h3"), ("e1", "e2", "e3")))
    state = set_flags(state, "h3", unconscious=True).state
    state = take_turn(state, "h1").state
    with pytest.raises(err.NotEligible, match="unconscious"):
        start_turn(state, "h3", D, override=True)
    state = take_turn(state, "e1").state
    state = take_turn(state, "h2").state
    state = set_flags(state, "h3", unconscious=False).state
    state = take_turn(state, "e2").state
    assert eligible(state) == ("h3",)


def test_unconscious_creature_loses_its_turn_when_the_round_runs_out() -> None:
    state = started(encounter(("h1", "h2"), ("e1",)))
    state = set_flags(state, "h2", unconscious=True).state
    state = take_turn(state, "h1").state
    state = take_turn(state, "e1").state
    assert state.phase is Phase.BETWEEN_ROUNDS


def test_round_started_and_turn_started_carry_the_hooks() -> None:
    """Malice and heroic resources hang on RoundStarted(round) and TurnStarted(entry)."""
    state = encounter(("h1",), ("e1",))
    state = choose_first(determine_first(state, FixedDice([9])).state, "heroes", H).state
    t = next_round(state)
    assert t.events == (RoundStarted(1),)
    t = start_turn(t.state, "h1", H)
    assert t.events == (TurnStarted("h1", "heroes", 1),)


def test_state_round_trips_through_the_codec() -> None:
    state = encounter(("h1",), ("e1",))
    state = add(state, Entry("sq", "director", EntryKind.SQUAD, "Squad", "g", ("m1", "m2"), 1))
    state = mark_surprised(state, "sq").state
    state = started(state)
    state = add_condition(
        state, "h1", Condition.CUSTOM, Duration.SAVE, source_id="sq", custom_text="marked"
    ).state
    state = start_turn(state, "h1", H).state
    assert load(TurnState, to_data(state)) == state


def test_new_encounter_validates_sides() -> None:
    from bot.rules.turns import Side

    with pytest.raises(err.BadSetup):
        new_encounter(Mode.DRAW_STEEL, (Side("a", H), Side("b", H)))
    with pytest.raises(err.BadSetup):
        new_encounter(Mode.TEAMS, (Side("a", H),))
    with pytest.raises(err.BadSetup):
        new_encounter(Mode.TEAMS, (Side("a", H), Side("a", D)))


def test_skip_side_during_a_solos_first_turn_drops_its_second() -> None:
    state = encounter(("h1", "h2"))
    state = add(state, Entry("dragon", "director", turns_per_round=2))
    state = started(state, first="director", roll=1)
    state = start_turn(state, "dragon", D).state
    t = skip_side(state, "director")
    assert t.events == (SideSkipped("director", ("dragon",)),)
    state = end_turn(t.state).state
    for who in ("h1", "h2"):
        state = take_turn(state, who).state
    assert state.phase is Phase.BETWEEN_ROUNDS


def test_power_roll_modifiers_read_the_encounter() -> None:
    """Per-target edges for the power-roll module: a surprised squad's minion, an unconscious target, a
    restrained attacker."""
    state = encounter(("h1", "h2"), ("e1",))
    state = add(state, Entry("sq", "director", EntryKind.SQUAD, members=("m1", "m2")))
    state = mark_surprised(state, "sq").state
    state = set_flags(state, "h2", unconscious=True).state
    assert power_roll_modifiers(state, "h1", "m1") == (1, 0)
    assert power_roll_modifiers(state, "e1", "h2", is_strike=True, is_melee=True) == (2, 0)
    state = add_condition(state, "e1", Condition.RESTRAINED, Duration.SAVE).state
    assert power_roll_modifiers(state, "e1", "h1") == (0, 1)
    assert power_roll_modifiers(state, "e1", None, is_ability_roll=False) == (0, 0)
    assert power_roll_modifiers(state, "ghost", "ghost2") == (0, 0)


def test_one_hero_notices_the_zombies_so_the_heroes_arent_all_surprised() -> None:
    """Draw Steel, Combat, "Determine Surprise": the heroes fail to notice the tavern zombies, but one
    hero does: the rest are surprised, that hero isn't -- so who goes first is rolled for."""
    state = encounter(("h1", "h2", "h3"), ("z1", "z2"))
    state = mark_surprised(state, "h1").state
    state = mark_surprised(state, "h2").state
    t = determine_first(state, FixedDice([4]))
    assert t.events == (FirstTurnRolled(4, 6, D),)
    state = next_round(choose_first(t.state, "director", D).state).state
    assert picking_side(state) == "director"


def test_marauders_all_surprised_heroes_go_first_and_surprise_gives_edges_all_round_1() -> None:
    """Draw Steel, Combat, "Determine Surprise": the heroes sneak up on a camp; each marauder is
    surprised; the heroes go first without a roll."""
    state = encounter(("h1", "h2"), ("m1", "m2", "m3"))
    for m in ("m1", "m2", "m3"):
        state = mark_surprised(state, m).state
    state = next_round(determine_first(state, FixedDice([])).state).state
    assert picking_side(state) == "heroes"
    for who in ("h1", "m1", "h2", "m2"):
        assert power_roll_modifiers(state, "h1", "m3") == (1, 0)
        state = take_turn(state, who).state
    state = take_turn(state, "m3").state
    assert power_roll_modifiers(state, "h1", "m3") == (0, 0)
