"""The roster hero's sheet: creation limits, edits, Victories, respite, and who may claim a hero."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import codec
from bot.rules.characteristics import Characteristics
from bot.rules.damage import DamageModifier
from bot.rules.errors import RuleError
from bot.rules.hero import (
    HeroError,
    HeroSheet,
    SheetEdit,
    award_sheet_victories,
    claim,
    edit_sheet,
    new_sheet,
    read_immunity,
    read_weakness,
    sheet_respite,
)
from bot.rules.resources import Progress
from bot.rules.stamina import lose_stamina

DIRECTOR, ALICE, BOB = 1, 2, 3


def test_new_sheet_is_fresh_and_round_trips() -> None:
    sheet = new_sheet(
        30, 8, Characteristics.parse("M2 A1 R0 I-1 P1"), level=2, resource_name="wrath", resource_gain="1d3"
    )
    assert (sheet.vitals.stamina, sheet.vitals.max_stamina) == (30, 30)
    assert (sheet.vitals.recoveries, sheet.vitals.max_recoveries) == (8, 8)
    assert sheet.vitals.is_hero and sheet.level == 2 and sheet.resource_gain == "1d3"
    assert codec.load(HeroSheet, codec.to_data(sheet)) == sheet


def test_old_sheet_data_without_claimable_loads() -> None:
    data = codec.to_data(new_sheet(20, 6))
    assert "claimable" not in data  # it holds its default, so the data leaves it out, as old data did
    assert codec.load(HeroSheet, data).claimable is False


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_stamina": 0, "recoveries": 8}, "Stamina maximum must be a number from 1"),
        ({"max_stamina": 1000, "recoveries": 8}, "Stamina maximum must be a number from 1"),
        ({"max_stamina": 30, "recoveries": -1}, "Recoveries must be a number from 0"),
        ({"max_stamina": 30, "recoveries": 8, "level": 11}, "Level must be from 1 to 10"),
        ({"max_stamina": 30, "recoveries": 8, "resource_gain": "banana"}, "per-turn gain"),
        ({"max_stamina": 30, "recoveries": 8, "resource_name": " "}, "Name the heroic resource"),
    ],
)
def test_new_sheet_refuses(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        new_sheet(**kwargs)  # type: ignore[arg-type]


def test_read_modifiers() -> None:
    assert read_immunity("fire 5, all 2") == (DamageModifier("fire", 5), DamageModifier("all", 2))
    assert read_immunity("none") == ()
    assert read_weakness("cold 3") == (DamageModifier("cold", 3),)
    with pytest.raises(RuleError):
        read_weakness("cold all")
    with pytest.raises(RuleError):
        read_immunity("banana")


def test_edit_sheet_fields() -> None:
    sheet = new_sheet(30, 8)
    edited = edit_sheet(
        sheet,
        SheetEdit(
            max_stamina=20,
            recoveries=6,
            level=3,
            immunities=read_immunity("fire 5"),
            resource_name="focus",
            resource_gain="2",
        ),
    )
    assert (edited.vitals.stamina, edited.vitals.max_stamina) == (20, 20)  # capped by the new maximum
    assert (edited.vitals.recoveries, edited.vitals.max_recoveries) == (6, 6)
    assert edited.level == 3 and edited.resource_name == "focus" and edited.resource_gain == "2"
    assert edited.modifiers.immunities == (DamageModifier("fire", 5),)
    assert edited.modifiers.weaknesses == ()
    now = edit_sheet(edited, SheetEdit(current_stamina=-9, recoveries_left=2))
    assert now.vitals.stamina == -9 and now.vitals.recoveries == 2 and now.vitals.dying


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (SheetEdit(), "at least one field"),
        (SheetEdit(current_stamina=31), "Current Stamina must be from -15 to 30"),
        (SheetEdit(current_stamina=-16), "Current Stamina must be from -15 to 30"),
        (SheetEdit(recoveries_left=9), "Recoveries left must be from 0 to 8"),
        (SheetEdit(level=0), "Level must be"),
        (SheetEdit(max_stamina=0), "Stamina maximum"),
    ],
)
def test_edit_sheet_refuses(edit: SheetEdit, message: str) -> None:
    with pytest.raises(HeroError, match=message):
        edit_sheet(new_sheet(30, 8), edit)


def test_victories_and_respite() -> None:
    sheet = award_sheet_victories(new_sheet(30, 8), 3)
    hurt = edit_sheet(sheet, SheetEdit(current_stamina=4, recoveries_left=1))
    rested = sheet_respite(hurt)
    assert rested.progress == Progress(0, 3)
    assert (rested.vitals.stamina, rested.vitals.recoveries) == (30, 8)
    with pytest.raises(RuleError, match="at least 1 Victory"):
        award_sheet_victories(sheet, 0)
    with pytest.raises(HeroError, match="at most 999"):
        award_sheet_victories(sheet, 997)


def test_dead_hero_respite_converts_victories_only() -> None:
    sheet = award_sheet_victories(new_sheet(30, 8), 2)
    dead = HeroSheet(lose_stamina(sheet.vitals, 50), progress=sheet.progress)
    assert dead.vitals.dead
    rested = sheet_respite(dead)
    assert rested.progress == Progress(0, 2) and rested.vitals == dead.vitals


def test_claim_rules() -> None:
    open_hero = new_sheet(30, 8, claimable=True)
    owner, sheet = claim(open_hero, DIRECTOR, ALICE, None, director=False)
    assert owner == ALICE and not sheet.claimable
    with pytest.raises(HeroError, match="already yours"):
        claim(sheet, ALICE, ALICE, None, director=False)
    with pytest.raises(HeroError, match="belongs to another player"):
        claim(sheet, ALICE, BOB, None, director=False)
    with pytest.raises(HeroError, match="Only the Director"):
        claim(open_hero, DIRECTOR, ALICE, BOB, director=False)
    # a Director reassigns, or takes the hero back (claimable again)
    owner, given_to_bob = claim(sheet, ALICE, DIRECTOR, BOB, director=True)
    assert owner == BOB and not given_to_bob.claimable
    owner, held = claim(given_to_bob, BOB, DIRECTOR, None, director=True)
    assert owner == DIRECTOR and held.claimable
    with pytest.raises(HeroError, match="already held"):
        claim(held, DIRECTOR, DIRECTOR, None, director=True)


@settings(max_examples=60, deadline=None)
@given(
    claimable=st.booleans(),
    owner=st.sampled_from([DIRECTOR, ALICE, BOB]),
    claimant=st.sampled_from([ALICE, BOB]),
    target=st.sampled_from([None, ALICE, BOB]),
)
def test_a_player_never_takes_someone_elses_hero(
    claimable: bool, owner: int, claimant: int, target: int | None
) -> None:
    sheet = new_sheet(30, 8, claimable=claimable)
    try:
        new_owner, after = claim(sheet, owner, claimant, target, director=False)
    except HeroError:
        return
    assert claimable and new_owner == claimant and not after.claimable
