"""A Forge Steel hero's abilities, as the cards the bot keeps.

Where they come from (Forge Steel's `HeroLogic.getAbilities`, read, not copied):
- every Ability feature that counts (the ancestry's, a kit's signature ability, a chosen subclass ability
  ...: `hero_features`);
- the class abilities a Class Ability feature names by `selectedIDs`, looked up among the class's
  `abilities` and the selected subclass's (or wherever the feature's `source` says: unselected subclasses,
  the Ability features of the class's and subclasses' levels, options of their choices included; all of
  these with `allowAnySource`);
- an ability's `package` section shows the hero's Package Content features of the same tag (a Null's
  Inertial Shield shows Metakinetic Mastery);
- `abilityCustomizations` rename an ability, change its cost or power-roll characteristic, or add notes;
- the kits' and features' distance and damage bonuses, and a customization's, go on the cards
  (`hero_bonuses`).
They are listed as Forge Steel lists them: by usage, then signature before costs (lowest first), then name.
An ability this code can't read, or an id not in the file, is reported, never dropped in silence.

Public API: `HeroAbility`, `hero_abilities(hero, features, bonuses) -> (abilities, warnings)`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from bot.content.forgesteel.ability_json import read_ability
from bot.content.forgesteel.files import Fields, ForgeSteelError
from bot.content.forgesteel.hero_bonuses import CardBonuses, with_bonuses
from bot.content.forgesteel.hero_features import HeroFeatures
from bot.content.forgesteel.monster import characteristic
from bot.rules.ability import Ability, PowerRollSpec


@dataclass(frozen=True, slots=True)
class HeroAbility:
    """One of the hero's abilities: Forge Steel's id, where it came from (`Fury`, `Panther`, `Human` ...) and
    the card."""

    id: str
    source: str
    card: Ability


@dataclass(frozen=True, slots=True)
class _Found:
    raw: Fields
    source: str


def _options(feature: Fields) -> Iterator[Fields]:
    """The abilities inside a feature: itself, a choice's options, a multiple feature's parts."""
    kind = feature.text("type")
    data = feature.obj("data", "feature data")
    if kind == "Ability":
        yield data.obj("ability", "ability")
    elif kind == "Choice":
        for option in data.objects("options", "choice option"):
            yield from _options(option.obj("feature", "choice option"))
    elif kind == "Multiple Features":
        for part in data.objects("features", "feature"):
            yield from _options(part)


def _level_abilities(owner: Fields) -> Iterator[Fields]:
    for entry in owner.objects("featuresByLevel", "level"):
        for feature in entry.objects("features", "feature"):
            yield from _options(feature)


_SOURCE_FLAGS = (
    "fromClassAbilities",
    "fromSelectedSubclassAbilities",
    "fromUnselectedSubclassAbilities",
    "fromClassLevels",
    "fromSelectedSubclassLevels",
    "fromUnselectedSubclassLevels",
)


def _pool(heroic_class: Fields, source: Fields) -> dict[str, Fields]:
    """The abilities a Class Ability feature picks from, by id (`source` flags; older files have none and
    pick from the class's and the selected subclass's abilities)."""
    subclasses = heroic_class.objects("subclasses", "subclass")
    chosen = [s for s in subclasses if s.flag("selected")]
    others = [s for s in subclasses if not s.flag("selected")]
    found: list[Fields] = []
    if source.flag("fromClassAbilities", True):
        found += heroic_class.objects("abilities", "class ability")
    if source.flag("fromSelectedSubclassAbilities", True):
        found += [a for s in chosen for a in s.objects("abilities", "subclass ability")]
    if source.flag("fromUnselectedSubclassAbilities"):
        found += [a for s in others for a in s.objects("abilities", "subclass ability")]
    if source.flag("fromClassLevels"):
        found += list(_level_abilities(heroic_class))
    if source.flag("fromSelectedSubclassLevels"):
        found += [a for s in chosen for a in _level_abilities(s)]
    if source.flag("fromUnselectedSubclassLevels"):
        found += [a for s in others for a in _level_abilities(s)]
    pool: dict[str, Fields] = {}
    for ability in found:
        pool.setdefault(ability.text("id"), ability)
    return pool


def _gather(hero: Fields, features: HeroFeatures, warnings: list[str]) -> list[_Found]:
    found = [_Found(f.data.obj("ability", "ability"), f.source) for f in features.of_type("Ability")]
    heroic_class = hero.optional("class", "class")
    for feature in features.of_type("Class Ability"):
        data = feature.data
        ids = data.texts("selectedIDs")
        if not ids:
            continue
        source = data.obj("source", "ability source")
        if data.flag("allowAnySource"):
            source = Fields(dict.fromkeys(_SOURCE_FLAGS, True), "ability source")
        pool = _pool(heroic_class, source) if heroic_class is not None else {}
        for ability_id in ids:
            raw = pool.get(ability_id)
            if raw is None:
                warnings.append(
                    f"{feature.name} names the ability `{ability_id[:40]}`, which isn't in the file: add it "
                    "with /ability add."
                )
            else:
                found.append(_Found(raw, feature.source))
    return found


def _cost_key(raw: Fields) -> tuple[int, int]:
    cost = raw.raw("cost")
    return (0, 0) if cost == "signature" or not isinstance(cost, int) else (1, cost)


def _packages(card: Ability, raw: Fields, features: HeroFeatures) -> Ability:
    """The card with the text of the hero's Package Content features its `package` sections name."""
    tags = [s.text("tag") for s in raw.objects("sections", "ability section") if s.text("type") == "package"]
    if not tags:
        return card
    extra = [
        f"**{f.name}:** {f.feature.text('description')}"
        for f in features.of_type("Package Content")
        if f.data.text("tag") in tags
    ]
    if not extra:
        return card
    return dataclasses.replace(card, effect="\n\n".join(p for p in (card.effect, *extra) if p))


