"""Fuzzing a Forge Steel file: any JSON value, and a file's tree with some of its values deleted or replaced
(shared by the readers' fuzz tests, the hero import's and the bestiary store's)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

#: What a draw is: `data.draw` of `st.data()`, or the `draw` of an `@st.composite`.
Draw = Callable[[st.SearchStrategy[Any]], Any]

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | st.sampled_from(
        ["Minion", "Solo", "Ability", "Bonus", "Stamina", "Damage Modifier", "roll", "signature"]
    ),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


def slots(node: Any, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Every (container, key) in the tree: the places a mutation can hit."""
    if isinstance(node, dict):
        for key, value in node.items():
            out.append((node, key))
            slots(value, out)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.append((node, i))
            slots(value, out)
    return out


def mutate(tree: Any, draw: Draw, times: int, values: st.SearchStrategy[Any]) -> Any:
    """`tree` with `times` mutations, each at a drawn place: a dict's key deleted (half the time) or the value
    replaced by one of `values`. Changes `tree` itself, and returns it."""
    for _ in range(times):
        places = slots(tree, [])
        if not places:
            break
        container, key = places[draw(st.integers(0, len(places) - 1))]
        if isinstance(container, dict) and draw(st.booleans()):
            del container[key]
        else:
            container[key] = draw(values)
    return tree
