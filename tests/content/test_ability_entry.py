"""Hand-entered abilities (bot.content.ability_entry): options read into a card, edits, the hero's list and
its limits, each refusal one line. Table-driven."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.content.ability_entry import (
    ABILITIES_MAX,
    EFFECT_MAX,
    AbilityForm,
    ability_index,
    add_ability,
    edit_ability,
    new_ability,
    read_characteristics,
    read_keywords,
    read_tiers,
    replace_ability,
)
from bot.rules.ability import Ability, AbilityError, ActionType, PowerRollSpec
from bot.rules.characteristics import Characteristic, CharacteristicError
from bot.rules.errors import RuleError

M, A, R = Characteristic.MIGHT, Characteristic.AGILITY, Characteristic.REASON

TIERS = [
    ("2 + R damage; 4 + R damage; 6 + R damage", ("2 + R damage", "4 + R damage", "6 + R damage")),
    (
        "3 + M damage; push 1 | 6 + M damage; push 2 | 9 + M damage; push 4",
        ("3 + M damage; push 1", "6 + M damage; push 2", "9 + M damage; push 4"),
    ),
    ("  No effect ;  The target   is grabbed;slide 3 ", ("No effect", "The target is grabbed", "slide 3")),
]


@pytest.mark.parametrize(("text", "want"), TIERS)
def test_tiers_split_at_semicolons_or_bars(text: str, want: tuple[str, str, str]) -> None:
    assert read_tiers(text) == want


@pytest.mark.parametrize(
    "text", ["2 damage; 4 damage", "1; 2; 3; 4", "a | b", "1;;3", "x" * 301 + "; 2; 3"], ids=str
)
def test_anything_but_three_tiers_is_refused(text: str) -> None:
    with pytest.raises(AbilityError) as raised:
        read_tiers(text)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("text", "want"),
    [("reason", (R,)), ("Might or Agility", (M, A)), ("M, A", (M, A)), ("m/a/m", (M, A)), ("R", (R,))],
)
def test_characteristics(text: str, want: tuple[Characteristic, ...]) -> None:
    assert read_characteristics(text) == want


def test_an_unknown_characteristic_is_refused() -> None:
    with pytest.raises(CharacteristicError):
        read_characteristics("luck")


def test_keywords_are_kept_once_as_typed() -> None:
    assert read_keywords("Magic, psionic ,  Ranged,magic,, Strike") == (
        "Magic",
        "psionic",
        "Ranged",
        "Strike",
    )


SPIKE = AbilityForm(
    name="Mind  Spike",
    action="main",
    characteristic="reason",
    keywords="Magic, Psionic, Ranged, Strike",
    tiers="2 + R damage; 4 + R damage; 6 + R damage",
    distance="Ranged 10",
    target="One creature",
)
SPIKE_CARD = Ability(
    name="Mind Spike",
    action=ActionType.MAIN,
    keywords=("Magic", "Psionic", "Ranged", "Strike"),
    distance="Ranged 10",
    target="One creature",
    power_roll=PowerRollSpec((R,), ("2 + R damage", "4 + R damage", "6 + R damage")),
)


def test_the_issues_example() -> None:
    assert new_ability(SPIKE) == SPIKE_CARD


REFUSED_FORMS = [
    ("no name", AbilityForm(action="main", effect="x"), "name and action"),
    ("bad action", AbilityForm(name="X", action="dance", effect="x"), "isn't an action type"),
    ("nothing to do", AbilityForm(name="X", action="main"), "needs a power roll or an effect"),
    (
        "tiers, no characteristic",
        AbilityForm(name="X", action="main", tiers="1;2;3"),
        "Name the characteristic",
    ),
    (
        "characteristic, no tiers",
        AbilityForm(name="X", action="main", characteristic="M", effect="x"),
        "give",
    ),
    ("bonus, no tiers", AbilityForm(name="X", action="main", bonus=2, effect="x"), "for a power roll"),
    (
        "bonus too big",
        AbilityForm(name="X", action="main", tiers="1;2;3", characteristic="M", bonus=11),
        "-10",
    ),
    ("cost negative", AbilityForm(name="X", action="main", effect="x", cost=-1), "from 0 to 99"),
    ("long effect", AbilityForm(name="X", action="main", effect="x" * (EFFECT_MAX + 1)), "at most 1000"),
    ("control character", AbilityForm(name="X", action="main", effect="a\x00b"), "control characters"),
    ("long name", AbilityForm(name="x" * 65, action="main", effect="x"), "64"),
]


@pytest.mark.parametrize(("what", "form", "says"), REFUSED_FORMS, ids=[c[0] for c in REFUSED_FORMS])
def test_refusals_are_one_line(what: str, form: AbilityForm, says: str) -> None:
    with pytest.raises(RuleError) as raised:
        new_ability(form)
    assert says in str(raised.value) and "\n" not in str(raised.value)


EDITS = [
    ("cost", AbilityForm(cost=3), {"cost": 3}),
    ("rename", AbilityForm(name="Mind Lance"), {"name": "Mind Lance"}),
    ("clear the distance", AbilityForm(distance="none"), {"distance": ""}),
    ("clear keywords", AbilityForm(keywords="-"), {"keywords": ()}),
    (
        "tiers only",
        AbilityForm(tiers="3 damage; 5 damage; 7 damage"),
        {"power_roll": PowerRollSpec((R,), ("3 damage", "5 damage", "7 damage"))},
    ),
    (
        "characteristic and bonus",
        AbilityForm(characteristic="might or agility", bonus=1),
        {"power_roll": PowerRollSpec((M, A), SPIKE_CARD.power_roll.tiers, 1)},  # type: ignore[union-attr]
    ),
    (
        "no power roll",
        AbilityForm(tiers="none", effect="It hurts."),
        {"power_roll": None, "effect": "It hurts."},
    ),
]


@pytest.mark.parametrize(("what", "form", "changed"), EDITS, ids=[c[0] for c in EDITS])
def test_edits_change_only_what_is_given(what: str, form: AbilityForm, changed: dict[str, object]) -> None:
    assert edit_ability(SPIKE_CARD, form) == dataclasses.replace(SPIKE_CARD, **changed)  # type: ignore[arg-type]


def test_dropping_the_power_roll_needs_an_effect() -> None:
    with pytest.raises(AbilityError, match="power roll or an effect"):
        edit_ability(SPIKE_CARD, AbilityForm(tiers="none"))


def test_the_list_keeps_names_unique_and_within_the_limit() -> None:
    cards = add_ability((), SPIKE_CARD)
    assert ability_index(cards, "mind   SPIKE") == 0 and ability_index(cards, "Other") is None
    with pytest.raises(AbilityError, match="already has an ability by that name"):
        add_ability(cards, Ability("MIND SPIKE", ActionType.MANEUVER, effect="x"))
    other = Ability("Other", ActionType.MANEUVER, effect="x")
    cards = add_ability(cards, other)
    with pytest.raises(AbilityError, match="already has an ability by that name"):
        replace_ability(cards, 1, Ability("Mind Spike", ActionType.MANEUVER, effect="x"))
    assert replace_ability(cards, 0, SPIKE_CARD) == cards  # its own name again is fine
    full = tuple(Ability(f"A{n}", ActionType.MAIN, effect="x") for n in range(ABILITIES_MAX))
    with pytest.raises(AbilityError, match=f"at most {ABILITIES_MAX} abilities"):
        add_ability(full, other)


@settings(deadline=None, max_examples=200)
@given(
    name=st.text(max_size=80),
    action=st.sampled_from(["main", "maneuver", "triggered", "free maneuver", "none", "x"]),
    characteristic=st.none() | st.text(max_size=20),
    tiers=st.none() | st.text(max_size=200),
    effect=st.none() | st.text(max_size=50),
)
def test_any_form_gives_a_card_or_a_one_line_refusal(
    name: str, action: str, characteristic: str | None, tiers: str | None, effect: str | None
) -> None:
    form = AbilityForm(name=name, action=action, characteristic=characteristic, tiers=tiers, effect=effect)
    try:
        card = new_ability(form)
    except RuleError as error:
        assert str(error) and "\n" not in str(error)
        return
    assert card.name and (card.power_roll is not None or card.effect)
