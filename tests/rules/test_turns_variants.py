"""Teams (Teams Combat), fast/slow (Shadow of the Demon Lord, Combat) and Agility (Draw Steel, Combat,
"Alternative Turn Order") scenarios on the one engine."""

from __future__ import annotations

import pytest

from bot.rules.conditions import Condition
from bot.rules.dice import FixedDice
from bot.rules.turns import (
    Entry,
    Mode,
    Phase,
    Side,
    Speed,
    TurnState,
    agility_order,
    choose_first,
    determine_first,
    eligible,
    end_turn,
    fast_slow_part,
    mark_surprised,
    next_round,
    pass_part,
    picking,
    picking_side,
    record_agility,
    roll_agility,
    set_flags,
    set_speed,
    set_team_order,
    start_turn,
    swap_agility,
    turns_taken,
)
from bot.rules.turns import errors as err
from bot.rules.turns.events import (
    AgilityRecorded,
    AgilitySwapped,
    ConditionExpired,
    RoundEnded,
    RoundStarted,
    SpeedChosen,
    TurnStarted,
)
from tests.rules.test_turns_support import D, H, add, encounter, take_turn

# --- teams -------------------------------------------------------------------------------------------------

TEAMS = (Side("players", H, "Players"), Side("guards", D, "Guards"))


def teams(players: tuple[str, ...], guards: tuple[str, ...], sides: tuple[Side, ...] = TEAMS) -> TurnState:
    return encounter(players, guards, mode=Mode.TEAMS, sides=sides)


def test_teams_example_alternates_from_the_highest_initiative() -> None:
    """Teams Combat, "Initiative and Rounds": players (who attacked) go first, then the guards."""
    state = next_round(teams(("roland", "clementine"), ("captain", "guard"))).state
    assert state.round == 1
    for who, side in [
        ("roland", "players"),
        ("captain", "guards"),
        ("clementine", "players"),
        ("guard", "guards"),
    ]:
        assert picking_side(state) == side
        state = take_turn(state, who).state
    assert state.phase is Phase.BETWEEN_ROUNDS
    state = next_round(state).state
    assert picking_side(state) == "players"
    # "players may decide to take their turns in a different order than in a previous round"
    assert set(eligible(state)) == {"roland", "clementine"}


def test_lopsided_teams() -> None:
    """Teams Combat: four players against two guards: after two turns each, the players take the rest."""
    state = next_round(teams(("p1", "p2", "p3", "p4"), ("g1", "g2"))).state
    for who in ("p1", "g1", "p2", "g2"):
        state = take_turn(state, who).state
    for who in ("p3", "p4"):
        assert picking_side(state) == "players"
        state = take_turn(state, who).state
    assert state.phase is Phase.BETWEEN_ROUNDS


def test_knocked_out_character_revived_mid_round_acts_at_the_next_opportunity() -> None:
    """Teams Combat: Roland is knocked out before his turn; Clementine revives him on her turn; the turn
    passes to the guards; then the players may give Roland the next turn."""
    state = next_round(teams(("roland", "clementine", "petra"), ("g1", "g2", "g3"))).state
    state = take_turn(state, "petra").state
    t = start_turn(state, "g1", D)
    state = set_flags(t.state, "roland", unconscious=True).state
    state = end_turn(state).state
    assert eligible(state) == ("clementine",)
    state = start_turn(state, "clementine", H).state
    state = set_flags(state, "roland", unconscious=False).state
    state = end_turn(state).state
    assert picking_side(state) == "guards"
    state = take_turn(state, "g2").state
    assert eligible(state) == ("roland",)


def test_three_teams_rotate_and_a_team_with_no_one_left_is_skipped() -> None:
    sides = (Side("a", H), Side("b", D), Side("c", D))
    state = encounter(("a1", "a2", "a3"), ("b1",), mode=Mode.TEAMS, sides=sides)
    state = add(state, Entry("c1", "c"), Entry("c2", "c"))
    state = set_team_order(state, ("c", "a", "b")).state
    state = next_round(state).state
    order = []
    while state.phase is Phase.IN_ROUND:
        side = picking_side(state)
        who = eligible(state)[0]
        order.append(side)
        state = take_turn(state, who).state
    assert order == ["c", "a", "b", "c", "a", "a"]


