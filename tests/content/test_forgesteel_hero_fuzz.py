"""Fuzz: mutated Forge Steel hero files (deleted keys, wrong types, huge numbers, nested junk, damaged bytes)
never crash the hero import with anything but the typed one-line `ForgeSteelError` ("mutated
fixtures never crash them and never store half a hero": `read_hero` returns a whole value or raises, and the
roster sheet built from what it returns is valid or refused the same way)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.content.forgesteel.files import ForgeSteelError
from bot.content.forgesteel.hero import read_hero
from bot.content.forgesteel.hero_sheet import to_sheet
from tests.content.forgesteel_files import Reader, invented_bytes, real_bytes
from tests.content.fuzz_kit import JSON_VALUES, mutate

HERO_FILES = [
    *(
        pytest.param(invented_bytes, f, id=f"own:{f}")
        for f in ("Brannoc.ds-hero", "Ysolde.ds-hero", "Marra.ds-hero")
    ),
    *(
        pytest.param(real_bytes, f, id=f"forgesteel:{f}")
        for f in ("Keth.ds-hero", "Ashley.ds-hero", "Jennet.ds-hero")
    ),
]
_TREES: dict[tuple[Reader, str], Any] = {}
#: Values that hit the hero import's own fields and feature types.
HERO_VALUES = JSON_VALUES | st.sampled_from(
    [
        "Choice",
        "Kit",
        "Class Ability",
        "Multiple Features",
        "Heroic Resource",
        "Domain",
        "Recovery Value",
        10**9,
    ]
)


def _tree(read: Reader, file: str) -> Any:
    if (read, file) not in _TREES:
        _TREES[read, file] = json.loads(read(file))
    return copy.deepcopy(_TREES[read, file])


def _read_fully(data: bytes) -> None:
    try:
        hero = read_hero(data)
        to_sheet(hero, use_state=True)
    except ForgeSteelError as error:
        assert "\n" not in str(error) and str(error)


@pytest.mark.parametrize(("read", "file"), HERO_FILES)
@settings(deadline=None, max_examples=50, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_heroes_fail_only_with_the_typed_error(read: Reader, file: str, data: st.DataObject) -> None:
    tree = mutate(_tree(read, file), data.draw, data.draw(st.integers(1, 4)), HERO_VALUES)
    _read_fully(json.dumps(tree).encode())


@pytest.mark.parametrize(("read", "file"), HERO_FILES)
@settings(deadline=None, max_examples=30)
@given(
    cut=st.integers(0, 10**6),
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=4),
)
def test_damaged_hero_bytes_fail_only_with_the_typed_error(
    read: Reader, file: str, cut: int, flips: list[tuple[int, int]]
) -> None:
    raw = bytearray(read(file))
    for where, byte in flips:
        raw[where % len(raw)] = byte
    _read_fully(bytes(raw[: max(1, cut % (len(raw) + 1))]))


@settings(deadline=None, max_examples=40)
@given(junk=JSON_VALUES)
def test_junk_in_every_part_of_a_hero(junk: Any) -> None:
    """Each top-level part of a hero replaced by junk."""
    for key in ("ancestry", "culture", "career", "class", "complication", "features", "state"):
        tree = _tree(invented_bytes, "Marra.ds-hero")
        tree[key] = junk
        _read_fully(json.dumps(tree).encode())
