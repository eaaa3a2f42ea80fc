"""Names (heroes, creatures, squads, groups, teams, custom conditions): invisible characters are stripped, a
name empty after that is refused, and every comparison uses one key (`bot.rules.names.name_key`); and the
per-creature condition limit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.conditions import Condition, ConditionInstance, Duration, apply_condition
from bot.rules.encounter import NewCreatures, add_creatures
from bot.rules.encounter.flow import side_named
from bot.rules.encounter.harm import CONDITIONS_MAX, HarmError, add_condition, remove_condition, target
from bot.rules.encounter.model import NameTaken
from bot.rules.names import BadNameError, clean_name, name_key
from bot.rules.turns import DEFAULT_SIDES
from tests.rules.rules_kit import mixed_roster

ZWSP, ZWJ, RLO, WJ, BOM, HANGUL_FILLER = "\u200b", "\u200d", "\u202e", "\u2060", "\ufeff", "\u3164"
INVISIBLES = [ZWSP, ZWJ, RLO, WJ, BOM, HANGUL_FILLER, "\u2066", "\u00ad", "\ufe0f", "\U000e0041"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (f"Ash{ZWSP}", "Ash"),
        (f"{RLO}Ash", "Ash"),
        (f"A{WJ}s{ZWJ}h", "Ash"),
        (f"{BOM} Bree {ZWSP} the  Bold", "Bree the Bold"),
        ("Zoë 🐉 龍", "Zoë 🐉 龍"),
    ],
)
def test_invisible_characters_are_stripped(text: str, name: str) -> None:
    """ "invisible and format characters are stripped (zero-width, bidi overrides)"."""
    assert clean_name(text) == name


@pytest.mark.parametrize("text", [ZWSP, f"{ZWSP} {RLO}", HANGUL_FILLER * 3, "".join(INVISIBLES)])
def test_a_name_empty_after_stripping_is_refused(text: str) -> None:
    """ "a name that is empty after that is refused"."""
    with pytest.raises(BadNameError, match="empty"):
        clean_name(text)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ash", f"Ash{ZWSP}"),
        ("Ash", f"a{RLO}SH"),
        ("Ash", "ＡＳＨ"),  # NFKC: full-width letters
        ("Straße", "STRASSE"),  # case folding
        ("Bree the Bold", f"bree {WJ}the  bold"),
    ],
)
def test_names_compare_by_one_key(a: str, b: str) -> None:
    """ "names compare by one key (NFKC, casefold, invisibles removed), so `Ash` and `Ash`
    followed by a zero-width space are the same name"."""
    assert name_key(a) == name_key(b)


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=20), st.sampled_from(INVISIBLES), st.integers(0, 20))
def test_an_invisible_character_never_changes_the_key(text: str, invisible: str, at: int) -> None:
    at = min(at, len(text))
    assert name_key(text[:at] + invisible + text[at:]) == name_key(text)


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=64))
def test_a_cleaned_name_keeps_its_key(text: str) -> None:
    try:
        cleaned = clean_name(text)
    except BadNameError:
        return
    assert name_key(cleaned) == name_key(text)
    assert cleaned == clean_name(cleaned)


@pytest.mark.parametrize(
    "spec",
    [
        NewCreatures(f"Ash{ZWSP}", 5, "director"),
        NewCreatures(f"{RLO}ash", 5, "director"),
        NewCreatures("Orc", 5, "director", count=2, squad=f"Pa{ZWJ}ck"),
        NewCreatures("Orc", 5, "director", group=f"Goblin 1{WJ}"),
        NewCreatures(f"Raid{ZWSP}ers", 5, "director"),
    ],
)
def test_a_name_with_invisibles_is_the_name_already_taken(spec: NewCreatures) -> None:
    """Creatures, squads and groups: a name differing only by invisible characters is the same name."""
    with pytest.raises(NameTaken):
        add_creatures(mixed_roster(), spec)


def test_lookups_ignore_invisible_characters() -> None:
    enc = mixed_roster()
    assert target(enc, f"Ash{ZWSP}").id == "Ash"
    assert target(enc, f"{RLO}pack").id == "Rat 1"  # a squad's name means its first living minion
    assert side_named(enc, f"Hero{ZWSP}es").id == DEFAULT_SIDES[0].id


def test_an_invisible_only_creature_name_is_refused() -> None:
    with pytest.raises(BadNameError):
        add_creatures(mixed_roster(), NewCreatures(ZWSP * 2, 5, "director"))


def test_custom_conditions_compare_by_the_name_key() -> None:
    """A custom condition named `Marked` and one named `marked` + zero-width space are the same condition:
    they don't stack, and removing one ends the other."""
    enc = mixed_roster()
    enc, first = add_condition(enc, "Ash", Condition.CUSTOM, Duration.ENCOUNTER, custom_text="Marked")
    enc, again = add_condition(enc, "Ash", Condition.CUSTOM, Duration.EOT, custom_text=f"marked{ZWSP}")
    assert first is not None and again is None
    assert len(enc.turns.conditions_of("Ash")) == 1
    enc, _ = remove_condition(enc, "Ash", Condition.CUSTOM, f"{RLO}MARKED")
    assert enc.turns.conditions_of("Ash") == ()


def test_a_custom_condition_is_stored_without_invisible_characters() -> None:
    hexed = f"Hex{RLO}ed"
    _, added = add_condition(mixed_roster(), "Ash", Condition.CUSTOM, Duration.ENCOUNTER, custom_text=hexed)
    assert added is not None and added.custom_text == "Hexed"
    with pytest.raises(BadNameError):
        add_condition(mixed_roster(), "Ash", Condition.CUSTOM, Duration.ENCOUNTER, custom_text=f"{ZWSP}{WJ}")


def test_apply_condition_key_uses_the_name_key() -> None:
    a = ConditionInstance("Ash", Condition.CUSTOM, Duration.EOT, custom_text="Marked")
    b = ConditionInstance("Ash", Condition.CUSTOM, Duration.EOT, custom_text=f"ＭＡＲＫＥＤ{ZWSP}")
    assert a.key == b.key
    assert apply_condition((a,), b)[0] == (a,)


def test_at_most_twenty_conditions_per_creature() -> None:
    """ "at most 20 conditions per creature (today ~6,800 /condition add fill the state to its size
    limit, and then every change to that encounter fails)"; the refusal is one line; re-imposing a condition
    the creature already has is still fine at the limit."""
    enc = mixed_roster()
    for n in range(CONDITIONS_MAX):
        enc, _ = add_condition(enc, "Ash", Condition.CUSTOM, Duration.ENCOUNTER, custom_text=f"Mark {n}")
    assert len(enc.turns.conditions_of("Ash")) == CONDITIONS_MAX == 20
    with pytest.raises(HarmError, match="the most a creature can hold") as refused:
        add_condition(enc, "Ash", Condition.SLOWED, Duration.ENCOUNTER)
    assert "\n" not in str(refused.value)
    same, kept = add_condition(enc, "Ash", Condition.CUSTOM, Duration.UNTIL_REMOVED, custom_text="Mark 0")
    assert kept is not None and len(same.turns.conditions_of("Ash")) == CONDITIONS_MAX
    other, _ = add_condition(enc, "Goblin 1", Condition.SLOWED, Duration.ENCOUNTER)  # another creature: fine
    assert len(other.turns.conditions_of("Goblin 1")) == 1
