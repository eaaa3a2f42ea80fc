"""Characteristics (Draw Steel, The Basics, "Characteristics"), names and the creature stat block."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.characteristics import Characteristic, CharacteristicError, Characteristics
from bot.rules.codec import load, to_data
from bot.rules.creature import Creature, CreatureError, take_damage
from bot.rules.damage import DamageModifiers, DamageType
from bot.rules.names import NAME_MAX, BadNameError, clean_name
from bot.rules.stamina import Vitals

# Characteristics text: letters or names, any order, missing = 0, −5..+10.
PARSE = [
    ("M2 A1 R0 I-1 P1", Characteristics(2, 1, 0, -1, 1)),
    ("P1 M2", Characteristics(might=2, presence=1)),
    ("might 3, agility -2", Characteristics(might=3, agility=-2)),
    ("m+2 a=1 r:0 i −1", Characteristics(2, 1, 0, -1, 0)),
    ("", Characteristics()),
    ("M2, ", Characteristics(might=2)),
    ("Reason 10 Intuition -5", Characteristics(reason=10, intuition=-5)),
]


@pytest.mark.parametrize(("text", "expected"), PARSE)
def test_parse(text: str, expected: Characteristics) -> None:
    assert Characteristics.parse(text) == expected
    assert Characteristics.parse(expected.format()) == expected


@pytest.mark.parametrize("text", ["M2 M3", "X2", "M11", "A-6", "M two", "M2 ???", "strength 2"])
def test_parse_errors(text: str) -> None:
    with pytest.raises(CharacteristicError):
        Characteristics.parse(text)


def test_constructor_range() -> None:
    with pytest.raises(CharacteristicError):
        Characteristics(might=11)


def test_letters_get_highest_format() -> None:
    assert [c.letter for c in Characteristic] == ["M", "A", "R", "I", "P"]
    c = Characteristics(2, 1, 0, -1, 1)
    assert c.get(Characteristic.INTUITION) == -1
    assert c.highest == 2
    assert Characteristics(-3, -2, -4, -5, -5).highest == -2
    assert c.format() == "M2 A1 R0 I-1 P1"
    assert Characteristic.from_text("Presence") is Characteristic.PRESENCE


@settings(max_examples=100, deadline=None)
@given(*[st.integers(-5, 10)] * 5)
def test_characteristics_round_trip(m: int, a: int, r: int, i: int, p: int) -> None:
    c = Characteristics(m, a, r, i, p)
    assert Characteristics.parse(c.format()) == c
    assert load(Characteristics, to_data(c)) == c


# names: strip, collapse whitespace, 1..64 characters, no control characters, any Unicode.
@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("  Ash  ", "Ash"),
        ("Bree\t the \n Bold", "Bree the Bold"),
        ("Zoë 🐉 龍", "Zoë 🐉 龍"),
        ("x" * NAME_MAX, "x" * 64),
    ],
)
def test_clean_name(text: str, name: str) -> None:
    assert clean_name(text) == name


@pytest.mark.parametrize("text", ["", "   ", "x" * 65, "bad\x00name", "bell\x07"])
def test_bad_names(text: str) -> None:
    with pytest.raises(BadNameError):
        clean_name(text)


def test_creature() -> None:
    ogre = Creature.create(
        "ogre-1",
        "  Ogre   Juggernaut ",
        max_stamina=60,
        level=3,
        characteristics=Characteristics.parse("M3 A0"),
        modifiers=DamageModifiers.parse("fire 3"),
    )
    assert ogre.name == "Ogre Juggernaut" and ogre.vitals == Vitals(60, 60)
    hurt, record = take_damage(ogre, 10, DamageType.FIRE)
    assert record.dealt == 7 and hurt.vitals.stamina == 53
    hero = Creature.create("h1", "Ash", 30, is_hero=True, recoveries=8, owner_id=1234)
    assert hero.vitals.recoveries == 8 and hero.vitals.is_hero
    for c in (ogre, hurt, hero):
        assert load(Creature, to_data(c)) == c


@pytest.mark.parametrize(
    "kwargs",
    [
        {"id": ""},
        {"name": " Ash"},
        {"is_hero": True},
        {"level": 21},
        {"stability": -1},
    ],
)
def test_bad_creatures(kwargs: dict[str, object]) -> None:
    base: dict[str, object] = {"id": "g", "name": "Goblin", "is_hero": False, "vitals": Vitals(5, 5)}
    base.update(kwargs)
    with pytest.raises(CreatureError):
        Creature(**base)  # type: ignore[arg-type]
