"""The Forge Steel ability reader on every hero ability of the fixtures: the card matches what Forge Steel
shows (`expected-heroes.json`: usage, keywords, distance, target, cost, power roll, tier texts)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.content.forgesteel.ability_json import read_ability
from bot.content.forgesteel.files import Fields
from tests.content.forgesteel_files import Reader, both, check_card


def _abilities_in(node: Any, out: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every Forge Steel ability object in a file, by id."""
    if isinstance(node, dict):
        kind = node.get("type")
        if isinstance(kind, dict) and "usage" in kind and "id" in node:
            out.setdefault(node["id"], node)
        for value in node.values():
            _abilities_in(value, out)
    elif isinstance(node, list):
        for value in node:
            _abilities_in(value, out)
    return out


CASES = both(
    "expected-heroes.json",
    lambda e: [(f"{h['file']}:{a['name']}", (h["file"], a)) for h in e["heroes"] for a in h["abilities"]],
)


@pytest.mark.parametrize(("read", "file", "want"), CASES)
def test_hero_ability_card(read: Reader, file: str, want: dict[str, Any]) -> None:
    raw = _abilities_in(json.loads(read(file)), {})[want["id"]]
    ability = read_ability(Fields(raw, "ability"))
    check_card(ability, want)
    for section in want["otherSections"]:
        if section["type"] != "package":  # text a hero's Package feature adds, by tag: the hero import's
            assert (section.get("text") or section["effect"]) in ability.effect
