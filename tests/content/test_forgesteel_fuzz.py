"""Fuzz: mutated Forge Steel monster, group, encounter and negotiation files never crash the readers with
anything but the typed `ForgeSteelError` ("Fuzz the importers with hypothesis: mutated fixtures never crash
them")."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.content.forgesteel.encounter import read_encounter
from bot.content.forgesteel.files import ForgeSteelError
from bot.content.forgesteel.monster import read_monster, read_monster_group
from bot.content.forgesteel.negotiation import read_negotiation
from tests.content.forgesteel_files import Reader, invented_bytes, real_bytes
from tests.content.fuzz_kit import JSON_VALUES, mutate

_FILES: list[tuple[Reader, str, Callable[[bytes], object]]] = [
    (invented_bytes, "Bogling Slinger.ds-monster", read_monster),
    (invented_bytes, "Cinder Wyrm.ds-monster", read_monster),
    (invented_bytes, "Bogling.ds-monster-group", read_monster_group),
    (invented_bytes, "Bog Ambush.ds-encounter", read_encounter),
    (invented_bytes, "Reeve Halden.ds-negotiation", read_negotiation),
    (real_bytes, "Goblin Sniper.ds-monster", read_monster),
    (real_bytes, "Thorn Dragon.ds-monster", read_monster),
    (real_bytes, "Goblin.ds-monster-group", read_monster_group),
    (real_bytes, "Goblin Ambush.ds-encounter", read_encounter),
]
READERS = [pytest.param(*f, id=f"{'own' if f[0] is invented_bytes else 'forgesteel'}:{f[1]}") for f in _FILES]


@pytest.mark.parametrize(("source", "file", "read"), READERS)
@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_files_fail_only_with_the_typed_error(
    source: Reader, file: str, read: Callable[[bytes], object], data: st.DataObject
) -> None:
    tree = copy.deepcopy(json.loads(source(file)))
    mutate(tree, data.draw, data.draw(st.integers(1, 4)), JSON_VALUES)
    try:
        read(json.dumps(tree).encode())
    except ForgeSteelError as error:
        assert "\n" not in str(error)


@pytest.mark.parametrize(("source", "file", "read"), READERS)
@settings(deadline=None, max_examples=40)
@given(
    cut=st.integers(0, 10**6),
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=4),
)
def test_damaged_bytes_fail_only_with_the_typed_error(
    source: Reader, file: str, read: Callable[[bytes], object], cut: int, flips: list[tuple[int, int]]
) -> None:
    raw = bytearray(source(file))
    for where, byte in flips:
        raw[where % len(raw)] = byte
    try:
        read(bytes(raw[: max(1, cut % (len(raw) + 1))]))
    except ForgeSteelError as error:
        assert "\n" not in str(error)
