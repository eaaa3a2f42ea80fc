"""A Forge Steel hero's abilities, as the cards the bot keeps (as Forge Steel's `HeroLogic.getAbilities`:
docs/architecture.md, *Reading Forge Steel files*). An ability this code can't read, or an id not in the
file, is reported, never dropped in silence; reading is linear in the file.

Public API: `HeroAbility`, `HeroAbilities`, `hero_abilities(hero, features, bonuses) -> HeroAbilities`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from bot.content.ability_entry import ABILITIES_MAX
from bot.content.forgesteel.ability_json import read_ability
from bot.content.forgesteel.files import Fields, ForgeSteelError, TooMany, UnknownFormat
from bot.content.forgesteel.hero_bonuses import CardBonuses, with_bonuses
from bot.content.forgesteel.hero_features import MAX_DEPTH, HeroFeatures
from bot.content.forgesteel.monster import characteristic
from bot.rules.ability import Ability, PowerRollSpec

CARDS_TEXT_MAX = 256 * 1024
"""The text a hero's cards may hold in all (a roster sheet keeps no more, `hero_sheet.SHEET_BYTES_MAX`),
counted as each card is made: a package text or note that many abilities show can't multiply."""


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


def _options(feature: Fields, depth: int = 0) -> Iterator[Fields]:
    """The abilities inside a feature: itself, a choice's options, a multiple feature's parts."""
    if depth > MAX_DEPTH:
        raise UnknownFormat(
            "That hero's abilities nest deeper than Forge Steel writes them: export it again from Forge "
            "Steel."
        )
    kind = feature.text("type")
    data = feature.obj("data", "feature data")
    if kind == "Ability":
        yield data.obj("ability", "ability")
    elif kind == "Choice":
        for option in data.objects("options", "choice option"):
            yield from _options(option.obj("feature", "choice option"), depth + 1)
    elif kind == "Multiple Features":
        for part in data.objects("features", "feature"):
            yield from _options(part, depth + 1)


def _level_abilities(owners: list[Fields]) -> Iterator[Fields]:
    for owner in owners:
        for entry in owner.objects("featuresByLevel", "level"):
            for feature in entry.objects("features", "feature"):
                yield from _options(feature)


#: Where a Class Ability feature may pick from, in the order an id is looked up (the first found wins).
_SOURCE_FLAGS = (
    "fromClassAbilities",
    "fromSelectedSubclassAbilities",
    "fromUnselectedSubclassAbilities",
    "fromClassLevels",
    "fromSelectedSubclassLevels",
    "fromUnselectedSubclassLevels",
)
#: What older files, which have no `source` flags, pick from.
_DEFAULT_SOURCES = frozenset({"fromClassAbilities", "fromSelectedSubclassAbilities"})


class _Sources:
    """The abilities Class Ability features pick from, by source and id: each source is indexed once per
    hero, when a feature first needs it (one index per feature would multiply the file's work)."""

    def __init__(self, heroic_class: Fields) -> None:
        self._class = heroic_class
        subclasses = heroic_class.objects("subclasses", "subclass")
        self._chosen = [s for s in subclasses if s.flag("selected")]
        self._others = [s for s in subclasses if not s.flag("selected")]
        self._indexed: dict[str, dict[str, Fields]] = {}

    def _abilities(self, flag: str) -> Iterator[Fields]:
        if flag == "fromClassAbilities":
            return iter(self._class.objects("abilities", "class ability"))
        if flag == "fromClassLevels":
            return _level_abilities([self._class])
        owners = self._chosen if flag.startswith("fromSelected") else self._others
        if flag.endswith("Levels"):
            return _level_abilities(owners)
        return (a for s in owners for a in s.objects("abilities", "subclass ability"))

    def _index(self, flag: str) -> dict[str, Fields]:
        if flag not in self._indexed:
            index: dict[str, Fields] = {}
            for ability in self._abilities(flag):
                index.setdefault(ability.text("id"), ability)
            self._indexed[flag] = index
        return self._indexed[flag]

    def pick(self, source: Fields, ability_id: str) -> Fields | None:
        """The ability `ability_id` from the first source `source` allows that has it."""
        allowed = [self._index(f) for f in _SOURCE_FLAGS if source.flag(f, f in _DEFAULT_SOURCES)]
        return next((index[ability_id] for index in allowed if ability_id in index), None)


