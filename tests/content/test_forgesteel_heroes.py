"""The Forge Steel hero import reproduces what Forge Steel itself computes for every fixture hero
(`expected-heroes.json`): characteristics, Stamina, winded and dead thresholds, Recoveries and recovery value,
stability, speed, size, potency, surge damage, heroic resources and their gains, kits and kit damage bonuses,
immunities and weaknesses, the choices left open, and every ability card (issue 20 §4: "Your import must
reproduce every value for every fixture")."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.content.forgesteel.hero import ImportedHero, read_hero
from bot.content.forgesteel.hero_abilities import HeroAbility
from bot.rules.ability import ActionType
from bot.rules.codec import load, to_data
from bot.rules.damage import DamageModifier
from tests.content.forgesteel_files import expected, fixture_bytes

HEROES: list[dict[str, Any]] = expected("expected-heroes.json")["heroes"]
_READ: dict[str, ImportedHero] = {}


def imported(file: str) -> ImportedHero:
    if file not in _READ:
        _READ[file] = read_hero(fixture_bytes(file))
    return _READ[file]


def _modifiers(found: tuple[DamageModifier, ...]) -> list[dict[str, Any]]:
    return [{"damageType": m.dtype, "value": m.value} for m in found]


def _expected_modifiers(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Forge Steel's `{damageType: Poison, value: 5}`, keyed as the bot keys damage (`Damage` is all)."""
    keyed = [
        {"damageType": "all" if m["damageType"] == "Damage" else m["damageType"].lower(), "value": m["value"]}
        for m in found
    ]
    return sorted(keyed, key=lambda m: str(m["damageType"]))


def _kit(kit: Any) -> dict[str, Any]:
    def tiers(t: tuple[int, int, int] | None) -> dict[str, int] | None:
        return None if t is None else {"tier1": t[0], "tier2": t[1], "tier3": t[2]}

    return {
        "name": kit.name,
        "stamina": kit.stamina,
        "speed": kit.speed,
        "stability": kit.stability,
        "disengage": kit.disengage,
        "meleeDistance": kit.melee_distance,
        "rangedDistance": kit.ranged_distance,
        "meleeDamage": tiers(kit.melee_damage),
        "rangedDamage": tiers(kit.ranged_damage),
    }


def ours(hero: ImportedHero) -> dict[str, Any]:
    """The import in `expected-heroes.json`'s shape."""
    resource = hero.heroic_resource
    return {
        "id": hero.forge_steel_id,
        "name": hero.name,
        "level": hero.level,
        "echelon": hero.echelon,
        "ancestry": hero.ancestry,
        "culture": hero.culture,
        "career": hero.career,
        "class": hero.class_name,
        "subclass": hero.subclass,
        "complication": hero.complication or None,
        "characteristics": {c: getattr(hero.characteristics, c) for c in hero.characteristics.__slots__},
        "staminaMax": hero.stamina,
        "windedThreshold": hero.winded,
        "deadThreshold": hero.dead,
        "recoveries": hero.recoveries,
        "recoveryValue": hero.recovery_value,
        "size": {"value": hero.size.value, "mod": hero.size.mod},
        "speed": {"value": hero.speed, "modes": list(hero.movement)},
        "stability": hero.stability,
        "disengage": hero.disengage,
        "saveThreshold": hero.save_threshold,
        "potency": dataclasses.asdict(hero.potency),
        "surgeDamage": hero.surge_damage,
        "heroicResource": resource.name if resource is not None else None,
        "heroicResources": [
            {
                "name": r.name,
                "type": "epic" if r.epic else "heroic",
                "gains": [{"trigger": g.trigger, "value": g.value} for g in r.gains],
            }
            for r in hero.resources
        ],
        "kits": [_kit(k) for k in hero.kits],
        "kitDamageBonuses": [
            {
                "name": b.name,
                "type": b.reach.value,
                **dict(zip(("tier1", "tier2", "tier3"), b.tiers, strict=True)),
            }
            for b in hero.kit_damage_bonuses
        ],
        "immunities": _modifiers(hero.modifiers.immunities),
        "weaknesses": _modifiers(hero.modifiers.weaknesses),
        "conditionImmunities": list(hero.condition_immunities),
        "skills": list(hero.skills),
        "languages": list(hero.languages),
        "perks": list(hero.perks),
        "unchosenChoicesRemaining": [
            {"id": c.id, "name": c.name, "type": c.kind, "selectAt": c.select_at} for c in hero.open_choices
        ],
    }


