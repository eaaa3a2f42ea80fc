"""The hero import's rules on small invented heroes: Bonus values, kits, which features count, older files,
warnings for what couldn't be used, and the one-line refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.content.forgesteel.files import (
    BadValue,
    FileTooLarge,
    ForgeSteelError,
    NotJson,
    UnknownFormat,
    WrongKind,
)
from bot.content.forgesteel.hero import read_hero
from bot.content.forgesteel.hero_sheet import to_sheet
from bot.rules.ability import ActionType
from bot.rules.damage import DamageModifier
from tests.content.forgesteel_files import invented_bytes, real_bytes
from tests.content.forgesteel_hero_kit import ability, bonus, feature, hero, kit, to_bytes

M2_A1 = {"Might": 2, "Agility": 1, "Reason": 0, "Intuition": 3, "Presence": -1}

BONUS_CASES = [
    # (what, the Stamina Bonus feature, level, expected maximum Stamina)
    ("a value", bonus("Stamina", 21, valuePerLevel=9), 1, 21),
    ("plus per level above 1", bonus("Stamina", 21, valuePerLevel=9), 5, 57),
    ("per echelon, echelon 2", bonus("Stamina", 0, valuePerEchelon=6), 4, 12),
    ("per echelon, echelon 4", bonus("Stamina", 0, valuePerEchelon=6), 10, 24),
    (
        "highest characteristic times 2",
        bonus("Stamina", 1, valueCharacteristics=["Might", "Agility"], valueCharacteristicMultiplier=2),
        1,
        5,
    ),
    (
        "multiplier 0 counts as 1",
        bonus("Stamina", 1, valueCharacteristics=["Intuition"], valueCharacteristicMultiplier=0),
        1,
        4,
    ),
]


@pytest.mark.parametrize(
    ("what", "stamina_bonus", "level", "want"), BONUS_CASES, ids=[c[0] for c in BONUS_CASES]
)
def test_bonus_values(what: str, stamina_bonus: dict[str, Any], level: int, want: int) -> None:
    """A Bonus is its value, plus the highest of its characteristics times the multiplier, plus per level
    above 1, plus per echelon; winded at half, dead at its negative, recovery value a third."""
    found = read_hero(to_bytes(hero(level, [stamina_bonus], M2_A1)))
    assert found.stamina == want
    assert (found.winded, found.dead, found.recovery_value) == (want // 2, -(want // 2), want // 3)


def test_recoveries_and_recovery_value_bonuses() -> None:
    found = read_hero(
        to_bytes(hero(1, [bonus("Stamina", 30), bonus("Recoveries", 8), bonus("Recovery Value", 2)]))
    )
    assert (found.recoveries, found.recovery_value) == (8, 12)


def test_the_best_kit_counts_per_echelon() -> None:
    """Stamina: the best kit's Stamina times the echelon; speed and stability the best kit's."""
    kits = feature(
        "Kit", "Kit", types=[""], count=2, selected=[kit("Brick", 3, speed=1), kit("Wall", 6, stability=2)]
    )
    found = read_hero(to_bytes(hero(4, [bonus("Stamina", 10), kits])))
    assert found.stamina == 10 + 6 * 2
    assert (found.speed, found.stability, found.disengage) == (6, 2, 1)
    assert [k.name for k in found.kit_damage_bonuses] == ["Brick / Wall"]


def test_only_chosen_and_reached_features_count() -> None:
    """A Choice's selected option counts, an unselected one doesn't; features above the class level and
    those of an unselected subclass don't."""
    sturdy = feature("Multiple Features", "Sturdy", features=[bonus("Stability", 1)])
    frail = bonus("Stability", 5)
    choice = feature(
        "Choice",
        "Pick",
        count=1,
        options=[{"feature": sturdy, "value": 1}, {"feature": frail, "value": 1}],
        selected=[sturdy],
    )
    data = hero(1, [bonus("Stamina", 20), choice])
    data["class"]["featuresByLevel"].append({"level": 2, "features": [bonus("Stability", 10)]})
    data["class"]["subclasses"] = [
        {
            "id": "sub-a",
            "name": "Chosen",
            "selected": True,
            "abilities": [],
            "featuresByLevel": [{"level": 1, "features": [bonus("Speed", 1)]}],
        },
        {
            "id": "sub-b",
            "name": "Other",
            "selected": False,
            "abilities": [],
            "featuresByLevel": [{"level": 1, "features": [bonus("Speed", 7)]}],
        },
    ]
    found = read_hero(to_bytes(data))
    assert (found.stability, found.speed, found.subclass) == (1, 6, "Chosen")
    assert found.open_choices == ()


