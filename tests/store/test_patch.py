"""bot/store/patch.py: `revert(b, diff(a, b)) == a` exactly, for any JSON data."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.store.patch import diff, revert

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
json_data = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=4), children, max_size=5)
    ),
    max_leaves=30,
)


def strict(value: Any) -> Any:
    """A representation where 1, 1.0 and True differ."""
    if isinstance(value, dict):
        return ("dict", sorted((k, strict(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", [strict(v) for v in value])
    return (type(value).__name__, repr(value))


@settings(max_examples=300, deadline=None)
@given(json_data, json_data)
def test_revert_restores_the_original_exactly(a: Any, b: Any) -> None:
    patch = diff(a, b)
    assert strict(revert(b, patch)) == strict(a)
    if patch is None:
        assert strict(a) == strict(b)
    else:
        json.dumps(patch)  # patches are JSON data


@settings(max_examples=200, deadline=None)
@given(json_data)
def test_same_data_has_no_patch(a: Any) -> None:
    assert diff(a, json.loads(json.dumps(a))) is None


def test_types_are_strict() -> None:
    assert diff(1, True) == {"=": 1}
    assert diff([1.0], [1]) == {"l": {"0": {"=": 1.0}}}
    # equal by ==, not strictly the same: the quick path must not call them identical
    assert diff({"a": [1, {"b": 0}]}, {"a": [True, {"b": 0.0}]}) == {
        "d": {"a": {"l": {"0": {"=": 1}, "1": {"d": {"b": {"=": 0}}}}}}
    }
    assert diff([[1, 2], [3]], [[1, 2]]) == {"r": [1, [[3]], 0]}
    assert diff([[1], [2]], [[1.0], [2]]) == {"l": {"0": {"l": {"0": {"=": 1}}}}}


def test_same_data_in_another_order_or_interning_has_no_patch() -> None:
    # the quick path compares encodings, which differ here; the item-by-item walk still finds them the same
    a = {"x": 1, "y": [{"name": "".join(["Go", "blin"])}]}
    b = {"y": [{"name": "Goblin"}], "x": 1}
    assert diff(a, b) is None and diff(b, a) is None


def test_revert_does_not_modify_its_input() -> None:
    a = {"x": [1, 2, 3], "y": {"z": 1}}
    b = {"x": [1, 3], "y": {"z": 2}, "w": 0}
    before = json.dumps(b)
    assert revert(b, diff(a, b)) == a
    assert json.dumps(b) == before


def test_patch_of_a_small_change_in_a_big_state_is_small() -> None:
    a = {"combatants": [{"name": f"c{i}", "stamina": 30, "conditions": []} for i in range(12)], "round": 1}
    b = json.loads(json.dumps(a))
    b["combatants"][5]["stamina"] = 21
    patch = diff(a, b)
    assert patch == {"d": {"combatants": {"l": {"5": {"d": {"stamina": {"=": 30}}}}}}}
    c = json.loads(json.dumps(a))
    c["combatants"].append({"name": "new"})
    assert diff(a, c) == {"d": {"combatants": {"r": [12, [], 1]}}}
    del c["combatants"][3]
    c["combatants"].pop()
    assert diff(a, c) == {"d": {"combatants": {"r": [3, [a["combatants"][3]], 0]}}}


def test_shared_parts_are_skipped_and_the_rest_still_compared_strictly() -> None:
    shared = {"name": "Goblin 1", "stamina": [15, 15], "conditions": []}
    a = {"creatures": [shared, {"name": "Ash", "hp": 1, "x": 0.0}], "round": 1}
    for b_ash, expected in (
        ({"name": "Ash", "hp": True, "x": 0.0}, {"hp": {"=": 1}}),  # equal by ==, not the same type
        ({"name": "Ash", "hp": 1, "x": -0.0}, {"x": {"=": 0.0}}),  # equal by ==, not the same number
        ({"name": "Ash", "hp": 1, "x": 0.0}, None),
    ):
        b = {"creatures": [shared, b_ash], "round": 1}
        assert a == b and a["creatures"][0] is b["creatures"][0]
        patch = diff(a, b)
        assert patch == (None if expected is None else {"d": {"creatures": {"l": {"1": {"d": expected}}}}})
        assert strict(revert(b, patch)) == strict(a)


@settings(max_examples=200, deadline=None)
@given(json_data, json_data, json_data)
def test_data_that_shares_parts_reverts_exactly(a: Any, b: Any, shared: Any) -> None:
    old = {"x": [shared, a], "y": shared}
    new = {"x": [shared, b], "y": shared}
    assert strict(revert(new, diff(old, new))) == strict(old)