def _customize(card: Ability, custom: Fields) -> Ability:
    """An `abilityCustomizations` entry applied: name, cost (not a signature's), characteristic, notes (its
    distance and damage bonuses are `hero_bonuses`')."""
    name = custom.text("name") or card.name
    cost = card.cost if card.signature else max(0, card.cost + custom.integer("costModifier"))
    roll = card.power_roll
    if custom.text("characteristic") and roll is not None:
        roll = PowerRollSpec((characteristic(custom.text("characteristic")),), roll.tiers, roll.bonus)
    notes = custom.text("notes")
    effect = "\n\n".join(p for p in (card.effect, f"**Notes:** {notes}" if notes else "") if p)
    return dataclasses.replace(card, name=name, cost=cost, power_roll=roll, effect=effect)


def hero_abilities(
    hero: Fields, features: HeroFeatures, bonuses: CardBonuses | None = None
) -> tuple[tuple[HeroAbility, ...], list[str]]:
    """The hero's abilities in Forge Steel's order, with `bonuses` on their cards, and what couldn't be
    used."""
    warnings: list[str] = []
    found = _gather(hero, features, warnings)
    found.sort(key=lambda f: f.raw.text("name").casefold())
    found.sort(key=lambda f: _cost_key(f.raw))
    found.sort(key=lambda f: f.raw.obj("type", "ability type").text("usage").casefold())
    customs = {c.text("abilityID"): c for c in hero.objects("abilityCustomizations", "ability customization")}
    out: list[HeroAbility] = []
    for f in found:
        ability_id = f.raw.text("id")
        try:
            card = _packages(read_ability(f.raw), f.raw, features)
            custom = customs.get(ability_id)
            if custom is not None:
                card = _customize(card, custom)
            card = with_bonuses(card, f.raw, bonuses or CardBonuses(), custom, warnings)
        except ForgeSteelError as error:
            warnings.append(f"The ability {f.raw.text('name')[:40] or ability_id[:40]} was left out: {error}")
            continue
        out.append(HeroAbility(ability_id, f.source, card))
    return tuple(out), warnings