def test_an_open_choice_spends_ancestry_points() -> None:
    """A `count: "ancestry"` Choice is open while an unpicked option still fits the ancestry points."""
    cheap = feature("Text", "Cheap")
    dear = feature("Text", "Dear")
    traits = feature(
        "Choice",
        "Traits",
        count="ancestry",
        options=[{"feature": cheap, "value": 1}, {"feature": dear, "value": 2}],
        selected=[cheap],
    )
    data = hero(1, [bonus("Stamina", 20)])
    data["ancestry"]["features"] = [traits]
    assert [c.name for c in read_hero(to_bytes(data)).open_choices] == ["Traits"]
    data["ancestry"]["ancestryPoints"] = 1
    assert read_hero(to_bytes(data)).open_choices == ()


def test_older_drawsteel_hero_shape() -> None:
    """An older `.drawsteel-hero`: the resource named on the class, Bonus features without characteristic or
    echelon parts, an ability with `powerRoll`/`effect` instead of sections, a Class Ability without
    `source`, the resource's value in `state.heroicResource`."""
    old_ability = ability("striker-1", "Old Swing")
    del old_ability["sections"]
    old_ability["type"] = {"usage": "Action", "free": False, "trigger": ""}
    old_ability["powerRoll"] = {
        "characteristic": ["Might"],
        "tier1": "2 + M",
        "tier2": "5 + M",
        "tier3": "7 + M",
    }
    old_ability["effect"] = "A swing of old."
    old_bonus = {
        "id": "b",
        "name": "Stamina",
        "description": "",
        "type": "Bonus",
        "data": {"field": "Stamina", "value": 18, "valuePerLevel": 6},
    }
    pick = {
        "id": "p",
        "name": "Signature",
        "description": "",
        "type": "Class Ability",
        "data": {"cost": "signature", "count": 1, "selectedIDs": ["striker-1"]},
    }
    data = hero(2, [old_bonus, pick], abilities=[old_ability])
    data["class"]["heroicResource"] = "Grit"
    data["state"] = {"staminaDamage": 5, "recoveriesUsed": 1, "victories": 2, "heroicResource": 4}
    found = read_hero(to_bytes(data))
    assert found.stamina == 24
    assert found.heroic_resource is not None and found.heroic_resource.name == "Grit"
    assert found.state.heroic_resource == 4
    card = found.abilities[0].card
    assert (card.name, card.action, card.effect) == ("Old Swing", ActionType.MAIN, "A swing of old.")


def test_damage_modifiers_largest_per_type() -> None:
    """A hero's immunities and weaknesses: per damage type the largest of each; `Damage` is all damage; one
    worth 0 is listed (as Forge Steel lists it), a negative one isn't."""
    modifiers = feature(
        "Damage Modifier",
        "Mods",
        modifiers=[
            {
                "damageType": "Cold",
                "type": "Immunity",
                "value": 0,
                "valueCharacteristics": ["Intuition"],
                "valueCharacteristicMultiplier": 2,
                "valuePerLevel": 0,
                "valuePerEchelon": 0,
            },
            {"damageType": "Cold", "type": "Immunity", "value": 2},
            {"damageType": "Damage", "type": "Weakness", "value": 3},
            {"damageType": "Fire", "type": "Weakness", "value": 0, "valueCharacteristics": ["Presence"]},
            {"damageType": "Sonic", "type": "Immunity", "value": 0, "valueCharacteristics": ["Reason"]},
        ],
    )
    found = read_hero(to_bytes(hero(1, [bonus("Stamina", 20), modifiers], M2_A1)))
    assert found.modifiers.immunities == (DamageModifier("cold", 6), DamageModifier("sonic", 0))
    assert found.modifiers.weaknesses == (DamageModifier("all", 3),)  # fire: Presence -1, dropped


