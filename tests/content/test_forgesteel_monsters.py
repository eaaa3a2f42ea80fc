"""Forge Steel monster, monster-group and encounter files: every value Forge Steel itself computes from the
fixtures (`expected-monsters.json`) is reproduced, and bad files are refused with one typed line."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.content.forgesteel.ability_json import format_distance
from bot.content.forgesteel.encounter import EncounterFile, EncounterSlot, read_encounter
from bot.content.forgesteel.files import (
    MAX_BYTES,
    BadValue,
    Fields,
    FileTooLarge,
    ForgeSteelError,
    Kind,
    NotJson,
    UnknownFormat,
    WrongKind,
    kind_of,
)
from bot.content.forgesteel.monster import read_monster, read_monster_group
from bot.content.monster import Monster, MonsterGroup, Organization
from bot.rules.ability import Ability, ActionType
from bot.rules.codec import load, to_data
from bot.rules.damage import ALL, DamageType
from bot.rules.stamina import Vitals
from tests.content.forgesteel_files import (
    INVENTED,
    Reader,
    both,
    check_card,
    invented_bytes,
    invented_expected,
    real_bytes,
)

MONSTERS = "expected-monsters.json"
LONE = both(MONSTERS, lambda e: [(m["file"], (m,)) for m in e["monsters"]])
MEMBERS = both(MONSTERS, lambda e: [(m["id"], (g, m)) for g in e["monsterGroups"] for m in g["monsters"]])
GROUPS = both(MONSTERS, lambda e: [(g["file"], (g,)) for g in e["monsterGroups"]])
ENCOUNTERS = both(MONSTERS, lambda e: [(e["encounter"]["file"], (e["encounter"], e["monsterGroups"][0]))])
OURS = invented_expected(MONSTERS)
GROUP_FILE = OURS["monsterGroups"][0]["file"]


def _power_roll_bonus(monster: Monster, ability: Ability) -> int:
    assert ability.power_roll is not None
    scores = [monster.characteristics.get(c) for c in ability.power_roll.characteristics]
    return ability.power_roll.bonus + max(scores, default=0)


def _check_ability(monster: Monster, ability: Ability, want: dict[str, Any]) -> None:
    check_card(ability, want)
    assert ability.trigger == (want.get("trigger") or "")
    if want["powerRoll"] is not None:
        assert _power_roll_bonus(monster, ability) == want["powerRoll"]["powerRollBonus"]
    for section in want["otherSections"]:
        assert (section.get("text") or section["effect"]) in ability.effect


def _check_monster(monster: Monster, want: dict[str, Any], *, group: str) -> None:
    assert monster.id == want["id"]
    assert monster.name == want["name"]
    assert monster.group == group
    assert monster.level == want["level"]
    assert monster.role == want["role"]
    assert monster.organization is Organization(want["organization"].lower())
    assert list(monster.keywords) == want["keywords"]
    assert monster.encounter_value == want["encounterValue"]
    assert monster.size == f"{want['size']['value']}{want['size']['mod']}"
    assert monster.speed == want["speed"]["value"]
    assert list(monster.movement) == want["speed"]["modes"]
    assert monster.stability == want["stability"]
    assert monster.stamina == want["staminaMax"]
    assert Vitals.fresh(monster.stamina).winded_value == want["windedThreshold"]
    assert monster.free_strike == want["freeStrikeDamage"]
    kind = want["freeStrikeType"].lower()
    assert monster.free_strike_type is (DamageType.UNTYPED if kind == "damage" else DamageType.parse(kind))
    assert monster.description == want["description"]
    assert monster.free_strike_distance == want["freeStrikeDistance"]
    assert monster.with_captain == (want.get("withCaptain") or "")
    assert {c: getattr(monster.characteristics, c) for c in want["characteristics"]} == want[
        "characteristics"
    ]
    assert [(m.dtype, m.value) for m in monster.modifiers.immunities] == [
        (i["damageType"].lower(), i["value"]) for i in want["immunities"]
    ]
    assert [(m.dtype, m.value) for m in monster.modifiers.weaknesses] == [
        (w["damageType"].lower(), w["value"]) for w in want["weaknesses"]
    ]
    assert list(monster.condition_immunities) == want["conditionImmunities"]
    assert [(t.name, t.kind, t.text) for t in monster.traits] == [
        (t["name"], t["type"], t["description"]) for t in want["traits"]
    ]
    assert len(monster.abilities) == len(want["abilities"])
    for ability, want_ability in zip(monster.abilities, want["abilities"], strict=True):
        _check_ability(monster, ability, want_ability)


@pytest.mark.parametrize(("read", "want"), LONE)
def test_lone_monster_matches_forge_steel(read: Reader, want: dict[str, Any]) -> None:
    """ "A monster's Stamina is its `stamina` plus its Bonus features. Its immunities and
    weaknesses come from the 'Damage Modifier' features. Its free strike, organization ..., characteristics,
    encounter value and abilities are read too." A lone file carries no group name."""
    _check_monster(read_monster(read(want["file"])), want, group="")


