"""Forge Steel montages (`.ds-montage`, `bot.content.forgesteel.montage`): sections, challenges with their
uses, twists and outcome texts read from our own invented file; the reader's defensive limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.content.forgesteel.files import NotJson, OverBudget, ReadBudget, TooMany, UnknownFormat, WrongKind
from bot.content.forgesteel.montage import SECTIONS_MAX, read_montage
from bot.rules.characteristics import Characteristic
from bot.rules.montage import CHALLENGES_MAX, USES_MAX

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "forgesteel"
CAUSEWAY = (FIXTURES / "Flooded Causeway.ds-montage").read_bytes()


def montage(**changes: object) -> bytes:
    data = json.loads(CAUSEWAY)
    data.update(changes)
    return json.dumps(data).encode()


def test_sections_challenges_uses_twists_and_outcomes() -> None:
    read = read_montage(CAUSEWAY)
    assert read.name == "The Flooded Causeway"
    assert read.scene.startswith("The tide is coming in") and "the light is failing" in read.scene
    names = [c.name for c in read.challenges]
    assert names == ["Wade the Shallows", "Read the Tide", "Wade the Shallows (The Far Shore)"]
    wade, tide, far = read.challenges
    assert wade.characteristics == (Characteristic.MIGHT, Characteristic.AGILITY)
    assert wade.skills == ("Swim", "Endurance") and wade.uses == 2
    assert tide.uses is None  # 0 uses: no limit
    assert "Older files keep lists." in tide.description and "Abilities: Any ability" in tide.description
    assert far.uses == USES_MAX and far.characteristics == (Characteristic.AGILITY,)
    assert read.twists == (
        "When a hero fails by a wide margin, use a twist.",
        "Undertow: A hero is dragged toward open water.",
    )
    assert read.outcomes == {
        "total success": "Everyone reaches the shore before dark.",
        "partial success": "You make it, but the packs are lost to the sea.",
    }
    assert any("Luck" in w for w in read.warnings) and any("20" in w for w in read.warnings)


def test_other_files_are_refused_in_one_line() -> None:
    with pytest.raises(NotJson):
        read_montage(b"not json")
    encounter = (FIXTURES / "Bog Ambush.ds-encounter").read_bytes()
    with pytest.raises(WrongKind, match="/encounter import"):
        read_montage(encounter)
    with pytest.raises(UnknownFormat, match="sections"):
        read_montage(montage(sections="many"))


def test_too_many_sections_or_challenges_are_refused_while_read() -> None:
    section = {"name": "S", "challenges": [], "twists": []}
    with pytest.raises(TooMany, match="sections"):
        read_montage(montage(sections=[section] * (SECTIONS_MAX + 1)))
    crowded = {"name": "S", "challenges": [{"name": f"C{i}"} for i in range(CHALLENGES_MAX + 1)]}
    with pytest.raises(TooMany, match="challenges"):
        read_montage(montage(sections=[crowded]))


def test_a_file_over_its_cpu_budget_is_refused() -> None:
    ticks = iter(range(0, 10**6, 10))
    budget = ReadBudget(seconds=1, clock=lambda: float(next(ticks)))
    wide = {"name": "S", "challenges": [{"name": "C", "characteristics": ["Might"] * 3000}]}
    with pytest.raises(OverBudget):
        read_montage(montage(sections=[wide]), budget)


def test_a_newer_forge_steel_file_reads_the_same() -> None:
    """Newer Forge Steel montages also carry an encounter `difficulty` (not a montage's easy, moderate or
    hard: the Director names that at /montage start): read as before."""
    assert read_montage(montage(difficulty="Standard")) == read_montage(CAUSEWAY)
