"""Which features a Forge Steel hero has: every feature that counts at its level, chosen options expanded, and
the choices left open (as Forge Steel's `HeroLogic.getFeatures`: docs/architecture.md, *Reading Forge Steel
files*). A feature type this code doesn't know is reported, never dropped in silence.

Public API: `ActiveFeature`, `OpenChoice`, `HeroFeatures`, `hero_features(hero, level)`,
`open_choices(features, ancestry_points)`, `KNOWN_TYPES`, `FEATURES_MAX`, `MAX_DEPTH`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.content.forgesteel.files import Fields, UnknownFormat, at_most

#: Feature types Forge Steel writes; those the sheet doesn't use (Text, Skill Choice ...) are still known.
KNOWN_TYPES = frozenset(
    {
        "Text", "Ability", "Ability Cost", "Abiliyy Cost", "Ability Damage", "Ability Distance", "Add-On",
        "Ancestry Choice", "Ancestry Feature Choice", "Bonus", "Characteristic Bonus", "Choice",
        "Class Ability", "Companion", "Condition Immunity", "Damage Modifier", "Domain", "Domain Feature",
        "Fixture", "Follower", "Heroic Resource", "Heroic Resource Gain", "Heroic Resource Threshold",
        "Item Choice", "Kit", "Kit Type", "Language", "Language Choice", "Malice", "Malice Ability",
        "Movement Mode", "Multiple Features", "Package", "Package Content", "Perk", "Proficiency",
        "Retainer", "Roll Modifier", "Save Threshold", "Size", "Skill", "Skill Choice", "Speed",
        "Subclass Feature", "Summon", "Summon Choice", "Tagged Feature", "Tagged Feature Choice", "Title",
    }
)  # fmt: skip
#: Choices picked by a list of objects or names under `selected`, open below `count` picks.
_PICKED = frozenset(
    {
        "Kit", "Perk", "Domain", "Domain Feature", "Skill Choice", "Language Choice", "Item Choice",
        "Tagged Feature Choice", "Title", "Summon Choice", "Subclass Feature",
    }
)  # fmt: skip
#: Choices of one object under `selected` (null while open).
_SINGLE = frozenset({"Ancestry Choice", "Ancestry Feature Choice", "Companion", "Retainer"})
#: Forge Steel nests a few levels (a kit inside a choice inside a multiple feature); deeper is not its file.
MAX_DEPTH = 24
FEATURES_MAX = 1000
"""The features that count a hero may have: a level-10 hero has about 150."""


@dataclass(frozen=True, slots=True)
class ActiveFeature:
    """A feature that counts, where it came from (`Dwarf`, `Fury`, `Berserker`, `Panther` ...), and the
    class level that gave it (None: not a class feature)."""

    feature: Fields
    source: str
    level: int | None = None

    @property
    def kind(self) -> str:
        return self.feature.text("type", "Text")

    @property
    def name(self) -> str:
        return self.feature.text("name") or self.kind

    @property
    def data(self) -> Fields:
        return self.feature.obj("data", f"data of feature {self.name[:40]}")


@dataclass(frozen=True, slots=True)
class OpenChoice:
    """A choice left open: its id, name, feature type, where it came from and when Forge Steel asks for it
    (`selectAt`: build, play, respite)."""

    id: str
    name: str
    kind: str
    source: str
    select_at: str = "build"


@dataclass(frozen=True, slots=True)
class HeroFeatures:
    """Every feature that counts, in Forge Steel's order (by name), and those of a type this code doesn't
    know."""

    features: tuple[ActiveFeature, ...]
    unknown: tuple[ActiveFeature, ...] = ()
    by_type: dict[str, tuple[ActiveFeature, ...]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        grouped: dict[str, list[ActiveFeature]] = {}
        for f in self.features:
            grouped.setdefault(f.kind, []).append(f)
        self.by_type.update((kind, tuple(found)) for kind, found in grouped.items())

    def of_type(self, kind: str) -> list[ActiveFeature]:
        return list(self.by_type.get(kind, ()))


@dataclass(slots=True)
class _Walk:
    level: int
    out: list[ActiveFeature] = field(default_factory=list)

    def add(self, feature: Fields, source: str, level: int | None = None, depth: int = 0) -> None:
        if depth > MAX_DEPTH:
            raise UnknownFormat(
                "That hero's features nest deeper than Forge Steel writes them: export it again from Forge "
                "Steel."
            )
        at_most(len(self.out) + 1, FEATURES_MAX, "features")
        active = ActiveFeature(feature, source, level)
        self.out.append(active)
        kind, data, deeper = active.kind, active.data, depth + 1
        if kind in ("Choice", "Domain Feature", "Perk", "Tagged Feature Choice", "Subclass Feature"):
            for chosen in data.objects("selected", f"choice of {active.name[:40]}"):
                self.add(chosen, source, level, deeper)
        elif kind == "Ancestry Feature Choice":
            chosen_one = data.optional("selected", f"choice of {active.name[:40]}")
            if chosen_one is not None:
                self.add(chosen_one, source, level, deeper)
        elif kind == "Multiple Features":
            for part in data.objects("features", f"part of {active.name[:40]}"):
                self.add(part, source, level, deeper)
        elif kind == "Kit":
            for kit in data.objects("selected", "kit"):
                for part in kit.objects("features", "kit feature"):
                    self.add(part, kit.text("name") or source, level, deeper)
        elif kind == "Domain":
            for domain in data.objects("selected", "domain"):
                for part in domain.objects("defaultFeatures", "domain feature"):
                    self.add(part, f"{domain.text('name')} Domain".strip(), level, deeper)
        elif kind == "Item Choice":
            for item in data.objects("selected", "item"):
                self.item(item, deeper)
        elif kind == "Title":
            for title in data.objects("selected", "title"):
                self.title(title, deeper)

    def title(self, title: Fields, depth: int = 0) -> None:
        wanted = title.text("selectedFeatureID")
        for part in title.objects("features", "title feature"):
            if part.text("id") == wanted:
                self.add(part, title.text("name") or "Title", None, depth + 1)

    def item(self, item: Fields, depth: int = 0) -> None:
        """An item's features of the hero's level and below, and its selected customizations (Forge Steel
        folds an item's text features into the item's description: they change no number)."""
        name = item.text("name") or "Item"
        for entry in item.objects("featuresByLevel", "item level"):
            if entry.integer("level", 1) <= self.level:
                for part in entry.objects("features", "item feature"):
                    if part.text("type", "Text") != "Text":
                        self.add(part, name, None, depth + 1)
        for entry in item.objects("customizationsByLevel", "item customization"):
            for option in entry.objects("features", "item customization"):
                if option.flag("selected"):
                    part = option.obj("feature", "item customization")
                    if part.text("type", "Text") != "Text":
                        self.add(part, name, None, depth + 1)
        self.imbued(item, name, depth)

    def imbued(self, item: Fields, name: str, depth: int) -> None:
        """An imbued treasure's enhancements, per tier enhanced (1st, 5th, 9th level): armor adds 6, 6 and 9
        Stamina; an implement 1 damage to Magic and to Psionic abilities; a weapon 1 to Weapon abilities."""
        kind = item.text("type").lower()
        if kind not in _IMBUED:
            return
        enhanced = {
            entry.integer("level")
            for entry in item.objects("customizationsByLevel", "item customization")
            if any(o.flag("selected") for o in entry.objects("features", "item customization"))
        }
        for tier in sorted(enhanced & {1, 5, 9}):
            for i, (feature_type, data) in enumerate(_IMBUED[kind](tier)):
                synthetic = {
                    "id": f"{name}-bonus-{tier}-{i}",
                    "name": name,
                    "type": feature_type,
                    "data": data,
                }
                self.add(Fields(synthetic, "item enhancement"), name, None, depth + 1)


def _armor(tier: int) -> list[tuple[str, dict[str, object]]]:
    return [("Bonus", {"field": "Stamina", "value": 9 if tier == 9 else 6})]


def _implement(tier: int) -> list[tuple[str, dict[str, object]]]:
    return [
        ("Ability Damage", {"keywords": [k], "value": 1, "damageType": "Damage"})
        for k in ("Magic", "Psionic")
    ]


def _weapon(tier: int) -> list[tuple[str, dict[str, object]]]:
    return [("Ability Damage", {"keywords": ["Weapon"], "value": 1, "damageType": "Damage"})]


_IMBUED: dict[str, Callable[[int], list[tuple[str, dict[str, object]]]]] = {
    "imbued armor": _armor,
    "imbued implement": _implement,
    "imbued weapon": _weapon,
}


def _named(obj: Fields) -> str:
    return obj.text("name")


def _part_features(walk: _Walk, hero: Fields, key: str) -> None:
    """The features of one part of the hero that lists them (ancestry, career, complication), each from it."""
    part = hero.optional(key, key)
    if part is not None:
        for f in part.objects("features", f"{key} feature"):
            walk.add(f, _named(part))


def hero_features(hero: Fields, level: int) -> HeroFeatures:
    """Every feature of `hero` (its top object) that counts at class level `level`."""
    walk = _Walk(level)
    _part_features(walk, hero, "ancestry")
    culture = hero.optional("culture", "culture")
    if culture is not None:
        for key in ("language", "environment", "organization", "upbringing"):
            part = culture.optional(key, f"culture {key}")
            if part is not None:
                walk.add(part, _named(culture))
    _part_features(walk, hero, "career")
    heroic_class = hero.optional("class", "class")
    if heroic_class is not None:
        _class_features(walk, heroic_class, level)
    _part_features(walk, hero, "complication")
    for f in hero.objects("features", "hero feature"):
        walk.add(f, "Customization")
    state = hero.obj("state", "hero state")
    for title in state.objects("titles", "title"):
        walk.title(title)
    for item in state.objects("inventory", "item"):
        walk.item(item)
    features = tuple(sorted(walk.out, key=_sort_key))
    return HeroFeatures(features, tuple(f for f in features if f.kind not in KNOWN_TYPES))


def _sort_key(active: ActiveFeature) -> str:
    """Forge Steel lists a hero's features by name, a leading "a " or "the " left out (its
    `Collections.sort`); the order decides which heroic resource comes first and the order of gains and
    kits."""
    name = active.feature.text("name")
    for start in ("a ", "the "):
        if name.lower().startswith(start):
            name = name[len(start) :]
    return name.casefold()


def _class_features(walk: _Walk, heroic_class: Fields, level: int) -> None:
    name = _named(heroic_class)
    for entry in heroic_class.objects("featuresByLevel", "class level"):
        at = entry.integer("level", 1)
        if at <= level:
            for f in entry.objects("features", "class feature"):
                walk.add(f, name, at)
    for subclass in heroic_class.objects("subclasses", "subclass"):
        if not subclass.flag("selected"):
            continue
        for entry in subclass.objects("featuresByLevel", "subclass level"):
            at = entry.integer("level", 1)
            if at <= level:
                for f in entry.objects("features", "subclass feature"):
                    walk.add(f, _named(subclass), at)


def open_choices(features: HeroFeatures, ancestry_points: int) -> tuple[OpenChoice, ...]:
    """The choices left open among `features` (`ancestry_points`: what a `count: "ancestry"` Choice
    spends)."""
    found = (_open(f, ancestry_points) for f in features.features)
    return tuple(c for c in found if c is not None)


def _open(active: ActiveFeature, ancestry_points: int) -> OpenChoice | None:
    kind, data = active.kind, active.data
    if kind == "Choice":
        is_open = _choice_open(data, ancestry_points)
    elif kind == "Class Ability":
        is_open = len(data.texts("selectedIDs")) < data.integer("count", 1)
    elif kind in _PICKED:
        is_open = len(data.items("selected")) < data.integer("count", 1)
    elif kind in _SINGLE:
        is_open = data.raw("selected") is None
    else:
        return None
    if not is_open:
        return None
    return OpenChoice(
        active.feature.text("id"), active.name, kind, active.source, data.text("selectAt", "build") or "build"
    )


def _choice_open(data: Fields, ancestry_points: int) -> bool:
    budget = ancestry_points if data.raw("count") == "ancestry" else data.integer("count", 1)
    chosen = {f.text("id") for f in data.objects("selected", "choice")}
    spent, free = 0, []
    for option in data.objects("options", "choice option"):
        value = option.integer("value", 1)
        if option.obj("feature", "choice option").text("id") in chosen:
            spent += value
        else:
            free.append(value)
    return any(v <= budget - spent for v in free)
