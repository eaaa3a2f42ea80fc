"""Conditions: durations, stacking, saves, and the edges/banes table (bot/rules/conditions.py)."""

from __future__ import annotations

import pytest

from bot.rules.codec import load, to_data
from bot.rules.conditions import (
    BleedingTrigger,
    Condition,
    ConditionInstance,
    Duration,
    apply_condition,
    bleeding_damage_due,
    effective_speed,
    explain_modifiers,
    longer,
    restrictions,
    roll_trigger,
    save_succeeds,
    situational_modifiers,
)
from bot.rules.dice import FixedDice
from bot.rules.turns import (
    Entry,
    EntryKind,
    TurnState,
    add_condition,
    choose_first,
    determine_first,
    end_encounter,
    end_turn,
    next_round,
    remove_condition,
    roll_save,
    start_turn,
    succeed_save,
)
from bot.rules.turns import errors as err
from bot.rules.turns.events import ConditionAdded, ConditionExpired, EncounterEnded, SaveDue, SaveRolled
from tests.rules.test_turns_support import D, H, add, encounter, take_turn

C = Condition


def ci(
    cond: Condition, creature: str = "t", source: str | None = None, d: Duration = Duration.EOT
) -> ConditionInstance:
    return ConditionInstance(creature, cond, d, source)


# (attacker conditions, target conditions, kwargs, expected (edges, banes)) -- attacker "a", target "t"
MODIFIER_TABLE = [
    pytest.param([], [], {}, (0, 0), id="nothing"),
    pytest.param([], [ci(C.SURPRISED)], {}, (1, 0), id="target surprised: edge"),
    pytest.param([], [ci(C.PRONE)], {"is_melee": True}, (1, 0), id="target prone, melee: edge"),
    pytest.param([], [ci(C.PRONE)], {"is_melee": False}, (0, 0), id="target prone, ranged: nothing"),
    pytest.param([], [ci(C.RESTRAINED)], {}, (1, 0), id="target restrained: edge"),
    pytest.param([ci(C.RESTRAINED, "a")], [], {}, (0, 1), id="attacker restrained: bane"),
    pytest.param([ci(C.PRONE, "a")], [], {"is_strike": True}, (0, 1), id="attacker prone, strike: bane"),
    pytest.param([ci(C.PRONE, "a")], [], {"is_strike": False}, (0, 0), id="attacker prone, not a strike"),
    pytest.param([ci(C.WEAKENED, "a")], [], {}, (0, 1), id="attacker weakened: bane"),
    pytest.param(
        [ci(C.WEAKENED, "a")],
        [],
        {"is_ability_roll": False, "target_id": None},
        (0, 1),
        id="weakened test: bane",
    ),
    pytest.param([ci(C.FRIGHTENED, "a", "t")], [], {}, (0, 1), id="frightened of the target: bane"),
    pytest.param([ci(C.FRIGHTENED, "a", "x")], [], {}, (0, 0), id="frightened of another: nothing"),
    pytest.param([], [ci(C.FRIGHTENED, "t", "a")], {}, (1, 0), id="target frightened of attacker: edge"),
    pytest.param([], [ci(C.FRIGHTENED, "t", "x")], {}, (0, 0), id="target frightened of another: nothing"),
    pytest.param([ci(C.GRABBED, "a", "g")], [], {}, (0, 1), id="grabbed, not targeting grabber: bane"),
    pytest.param([ci(C.GRABBED, "a", "t")], [], {}, (0, 0), id="grabbed, targeting grabber"),
    pytest.param(
        [ci(C.GRABBED, "a", "g")],
        [],
        {"ability_targets": ("t", "g")},
        (0, 0),
        id="grabbed, grabber among targets",
    ),
    pytest.param([ci(C.TAUNTED, "a", "x")], [], {}, (0, 2), id="taunted, not targeting taunter: double bane"),
    pytest.param([ci(C.TAUNTED, "a", "t")], [], {}, (0, 0), id="taunted, targeting taunter"),
    pytest.param([], [], {"target_unconscious": True}, (2, 0), id="target unconscious: double edge"),
    pytest.param([ci(C.DAZED, "a"), ci(C.SLOWED, "a")], [ci(C.BLEEDING)], {}, (0, 0), id="no roll modifiers"),
    pytest.param(
        [ci(C.RESTRAINED, "a"), ci(C.WEAKENED, "a")],
        [ci(C.RESTRAINED), ci(C.SURPRISED)],
        {},
        (2, 2),
        id="sum",
    ),
    pytest.param(
        [ci(C.RESTRAINED, "a")], [ci(C.RESTRAINED)], {"is_ability_roll": False}, (0, 0), id="not ability"
    ),
    pytest.param(
        [ci(C.RESTRAINED, "a")],
        [],
        {"is_ability_roll": False, "target_id": None, "test_characteristic": "Might"},
        (0, 1),
        id="restrained Might test: bane",
    ),
    pytest.param(
        [ci(C.RESTRAINED, "a")],
        [],
        {"is_ability_roll": False, "target_id": None, "test_characteristic": "reason"},
        (0, 0),
        id="restrained Reason test: nothing",
    ),
]


