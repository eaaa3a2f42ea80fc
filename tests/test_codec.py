"""The codec that turns rules-core state into the JSON data the store keeps, tried on a rules type with an
enum (`ForcedMovement`) inside trees that hold every shape it encodes."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.codec import Reuse, from_data, load, to_data
from bot.rules.forced import DISTANCE_MAX, ForcedKind, ForcedMovement

PUSH = ForcedMovement(ForcedKind.PUSH, 1)
PULL = ForcedMovement(ForcedKind.PULL, 2)


@dataclass(frozen=True, slots=True)
class Tree:
    leaves: tuple[ForcedMovement, ...]
    by_id: dict[str, ForcedMovement] = field(default_factory=dict)
    parent: ForcedMovement | None = None
    pair: tuple[int, str] = (0, "")
    tags: frozenset[str] = frozenset()
    count: int = 0
    weight: float = 1.0


leaves = st.builds(
    ForcedMovement,
    kind=st.sampled_from(ForcedKind),
    distance=st.integers(0, DISTANCE_MAX),
    vertical=st.booleans(),
)
trees = st.builds(
    Tree,
    leaves=st.lists(leaves, max_size=4).map(tuple),
    by_id=st.dictionaries(st.text(max_size=4), leaves, max_size=3),
    parent=st.none() | leaves,
    pair=st.tuples(st.integers(), st.text(max_size=4)),
    tags=st.frozensets(st.text(max_size=4), max_size=3),
    count=st.integers(),
    weight=st.floats(allow_nan=False, allow_infinity=False),
)


@given(trees)
def test_round_trip_through_json(tree: Tree) -> None:
    data = json.loads(json.dumps(to_data(tree)))
    assert load(Tree, data) == tree


def test_missing_fields_take_defaults() -> None:
    assert load(Tree, {"leaves": []}) == Tree(leaves=())


def test_enums_are_stored_by_value() -> None:
    moved = ForcedMovement(ForcedKind.SLIDE, 2, vertical=True)
    assert to_data(moved) == {"kind": "slide", "distance": 2, "vertical": True}


def test_fields_holding_their_defaults_are_left_out() -> None:
    assert to_data(PUSH) == {"kind": "push", "distance": 1}
    assert to_data(Tree(())) == {"leaves": []}  # factory defaults too (an empty dict)
    changed = Tree((), by_id={"x": PUSH}, pair=(0, "b"), count=1)
    assert set(to_data(changed)) == {"leaves", "by_id", "pair", "count"}
    # equal to the default but of another type: kept, so the value decodes as it was
    assert to_data(Tree((), count=False)) == {"leaves": [], "count": False}
    assert to_data(Tree((), weight=1)) == {"leaves": [], "weight": 1}


def test_an_int_is_accepted_for_a_float() -> None:
    assert load(Tree, {"leaves": [], "weight": 2}).weight == 2.0


@pytest.mark.parametrize(
    ("tp", "data"),
    [
        (ForcedMovement, ["not", "a", "mapping"]),
        (ForcedMovement, {"kind": "push", "distance": "1"}),
        (ForcedMovement, {"kind": "shove", "distance": 1}),
        (int, True),
        (tuple[int, str], [1]),
    ],
)
def test_wrong_shapes_are_refused(tp: object, data: object) -> None:
    with pytest.raises((TypeError, ValueError)):
        from_data(tp, data)


@dataclass(frozen=True, slots=True)
class Node:
    """Refers to itself: the decoder's plan is made on first use."""

    value: int | str
    mode: Literal["a", "b"] = "a"
    children: list[Node] = field(default_factory=list)
    marks: set[int] = field(default_factory=set)
    extra: Any = None


def test_a_self_referring_type_with_unions_literals_lists_and_sets() -> None:
    tree = Node("root", "b", [Node(1, marks={3, 1}, extra={"free": [1]}), Node("x")])
    data = json.loads(json.dumps(to_data(tree)))
    assert data["children"][0]["marks"] == [1, 3]
    assert load(Node, data) == tree


@pytest.mark.parametrize(
    ("tp", "data"),
    [
        (Node, {"value": 1.5}),  # no member of int | str takes a float
        (Node, {"value": 1, "mode": "c"}),
        (float, "1.0"),
    ],
)
def test_unions_literals_and_scalars_refuse_what_they_do_not_hold(tp: object, data: object) -> None:
    with pytest.raises((TypeError, ValueError)):
        from_data(tp, data)


def test_other_values_pass_through() -> None:
    assert to_data({1: ForcedKind.PULL}) == {"1": "pull"}
    assert from_data(dict[str, int], {"a": 1}) == {"a": 1}


def test_reuse_returns_the_same_data_for_the_parts_a_new_version_kept() -> None:
    slide = ForcedMovement(ForcedKind.SLIDE, 1)
    reuse = Reuse()
    first = reuse.encode(Tree((PUSH, PULL), parent=PUSH))
    second = reuse.encode(Tree((PUSH, slide), parent=PUSH, count=2))
    assert first == to_data(Tree((PUSH, PULL), parent=PUSH))  # the same data as without it
    assert second == to_data(Tree((PUSH, slide), parent=PUSH, count=2))
    assert second["leaves"][0] is first["leaves"][0] is second["parent"]  # kept: the very same dict
    assert second["leaves"][1] is not first["leaves"][1]
    third = reuse.encode(Tree((PULL,)))  # only the last version is remembered
    assert third["leaves"][0] == first["leaves"][1] and third["leaves"][0] is not first["leaves"][1]


def test_reuse_never_serves_a_mutable_dataclass_from_memory() -> None:
    @dataclass
    class Box:
        items: list[int]

    box = Box([1])
    reuse = Reuse()
    assert reuse.encode(box) == {"items": [1]}
    box.items.append(2)
    assert reuse.encode(box) == {"items": [1, 2]}