def test_resource_gains_replaced_and_from_domains() -> None:
    """A gain feature replaces the gains of the tags it names; a domain adds gains to a resource of its
    name; an epic resource keeps its own."""
    resource = feature(
        "Heroic Resource",
        "Piety",
        type="heroic",
        gains=[
            {"tag": "start", "trigger": "Start of your turn", "value": "2"},
            {"tag": "pray", "trigger": "You pray", "value": "1d3"},
        ],
    )
    better = feature(
        "Heroic Resource Gain",
        "Better",
        tag="start 2",
        trigger="Start of your turn",
        value="3",
        replacesTags=["start"],
    )
    domain = feature(
        "Domain",
        "Domain",
        count=1,
        selected=[
            {
                "id": "d",
                "name": "Storm",
                "defaultFeatures": [],
                "resourceGains": [
                    {"resource": "Piety", "tag": "", "trigger": "Lightning strikes", "value": "2"},
                    {"resource": "Wrath", "tag": "", "trigger": "Not mine", "value": "9"},
                ],
            }
        ],
    )
    epic = feature(
        "Heroic Resource", "Glory", type="epic", gains=[{"tag": "r", "trigger": "Respite", "value": "XP"}]
    )
    found = read_hero(to_bytes(hero(1, [bonus("Stamina", 20), resource, better, domain, epic])))
    glory, piety = found.resources  # by name, as Forge Steel lists them
    assert [(g.trigger, g.value) for g in piety.gains] == [
        ("You pray", "1d3"),
        ("Start of your turn", "3"),
        ("Lightning strikes", "2"),
    ]
    assert (piety.turn_gain, glory.epic, found.heroic_resource) == ("3", True, piety)


WARNING_CASES = [
    ("an unknown feature type", feature("Mystery Power", "Odd Gift"), "Odd Gift"),
    (
        "an ability id not in the file",
        feature("Class Ability", "Pick", cost=3, count=1, selectedIDs=["gone-9"]),
        "gone-9",
    ),
    ("a Bonus to a field the bot doesn't keep", bonus("Luck", 2), "Luck"),
    (
        "an ability damage bonus the free strikes would take",
        feature("Ability Damage", "Force", keywords=["Weapon"], value=1, damageType="Damage"),
        "+1 damage to Melee Weapon Free Strike, Ranged Weapon Free Strike",
    ),
    (
        "a class ability left unpicked",
        feature("Class Ability", "7pt Ability", cost=7, count=1, selectedIDs=[]),
        "7pt Ability",
    ),
]


@pytest.mark.parametrize(("what", "extra", "named"), WARNING_CASES, ids=[c[0] for c in WARNING_CASES])
def test_what_couldnt_be_used_is_a_warning(what: str, extra: dict[str, Any], named: str) -> None:
    """ "Nothing is silently dropped": each becomes one warning line naming it."""
    found = read_hero(to_bytes(hero(1, [bonus("Stamina", 20), extra])))
    assert [w for w in found.warnings if named in w], found.warnings
    assert all("\n" not in w for w in found.warnings)


def _refusal_cases() -> list[tuple[str, bytes, type[ForgeSteelError], str]]:
    too_big = b'{"name": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    return [
        ("over 2 MB", too_big, FileTooLarge, "2 MB"),
        ("not JSON", b"\x89PNG\r\n\x1a\n", NotJson, ".ds-hero"),
        ("a monster", invented_bytes("Bogling Slinger.ds-monster"), WrongKind, "/monster import"),
        ("a monster group", invented_bytes("Bogling.ds-monster-group"), WrongKind, "/monster import"),
        ("an encounter", invented_bytes("Bog Ambush.ds-encounter"), WrongKind, "/encounter import"),
        ("a negotiation", invented_bytes("Reeve Halden.ds-negotiation"), WrongKind, "/negotiation import"),
        ("an unknown shape", b'{"hero": {"name": "Vex"}, "version": 99}', UnknownFormat, ".ds-hero"),
        ("JSON but no object", b"[1, 2, 3]", WrongKind, ".ds-hero"),
        ("a hero without a class", to_bytes(hero() | {"class": None}), BadValue, "class"),
        ("a class of level 11", to_bytes(hero(11, [bonus("Stamina", 20)])), BadValue, "level"),
        ("a characteristic of 40", to_bytes(hero(1, [bonus("Stamina", 20)], {"Might": 40})), BadValue, "40"),
        ("no Stamina at all", to_bytes(hero(1, [])), BadValue, "Stamina"),
        ("a feature list as text", to_bytes(hero() | {"features": "oops"}), UnknownFormat, "features"),
    ]


