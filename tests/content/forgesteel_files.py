"""The Forge Steel files the tests read.

Our own: invented heroes, monsters, a group and an encounter in Forge Steel's shape, with what the importer
must compute for them (`tests/fixtures/forgesteel/`, README.md there); every test runs on them.

Real exports (a `shared/fixtures/forgesteel/` folder beside the repository or a parent of it, or the folder
`FORGESTEEL_FIXTURES` names) are an extra conformance suite: a test that needs them skips with a one-line
reason when they are absent, or fails with `REQUIRE_FORGESTEEL=1` (as CI runs).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from _pytest.mark import ParameterSet

from bot.rules.ability import Ability, ActionType

_REPO = Path(__file__).resolve().parents[2]
_RELATIVE = Path("shared") / "fixtures" / "forgesteel"
REQUIRED = os.environ.get("REQUIRE_FORGESTEEL", "").strip() == "1"
ABSENT = f"no real Forge Steel exports at ../{_RELATIVE} (or FORGESTEEL_FIXTURES)"

Reader = Callable[[str], bytes]


@cache
def real_dir() -> Path | None:
    """The folder of real exports (only the one `FORGESTEEL_FIXTURES` names, when set), or None."""
    named = os.environ.get("FORGESTEEL_FIXTURES")
    candidates = [Path(named)] if named else [parent / _RELATIVE for parent in _REPO.parents]
    return next((c for c in candidates if (c / "expected-monsters.json").is_file()), None)


def real_bytes(name: str) -> bytes:
    """One real export; skips the test when there are none (fails it with REQUIRE_FORGESTEEL=1)."""
    folder = real_dir()
    if folder is None:
        if REQUIRED:
            pytest.fail(f"REQUIRE_FORGESTEEL=1 but {ABSENT}")
        pytest.skip(ABSENT)
    return (folder / name).read_bytes()


def invented_expected(name: str) -> Any:
    """Our own `expected-heroes.json` or `expected-monsters.json`, decoded."""
    return json.loads(invented_bytes(name))


def real_expected(name: str) -> Any:
    return json.loads(real_bytes(name))


def both(name: str, cases: Callable[[Any], Iterable[tuple[str, tuple[Any, ...]]]]) -> list[ParameterSet]:
    """Test cases from an expected file, `(reader, *values)` each: ours (ids `own:...`), then the real
    exports' (ids `forgesteel:...`). Without real exports there is one `forgesteel` case, skipped; with
    REQUIRE_FORGESTEEL=1 their absence stops the collection."""
    own = [
        pytest.param(invented_bytes, *values, id=f"own:{label}")
        for label, values in cases(invented_expected(name))
    ]
    folder = real_dir()
    if folder is None:
        if REQUIRED:
            raise AssertionError(f"REQUIRE_FORGESTEEL=1 but {ABSENT}")
        width = len(own[0].values) - 1
        return [
            *own,
            pytest.param(real_bytes, *([None] * width), id="forgesteel", marks=pytest.mark.skip(ABSENT)),
        ]
    real = json.loads((folder / name).read_bytes())
    return [
        *own,
        *(pytest.param(real_bytes, *values, id=f"forgesteel:{label}") for label, values in cases(real)),
    ]


def tier_texts(read: Reader) -> list[str]:
    """Every `tier1..tier3` text in the expected files `read` gives, each once, in a stable order."""
    found: dict[str, None] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("tier1", "tier2", "tier3") and isinstance(value, str):
                    found[value] = None
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for name in ("expected-heroes.json", "expected-monsters.json"):
        walk(json.loads(read(name)))
    return list(found)


INVENTED = _REPO / "tests" / "fixtures" / "forgesteel"
"""Invented heroes in Forge Steel's export shape (invented names and texts), written for the tests here."""


def invented_bytes(name: str) -> bytes:
    return (INVENTED / name).read_bytes()


def check_card(ability: Ability, want: dict[str, Any]) -> None:
    """The card read from a Forge Steel ability shows what Forge Steel shows for it (`want`, an ability of
    `expected-heroes.json` or `expected-monsters.json`): usage, keywords, distance, target, cost, power
    roll."""
    assert ability.name == want["name"]
    assert ability.action is ActionType.from_text(want["usage"], free=want["free"])
    assert list(ability.keywords) == want["keywords"]
    assert ability.distance == " or ".join(want["distance"])
    assert ability.target == want["target"]
    assert ("signature" if ability.signature else ability.cost) == want["cost"]
    roll = want["powerRoll"]
    if roll is None:
        assert ability.power_roll is None
    else:
        assert ability.power_roll is not None
        assert ability.power_roll.tiers == (roll["tier1"], roll["tier2"], roll["tier3"])
        assert ability.power_roll.bonus == roll["statedBonus"]
        assert [c.value.title() for c in ability.power_roll.characteristics] == roll["characteristics"]