def test_surprise_round_goblins_alone_but_clementine_cannot_be_surprised() -> None:
    """Teams Combat, "Surprise": the surprising team takes round 0 alone; a character who can't be surprised
    acts in it too, in team order; then normal rounds begin."""
    sides = (Side("goblins", D, "Goblins"), Side("players", H, "Players"))
    state = encounter(mode=Mode.TEAMS, sides=sides)
    state = add(
        state,
        Entry("gob1", "goblins"),
        Entry("gob2", "goblins"),
        Entry("roland", "players"),
        Entry("clementine", "players", cannot_be_surprised=True),
    )
    state = mark_surprised(state, "roland").state
    with pytest.raises(err.CannotBeSurprised):
        mark_surprised(state, "clementine")
    t = next_round(state)
    assert t.events == (RoundStarted(0),)
    state = t.state
    assert picking_side(state) == "goblins"
    state = take_turn(state, "gob1").state
    assert eligible(state) == ("clementine",)
    with pytest.raises(err.NotEligible, match="surprised"):
        start_turn(state, "roland", H)
    state = take_turn(state, "clementine").state
    t = take_turn(state, "gob2")
    assert t.events[-2:] == (
        RoundEnded(0),
        ConditionExpired("roland", Condition.SURPRISED, "", "end-of-first-round"),
    )
    state = next_round(t.state).state
    assert state.round == 1
    assert set(eligible(state)) == {"gob1", "gob2"}
    state = take_turn(state, "gob1").state
    assert set(eligible(state)) == {"roland", "clementine"}


def test_teams_with_nobody_surprised_start_at_round_1() -> None:
    assert next_round(teams(("p",), ("g",))).state.round == 1


def test_team_order_only_in_setup_and_complete() -> None:
    state = teams(("p",), ("g",))
    with pytest.raises(err.BadSetup):
        set_team_order(state, ("players",))
    with pytest.raises(err.WrongPhase):
        set_team_order(next_round(state).state, ("guards", "players"))


# --- fast and slow turns -----------------------------------------------------------------------------------

FS = (Side("pcs", H, "Players"), Side("gm", D, "GM"))


def fast_slow(players: tuple[str, ...], monsters: tuple[str, ...]) -> TurnState:
    return encounter(players, monsters, mode=Mode.FAST_SLOW, sides=FS)


def test_example_of_a_round() -> None:
    """Shadow of the Demon Lord, Combat, "Example of a Round", played out."""
    state = next_round(
        fast_slow(("shawn", "angela", "jerry", "david"), ("rat1", "rat2", "rat3", "rat4"))
    ).state
    assert fast_slow_part(state) is Speed.FAST
    # Fast turns: the players act first. Jerry kills a rat with a spell; Shawn charges another.
    t = start_turn(state, "jerry", H)
    assert t.events == (TurnStarted("jerry", "pcs", 1, speed=Speed.FAST),)
    state = set_flags(t.state, "rat1", dead=True).state
    state = end_turn(state).state
    state = take_turn(state, "shawn").state
    with pytest.raises(err.WrongPart, match="players' creatures act first"):
        start_turn(state, "rat2", D)
    # Angela and David wait for slow turns.
    t = pass_part(state, H)
    assert t.events == (SpeedChosen("angela", Speed.SLOW), SpeedChosen("david", Speed.SLOW))
    state = t.state
    with pytest.raises(err.WrongPart, match="slow turn"):
        start_turn(state, "angela", H)
    # The rat Shawn charged attacks him; the rest of the rats wait.
    pick = picking(state)
    assert pick is not None and pick.speed is Speed.FAST and set(pick.entries) == {"rat2", "rat3", "rat4"}
    state = take_turn(state, "rat2").state
    state = pass_part(state, D).state
    # Slow turns: the players again act first.
    assert fast_slow_part(state) is Speed.SLOW
    assert set(eligible(state)) == {"angela", "david"}
    with pytest.raises(err.WrongPart):
        start_turn(state, "rat3", D)
    state = take_turn(state, "angela").state
    t = start_turn(state, "david", H)
    assert t.events == (TurnStarted("david", "pcs", 1, speed=Speed.SLOW),)
    state = set_flags(t.state, "rat2", dead=True).state
    state = end_turn(state).state
    # The last two rats move up and attack; David is incapacitated.
    state = take_turn(state, "rat3").state
    t = start_turn(state, "rat4", D)
    state = set_flags(t.state, "david", unconscious=True).state
    t = end_turn(state)
    assert t.events[-1] == RoundEnded(1)
    assert next_round(t.state).state.round == 2