def _gather(hero: Fields, features: HeroFeatures, warnings: list[str]) -> list[_Found]:
    """The abilities the features name, each name counted against `ABILITIES_MAX` as it is read."""
    found = [_Found(f.data.obj("ability", "ability"), f.source) for f in features.of_type("Ability")]
    named = len(found)
    heroic_class = hero.optional("class", "class")
    sources = _Sources(heroic_class) if heroic_class is not None else None
    everywhere = Fields(dict.fromkeys(_SOURCE_FLAGS, True), "ability source")
    for feature in features.of_type("Class Ability"):
        data = feature.data
        ids = data.texts("selectedIDs")
        named += len(ids)
        if named > ABILITIES_MAX:
            raise TooMany(
                f"That hero names more than {ABILITIES_MAX} abilities; a roster hero keeps at most "
                f"{ABILITIES_MAX}: remove some in Forge Steel and export it again."
            )
        if not ids:
            continue
        source = data.obj("source", "ability source")
        if data.flag("allowAnySource"):
            source = everywhere
        for ability_id in ids:
            raw = sources.pick(source, ability_id) if sources is not None else None
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


#: A Package Content feature's text, by tag, with its place among the features (the order cards show them).
_Packages = dict[str, list[tuple[int, str]]]


def _package_texts(features: HeroFeatures) -> _Packages:
    by_tag: _Packages = {}
    for i, f in enumerate(features.of_type("Package Content")):
        text = f"**{f.name}:** {f.feature.text('description')}"
        by_tag.setdefault(f.data.text("tag"), []).append((i, text))
    return by_tag


def _packages(card: Ability, raw: Fields, packages: _Packages) -> Ability:
    """The card with the text of the hero's Package Content features its `package` sections name."""
    tags = {s.text("tag") for s in raw.objects("sections", "ability section") if s.text("type") == "package"}
    extra = [text for _, text in sorted(p for tag in tags for p in packages.get(tag, ()))]
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


def _text_size(card: Ability) -> int:
    tiers = card.power_roll.tiers if card.power_roll is not None else ()
    parts = (card.name, card.distance, card.target, card.effect, card.trigger, *card.keywords, *tiers)
    return sum(len(p) for p in parts)


def _too_much_text() -> TooMany:
    return TooMany(
        f"That hero's ability texts come to over {CARDS_TEXT_MAX // 1024} KB, more than a roster sheet "
        "keeps: shorten its abilities' notes in Forge Steel and export it again."
    )


def _card(raw: Fields, packages: _Packages, read: dict[int, Ability | ForgeSteelError]) -> Ability:
    """The card of `raw`, read once however many times the hero names it (`read`, by the object); one over
    `CARDS_TEXT_MAX` alone is refused before anything reads its texts further."""
    done = read.get(id(raw))
    if done is None:
        try:
            done = _packages(read_ability(raw), raw, packages)
            if _text_size(done) > CARDS_TEXT_MAX:
                done = _too_much_text()
        except ForgeSteelError as error:
            done = error
        read[id(raw)] = done
    if isinstance(done, ForgeSteelError):
        raise done
    return done


@dataclass(frozen=True, slots=True)
class HeroAbilities:
    """The hero's abilities read, and one warning for each thing that couldn't be used."""

    abilities: tuple[HeroAbility, ...]
    warnings: tuple[str, ...]


def hero_abilities(hero: Fields, features: HeroFeatures, bonuses: CardBonuses | None = None) -> HeroAbilities:
    """The hero's abilities in Forge Steel's order, with `bonuses` on their cards, and what couldn't be
    used."""
    warnings: list[str] = []
    found = _gather(hero, features, warnings)
    found.sort(key=lambda f: f.raw.text("name").casefold())
    found.sort(key=lambda f: _cost_key(f.raw))
    found.sort(key=lambda f: f.raw.obj("type", "ability type").text("usage").casefold())
    customs = {c.text("abilityID"): c for c in hero.objects("abilityCustomizations", "ability customization")}
    packages = _package_texts(features)
    read: dict[int, Ability | ForgeSteelError] = {}
    out: list[HeroAbility] = []
    text = 0
    for f in found:
        ability_id = f.raw.text("id")
        try:
            card = _card(f.raw, packages, read)
            custom = customs.get(ability_id)
            if custom is not None:
                card = _customize(card, custom)
            card = with_bonuses(card, f.raw, bonuses or CardBonuses(), custom, warnings)
        except TooMany:
            raise
        except ForgeSteelError as error:
            warnings.append(f"The ability {f.raw.text('name')[:40] or ability_id[:40]} was left out: {error}")
            continue
        text += _text_size(card)
        if text > CARDS_TEXT_MAX:
            raise _too_much_text()
        out.append(HeroAbility(ability_id, f.source, card))
    return HeroAbilities(tuple(out), tuple(warnings))