@pytest.mark.parametrize(("read", "group", "want"), MEMBERS)
def test_group_member_matches_forge_steel(read: Reader, group: dict[str, Any], want: dict[str, Any]) -> None:
    """ "Monsters from a group keep their group's name"."""
    (monster,) = [m for m in read_monster_group(read(group["file"])).monsters if m.id == want["id"]]
    _check_monster(monster, want, group=group["name"])


@pytest.mark.parametrize(("read", "want"), GROUPS)
def test_group_malice_and_information(read: Reader, want: dict[str, Any]) -> None:
    group = read_monster_group(read(want["file"]))
    assert group.id == want["id"]
    assert group.name == want["name"]
    assert len(group.monsters) == want["monsterCount"]
    assert [(a.name, a.cost) for a in group.malice] == [(m["name"], m["cost"]) for m in want["malice"]]
    assert all(a.effect for a in group.malice)
    assert [i.name for i in group.information] == want["information"]


@pytest.mark.parametrize(
    ("read", "file", "villain_actions", "immunity", "costly"),
    [
        pytest.param(
            invented_bytes, "Cinder Wyrm.ds-monster", ["Ember Rain", "Smoke Veil", "Cinder Storm"],
            DamageType.FIRE, "Ashen Mantle", id="own",
        ),
        pytest.param(
            real_bytes, "Thorn Dragon.ds-monster", ["Briar Bindings", "Thorned Armor", "Malign Thicket"],
            DamageType.POISON, "Investiture of Verdure", id="forgesteel",
        ),
    ],
)  # fmt: skip
def test_solo_has_villain_actions_and_an_immunity(
    read: Reader, file: str, villain_actions: list[str], immunity: DamageType, costly: str
) -> None:
    solo = read_monster(read(file))
    assert solo.organization is Organization.SOLO
    assert [a.name for a in solo.villain_actions] == villain_actions
    assert solo.modifiers.immunities[0].applies_to(immunity)
    assert [a.cost for a in solo.abilities if a.name == costly] == [5]


def test_a_leaders_villain_actions() -> None:
    (matriarch,) = [m for m in read_monster_group(invented_bytes(GROUP_FILE)).monsters if m.id == "bogling-6"]
    assert matriarch.organization is Organization.LEADER
    assert [a.name for a in matriarch.villain_actions] == ["Sound the Horn", "Rally the Bog", "Drown Them!"]


@pytest.mark.xfail(strict=True, reason="the importer drops a Malice feature's power-roll section")
def test_a_malice_features_power_roll_is_kept() -> None:
    """Marsh Gas's sections are a text and a power roll (`{characteristic, bonus, tier1..tier3}`): the roll's
    outcomes are what the feature does, so they must reach the card (nothing is dropped in silence)."""
    (marsh_gas,) = [a for a in read_monster_group(invented_bytes(GROUP_FILE)).malice if a.name == "Marsh Gas"]
    shown = " ".join((marsh_gas.effect, *(marsh_gas.power_roll.tiers if marsh_gas.power_roll else ())))
    assert "4 poison damage; dazed (save ends)" in shown and "Dazed (EoT)." in shown