REFUSALS = _refusal_cases()


@pytest.mark.parametrize(("what", "data", "error", "hint"), REFUSALS, ids=[c[0] for c in REFUSALS])
def test_refusals_are_one_line_and_say_what_to_upload(
    what: str, data: bytes, error: type[ForgeSteelError], hint: str
) -> None:
    """ "a file over 2 MB, not JSON, JSON of the wrong kind …, or an unknown newer format each get a one-line
    refusal that says what to upload instead"."""
    with pytest.raises(error) as raised:
        read_hero(data)
    assert hint in str(raised.value) and "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("read", "file", "fresh_numbers", "resource", "played_numbers"),
    [
        pytest.param(invented_bytes, "Marra.ds-hero", (70, 70, 12), ("Zeal", "2", 5), (60, 3, 10), id="own"),
        pytest.param(
            real_bytes, "Jennet.ds-hero", (75, 75, 14), ("Wrath", "2", 5), (65, 3, 12), id="forgesteel"
        ),
    ],
)
def test_sheet_fresh_and_with_the_files_state(
    read: Any,
    file: str,
    fresh_numbers: tuple[int, int, int],
    resource: tuple[str, str, int],
    played_numbers: tuple[int, int, int],
) -> None:
    """The roster sheet takes the computed numbers; the file's state only with `use_state`."""
    data = json.loads(read(file))
    data["state"].update(staminaDamage=10, staminaTemp=3, recoveriesUsed=2, victories=3, xp=64)
    found = read_hero(to_bytes(data))
    fresh = to_sheet(found)
    assert (fresh.vitals.max_stamina, fresh.vitals.stamina, fresh.vitals.max_recoveries) == fresh_numbers
    assert (fresh.resource_name, fresh.resource_gain, fresh.level) == resource
    assert fresh.characteristics == found.characteristics and fresh.progress.victories == 0
    played = to_sheet(found, use_state=True)
    assert (played.vitals.stamina, played.vitals.temporary, played.vitals.recoveries) == played_numbers
    assert (played.progress.victories, played.progress.xp) == (3, 64)


@pytest.mark.parametrize(
    ("read", "file", "dead"),
    [
        pytest.param(invented_bytes, "Brannoc.ds-hero", -15, id="own"),
        pytest.param(real_bytes, "Keth.ds-hero", -16, id="forgesteel"),
    ],
)
def test_sheet_state_stays_within_the_rules(read: Any, file: str, dead: int) -> None:
    """Stamina damage beyond death stops at the negative winded value; more Recoveries used than held, 0."""
    data = json.loads(read(file))
    data["state"].update(staminaDamage=500, recoveriesUsed=50)
    played = to_sheet(read_hero(to_bytes(data)), use_state=True)
    assert (played.vitals.stamina, played.vitals.recoveries) == (dead, 0)


def _item(kind: str, by_level: list[tuple[int, dict[str, Any]]], enhanced: list[int]) -> dict[str, Any]:
    return {
        "id": f"item-{kind}",
        "name": f"Test {kind}",
        "type": kind,
        "featuresByLevel": [{"level": lv, "features": [f]} for lv, f in by_level],
        "customizationsByLevel": [
            {"level": lv, "features": [{"selected": True, "feature": feature("Text", f"Rune {lv}")}]}
            for lv in enhanced
        ],
    }