def test_fast_slow_creature_with_both_a_fast_and_a_slow_turn() -> None:
    state = next_round(fast_slow(("hero",), ("demon",))).state
    state = set_flags(state, "demon", turns_per_round=2).state
    state = take_turn(state, "hero").state
    state = take_turn(state, "demon").state
    assert fast_slow_part(state) is Speed.SLOW
    assert eligible(state) == ("demon",)
    assert turns_taken(state, "demon", Speed.FAST) == 1
    t = take_turn(state, "demon")
    assert t.events[0] == TurnStarted("demon", "gm", 1, speed=Speed.SLOW)
    assert t.state.phase is Phase.BETWEEN_ROUNDS


def test_fast_slow_surprised_creatures_cant_act_in_round_1_and_end_of_round_players_first() -> None:
    state = fast_slow(("hero", "sleepy"), ("orc", "drowsy"))
    state = mark_surprised(state, "drowsy").state
    state = mark_surprised(state, "sleepy").state
    state = next_round(state).state
    assert eligible(state) == ("hero",)
    state = take_turn(state, "hero").state
    t = take_turn(state, "orc")
    expired = [e.creature for e in t.events if isinstance(e, ConditionExpired)]
    assert expired == ["sleepy", "drowsy"]  # end-of-round effects: the players' first, then the GM's
    state = next_round(t.state).state
    assert set(eligible(state)) == {"hero", "sleepy"}


def test_set_speed_rules() -> None:
    state = next_round(fast_slow(("a", "b"), ("m",))).state
    t = set_speed(state, "a", Speed.SLOW)
    assert eligible(t.state) == ("b",)
    state = take_turn(t.state, "b").state
    with pytest.raises(err.AlreadyActed):
        set_speed(state, "b", Speed.SLOW)
    with pytest.raises(err.WrongPhase):
        set_speed(next_round(teams(("p",), ("g",))).state, "p", Speed.FAST)
    with pytest.raises(err.WrongPhase):
        pass_part(next_round(teams(("p",), ("g",))).state, H)


def test_fast_slow_override_takes_a_part() -> None:
    state = next_round(fast_slow(("a",), ("m",))).state
    t = start_turn(state, "m", D, override=True)
    assert t.events == (TurnStarted("m", "gm", 1, override=True, speed=Speed.FAST),)
    t = start_turn(state, "m", D, override=True, speed=Speed.SLOW)
    assert t.state.turns[-1].speed is Speed.SLOW


# --- Agility -----------------------------------------------------------------------------------------------


def agility(heroes: tuple[str, ...], enemies: tuple[str, ...]) -> TurnState:
    return encounter(heroes, enemies, mode=Mode.AGILITY)


def start_agility(state: TurnState, first: str = "heroes") -> TurnState:
    state = choose_first(determine_first(state, FixedDice([10])).state, first, H).state
    return next_round(state).state


def test_agility_order_within_sides_while_sides_alternate() -> None:
    state = agility(("fury", "tactician", "talent"), ("ogre", "goblin"))
    state = record_agility(
        state, {"fury": 12, "tactician": 17, "talent": 9, "ogre": 8, "goblin": 15}, FixedDice([])
    ).state
    assert agility_order(state, "heroes") == ("tactician", "fury", "talent")
    state = start_agility(state)
    seen = []
    while state.phase is Phase.IN_ROUND:
        (who,) = eligible(state)
        seen.append(who)
        state = take_turn(state, who).state
    assert seen == ["tactician", "goblin", "fury", "ogre", "talent"]


def test_agility_out_of_order_is_refused() -> None:
    state = record_agility(agility(("a", "b"), ("x",)), {"a": 5, "b": 10, "x": 3}, FixedDice([])).state
    state = start_agility(state)
    with pytest.raises(err.OutOfOrder, match="b acts next"):
        start_turn(state, "a", H)
    assert start_turn(state, "a", D, override=True).state.turns[-1].override


def test_agility_ties_within_a_side_reroll_among_themselves() -> None:
    state = agility(("a", "b", "c"), ("x",))
    # a and b tie at 12 (x also 12 but on the other side: no reroll); first reroll ties again (7 vs 7)
    t = record_agility(
        state, {"a": 12, "b": 12, "c": 3, "x": 12}, FixedDice([3, 4, 5, 2, 1, 1, 6, 6]), {"a": 0}
    )
    assert agility_order(t.state, "heroes") == ("b", "a", "c")
    assert AgilityRecorded("a", 12, (7, 2)) in t.events
    assert AgilityRecorded("b", 12, (7, 12)) in t.events
    assert agility_order(t.state, "director") == ("x",)