@pytest.mark.parametrize(("read", "want", "group"), ENCOUNTERS)
def test_encounter_slots(read: Reader, want: dict[str, Any], group: dict[str, Any]) -> None:
    """ "`/encounter import file:` takes a `.ds-encounter`. Its slots name monsters by id"."""
    encounter = read_encounter(read(want["file"]))
    assert encounter.name == want["name"]
    ids = tuple(slot["monsterID"] for g in want["groups"] for slot in g["slots"])
    assert [(s.monster_id, s.count) for s in encounter.slots] == [
        (slot["monsterID"], slot["count"]) for g in want["groups"] for slot in g["slots"]
    ]
    assert encounter.monster_ids == ids
    assert encounter.missing(set(ids[1:3])) == (ids[0], *ids[3:])
    by_id = {m.id: m for m in read_monster_group(read(group["file"])).monsters}
    total = sum(s.creatures(by_id[s.monster_id].organization) for s in encounter.slots)
    assert total == want["monsterCount"]


def test_our_encounter_names_the_boglings() -> None:
    encounter = read_encounter(invented_bytes("Bog Ambush.ds-encounter"))
    assert encounter.monster_ids == ("bogling-3", "bogling-1", "bogling-2", "bogling-5")
    assert encounter.missing({"bogling-1", "bogling-2"}) == ("bogling-3", "bogling-5")


@pytest.mark.parametrize(
    ("slot", "organization", "creatures"),
    [
        (EncounterSlot("m", 2), Organization.MINION, 8),
        (EncounterSlot("m", 1, minion_adjustment=-1), Organization.MINION, 3),
        (EncounterSlot("m", 2, minion_adjustment=4), Organization.HORDE, 2),
        (EncounterSlot("m", 1), Organization.SOLO, 1),
    ],
)
def test_slot_creatures(slot: EncounterSlot, organization: Organization, creatures: int) -> None:
    assert slot.creatures(organization) == creatures


@pytest.mark.parametrize(("read", "want"), GROUPS)
def test_stat_block_round_trips_through_the_codec(read: Reader, want: dict[str, Any]) -> None:
    """The bestiary stores stat blocks through `bot.rules.codec`."""
    for monster in read_monster_group(read(want["file"])).monsters:
        assert load(Monster, to_data(monster)) == monster


@pytest.mark.parametrize(("read", "want"), LONE)
def test_a_lone_stat_block_round_trips_through_the_codec(read: Reader, want: dict[str, Any]) -> None:
    monster = read_monster(read(want["file"]))
    assert load(Monster, to_data(monster)) == monster


# --- small invented files for the edge cases ------------------------------------------------------------
def _monster_json(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "test-1",
        "name": "Bramble Imp",
        "level": 4,
        "role": {"type": "Hexer", "organization": "Platoon"},
        "keywords": ["Fey"],
        "encounterValue": 12,
        "size": {"value": 1, "mod": "T"},
        "speed": {"value": 5, "modes": ["fly"]},
        "stamina": 40,
        "stability": 0,
        "freeStrikeDamage": 4,
        "freeStrikeType": "Damage",
        "characteristics": [
            {"characteristic": "Might", "value": 1},
            {"characteristic": "Reason", "value": 2},
        ],
        "features": [],
    }
    base.update(changes)
    return base


def _bytes(obj: Any) -> bytes:
    return json.dumps(obj).encode()


def _feature(kind: str, data: Any, name: str = "F") -> dict[str, Any]:
    return {"id": name, "name": name, "description": "", "type": kind, "data": data}


def test_bonus_features_raise_stamina_stability_speed_and_free_strike() -> None:
    """ "A monster's Stamina is its `stamina` plus its Bonus features" (a value, per level, per
    echelon, characteristic multipliers)."""
    bonus = {
        "valueCharacteristics": [],
        "valueCharacteristicMultiplier": 1,
        "valuePerLevel": 0,
        "valuePerEchelon": 0,
    }
    features = [
        _feature("Bonus", {**bonus, "field": "Stamina", "value": 5, "valuePerLevel": 2}),  # 5 + 2*3
        _feature("Bonus", {**bonus, "field": "Stamina", "value": 0, "valuePerEchelon": 3}),  # echelon 2: 6
        _feature(
            "Bonus",
            {
                **bonus,
                "field": "Stamina",
                "value": 1,
                "valueCharacteristics": ["Might", "Reason"],
                "valueCharacteristicMultiplier": 2,
            },
        ),  # 1 + 2*2
        _feature(
            "Multiple Features",
            {"features": [_feature("Bonus", {**bonus, "field": "Stability", "value": 2})]},
        ),
        _feature(
            "Choice",
            {"options": [], "selected": [_feature("Bonus", {**bonus, "field": "Speed", "value": 1})]},
        ),
        _feature("Bonus", {**bonus, "field": "Free Strike Damage", "value": 1}),
        _feature("Characteristic Bonus", {"characteristic": "Agility", "value": 1}),
        _feature("Bonus", {**bonus, "field": "Stamina", "value": 9, "valueFromController": "Level"}),
    ]
    monster = read_monster(_bytes(_monster_json(features=features)))
    assert monster.stamina == 40 + 11 + 6 + 5
    assert (monster.stability, monster.speed, monster.free_strike) == (2, 6, 5)
    assert monster.characteristics.agility == 1


