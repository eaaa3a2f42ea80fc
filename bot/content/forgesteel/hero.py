"""A Forge Steel hero export (`.ds-hero`, or an older `.drawsteel-hero`) read into the sheet the bot plays.

Features (`hero_features`), numbers (`hero_stats`), abilities (`hero_abilities`, with `hero_bonuses`) and
heroic resources (`hero_resources`) are computed as Forge Steel computes them; nothing is dropped in silence
(`warnings`), and a file the bot can't read raises a one-line `ForgeSteelError` (docs/architecture.md,
*Reading Forge Steel files*). Public API: `read_hero(data) -> ImportedHero`, `ImportedHero`, `Potency`,
`HeroState`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.content.forgesteel import hero_stats as stats
from bot.content.forgesteel.files import BadValue, Fields, ForgeSteelError, Kind, ReadBudget, load_export
from bot.content.forgesteel.hero_abilities import HeroAbilities, HeroAbility, hero_abilities
from bot.content.forgesteel.hero_bonuses import CardBonuses, card_bonuses, free_strike_distances, unapplied
from bot.content.forgesteel.hero_features import (
    ActiveFeature,
    HeroFeatures,
    OpenChoice,
    hero_features,
    open_choices,
)
from bot.content.forgesteel.hero_resources import HeroResource, hero_resources
from bot.content.forgesteel.hero_stats import Size
from bot.content.monster import echelon
from bot.rules.characteristics import Characteristics
from bot.rules.damage import DamageModifiers, potency_value
from bot.rules.damage import Potency as Strength
from bot.rules.errors import RuleError
from bot.rules.kit import Kit, KitDamageBonus, damage_bonuses

LEVEL_MAX = 10
"""Forge Steel's classes run from level 1 to 10."""

#: Features the sheet keeps no number for, though they change a strike or a test: reported once each.
_NOT_APPLIED = {
    "Ability Cost": "a different cost",
    "Abiliyy Cost": "a different cost",  # how older files spell it
}


@dataclass(frozen=True, slots=True)
class Potency:
    """The hero's potencies: highest characteristic − 2, − 1 and ± 0 (Draw Steel, Combat, "Potency")."""

    weak: int
    average: int
    strong: int


@dataclass(frozen=True, slots=True)
class HeroState:
    """What the file says of the hero in play (taken only when the player asks: `use_state`)."""

    stamina_damage: int = 0
    temporary_stamina: int = 0
    recoveries_used: int = 0
    surges: int = 0
    victories: int = 0
    xp: int = 0
    hero_tokens: int = 0
    heroic_resource: int = 0


