"""Where the Forge Steel fixtures are: `../shared/fixtures/forgesteel/` beside the repository (or beside a
parent of it, for a git worktree), or the folder `FORGESTEEL_FIXTURES` names."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

_REPO = Path(__file__).resolve().parents[2]
_RELATIVE = Path("shared") / "fixtures" / "forgesteel"


def fixtures_dir() -> Path:
    """The fixtures folder; fails the test (not skips it) when it can't be found."""
    named = os.environ.get("FORGESTEEL_FIXTURES")
    candidates = [Path(named)] if named else []
    candidates += [parent / _RELATIVE for parent in _REPO.parents]
    for candidate in candidates:
        if (candidate / "expected-monsters.json").is_file():
            return candidate
    raise AssertionError(f"No Forge Steel fixtures at ../{_RELATIVE} from {_REPO}: set FORGESTEEL_FIXTURES.")


def fixture_bytes(name: str) -> bytes:
    return (fixtures_dir() / name).read_bytes()


def expected(name: str) -> Any:
    """`expected-heroes.json` or `expected-monsters.json`, decoded."""
    return json.loads(fixture_bytes(name))


def tier_texts() -> list[str]:
    """Every `tier1..tier3` text in the expected files, each once, in a stable order."""
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

    for path in sorted(fixtures_dir().glob("expected-*.json")):
        walk(json.loads(path.read_bytes()))
    return list(found)


INVENTED = _REPO / "tests" / "fixtures" / "forgesteel"
"""Invented heroes in Forge Steel's export shape (invented names and texts), written for the tests here."""


def invented_bytes(name: str) -> bytes:
    return (INVENTED / name).read_bytes()