@pytest.mark.parametrize(("attacker", "target", "kwargs", "expected"), MODIFIER_TABLE)
def test_situational_modifiers(
    attacker: list[ConditionInstance],
    target: list[ConditionInstance],
    kwargs: dict[str, object],
    expected: tuple[int, int],
) -> None:
    args: dict[str, object] = {"attacker_id": "a", "target_id": "t", **kwargs}
    assert situational_modifiers(attacker, target, **args) == expected  # type: ignore[arg-type]
    mods = explain_modifiers(attacker, target, **args)  # type: ignore[arg-type]
    assert all(m.reason for m in mods)


def test_restrictions() -> None:
    assert restrictions([]) == restrictions(())
    assert not restrictions([]).no_triggered
    surprised = restrictions([ci(C.SURPRISED)])
    assert surprised.no_triggered and not surprised.no_free_maneuvers and not surprised.one_action_only
    dazed = restrictions([ci(C.DAZED)])
    assert dazed.no_triggered and dazed.no_free_maneuvers and dazed.one_action_only
    out = restrictions([], unconscious=True)
    assert out.no_triggered and out.no_free_maneuvers and out.reasons


@pytest.mark.parametrize(
    ("conds", "unconscious", "base", "speed"),
    [
        ([], False, 5, 5),
        ([C.SLOWED], False, 5, 2),
        ([C.SLOWED], False, 1, 1),
        ([C.GRABBED], False, 5, 0),
        ([C.RESTRAINED, C.SLOWED], False, 5, 0),
        ([], True, 5, 0),
    ],
)
def test_effective_speed(conds: list[Condition], unconscious: bool, base: int, speed: int) -> None:
    assert effective_speed(base, [ci(c) for c in conds], unconscious=unconscious) == speed


def test_bleeding_damage_due() -> None:
    for trigger in BleedingTrigger:
        assert bleeding_damage_due([ci(C.BLEEDING)], trigger)
        assert not bleeding_damage_due([ci(C.PRONE)], trigger)


def test_a_dying_hero_bleeds_without_the_condition() -> None:
    """Draw Steel, Combat, "Dying and Death": "While dying, ... Additionally, you are bleeding"."""
    assert bleeding_damage_due([], BleedingTrigger.MAIN_ACTION, dying=True)
    assert not bleeding_damage_due([], BleedingTrigger.MAIN_ACTION)


@pytest.mark.parametrize(
    ("characteristic", "test", "trigger"),
    [
        ("might", True, BleedingTrigger.MIGHT_OR_AGILITY_TEST),
        ("Agility", False, BleedingTrigger.MIGHT_OR_AGILITY_ABILITY_ROLL),
        ("reason", True, None),
        ("presence", False, None),
        (None, False, None),
    ],
)
def test_only_might_and_agility_rolls_make_a_creature_bleed(
    characteristic: str | None, test: bool, trigger: BleedingTrigger | None
) -> None:
    """ "makes a test or ability roll using Might or Agility"."""
    assert roll_trigger(characteristic, test=test) is trigger


def test_saves() -> None:
    assert [save_succeeds(r) for r in range(1, 11)] == [False] * 5 + [True] * 5