def _want(hero: dict[str, Any], key: str) -> Any:
    value = hero[key]
    if key in ("immunities", "weaknesses"):
        return _expected_modifiers(value)
    if key == "unchosenChoicesRemaining":
        return [{k: c[k] for k in ("id", "name", "type", "selectAt")} for c in value]
    return value


KEYS = [
    "id", "name", "level", "echelon", "ancestry", "culture", "career", "class", "subclass", "complication",
    "characteristics", "staminaMax", "windedThreshold", "deadThreshold", "recoveries", "recoveryValue",
    "size", "speed", "stability", "disengage", "saveThreshold", "potency", "surgeDamage", "heroicResource",
    "heroicResources", "kits", "kitDamageBonuses", "immunities", "weaknesses", "conditionImmunities",
    "skills", "languages", "perks", "unchosenChoicesRemaining",
]  # fmt: skip
VALUE_CASES = [(h["file"], key) for h in HEROES for key in KEYS]


@pytest.mark.parametrize(("file", "key"), VALUE_CASES, ids=[f"{f}:{k}" for f, k in VALUE_CASES])
def test_every_expected_value(file: str, key: str) -> None:
    """Each value Forge Steel computes for the hero (its HeroLogic) is the import's."""
    hero = next(h for h in HEROES if h["file"] == file)
    assert ours(imported(file))[key] == _want(hero, key)


@pytest.mark.parametrize("file", [h["file"] for h in HEROES])
def test_abilities_in_forge_steels_order(file: str) -> None:
    """The abilities are those Forge Steel lists, in its order (usage, signature then cost, name)."""
    hero = next(h for h in HEROES if h["file"] == file)
    got = [(a.id, a.source) for a in imported(file).abilities]
    assert got == [(a["id"], a["source"]) for a in hero["abilities"]]


ABILITY_CASES = [(h["file"], i) for h in HEROES for i in range(len(h["abilities"]))]


@pytest.mark.parametrize(("file", "index"), ABILITY_CASES, ids=[f"{f}:{i}" for f, i in ABILITY_CASES])
def test_every_ability_card(file: str, index: int) -> None:
    """Usage, keywords, distance, target, cost, trigger, power-roll characteristics and bonus, raw tier texts
    and every other section of each card."""
    want = next(h for h in HEROES if h["file"] == file)["abilities"][index]
    found: HeroAbility = imported(file).abilities[index]
    card = found.card
    assert (found.id, found.source, card.name) == (want["id"], want["source"], want["name"])
    assert card.action is ActionType.from_text(want["usage"], free=want["free"])
    assert list(card.keywords) == want["keywords"]
    assert card.distance == " or ".join(want["distance"])
    assert card.target == want["target"]
    assert ("signature" if card.signature else card.cost) == want["cost"]
    assert card.trigger == want.get("trigger", "")
    roll = want["powerRoll"]
    if roll is None:
        assert card.power_roll is None
    else:
        assert card.power_roll is not None
        assert [c.value.title() for c in card.power_roll.characteristics] == roll["characteristics"]
        assert card.power_roll.bonus == roll["statedBonus"]
        assert card.power_roll.tiers == (roll["tier1"], roll["tier2"], roll["tier3"])
    for section in want["otherSections"]:
        if section["type"] != "package":
            assert (section.get("text") or section["effect"]) in card.effect


def test_package_sections_show_the_heroes_package_content() -> None:
    """A `package` section shows the hero's Package Content features of its tag: Ashley's Inertial Shield
    shows her Metakinetic Mastery (selected subclass), not the unselected subclasses' masteries."""
    shield = next(a.card for a in imported("Ashley.ds-hero").abilities if a.card.name == "Inertial Shield")
    assert "**Metakinetic Mastery:**" in shield.effect
    assert "Cryokinetic" not in shield.effect and "Elemental Absorption" not in shield.effect  # level 6


def test_keths_open_choice_is_a_warning() -> None:
    """ "The reply is the sheet the bot read, with warnings for what it couldn't use (a choice left open,
    …)"."""
    hero = imported("Keth.ds-hero")
    assert any("Runic Carving" in w and "left open" in w for w in hero.warnings)
    assert all("\n" not in w for w in hero.warnings)


@pytest.mark.parametrize("file", ["Ashley.ds-hero", "Jennet.ds-hero"])
def test_a_complete_hero_has_no_warnings(file: str) -> None:
    assert imported(file).warnings == ()


@pytest.mark.parametrize("file", [h["file"] for h in HEROES])
def test_an_import_round_trips_through_the_codec(file: str) -> None:
    """The store can keep an import as codec data (bot.rules.codec) and get the same value back."""
    hero = imported(file)
    assert load(ImportedHero, to_data(hero)) == hero