def test_damage_modifiers_net_immunity_against_weakness() -> None:
    """ "Its immunities and weaknesses come from the 'Damage Modifier' features"."""

    def dm(kind: str, dtype: str, value: int) -> dict[str, Any]:
        return {
            "damageType": dtype,
            "type": kind,
            "value": value,
            "valueCharacteristics": [],
            "valuePerLevel": 0,
        }

    modifiers = [
        dm("Immunity", "Fire", 5),
        dm("Immunity", "Fire", 3),
        dm("Weakness", "Fire", 2),
        dm("Weakness", "Holy", 4),
        dm("Immunity", "Damage", 2),
    ]
    monster = read_monster(
        _bytes(_monster_json(features=[_feature("Damage Modifier", {"modifiers": modifiers})]))
    )
    assert [(m.dtype, m.value) for m in monster.modifiers.immunities] == [(ALL, 2), ("fire", 3)]
    assert [(m.dtype, m.value) for m in monster.modifiers.weaknesses] == [("holy", 4)]


@pytest.mark.parametrize(
    ("changes", "organization", "free_strike_type", "movement"),
    [
        (
            {"role": {"type": "Brute", "organization": "Band"}},
            Organization.HORDE,
            DamageType.UNTYPED,
            ("fly",),
        ),
        (
            {"role": {"type": "Brute", "organization": "Troop"}},
            Organization.ELITE,
            DamageType.UNTYPED,
            ("fly",),
        ),
        ({"role": {"type": "Brute"}}, Organization.PLATOON, DamageType.UNTYPED, ("fly",)),
        ({"freeStrikeType": "Fire"}, Organization.PLATOON, DamageType.FIRE, ("fly",)),
        ({"speed": {"value": 5, "modes": "burrow"}}, Organization.PLATOON, DamageType.UNTYPED, ("burrow",)),
    ],
)
def test_older_files(
    changes: dict[str, Any],
    organization: Organization,
    free_strike_type: DamageType,
    movement: tuple[str, ...],
) -> None:
    """Older exports are read as Forge Steel's own updater reads them (Band → Horde, Troop → Elite, no
    organization → Platoon, speed modes as one string)."""
    monster = read_monster(_bytes(_monster_json(**changes)))
    assert (monster.organization, monster.free_strike_type, monster.movement) == (
        organization,
        free_strike_type,
        movement,
    )


def test_older_ability_fields_without_sections() -> None:
    ability = {
        "id": "a",
        "name": "Thorn Lash",
        "type": {"usage": "Action", "free": False, "trigger": ""},
        "keywords": ["Melee", "Strike"],
        "distance": [{"type": "Melee", "value": 2, "value2": 0, "within": 0, "special": "", "qualifier": ""}],
        "target": "One creature",
        "cost": 2,
        "preEffect": "Before.",
        "powerRoll": {
            "characteristic": ["Might"],
            "bonus": 0,
            "tier1": "3 damage",
            "tier2": "5 damage",
            "tier3": "7 damage",
        },
        "effect": "After.",
        "spend": [{"value": 1, "effect": "Push 1 more."}],
    }
    monster = read_monster(_bytes(_monster_json(features=[_feature("Ability", {"ability": ability})])))
    (read,) = monster.abilities
    assert read.action is ActionType.MAIN
    assert read.cost == 2
    assert read.distance == "Melee 2"
    assert read.power_roll is not None and read.power_roll.tiers == ("3 damage", "5 damage", "7 damage")
    assert read.effect == "Before.\n\nAfter.\n\n**Spend 1:** Push 1 more."


