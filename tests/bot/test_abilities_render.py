"""Exts/heroes/_abilities_views.py: ability cards, a hero's list and an import's reply fit Discord's embeds,
every text
from a card, a file or a sheet is shown inert, and a tier's reading says what the bot understood and quotes
what it didn't ("Anything the parser doesn't understand stays text and is shown")."""

from __future__ import annotations

import dataclasses

import pytest

from bot.content.forgesteel.hero import read_hero
from bot.content.forgesteel.hero_sheet import to_sheet
from bot.rules.ability import Ability, ActionType, PowerRollSpec
from bot.rules.characteristics import Characteristic, Characteristics
from bot.rules.hero import HeroSheet, new_sheet
from bot.rules.kit import KitDamageBonus, Reach
from exts.heroes._abilities_views import abilities_embed, ability_embed, import_embed, tier_reading
from exts.heroes._views import HeroView
from tests.content.forgesteel_files import invented_bytes

HOSTILE = "<@123456789012345678> @everyone **Boss**"
HERO_FILES = ("Brannoc.ds-hero", "Ysolde.ds-hero", "Marra.ds-hero")


def _size(embed: object) -> int:
    data = embed.to_dict()  # type: ignore[attr-defined]
    fields = data.get("fields", [])
    parts = [data.get("title", ""), data.get("description", ""), data.get("footer", {}).get("text", "")]
    return sum(map(len, parts)) + sum(len(f["name"]) + len(f["value"]) for f in fields)


def _text(embed: object) -> str:
    data = embed.to_dict()  # type: ignore[attr-defined]
    fields = data.get("fields", [])
    return "\n".join(
        [data.get("title", ""), data.get("description", ""), *(f["name"] + f["value"] for f in fields)]
    )


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("3 + M damage; push 2", ["→ **damage** 3 + M damage (= 5)", "→ **forced movement** push 2"]),
        (
            "5 fire damage; M < 2 weakened (save ends)",
            ["→ **damage** 5 fire damage", "→ **potency** M < 2: weakened (save ends)"],
        ),
        (
            "6 + A damage; A < [strong] slowed (EoT)",
            ["→ **damage** 6 + A damage (= 7)", "→ **potency** A < [strong] = 2: slowed (EoT)"],
        ),
        ("2 damage; the target is grabbed", ["→ **damage** 2 damage", "→ **condition** grabbed"]),
        # dice damage as Forge Steel shows it: the card's text, then the dice and one number for the hero
        ("2d6 + 7 + A damage", ["→ **damage** 2d6 + 7 + A damage (= 2d6 + 8)"]),
        ("2d10 fire damage", ["→ **damage** 2d10 fire damage"]),
        ("the ground shakes", ["→ **as written** “the ground shakes”"]),
        ("No effect.", ["→ no effect"]),
    ],
)
def test_a_tiers_reading(text: str, lines: list[str]) -> None:
    """Four tier texts read into damage, potency, forced movement and the rest."""
    scores = Characteristics(might=2, agility=1)
    assert tier_reading(text, scores).split("\n") == lines


@pytest.mark.parametrize("file", HERO_FILES)
def test_every_fixture_heros_cards_and_import_reply_fit(file: str) -> None:
    hero = read_hero(invented_bytes(file))
    sheet = to_sheet(hero)
    for card in sheet.abilities:
        embed = ability_embed(hero.name, card, sheet)
        assert embed.title == card.name and _size(embed) <= 6000 and len(embed.fields) <= 25
    listed = abilities_embed(hero.name, sheet)
    assert all(card.name in (listed.description or "") for card in sheet.abilities)
    reply = import_embed(HeroView(hero.name, 1, sheet), hero.warnings, updated=False)
    assert _size(reply) <= 6000 and len(reply.fields) <= 25


def test_a_kit_bonus_is_shown_on_the_weapon_cards_it_applies_to() -> None:
    sheet = to_sheet(read_hero(invented_bytes("Brannoc.ds-hero")))
    slam = next(c for c in sheet.abilities if c.name == "Crushing Blow")
    assert "Kit (Wolfpelt): +1/+2/+3 damage" in (ability_embed("Brannoc", slam, sheet).description or "")


def test_hostile_texts_are_inert_and_many_warnings_are_counted() -> None:
    card = Ability(
        HOSTILE,
        ActionType.MAIN,
        keywords=(HOSTILE, "Weapon", "Melee"),
        distance=HOSTILE,
        target=HOSTILE,
        power_roll=PowerRollSpec((Characteristic.MIGHT,), (HOSTILE, f"2 damage; {HOSTILE}", "x" * 5000)),
        effect=HOSTILE * 100,
        trigger=HOSTILE,
    )
    sheet: HeroSheet = dataclasses.replace(
        new_sheet(30, 8, resource_name="wrath"),
        abilities=(card,) * 60,
        kit_bonuses=(KitDamageBonus(HOSTILE, Reach.MELEE, (1, 2, 3)),),
        ancestry=HOSTILE,
    )
    embeds = [
        ability_embed(HOSTILE, card, sheet),
        abilities_embed(HOSTILE, sheet),
        import_embed(HeroView(HOSTILE, 1, sheet), [HOSTILE * 10] * 40, updated=True),
    ]
    for embed in embeds:
        assert _size(embed) <= 6000 and len(embed.fields) <= 25
        text = _text(embed)
        assert "<@123456789012345678>" not in text and "@everyone" not in text
    fields = {f.name: f.value or "" for f in embeds[2].fields}
    assert fields["Not used"].startswith("⚠️ <@\u200b123456789012345678>")
    assert fields["Not used"].endswith(" more") and len(fields["Not used"]) <= 1024
