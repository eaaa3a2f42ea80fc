"""What a Forge Steel hero's kits and features add to its ability cards, as Forge Steel shows them
(`bot.content.forgesteel.hero_bonuses`): the kits' melee and ranged distance bonuses on Melee and Ranged
weapon abilities, Ability Distance and Ability Damage features (a Conduit's prayers are the like), a distance
or damage bonus customized on one ability, and skills and languages sorted with a leading "The" ignored.

The heroes are invented files in Forge Steel's export shape (`tests/fixtures/forgesteel/`): Sable, a level 2
Skulker with the Dusk Veil kit (melee distance +1, ranged distance +5, like Cloak and Dagger or Rapid-Fire),
and Oriel, a level 1 Votary whose chosen blessings are +2 distance to Magic Ranged abilities and +1 damage to
Magic abilities."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.content.forgesteel.hero import ImportedHero, read_hero, sort_key
from bot.content.forgesteel.hero_sheet import to_sheet
from bot.rules import codec
from bot.rules.ability import Ability, ActionType, DamageBonus, PowerRollSpec
from bot.rules.characteristics import Characteristic, Characteristics
from bot.rules.encounter.ability_strike import plan_ability
from bot.rules.standard import hero_free_strikes
from exts.heroes._abilities_views import ability_embed
from tests.content.forgesteel_files import invented_bytes
from tests.content.forgesteel_hero_kit import ability, bonus, feature, hero, kit, to_bytes


def _hero(name: str) -> ImportedHero:
    return read_hero(invented_bytes(f"{name}.ds-hero"))


def _cards(found: ImportedHero) -> dict[str, Ability]:
    return {a.card.name: a.card for a in found.abilities}


def test_a_kits_distance_bonus_lengthens_its_weapon_abilities() -> None:
    """Forge Steel's card: a Melee or Ranged distance of a weapon ability takes the kit's melee or ranged
    distance bonus (a Melee-and-Ranged ability each on its own distance); an area's, and a ranged ability
    that isn't a weapon's, stay as written; a distance bonus customized on one ability adds to it."""
    found = _hero("Sable")
    distances = {name: card.distance for name, card in _cards(found).items()}
    assert distances == {
        "Hook and Loose": "Melee 2 or Ranged 10",
        "Needle Rain": "Ranged 10",
        "Ash Cloud": "3 Cube within 5",
        "Twin Fang": "Melee 3",
        "Whisper Ahead": "Ranged 10",
    }
    assert (found.melee_distance_bonus, found.ranged_distance_bonus) == (1, 5)
    assert found.warnings == ()


def test_ability_distance_and_damage_features_go_on_the_cards_they_name() -> None:
    """Oriel's blessings: +2 distance on Magic Ranged abilities (Ranged 10 -> 12, areas unchanged), +1 damage
    on every damaging tier of Magic abilities; the weapon ability and the healing hymn's tiers get none, and
    nothing is left to warn about."""
    cards = _cards(_hero("Oriel"))
    assert {n: c.distance for n, c in cards.items()} == {
        "Sunlance": "Ranged 12",
        "Halo Pulse": "2 Burst",
        "Mending Hymn": "Ranged 12",
        "Censer Swing": "Melee 1",
    }
    assert {n: c.damage_bonuses for n, c in cards.items()} == {
        "Sunlance": (DamageBonus("Blessing of Wrath", 1),),
        "Halo Pulse": (DamageBonus("Blessing of Wrath", 1),),
        "Mending Hymn": (),
        "Censer Swing": (),
    }
    assert _hero("Oriel").warnings == ()


def test_the_strike_deals_the_card_bonus_on_each_damaging_tier() -> None:
    """Sunlance: 2/4/6 + I (2), +1 from Blessing of Wrath = 5/7/9, as Forge Steel's card computes it; Twin
    Fang's customized +2 and the Dusk Veil kit's +1 on a melee weapon ability: 4/6/9 + A (2) + 1 + 2."""
    oriel = to_sheet(_hero("Oriel"))
    sunlance = next(c for c in oriel.abilities if c.name == "Sunlance")
    plan = plan_ability(sunlance, oriel.characteristics, oriel.kit_bonuses)
    assert plan.damage is not None and plan.damage.format() == "5/7/9 holy" and plan.bonus == 1
    sable = to_sheet(_hero("Sable"))
    fang = next(c for c in sable.abilities if c.name == "Twin Fang")
    plan = plan_ability(fang, sable.characteristics, sable.kit_bonuses)
    assert plan.damage is not None and plan.damage.format() == "9/11/14" and plan.kit == (1, 1, 1)


def test_the_card_shows_the_bonus_and_the_total() -> None:
    oriel = to_sheet(_hero("Oriel"))
    sunlance = next(c for c in oriel.abilities if c.name == "Sunlance")
    embed = ability_embed("Oriel", sunlance, oriel)
    assert "**Distance** Ranged 12" in (embed.description or "")
    assert "Damage bonus: Blessing of Wrath +1 on every tier that deals damage" in (embed.description or "")
    tiers = {f.name: f.value or "" for f in embed.fields}
    assert "**damage** 2 + I holy damage (= 5)" in tiers["Tier 1 (11 or lower)"]


def _with(*features: dict[str, Any], abilities: list[dict[str, Any]] | None = None) -> ImportedHero:
    picked = [feature("Ability", a["name"], ability=a) for a in abilities or []]
    return read_hero(to_bytes(hero(1, [bonus("Stamina", 20), *features, *picked])))


def _ranged(ability_id: str, name: str, keywords: list[str], tier: str = "2 + M damage") -> dict[str, Any]:
    out = ability(ability_id, name)
    out["keywords"] = keywords
    out["distance"] = [dict(ability("x", "x")["distance"][0], type="Ranged", value=5)]
    out["sections"][0]["roll"].update(tier1=tier, tier2=tier, tier3=tier)
    return out


def test_what_the_bot_cant_add_is_one_warning_with_how_much_and_where() -> None:
    """A +2 damage to Weapon abilities reaches the free strikes, which the bot builds at the strike: one
    warning says +2 and names them; a Magic card whose tiers end in damage the bot can't read is named the
    same way. A card the bot can read takes the bonus, and is not named."""
    weapon = feature("Ability Damage", "Keen Edge", keywords=["Weapon"], value=2, damageType="Damage")
    magic = feature("Ability Damage", "Bright Wrath", keywords=["Magic"], value=1, damageType="Damage")
    odd = _ranged("a-odd", "Odd Flare", ["Magic", "Ranged"], "a storm of holy damage")
    fine = _ranged("a-fine", "Fine Flare", ["Magic", "Ranged"])
    found = _with(weapon, magic, abilities=[odd, fine])
    assert [w for w in found.warnings if "Keen Edge" in w] == [
        "Keen Edge (Striker) adds +2 damage to Melee Weapon Free Strike, Ranged Weapon Free Strike: the bot "
        "can't add it there; give it with damage: on /strike."
    ]
    assert [w for w in found.warnings if "Bright Wrath" in w] == [
        "Bright Wrath (Striker) adds +1 damage to Odd Flare: the bot can't add it there; give it with "
        "damage: on /strike."
    ]
    cards = _cards(found)
    assert cards["Fine Flare"].damage_bonus == 1 and cards["Odd Flare"].damage_bonus == 0


def test_distance_features_and_a_ranged_kit_reach_the_free_strikes() -> None:
    """The free strikes are Melee and Ranged weapon abilities: a ranged kit's +5 and an Ability Distance
    feature on Ranged abilities lengthen the Ranged Weapon Free Strike (5 + 5 + 1); the melee one only by
    its kit."""
    reach = feature("Ability Distance", "Long Sight", keywords=["Ranged"], value=1)
    archer = feature("Kit", "Kit", selected=[kit("Longbow", melee=None, rangedDistance=5, meleeDistance=1)])
    found = _with(reach, archer)
    assert (found.melee_distance_bonus, found.ranged_distance_bonus) == (1, 6)
    melee, ranged = hero_free_strikes(
        melee_distance_bonus=found.melee_distance_bonus, ranged_distance_bonus=found.ranged_distance_bonus
    )
    assert (melee.distance, ranged.distance) == ("Melee 2", "Ranged 11")


def test_a_melee_and_ranged_card_takes_each_bonus_on_its_own_distance() -> None:
    """Forge Steel reads a Melee distance as the melee use and a Ranged distance as the ranged use: an
    Ability Distance feature on Ranged abilities lengthens only the Ranged distance."""
    both = ability("a-both", "Either Way")
    both["keywords"] = ["Melee", "Ranged", "Strike", "Weapon"]
    both["distance"].append(
        {"type": "Ranged", "value": 5, "value2": 0, "within": 0, "special": "", "qualifier": ""}
    )
    reach = feature("Ability Distance", "Long Sight", keywords=["Ranged"], value=3)
    assert _cards(_with(reach, abilities=[both]))["Either Way"].distance == "Melee 1 or Ranged 8"


def test_customized_bonuses_go_on_the_card() -> None:
    """A distance and damage bonus set on one ability in Forge Steel are on that card, not warnings."""
    custom = {"abilityID": "a-fine", "name": "", "description": "", "notes": "", "costModifier": 0,
              "distanceBonus": 2, "damageBonus": 3, "characteristic": None}  # fmt: skip
    fine = feature("Ability", "Fine", ability=_ranged("a-fine", "Fine", ["Magic"]))
    data = hero(1, [bonus("Stamina", 20), fine])
    data["abilityCustomizations"] = [custom]
    found = read_hero(to_bytes(data))
    (card,) = (a.card for a in found.abilities)
    assert card.distance == "Ranged 7"
    assert card.damage_bonuses == (DamageBonus("Forge Steel customization", 3),)
    assert not [w for w in found.warnings if "bonus" in w], found.warnings


def test_languages_sort_as_forge_steel_sorts_them() -> None:
    """Forge Steel's list order ignores a leading "A" or "The": The Old Cant sorts under O, The Tide Speech
    under T after Thornish."""
    assert _hero("Sable").languages == ("Anvari", "The Old Cant", "Sigh-tongue")
    assert _hero("Oriel").languages == ("Thornish", "The Tide Speech")
    assert sorted(["the Zed", "A Bee", "Cee"], key=sort_key) == ["A Bee", "Cee", "the Zed"]


def test_a_cards_damage_bonus_is_kept_by_the_sheet_codec() -> None:
    """A stored sheet keeps its cards' bonuses; a card without one stores nothing more than before."""
    roll = PowerRollSpec((Characteristic.REASON,), ("1 damage", "2 damage", "3 damage"))
    card = Ability("Zap", ActionType.MAIN, power_roll=roll)
    bonused = dataclasses.replace(card, damage_bonuses=(DamageBonus("Spark", 2),))
    assert codec.load(Ability, codec.to_data(bonused)) == bonused
    assert "damage_bonuses" not in codec.to_data(card)
    assert plan_ability(bonused, Characteristics()).damage is not None


@pytest.mark.parametrize("name", ["Sable", "Oriel"])
def test_the_invented_heroes_fit_a_roster_sheet(name: str) -> None:
    sheet = to_sheet(_hero(name))
    assert sheet.abilities and sheet.vitals.max_stamina == 24