def test_same_condition_doesnt_stack_and_the_longer_duration_wins() -> None:
    eot = ci(C.SLOWED, d=Duration.EOT)
    save = ci(C.SLOWED, d=Duration.SAVE)
    both, kept = apply_condition((eot,), save)
    assert both == (save,) and kept == save
    again, kept = apply_condition(both, eot)
    assert again == (save,) and kept == save
    other = ci(C.PRONE)
    assert apply_condition(both, other)[0] == (save, other)
    assert longer(Duration.ENCOUNTER, Duration.UNTIL_REMOVED) is Duration.UNTIL_REMOVED
    assert longer(Duration.SAVE, Duration.EOT) is Duration.SAVE


def test_frightened_and_taunted_take_the_newest_source() -> None:
    old = ci(C.FRIGHTENED, source="x", d=Duration.SAVE)
    new = ci(C.FRIGHTENED, source="y", d=Duration.EOT)
    assert apply_condition((old,), new)[0] == (new,)
    same_source_shorter = ci(C.FRIGHTENED, source="x", d=Duration.EOT)
    assert apply_condition((old,), same_source_shorter)[0] == (old,)


def test_custom_conditions_are_keyed_by_text() -> None:
    a = ConditionInstance("t", C.CUSTOM, Duration.EOT, custom_text="Marked")
    b = ConditionInstance("t", C.CUSTOM, Duration.SAVE, custom_text="marked ")
    c = ConditionInstance("t", C.CUSTOM, Duration.SAVE, custom_text="hexed")
    assert apply_condition((a,), b)[0] == (b,)
    assert apply_condition((a,), c)[0] == (a, c)
    assert a.label == "Marked" and ci(C.PRONE).label == "prone"


def fight() -> TurnState:
    state = encounter(("h1", "h2"), ("e1", "e2"))
    state = choose_first(determine_first(state, FixedDice([8])).state, "heroes", H).state
    return next_round(state).state


def test_eot_ends_at_the_end_of_the_affected_creatures_next_turn_not_the_sources() -> None:
    state = fight()
    started = start_turn(state, "h1", H).state
    state = add_condition(started, "e1", C.DAZED, Duration.EOT, source_id="h1").state
    t = end_turn(state)  # the source's turn ends: nothing expires
    assert not any(isinstance(e, ConditionExpired) for e in t.events)
    state = take_turn(t.state, "e2").state
    state = take_turn(state, "h2").state
    t = take_turn(state, "e1")
    assert ConditionExpired("e1", C.DAZED, "", "eot") in t.events
    assert t.state.conditions == ()


def test_eot_imposed_during_the_creatures_own_turn_ends_at_the_end_of_that_turn() -> None:
    state = start_turn(fight(), "h1", H).state
    state = add_condition(state, "h1", C.WEAKENED, Duration.EOT, source_id="e1").state
    t = end_turn(state)
    assert ConditionExpired("h1", C.WEAKENED, "", "eot") in t.events


def test_save_ends_prompts_at_the_end_of_each_of_the_affected_creatures_turns() -> None:
    state = fight()
    state = add_condition(state, "e1", C.RESTRAINED, Duration.SAVE, source_id="h1").state
    t = take_turn(state, "h1")
    assert not any(isinstance(e, SaveDue) for e in t.events)
    t = take_turn(t.state, "e1")
    assert SaveDue("e1", C.RESTRAINED, "") in t.events
    failed = roll_save(t.state, FixedDice([5]), "e1", C.RESTRAINED)
    assert failed.events == (SaveRolled("e1", C.RESTRAINED, "", 5, False),)
    assert failed.state == t.state
    token = succeed_save(failed.state, "e1", C.RESTRAINED)
    assert token.events == (ConditionExpired("e1", C.RESTRAINED, "", "token"),)
    passed = roll_save(t.state, FixedDice([6]), "e1", C.RESTRAINED)
    assert passed.events[-1] == ConditionExpired("e1", C.RESTRAINED, "", "save")
    assert passed.state.conditions == ()