@dataclass(frozen=True, slots=True)
class ImportedHero:
    """A hero as read from a Forge Steel export: who, the computed numbers, kits, resources, abilities, the
    file's play state, and what couldn't be used (`open_choices`, `warnings`)."""

    forge_steel_id: str
    name: str
    level: int
    class_name: str
    characteristics: Characteristics
    stamina: int
    recoveries: int
    recovery_value: int
    ancestry: str = ""
    culture: str = ""
    career: str = ""
    subclass: str = ""
    complication: str = ""
    size: Size = field(default_factory=Size)
    speed: int = 5
    movement: tuple[str, ...] = ()
    stability: int = 0
    disengage: int = 1
    save_threshold: int = 6
    resources: tuple[HeroResource, ...] = ()
    kits: tuple[Kit, ...] = ()
    modifiers: DamageModifiers = field(default_factory=DamageModifiers)
    condition_immunities: tuple[str, ...] = ()
    abilities: tuple[HeroAbility, ...] = ()
    skills: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    perks: tuple[str, ...] = ()
    melee_distance_bonus: int = 0
    ranged_distance_bonus: int = 0
    state: HeroState = field(default_factory=HeroState)
    open_choices: tuple[OpenChoice, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def echelon(self) -> int:
        return echelon(self.level)

    @property
    def winded(self) -> int:
        """Winded at half the Stamina maximum, rounded down (Draw Steel, Combat, "Stamina")."""
        return self.stamina // 2

    @property
    def dead(self) -> int:
        """A hero dies at the negative of their winded value."""
        return -self.winded

    @property
    def potency(self) -> Potency:
        """The three potencies, by the one rule (`bot.rules.damage.potency_value`)."""
        strengths = (Strength.WEAK, Strength.AVERAGE, Strength.STRONG)
        weak, average, strong = (potency_value(s, self.characteristics) for s in strengths)
        return Potency(weak, average, strong)

    @property
    def surge_damage(self) -> int:
        """A surge adds damage equal to the highest characteristic (Draw Steel, Combat, "Surges")."""
        return self.characteristics.highest

    @property
    def heroic_resource(self) -> HeroResource | None:
        """The class's heroic resource (the first that isn't epic)."""
        return next((r for r in self.resources if not r.epic), None)

    @property
    def kit_damage_bonuses(self) -> tuple[KitDamageBonus, ...]:
        return damage_bonuses(self.kits)


def read_hero(data: bytes, budget: ReadBudget | None = None) -> ImportedHero:
    """A `.ds-hero` (or `.drawsteel-hero`) export as the hero the bot keeps, or a one-line
    `ForgeSteelError` saying what to upload instead. Read within `budget` (by default a fresh `ReadBudget`
    of the calling thread's CPU: call it in the thread that reads)."""
    _, top = load_export(data, Kind.HERO, budget=budget or ReadBudget())
    try:
        return _hero(top)
    except ForgeSteelError:
        raise
    except RuleError as error:
        raise BadValue(f"That hero has a value the bot can't use: {error}") from None


def _name(top: Fields, key: str) -> str:
    part = top.optional(key, key)
    return part.text("name") if part is not None else ""


def _level(heroic_class: Fields) -> int:
    level = heroic_class.integer("level", 1)
    if not 1 <= level <= LEVEL_MAX:
        raise BadValue(f"That hero's level is {level}: a Forge Steel hero is level 1 to {LEVEL_MAX}.")
    return level


@dataclass(frozen=True, slots=True)
class _Build:
    """What the file's class and features come to at the hero's level: the class object, the level, the
    features that count, the characteristics and the kits."""

    heroic_class: Fields
    level: int
    found: HeroFeatures
    scores: stats.Scores
    kits: tuple[Kit, ...]

    @property
    def features(self) -> tuple[ActiveFeature, ...]:
        return self.found.features

    def bonus(self, name: str) -> int:
        """The features' Bonus to one field ("Stamina", "Speed", ...)."""
        return stats.bonus_total(self.features, name, self.scores, self.level)


def _build(top: Fields) -> _Build:
    heroic_class = top.optional("class", "class")
    if heroic_class is None:
        raise BadValue("That hero has no class yet: choose one in Forge Steel, then export it again.")
    level = _level(heroic_class)
    found = hero_features(top, level)
    scores = stats.scores(heroic_class, found.features)
    return _Build(heroic_class, level, found, scores, stats.hero_kits(found.features))


def _hero(top: Fields) -> ImportedHero:
    build = _build(top)
    found, features, kits, bonus = build.found, build.features, build.kits, build.bonus
    stamina = _stamina(build)
    ancestry = _ancestry(top, build)
    choices = open_choices(found, ancestry.points)
    bonuses = card_bonuses(features, kits, build.scores, build.level)
    read = hero_abilities(top, found, bonuses)
    reach = free_strike_distances(bonuses)
    resources = hero_resources(found) or _older_resource(build.heroic_class)
    modifiers = stats.damage_modifiers(features, build.scores, build.level)
    warnings = _warnings(found, choices, read, bonuses, modifiers, resources)
    return ImportedHero(
        forge_steel_id=top.text("id"),
        name=top.text("name") or "Unnamed Hero",
        level=build.level,
        class_name=build.heroic_class.text("name"),
        characteristics=Characteristics(**{c.value: v for c, v in build.scores.items()}),
        stamina=stamina,
        recoveries=bonus("Recoveries"),
        recovery_value=stamina // 3 + bonus("Recovery Value"),
        ancestry=_name(top, "ancestry"),
        culture=_name(top, "culture"),
        career=_name(top, "career"),
        subclass=_subclasses(build.heroic_class),
        complication=_name(top, "complication"),
        size=ancestry.size,
        speed=stats.base_speed(features) + stats.best(kits, "speed") + bonus("Speed"),
        movement=stats.movement_modes(features),
        stability=stats.best(kits, "stability") + bonus("Stability"),
        disengage=1 + stats.best(kits, "disengage") + bonus("Disengage"),
        save_threshold=stats.save_threshold(features),
        resources=resources,
        kits=kits,
        modifiers=modifiers,
        condition_immunities=_condition_immunities(found),
        abilities=read.abilities,
        skills=_chosen_names(found, "Skill Choice", "Skill", "skill"),
        languages=_chosen_names(found, "Language Choice", "Language", "language"),
        perks=_perks(found),
        melee_distance_bonus=reach.melee,
        ranged_distance_bonus=reach.ranged,
        state=_state(top, found),
        open_choices=choices,
        warnings=warnings,
    )


def _warnings(
    found: HeroFeatures,
    choices: Sequence[OpenChoice],
    read: HeroAbilities,
    bonuses: CardBonuses,
    modifiers: DamageModifiers,
    resources: Sequence[HeroResource],
) -> tuple[str, ...]:
    """What of the file the bot couldn't use, each line once: choices left open, features it doesn't know,
    abilities left out, bonuses not applied, unknown damage types, a missing heroic resource."""
    warnings = [
        *(_open_warning(c) for c in choices),
        *_feature_warnings(found),
        *read.warnings,
        *unapplied(bonuses, [a.card for a in read.abilities]),
        *(f"Immunity or weakness to `{t[:30]}` damage: no damage of that type exists." for t in
          stats.unknown_damage_types(modifiers)),
    ]  # fmt: skip
    if not resources:
        warnings.append("The file names no heroic resource: set it with /hero edit.")
    return tuple(dict.fromkeys(warnings))


def _stamina(build: _Build) -> int:
    """The Stamina maximum: the best kit's Stamina per echelon plus the features' Bonus; refused below 1."""
    stamina = stats.best(build.kits, "stamina") * echelon(build.level) + build.bonus("Stamina")
    if stamina < 1:
        raise BadValue(
            f"That hero's Stamina maximum comes to {stamina}: finish the hero in Forge Steel (class and "
            "kit), then export it again."
        )
    return stamina


@dataclass(frozen=True, slots=True)
class _Ancestry:
    """The hero's ancestry points (to tell which ancestry choices are left open) and size."""

    points: int
    size: Size


def _ancestry(top: Fields, build: _Build) -> _Ancestry:
    ancestry = top.optional("ancestry", "ancestry")
    points = (ancestry.integer("ancestryPoints") if ancestry is not None else 0) + build.bonus(
        "Ancestry Points"
    )
    size = stats.hero_size(build.features)
    if ancestry is not None and ancestry.text("id") == "ancestry-revenant" and size == Size(1, "S"):
        points += 1  # a small revenant has one more ancestry point (Forge Steel's getAncestryPoints)
    return _Ancestry(points, size)


def _subclasses(heroic_class: Fields) -> str:
    return ", ".join(
        s.text("name") for s in heroic_class.objects("subclasses", "subclass") if s.flag("selected")
    )


def _perks(found: HeroFeatures) -> tuple[str, ...]:
    return tuple(p.text("name") for f in found.of_type("Perk") for p in f.data.objects("selected", "perk"))


def _older_resource(heroic_class: Fields) -> tuple[HeroResource, ...]:
    """Older files name the class's resource on the class (`heroicResource`), without its gains."""
    name = heroic_class.raw("heroicResource")
    return (HeroResource(name),) if isinstance(name, str) and name else ()


def _condition_immunities(found: HeroFeatures) -> tuple[str, ...]:
    names = {c for f in found.of_type("Condition Immunity") for c in f.data.texts("conditions")}
    return tuple(sorted(names))


def _chosen_names(found: HeroFeatures, choice: str, single: str, key: str) -> tuple[str, ...]:
    """Skills or languages: those chosen and those granted, each once, sorted as Forge Steel sorts them."""
    names = [n for f in found.of_type(choice) for n in f.data.texts("selected")]
    names += [f.data.text(key) for f in found.of_type(single)]
    return tuple(sorted({n for n in names if n}, key=sort_key))


def sort_key(name: str) -> str:
    """How Forge Steel orders names in a list: a leading "A " and then "The " ignored, case ignored
    (`The Silent Tongue` sorts under S)."""
    key = name.casefold()
    for article in ("a ", "the "):
        key = key.removeprefix(article)
    return key


def _label(name: str, source: str) -> str:
    """`Runic Carving (Dwarf)`: a feature as a warning names it (the file's text, cut short)."""
    return f"{name[:60]} ({source[:40]})"


def _open_warning(choice: OpenChoice) -> str:
    when = {"play": " (chosen in play)", "respite": " (chosen at a respite)"}.get(choice.select_at, "")
    return (
        f"{_label(choice.name, choice.source)} is a choice left open{when}: the bot used nothing from it; "
        "choose it in Forge Steel and import again."
    )


def _feature_warnings(found: HeroFeatures) -> list[str]:
    out = [
        f"{_label(f.name, f.source)} is a `{f.kind[:30]}` feature this bot doesn't know: it was left out."
        for f in found.unknown
    ]
    for f in found.features:
        data = f.data
        if f.kind == "Bonus" and stats.field_key(data.text("field")) not in stats.BONUS_FIELDS:
            field_name = data.text("field")[:30]
            out.append(f"{_label(f.name, f.source)} adds to `{field_name}`, which the bot doesn't keep.")
        if f.kind in ("Bonus", "Ability Damage", "Ability Distance") and data.raw("valueFromController"):
            out.append(f"{_label(f.name, f.source)} takes its value from a controlling hero: counted as 0.")
        if f.kind in _NOT_APPLIED:
            keywords = ", ".join(data.texts("keywords"))[:60] or "all"
            out.append(
                f"{_label(f.name, f.source)} gives {keywords} abilities {_NOT_APPLIED[f.kind]}: the bot "
                "doesn't add it; give it at the strike."
            )
    return out


def _state(top: Fields, found: HeroFeatures) -> HeroState:
    state = top.obj("state", "hero state")
    heroic = (f for f in found.of_type("Heroic Resource") if f.data.text("type", "heroic") != "epic")
    resource = next((f.data.integer("value") for f in heroic), None)
    return HeroState(
        stamina_damage=state.integer("staminaDamage"),
        temporary_stamina=state.integer("staminaTemp"),
        recoveries_used=state.integer("recoveriesUsed"),
        surges=state.integer("surges"),
        victories=state.integer("victories"),
        xp=state.integer("xp"),
        hero_tokens=state.integer("heroTokens"),
        heroic_resource=resource if resource is not None else state.integer("heroicResource"),
    )