def test_a_levelled_retainer() -> None:
    """A retainer levelled from 4 to 7 is level 7, has 27 more Stamina, 2 more free-strike damage (level 6)
    and the features of levels up to 7, not those of level 8."""
    gained = _feature("Characteristic Bonus", {"characteristic": "Might", "value": 1})
    later = _feature("Characteristic Bonus", {"characteristic": "Might", "value": 5})
    retainer = {
        "level": 7,
        "featuresByLevel": [{"level": 5, "feature": gained}, {"level": 8, "feature": later}],
    }
    role = {"type": "Brute", "organization": "Retainer"}
    monster = read_monster(_bytes(_monster_json(role=role, retainer=retainer)))
    assert (monster.level, monster.stamina, monster.free_strike) == (7, 40 + 27, 4 + 2)
    assert monster.characteristics.might == 2
    assert monster.description == "Level 7 Brute Retainer"
    unlevelled = read_monster(_bytes(_monster_json(role=role, retainer={"level": 0, "featuresByLevel": []})))
    assert (unlevelled.level, unlevelled.stamina) == (4, 40)


def test_a_group_member_without_a_name_takes_the_group_and_role() -> None:
    group = {
        "id": "g",
        "name": "Thornkin",
        "malice": [],
        "monsters": [_monster_json(name="")],
        "information": [],
    }
    (monster,) = read_monster_group(_bytes(group)).monsters
    assert monster.name == "Thornkin Hexer"
    assert monster.group == "Thornkin"


HERO = {"id": "h", "name": "Vex", "ancestry": {}, "culture": {}, "class": {}, "career": {}, "features": []}
ENCOUNTER = {"id": "e", "name": "Ambush", "groups": [], "terrain": []}


def test_each_kind_has_its_file_ending_and_its_import_command() -> None:
    endings = {path.suffix: kind_of(json.loads(path.read_bytes())) for path in INVENTED.glob("*.ds-*")}
    assert endings == {kind.extension: kind for kind in Kind if kind is not Kind.SOURCEBOOK}
    assert Kind.SOURCEBOOK.extension == ".ds-sourcebook"
    assert [kind.command for kind in Kind] == [
        "/hero import",
        "/monster import",
        "/monster import",  # a monster group
        "/encounter import",
        "/negotiation import",
        "/montage import",
        "",  # none for a sourcebook
    ]


@pytest.mark.parametrize(
    ("read", "data", "error", "says"),
    [
        (read_monster, b"x" * (MAX_BYTES + 1), FileTooLarge, "over 2 MB"),
        (read_monster, b"\x89PNG\r\n", NotJson, "isn't JSON"),
        (read_monster, b"{not json", NotJson, "isn't JSON"),
        (read_monster, b"[1, 2]", WrongKind, "isn't a Forge Steel export"),
        (read_monster, _bytes(HERO), WrongKind, "hero (use /hero import"),
        (read_monster_group, _bytes(_monster_json()), WrongKind, "monster (use /monster import"),
        (read_encounter, _bytes(_monster_json()), WrongKind, "`.ds-encounter`"),
        (read_monster, _bytes(ENCOUNTER), WrongKind, "encounter (use /encounter import"),
        (read_monster, _bytes({"id": "x", "title": "?"}), UnknownFormat, "format"),
        (read_monster, _bytes(_monster_json(stamina="forty")), UnknownFormat, "`stamina`"),
        (
            read_monster,
            _bytes(_monster_json(role={"type": "Brute", "organization": "Swarm"})),
            UnknownFormat,
            "Swarm",
        ),
        (
            read_monster,
            _bytes(
                _monster_json(features=[_feature("Ability", {"ability": {"type": {"usage": "Reaction"}}})])
            ),
            UnknownFormat,
            "Reaction",
        ),
        (
            read_monster,
            _bytes(_monster_json(characteristics=[{"characteristic": "Might", "value": 40}])),
            BadValue,
            "out of range",
        ),
        (read_monster, _bytes(_monster_json(stamina=0)), BadValue, "Stamina must be at least 1"),
        (read_monster, _bytes(_monster_json(stability=-2)), BadValue, "stability can't be less than 0"),
        (read_monster, _bytes(_monster_json(level=99)), BadValue, "level must be from 0 to 20"),
    ],
)
def test_bad_files_are_refused_in_one_line(
    read: Any, data: bytes, error: type[ForgeSteelError], says: str
) -> None:
    """ "a file over 2 MB, not JSON, JSON of the wrong kind (a monster given to `/hero import`),
    or an unknown newer format each get a one-line refusal that says what to upload instead"."""
    with pytest.raises(error) as raised:
        read(data)
    message = str(raised.value)
    assert says in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("distance", "text"),
    [
        ({"type": "Melee", "value": 1}, "Melee 1"),
        ({"type": "Ranged", "value": 10}, "Ranged 10"),
        ({"type": "Aura", "value": 2}, "Aura 2"),
        ({"type": "Burst", "value": 4}, "4 Burst"),
        ({"type": "Cube", "value": 3, "within": 15}, "3 Cube within 15"),
        ({"type": "Line", "value": 10, "value2": 1, "within": 1}, "10 x 1 Line within 1"),
        ({"type": "Wall", "value": 10, "within": 10}, "10 Wall within 10"),
        ({"type": "Self"}, "Self"),
        ({"type": "Self", "qualifier": "mounted"}, "Self (mounted)"),
        ({"type": "Special", "special": "Self; see below"}, "Self; see below"),
        ({"type": "Special"}, "Special"),
        ({"type": "Summoner"}, "Summoner Range"),
    ],
)
def test_distances_as_forge_steel_shows_them(distance: dict[str, Any], text: str) -> None:
    assert format_distance(Fields(distance, "distance")) == text


