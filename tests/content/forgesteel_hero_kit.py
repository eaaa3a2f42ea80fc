"""Small invented Forge Steel heroes (same JSON shape as the app's exports; invented names and abilities)
for the hero import's edge cases."""

from __future__ import annotations

import json
from typing import Any


def bonus(field: str, value: int = 0, **extra: Any) -> dict[str, Any]:
    """A Bonus feature on `field` (Forge Steel's `FeatureField`), with per-level / per-echelon /
    characteristic parts in `extra` (`valuePerLevel=9` ...)."""
    data = {
        "field": field,
        "value": value,
        "valueFromController": None,
        "valueCharacteristics": [],
        "valueCharacteristicMultiplier": 1,
        "valuePerLevel": 0,
        "valuePerEchelon": 0,
    }
    data.update(extra)
    return {"id": f"bonus-{field}-{value}", "name": field, "description": "", "type": "Bonus", "data": data}


def feature(kind: str, name: str = "Thing", **data: Any) -> dict[str, Any]:
    slug = name.lower().replace(" ", "-")
    return {"id": f"f-{slug}", "name": name, "description": f"{name}.", "type": kind, "data": data}


def ability(
    ability_id: str, name: str, cost: int | str = "signature", usage: str = "Main Action"
) -> dict[str, Any]:
    return {
        "id": ability_id,
        "name": name,
        "description": "",
        "type": {"usage": usage, "free": False, "trigger": "", "time": "", "qualifiers": []},
        "keywords": ["Melee", "Strike", "Weapon"],
        "distance": [{"type": "Melee", "value": 1, "value2": 0, "within": 0, "special": "", "qualifier": ""}],
        "target": "One creature",
        "cost": cost,
        "repeatable": False,
        "minLevel": 1,
        "sections": [
            {"type": "roll", "roll": {"characteristic": ["Might"], "bonus": 0, "tier1": "2 + M damage",
                                      "tier2": "4 + M damage", "tier3": "6 + M damage"}},
        ],
    }  # fmt: skip


def kit(
    name: str, stamina: int = 3, melee: tuple[int, int, int] | None = (1, 1, 2), **extra: Any
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": f"kit-{name.lower()}", "name": name, "description": "", "type": "", "armor": [], "weapon": [],
        "stamina": stamina, "speed": 0, "stability": 0, "disengage": 0,
        "meleeDistance": 0, "rangedDistance": 0,
        "meleeDamage": None if melee is None else dict(zip(("tier1", "tier2", "tier3"), melee, strict=True)),
        "rangedDamage": None, "features": [],
    }  # fmt: skip
    out.update(extra)
    return out


def hero(
    level: int = 1,
    class_features: list[dict[str, Any]] | None = None,
    characteristics: dict[str, int] | None = None,
    abilities: list[dict[str, Any]] | None = None,
    **top: Any,
) -> dict[str, Any]:
    """An invented level-`level` hero of the class Striker, with `class_features` at level 1."""
    scores = characteristics or {"Might": 2, "Agility": 1, "Reason": 0, "Intuition": 0, "Presence": -1}
    out: dict[str, Any] = {
        "id": "hero-vex",
        "name": "Vex",
        "picture": None,
        "folder": "",
        "ancestry": {"id": "ancestry-testfolk", "name": "Testfolk", "features": [], "ancestryPoints": 3},
        "culture": {"id": "culture-nowhere", "name": "Nowhere"},
        "career": {"id": "career-tester", "name": "Tester", "features": []},
        "class": {
            "id": "class-striker",
            "name": "Striker",
            "type": "standard",
            "featuresByLevel": [{"level": 1, "features": class_features or []}],
            "abilities": abilities or [],
            "subclasses": [],
            "level": level,
            "characteristics": [{"characteristic": c, "value": v} for c, v in scores.items()],
        },
        "complication": None,
        "features": [],
        "state": {"staminaDamage": 0, "staminaTemp": 0, "recoveriesUsed": 0, "victories": 0, "xp": 0,
                  "conditions": [], "inventory": [], "titles": []},
        "abilityCustomizations": [],
    }  # fmt: skip
    out.update(top)
    return out


def to_bytes(obj: Any) -> bytes:
    return json.dumps(obj, indent="\t").encode()