def test_squad_members_conditions_end_at_the_squads_turn() -> None:
    state = encounter(("h1",))
    state = add(state, Entry("sq", "director", EntryKind.SQUAD, members=("m1", "m2")))
    state = choose_first(determine_first(state, FixedDice([1])).state, "director", D).state
    state = next_round(state).state
    state = add_condition(state, "m2", C.PRONE, Duration.EOT).state
    t = take_turn(state, "sq")
    assert ConditionExpired("m2", C.PRONE, "", "eot") in t.events


def test_add_condition_events_and_no_op() -> None:
    state = fight()
    t = add_condition(state, "h1", C.SLOWED, Duration.SAVE)
    assert t.events == (ConditionAdded(ConditionInstance("h1", C.SLOWED, Duration.SAVE, imposed_round=1)),)
    same = add_condition(t.state, "h1", C.SLOWED, Duration.EOT)
    assert same.events == () and same.state == t.state
    removed = remove_condition(t.state, "h1", C.SLOWED)
    assert removed.events == (ConditionExpired("h1", C.SLOWED, "", "removed"),)


def test_end_of_encounter() -> None:
    state = fight()
    state = add_condition(state, "h1", C.BLEEDING, Duration.ENCOUNTER).state
    state = add_condition(state, "h2", C.CUSTOM, Duration.UNTIL_REMOVED, custom_text="cursed").state
    t = end_encounter(state)
    assert t.events == (ConditionExpired("h1", C.BLEEDING, "", "encounter"), EncounterEnded(1))
    assert [c.label for c in t.state.conditions] == ["cursed"]
    with pytest.raises(err.WrongPhase):
        next_round(t.state)


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda s: add_condition(s, "nobody", C.PRONE, Duration.EOT), err.UnknownEntry),
        (lambda s: add_condition(s, "h1", C.CUSTOM, Duration.EOT, custom_text=" "), err.BadSetup),
        (lambda s: add_condition(s, "h1", C.PRONE, Duration.END_OF_FIRST_ROUND), err.BadSetup),
        (lambda s: add_condition(s, "h1", C.SURPRISED, Duration.EOT), err.WrongPhase),
        (lambda s: remove_condition(s, "h1", C.PRONE), err.ConditionNotFound),
        (lambda s: roll_save(s, FixedDice([10]), "h1", C.PRONE), err.ConditionNotFound),
        (lambda s: roll_save(s, FixedDice([10]), "h2", C.PRONE), err.NoSave),
        (lambda s: succeed_save(s, "h2", C.PRONE), err.NoSave),
    ],
)
def test_condition_errors_change_nothing(call: object, error: type[Exception]) -> None:
    state = add_condition(fight(), "h2", C.PRONE, Duration.EOT).state
    before = to_data(state)
    with pytest.raises(error) as info:
        call(state)  # type: ignore[operator]
    assert str(info.value)
    assert to_data(state) == before


def test_condition_instance_round_trips() -> None:
    inst = ConditionInstance("t", C.TAUNTED, Duration.SAVE, "x", "", 3)
    assert load(ConditionInstance, to_data(inst)) == inst


def test_eot_imposed_after_the_creatures_turn_lasts_into_the_next_round() -> None:
    state = take_turn(fight(), "h1").state
    state = take_turn(state, "e1").state
    state = add_condition(state, "e1", C.SLOWED, Duration.EOT, source_id="h2").state
    state = take_turn(state, "h2").state
    state = take_turn(state, "e2").state  # round 1 ends; e1 still slowed
    assert state.conditions_of("e1")
    state = next_round(state).state
    state = take_turn(state, "h1").state
    t = take_turn(state, "e1")
    assert ConditionExpired("e1", C.SLOWED, "", "eot") in t.events


def test_each_save_ends_condition_gets_its_own_prompt() -> None:
    state = fight()
    state = add_condition(state, "h1", C.DAZED, Duration.SAVE).state
    state = add_condition(state, "h1", C.CUSTOM, Duration.SAVE, custom_text="burning").state
    state = add_condition(state, "h1", C.PRONE, Duration.ENCOUNTER).state
    t = take_turn(state, "h1")
    assert [e for e in t.events if isinstance(e, SaveDue)] == [
        SaveDue("h1", C.DAZED, ""),
        SaveDue("h1", C.CUSTOM, "burning"),
    ]
    assert len(t.state.conditions) == 3