@pytest.mark.parametrize(
    ("organization", "role", "description"),
    [
        (Organization.MINION, "Artillery", "Level 3 Minion Artillery"),
        (Organization.SOLO, "No Role", "Level 3 Solo"),
        (Organization.NONE, "Brute", "Level 3 Brute"),
        (Organization.NONE, "No Role", "Level 3"),
        (Organization.RETAINER, "Brute", "Level 3 Brute Retainer"),
    ],
)
def test_description(organization: Organization, role: str, description: str) -> None:
    monster = Monster(id="m", name="M", level=3, organization=organization, stamina=10, role=role)
    assert monster.description == description


WRONG_KINDS = [
    (read_monster, "hero", "Forge Steel hero (use /hero import for it)"),
    (read_monster, "group", "monster group (use /monster import"),
    (read_monster_group, "monster", "Forge Steel monster (use /monster import"),
    (read_encounter, "group", "upload a `.ds-encounter` file"),
    (read_monster_group, "encounter", "encounter (use /encounter import"),
]
FILES = {
    "own": {"hero": "Brannoc.ds-hero", "group": GROUP_FILE, "monster": "Bogling Slinger.ds-monster",
            "encounter": "Bog Ambush.ds-encounter"},
    "forgesteel": {"hero": "Keth.ds-hero", "group": "Goblin.ds-monster-group",
                   "monster": "Goblin Sniper.ds-monster", "encounter": "Goblin Ambush.ds-encounter"},
}  # fmt: skip


@pytest.mark.parametrize(
    ("read", "suite"),
    [pytest.param(invented_bytes, "own", id="own"), pytest.param(real_bytes, "forgesteel", id="forgesteel")],
)
@pytest.mark.parametrize(
    ("reader", "kind", "says"), WRONG_KINDS, ids=[f"{k}-to-{r.__name__}" for r, k, _ in WRONG_KINDS]
)
def test_exports_of_the_wrong_kind(read: Reader, suite: str, reader: Any, kind: str, says: str) -> None:
    """ "JSON of the wrong kind (a monster given to `/hero import`)" is refused in one line."""
    with pytest.raises(WrongKind, match=re.escape(says)):
        reader(read(FILES[suite][kind]))


@pytest.mark.parametrize(("read", "want", "group"), ENCOUNTERS)
def test_group_and_encounter_round_trip_through_the_codec(
    read: Reader, want: dict[str, Any], group: dict[str, Any]
) -> None:
    found = read_monster_group(read(group["file"]))
    assert load(MonsterGroup, to_data(found)) == found
    encounter = read_encounter(read(want["file"]))
    assert load(EncounterFile, to_data(encounter)) == encounter
