"""The Forge Steel ability reader on every hero ability of the fixtures: the card matches what Forge Steel
shows (`expected-heroes.json`: usage, keywords, distance, target, cost, power roll, tier texts)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.content.forgesteel.ability_json import read_ability
from bot.content.forgesteel.files import Fields
from bot.rules.ability import ActionType
from tests.content.forgesteel_files import expected, fixture_bytes


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


CASES = [
    (hero["file"], ability)
    for hero in expected("expected-heroes.json")["heroes"]
    for ability in hero["abilities"]
]


@pytest.mark.parametrize(("file", "want"), CASES, ids=[f"{f}:{a['name']}" for f, a in CASES])
def test_hero_ability_card(file: str, want: dict[str, Any]) -> None:
    raw = _abilities_in(json.loads(fixture_bytes(file)), {})[want["id"]]
    ability = read_ability(Fields(raw, "ability"))
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
    for section in want["otherSections"]:
        if section["type"] != "package":  # text a hero's Package feature adds, by tag: the hero import's
            assert (section.get("text") or section["effect"]) in ability.effect
