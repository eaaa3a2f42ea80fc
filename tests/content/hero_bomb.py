"""Crafted Forge Steel hero files for the reader's cost: the worst a member can upload under the 2 MB cap.

`multiplying(size)`: a hero whose counts multiply in a naive reader. Half the bytes are Class Ability features
that may pick from any source (each one would rebuild the list of abilities, a walk of every feature); the
other half is one Class Ability feature naming the same ability again and again (each name would be one
more card, and each card would look through every feature for its Package Content). Read naively that is
the square of the file's size: minutes of CPU for a file under 2 MB.

`widest(size)`: the largest file the reader accepts: every count at its cap (features, abilities, package
texts) and the rest of the bytes in abilities the hero doesn't have but the reader must index (an
unselected subclass's levels, which a Class Ability feature with `allowAnySource` picks from).

Both are compact JSON (more objects per byte than Forge Steel's tab-indented exports).
"""

from __future__ import annotations

import json
from typing import Any

from bot.content.ability_entry import ABILITIES_MAX
from bot.content.forgesteel.hero_features import FEATURES_MAX
from tests.content.forgesteel_hero_kit import ability, feature, hero, kit

MB = 1024 * 1024


def _packaged(ability_id: str, name: str) -> dict[str, Any]:
    """An ability with a `package` section (its card shows the hero's Package Content of that tag)."""
    out = ability(ability_id, name)
    out["sections"].append({"type": "package", "tag": "bomb"})
    return out


def base() -> list[dict[str, Any]]:
    """What makes the hero whole (a kit for its Stamina, a heroic resource), so only the bulk is refused."""
    return [
        feature("Kit", "Kit", selected=[kit("Panther")], count=1),
        feature("Heroic Resource", "Ferocity", type="heroic", gains=[], value=0),
    ]


def _class_ability(i: int, ids: list[str]) -> dict[str, Any]:
    return {
        "id": f"c{i}",
        "name": "C",
        "type": "Class Ability",
        "data": {"allowAnySource": True, "selectedIDs": ids, "count": 1, "source": {}},
    }


def _fill(template: Any, budget: int) -> int:
    """How many copies of `template` (as compact JSON, with its separator) fit in `budget` bytes."""
    return max(1, budget // (len(json.dumps(template, separators=(",", ":"))) + 1))


def _encode(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def multiplying(size: int) -> bytes:
    """A hero of about `size` bytes whose features and abilities multiply (see the module docstring)."""
    features = [*base(), _class_ability(0, ["a"] * _fill("a", size // 2))]
    count = _fill(_class_ability(99999, ["a"]), size // 2)
    features += [_class_ability(i, ["a"]) for i in range(1, count)]
    return _encode(hero(class_features=features, abilities=[_packaged("a", "Anvil")]))


def widest(size: int) -> bytes:
    """The largest hero of about `size` bytes the reader accepts (see the module docstring)."""
    abilities = [_packaged(f"a{i}", f"Ability {i}") for i in range(ABILITIES_MAX)]
    picks = [*base(), _class_ability(0, [a["id"] for a in abilities])]
    packages = [
        {"id": f"p{i}", "name": "P", "description": "x", "type": "Package Content", "data": {"tag": f"t{i}"}}
        for i in range(FEATURES_MAX - len(picks) - 1)
    ]
    packages.append(
        {"id": "p", "name": "P", "description": "Pkg.", "type": "Package Content", "data": {"tag": "bomb"}}
    )
    top = hero(class_features=picks + packages, abilities=abilities)

    def unused(i: int) -> dict[str, Any]:
        return {"type": "Ability", "data": {"ability": ability(f"u{i}", "U")}}

    spare = size - len(_encode(top))
    unused_abilities = [unused(i) for i in range(_fill(unused(99999), spare))]
    top["class"]["subclasses"] = [
        {"id": "s", "name": "S", "selected": False, "abilities": [],
         "featuresByLevel": [{"level": 1, "features": unused_abilities}]},
    ]  # fmt: skip
    return _encode(top)