def test_agility_group_rolls_once_and_its_members_act_together() -> None:
    state = agility(("a", "b"), ())
    state = add(state, Entry("m1", "director", group="wolves"), Entry("m2", "director", group="wolves"))
    state = record_agility(state, {"a": 10, "b": 9, "wolves": 11}, FixedDice([])).state
    state = start_agility(state, first="director")
    assert set(eligible(state)) == {"m1", "m2"}
    state = take_turn(state, "m2").state
    assert eligible(state) == ("m1",)
    state = take_turn(state, "m1").state
    assert eligible(state) == ("a",)


def test_agility_unscored_units_act_last_and_roll_agility_rolls_2d10_plus_modifier() -> None:
    state = agility(("a", "b"), ("x",))
    t = roll_agility(state, FixedDice([5, 5]), {"b": 2})
    assert t.events == (AgilityRecorded("b", 12, ()),)
    assert agility_order(t.state, "heroes") == ("b", "a")


def test_heroes_swap_places_at_the_start_of_a_new_round() -> None:
    state = record_agility(agility(("a", "b"), ("x",)), {"a": 15, "b": 10, "x": 3}, FixedDice([])).state
    state = start_agility(state)
    t = swap_agility(state, "a", "b")  # before anyone acts in the round
    assert t.events == (AgilitySwapped("a", "b"),)
    assert agility_order(t.state, "heroes") == ("b", "a")
    state = take_turn(t.state, "b").state
    with pytest.raises(err.WrongPhase):
        swap_agility(state, "a", "b")
    with pytest.raises(err.NotAHero):
        swap_agility(t.state, "a", "x")


def test_agility_functions_need_agility_mode() -> None:
    with pytest.raises(err.WrongPhase):
        record_agility(encounter(("a",), ("x",)), {"a": 1}, FixedDice([]))
    with pytest.raises(err.WrongPhase):
        swap_agility(encounter(("a", "b"), ("x",)), "a", "b")
    with pytest.raises(err.UnknownEntry):
        record_agility(agility(("a",), ("x",)), {"zz": 1}, FixedDice([]))
    with pytest.raises(err.NotAHero, match="no Agility total"):
        swap_agility(agility(("a", "b"), ("x",)), "a", "b")


def test_fast_slow_creature_with_two_turns_that_declines_its_fast_turn_loses_it() -> None:
    state = next_round(fast_slow(("hero",), ("demon",))).state
    state = set_flags(state, "demon", turns_per_round=2).state
    state = take_turn(state, "hero").state
    state = pass_part(state, D).state  # the demon waits: its fast turn is gone
    assert fast_slow_part(state) is Speed.SLOW
    t = take_turn(state, "demon")
    assert t.state.phase is Phase.BETWEEN_ROUNDS


def test_fast_slow_two_turn_creature_revived_in_the_slow_part_takes_one_turn() -> None:
    """Knocked out through the fast turns, revived during the slow turns: it acts at the next opportunity, a
    slow turn; its fast turn passed with the fast part."""
    state = next_round(fast_slow(("hero",), ("demon", "imp"))).state
    state = set_flags(state, "demon", turns_per_round=2, unconscious=True).state
    state = take_turn(state, "hero").state
    state = set_speed(state, "imp", Speed.SLOW).state
    assert fast_slow_part(state) is Speed.SLOW
    state = start_turn(state, "imp", D).state
    state = set_flags(state, "demon", unconscious=False).state
    state = end_turn(state).state
    assert eligible(state) == ("demon",)
    t = take_turn(state, "demon")
    assert t.events[0] == TurnStarted("demon", "gm", 1, speed=Speed.SLOW)
    assert t.state.phase is Phase.BETWEEN_ROUNDS


def test_fast_slow_override_slow_turn_uses_up_the_fast_turn_too() -> None:
    state = next_round(fast_slow(("hero",), ("demon",))).state
    state = set_flags(state, "demon", turns_per_round=2).state
    state = take_turn(state, "demon", D, override=True, speed=Speed.SLOW).state
    assert eligible(state) == ("hero",)
    state = take_turn(state, "hero").state
    assert state.phase is Phase.BETWEEN_ROUNDS


def test_fast_slow_two_turn_creature_cant_take_a_second_fast_turn() -> None:
    state = next_round(fast_slow(("hero", "ally"), ("demon",))).state
    state = set_flags(state, "hero", turns_per_round=2).state
    state = take_turn(state, "hero").state
    with pytest.raises(err.WrongPart, match="has had their fast turn"):
        start_turn(state, "hero", H)
