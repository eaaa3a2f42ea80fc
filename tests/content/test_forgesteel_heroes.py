"""The Forge Steel hero import reproduces what Forge Steel itself computes for every fixture hero
(`expected-heroes.json`): characteristics, Stamina, winded and dead thresholds, Recoveries and recovery value,
stability, speed, size, potency, surge damage, heroic resources and their gains, kits and kit damage bonuses,
immunities and weaknesses, the choices left open, and every ability card ("Your import must
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
from tests.content.forgesteel_files import Reader, both, invented_bytes, real_bytes

_READ: dict[tuple[Reader, str], ImportedHero] = {}


def imported(read: Reader, file: str) -> ImportedHero:
    if (read, file) not in _READ:
        _READ[read, file] = read_hero(read(file))
    return _READ[read, file]


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
HEROES = "expected-heroes.json"
VALUE_CASES = both(HEROES, lambda e: [(f"{h['file']}:{k}", (h, k)) for h in e["heroes"] for k in KEYS])


@pytest.mark.parametrize(("read", "hero", "key"), VALUE_CASES)
def test_every_expected_value(read: Reader, hero: dict[str, Any], key: str) -> None:
    """Each value Forge Steel computes for the hero (its HeroLogic) is the import's."""
    assert ours(imported(read, hero["file"]))[key] == _want(hero, key)


@pytest.mark.parametrize(("read", "hero"), both(HEROES, lambda e: [(h["file"], (h,)) for h in e["heroes"]]))
def test_abilities_in_forge_steels_order(read: Reader, hero: dict[str, Any]) -> None:
    """The abilities are those Forge Steel lists, in its order (usage, signature then cost, name)."""
    got = [(a.id, a.source) for a in imported(read, hero["file"]).abilities]
    assert got == [(a["id"], a["source"]) for a in hero["abilities"]]


ABILITY_CASES = both(
    HEROES,
    lambda e: [
        (f"{h['file']}:{i}", (h["file"], i, a)) for h in e["heroes"] for i, a in enumerate(h["abilities"])
    ],
)


@pytest.mark.parametrize(("read", "file", "index", "want"), ABILITY_CASES)
def test_every_ability_card(read: Reader, file: str, index: int, want: dict[str, Any]) -> None:
    """Usage, keywords, distance, target, cost, trigger, power-roll characteristics and bonus, raw tier texts
    and every other section of each card."""
    found: HeroAbility = imported(read, file).abilities[index]
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
    """A `package` section shows the hero's Package Content features of its tag: Ysolde's Turning Palm shows
    her Riverform Mastery (selected subclass), not the unselected Stoneform's; Marra's Swear Against shows
    her Hearth domain's Hearth Vow (a domain's default feature)."""
    palm = next(
        a.card for a in imported(invented_bytes, "Ysolde.ds-hero").abilities if a.card.name == "Turning Palm"
    )
    assert "**Riverform Mastery:** You slide 1 square" in palm.effect
    assert "Stoneform" not in palm.effect and "knocked prone" not in palm.effect
    swear = next(
        a.card for a in imported(invented_bytes, "Marra.ds-hero").abilities if a.card.name == "Swear Against"
    )
    assert "**Hearth Vow:** An ally adjacent" in swear.effect


def test_real_package_sections() -> None:
    """Ashley's Inertial Shield shows her Metakinetic Mastery (selected subclass), not the unselected
    subclasses' masteries."""
    shield = next(
        a.card for a in imported(real_bytes, "Ashley.ds-hero").abilities if a.card.name == "Inertial Shield"
    )
    assert "**Metakinetic Mastery:**" in shield.effect
    assert "Cryokinetic" not in shield.effect and "Elemental Absorption" not in shield.effect  # level 6


@pytest.mark.parametrize(
    ("read", "file", "choice"),
    [
        pytest.param(invented_bytes, "Brannoc.ds-hero", "Cairn Sense", id="own"),
        pytest.param(real_bytes, "Keth.ds-hero", "Runic Carving", id="forgesteel"),
    ],
)
def test_an_open_choice_is_a_warning(read: Reader, file: str, choice: str) -> None:
    """ "The reply is the sheet the bot read, with warnings for what it couldn't use (a choice left open,
    …)"."""
    hero = imported(read, file)
    assert [w for w in hero.warnings if "left open" in w] == [
        f"{choice} ({hero.ancestry}) is a choice left open (chosen in play): the bot used nothing from it; "
        "choose it in Forge Steel and import again."
    ]
    assert all("\n" not in w for w in hero.warnings)


@pytest.mark.parametrize(
    ("read", "file"),
    [
        pytest.param(invented_bytes, "Ysolde.ds-hero", id="own:Ysolde"),
        pytest.param(invented_bytes, "Marra.ds-hero", id="own:Marra"),
        pytest.param(real_bytes, "Ashley.ds-hero", id="forgesteel:Ashley"),
        pytest.param(real_bytes, "Jennet.ds-hero", id="forgesteel:Jennet"),
    ],
)
def test_a_complete_hero_has_no_warnings(read: Reader, file: str) -> None:
    assert imported(read, file).warnings == ()


@pytest.mark.parametrize(("read", "hero"), both(HEROES, lambda e: [(h["file"], (h,)) for h in e["heroes"]]))
def test_an_import_round_trips_through_the_codec(read: Reader, hero: dict[str, Any]) -> None:
    """The store can keep an import as codec data (bot.rules.codec) and get the same value back."""
    found = imported(read, hero["file"])
    assert load(ImportedHero, to_data(found)) == found
