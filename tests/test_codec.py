"""The codec that turns rules-core state into the JSON data the store keeps."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.codec import Reuse, from_data, load, to_data


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class Leaf:
    name: str
    colour: Colour
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class Tree:
    leaves: tuple[Leaf, ...]
    by_id: dict[str, Leaf] = field(default_factory=dict)
    parent: Leaf | None = None
    pair: tuple[int, str] = (0, "")
    tags: frozenset[str] = frozenset()
    count: int = 0


leaves = st.builds(
    Leaf,
    name=st.text(max_size=8),
    colour=st.sampled_from(Colour),
    weight=st.floats(allow_nan=False, allow_infinity=False),
)
trees = st.builds(
    Tree,
    leaves=st.lists(leaves, max_size=4).map(tuple),
    by_id=st.dictionaries(st.text(max_size=4), leaves, max_size=3),
    parent=st.none() | leaves,
    pair=st.tuples(st.integers(), st.text(max_size=4)),
    tags=st.frozensets(st.text(max_size=4), max_size=3),
    count=st.integers(),
)


@given(trees)
def test_round_trip_through_json(tree: Tree) -> None:
    data = json.loads(json.dumps(to_data(tree)))
    assert load(Tree, data) == tree


def test_missing_fields_take_defaults() -> None:
    assert load(Tree, {"leaves": []}) == Tree(leaves=())


def test_enums_are_stored_by_value() -> None:
    assert to_data(Leaf("a", Colour.BLUE, 2.5)) == {"name": "a", "colour": "blue", "weight": 2.5}


def test_fields_holding_their_defaults_are_left_out() -> None:
    assert to_data(Leaf("a", Colour.RED)) == {"name": "a", "colour": "red"}
    assert to_data(Tree(())) == {"leaves": []}  # factory defaults too (an empty dict)
    changed = Tree((), by_id={"x": Leaf("x", Colour.RED)}, pair=(0, "b"), count=1)
    assert set(to_data(changed)) == {"leaves", "by_id", "pair", "count"}
    # equal to the default but of another type: kept, so the value decodes as it was
    assert to_data(Tree((), count=False)) == {"leaves": [], "count": False}  # type: ignore[arg-type]
    assert to_data(Leaf("a", Colour.RED, 1)) == {"name": "a", "colour": "red", "weight": 1}


def test_an_int_is_accepted_for_a_float() -> None:
    assert load(Leaf, {"name": "a", "colour": "red", "weight": 2}).weight == 2.0


@pytest.mark.parametrize(
    ("tp", "data"),
    [
        (Leaf, ["not", "a", "mapping"]),
        (Leaf, {"name": 3, "colour": "red"}),
        (Leaf, {"name": "a", "colour": "green"}),
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
    assert to_data({1: Colour.RED}) == {"1": "red"}
    assert from_data(dict[str, int], {"a": 1}) == {"a": 1}


def test_reuse_returns_the_same_data_for_the_parts_a_new_version_kept() -> None:
    red, blue = Leaf("a", Colour.RED), Leaf("b", Colour.BLUE)
    reuse = Reuse()
    first = reuse.encode(Tree((red, blue), parent=red))
    second = reuse.encode(Tree((red, Leaf("c", Colour.RED)), parent=red, count=2))
    assert first == to_data(Tree((red, blue), parent=red))  # the same data as without it
    assert second == to_data(Tree((red, Leaf("c", Colour.RED)), parent=red, count=2))
    assert second["leaves"][0] is first["leaves"][0] is second["parent"]  # kept: the very same dict
    assert second["leaves"][1] is not first["leaves"][1]
    third = reuse.encode(Tree((blue,)))  # only the last version is remembered
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