ITEM_CASES = [
    # (what, item, hero level, expected maximum Stamina: 20 from the class)
    (
        "leveled armor, its levels reached",
        _item("Leveled Armor", [(1, bonus("Stamina", 6)), (5, bonus("Stamina", 6))], []),
        5,
        32,
    ),
    (
        "leveled armor, a level not reached",
        _item("Leveled Armor", [(1, bonus("Stamina", 6)), (5, bonus("Stamina", 6))], []),
        4,
        26,
    ),
    ("imbued armor, 1st and 5th enhancements", _item("Imbued Armor", [], [1, 5]), 5, 32),
    ("imbued armor, all three", _item("Imbued Armor", [], [1, 5, 9]), 9, 41),
]


@pytest.mark.parametrize(("what", "item", "level", "want"), ITEM_CASES, ids=[c[0] for c in ITEM_CASES])
def test_items_carried_count(what: str, item: dict[str, Any], level: int, want: int) -> None:
    """An item's features of the hero's level and below count; an imbued armor adds 6, 6 and 9 Stamina for
    its 1st, 5th and 9th level enhancements."""
    data = hero(level, [bonus("Stamina", 20)])
    data["state"]["inventory"] = [item]
    assert read_hero(to_bytes(data)).stamina == want


def test_an_imbued_weapons_damage_goes_on_weapon_cards() -> None:
    """An imbued weapon's +1 damage to Weapon abilities is on the hero's weapon card; the free strikes, built
    at the strike, don't take it: a warning says how much and where."""
    slash = feature("Ability", "Slash", ability=ability("a-slash", "Slash"))
    data = hero(1, [bonus("Stamina", 20), slash])
    data["state"]["inventory"] = [_item("Imbued Weapon", [], [1])]
    found = read_hero(to_bytes(data))
    assert [(a.card.name, a.card.damage_bonus) for a in found.abilities] == [("Slash", 1)]
    assert any("+1 damage to Melee Weapon Free Strike" in w for w in found.warnings), found.warnings


def test_a_titles_selected_feature_counts() -> None:
    data = hero(1, [bonus("Stamina", 20)])
    chosen, other = bonus("Stability", 2), bonus("Stability", 9)
    data["state"]["titles"] = [
        {
            "id": "t",
            "name": "Brawler",
            "selectedFeatureID": chosen["id"],
            "features": [chosen, other | {"id": "x"}],
        }
    ]
    assert read_hero(to_bytes(data)).stability == 2


def test_a_former_ancestrys_size() -> None:
    """Without a Size feature of its own, the hero has the size of the former ancestry it names."""
    small = feature("Size", "Small", size={"value": 1, "mod": "S"})
    former = feature(
        "Ancestry Choice", "Former Life", selected={"id": "a2", "name": "Smallfolk", "features": [small]}
    )
    found = read_hero(to_bytes(hero(1, [bonus("Stamina", 20), former])))
    assert (found.size.value, found.size.mod, found.size.format()) == (1, "S", "1S")


def test_any_source_class_ability() -> None:
    """A Class Ability allowing any source finds an ability of an unselected subclass."""
    data = hero(
        1,
        [
            bonus("Stamina", 20),
            feature("Class Ability", "Any", cost=3, count=1, allowAnySource=True, selectedIDs=["sub-b-1"]),
        ],
    )
    data["class"]["subclasses"] = [
        {
            "id": "sub-b",
            "name": "Other",
            "selected": False,
            "featuresByLevel": [],
            "abilities": [ability("sub-b-1", "Borrowed Blow", 3)],
        },
    ]
    found = read_hero(to_bytes(data))
    assert [a.card.name for a in found.abilities] == ["Borrowed Blow"]
    assert not [w for w in found.warnings if "sub-b-1" in w]


def test_the_files_resource_value_is_the_heroic_ones() -> None:
    """The state's heroic resource is the class resource's value, not a level-10 epic resource's (Forge
    Steel lists "Virtue" before "Wrath")."""
    wrath = feature("Heroic Resource", "Wrath", type="heroic", gains=[], value=2)
    virtue = feature("Heroic Resource", "Virtue", type="epic", gains=[], value=7)
    found = read_hero(to_bytes(hero(10, [bonus("Stamina", 20), wrath, virtue])))
    assert (found.state.heroic_resource, [r.name for r in found.resources]) == (2, ["Virtue", "Wrath"])
    assert found.heroic_resource is not None and found.heroic_resource.name == "Wrath"
