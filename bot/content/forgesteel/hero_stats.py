"""A Forge Steel hero's numbers, computed from the features that count (Forge Steel doesn't store them),
as its `HeroLogic` derives them (docs/architecture.md, *Reading Forge Steel files*).

Rules: Draw Steel, Combat, "Stamina", "Recoveries and Recovery Value", "Potency", "Surges".
Public API: `scores`, `bonus_total`, `read_kit`, `hero_kits`, `KITS_MAX`, `damage_modifiers`, `Size`,
`hero_size`, `base_speed`, `save_threshold`, `BONUS_FIELDS`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.content.forgesteel.files import Fields, at_most
from bot.content.forgesteel.hero_features import ActiveFeature
from bot.content.forgesteel.monster import characteristic, modifier_value
from bot.rules.characteristics import Characteristic
from bot.rules.damage import ALL, DamageModifier, DamageModifiers, DamageType
from bot.rules.kit import Kit, TierValues

Scores = dict[Characteristic, int]

#: Forge Steel's `FeatureField`s, spaces and case ignored: those the sheet uses and those it knows but
#: doesn't keep (a Bonus to any other field is reported).
BONUS_FIELDS = frozenset(
    {
        "stamina", "recoveries", "recoveryvalue", "stability", "speed", "disengage", "save", "renown",
        "projectpoints", "wealth", "ancestrypoints", "forcedmovementpush", "forcedmovementpull",
        "forcedmovementslide",
    }
)  # fmt: skip
_DAMAGE_TYPES = frozenset(t.value for t in DamageType)


def field_key(name: str) -> str:
    """`Recovery Value` -> `recoveryvalue`: how a Bonus's `field` is compared."""
    return "".join(name.lower().split())


def scores(heroic_class: Fields | None, features: Iterable[ActiveFeature]) -> Scores:
    """The five characteristics: the class's scores plus the Characteristic Bonus features."""
    out = dict.fromkeys(Characteristic, 0)
    if heroic_class is not None:
        for entry in heroic_class.objects("characteristics", "characteristic"):
            out[characteristic(entry.text("characteristic"))] += entry.integer("value")
    for f in features:
        if f.kind == "Characteristic Bonus":
            out[characteristic(f.data.text("characteristic"))] += f.data.integer("value")
    return out


def bonus_total(features: Iterable[ActiveFeature], name: str, scores: Scores, level: int) -> int:
    """The sum of the Bonus features on the field `name` (`Stamina`, `Recovery Value` ...)."""
    key = field_key(name)
    return sum(
        modifier_value(f.data, scores, level)
        for f in features
        if f.kind == "Bonus" and field_key(f.data.text("field")) == key
    )


def _tiers(damage: Fields | None) -> TierValues | None:
    if damage is None:
        return None
    return (damage.integer("tier1"), damage.integer("tier2"), damage.integer("tier3"))


def read_kit(kit: Fields) -> Kit:
    """One kit object (`src/models/kit.ts`); a field older files lack counts 0 (or no damage bonus)."""
    return Kit(
        name=kit.text("name") or "Kit",
        stamina=kit.integer("stamina"),
        speed=kit.integer("speed"),
        stability=kit.integer("stability"),
        disengage=kit.integer("disengage"),
        melee_distance=kit.integer("meleeDistance"),
        ranged_distance=kit.integer("rangedDistance"),
        melee_damage=_tiers(kit.optional("meleeDamage", "kit melee damage")),
        ranged_damage=_tiers(kit.optional("rangedDamage", "kit ranged damage")),
    )


KITS_MAX = 10
"""The kits a hero may have (Forge Steel's classes give one or two): kits are compared pairwise."""


def hero_kits(features: Iterable[ActiveFeature]) -> tuple[Kit, ...]:
    """The kits selected in the Kit features that count (more than `KITS_MAX`: `TooMany`)."""
    selected = [k for f in features if f.kind == "Kit" for k in f.data.objects("selected", "kit")]
    at_most(len(selected), KITS_MAX, "kits")
    return tuple(read_kit(k) for k in selected)


def best(kits: Iterable[Kit], attribute: str) -> int:
    """The best kit's value of `attribute` (0 without a kit)."""
    return max((int(getattr(k, attribute)) for k in kits), default=0)


def damage_type_key(name: str) -> str:
    """A damage modifier's type as the damage pipeline keys it: `Damage` (any damage) is `all`."""
    key = name.strip().lower()
    return ALL if key in ("damage", "all", "") else key


def damage_modifiers(features: Iterable[ActiveFeature], scores: Scores, level: int) -> DamageModifiers:
    """The hero's immunities and weaknesses: per damage type the largest of each, as Forge Steel lists them
    (one worth 0 kept, a negative one dropped: it would add damage); types the bot doesn't know are kept by
    name."""
    largest: dict[str, dict[str, int]] = {"immunity": {}, "weakness": {}}
    for f in features:
        if f.kind != "Damage Modifier":
            continue
        for dm in f.data.objects("modifiers", "damage modifier"):
            side = largest.get(dm.text("type").lower())
            if side is None:
                continue
            key = damage_type_key(dm.text("damageType"))
            value = modifier_value(dm, scores, level)
            side[key] = max(side.get(key, value), value)
    return DamageModifiers(
        tuple(DamageModifier(k, v) for k, v in sorted(largest["immunity"].items()) if v >= 0),
        tuple(DamageModifier(k, v) for k, v in sorted(largest["weakness"].items()) if v >= 0),
    )


def unknown_damage_types(modifiers: DamageModifiers) -> list[str]:
    """Damage types of `modifiers` that no damage of the bot has (they never apply)."""
    known = _DAMAGE_TYPES | {ALL}
    return [m.dtype for m in (*modifiers.immunities, *modifiers.weaknesses) if m.dtype not in known]


@dataclass(frozen=True, slots=True)
class Size:
    """A creature's size: 1 with a modifier (T, S, M, L) or 2 and up."""

    value: int = 1
    mod: str = "M"

    def format(self) -> str:
        return f"{self.value}{self.mod if self.value == 1 else ''}"


def hero_size(features: Iterable[ActiveFeature]) -> Size:
    """The largest Size feature's size (the first modifier written at size 1); without one, that of the
    former ancestry an Ancestry Choice names (a revenant's); else 1M."""
    features = list(features)
    sizes = [f.data.obj("size", "size") for f in features if f.kind == "Size"]
    if not sizes:
        former = [
            a
            for f in features
            if f.kind == "Ancestry Choice"
            if (a := f.data.optional("selected")) is not None
        ]
        sizes = [
            part.obj("data", "feature data").obj("size", "size")
            for a in former
            for part in a.objects("features", "ancestry feature")
            if part.text("type") == "Size"
        ]
    if not sizes:
        return Size()
    value = max(s.integer("value", 1) for s in sizes)
    mods = [s.text("mod") for s in sizes]
    return Size(value, mods[0] if value == 1 else "")


def base_speed(features: Iterable[ActiveFeature]) -> int:
    """The best Speed feature's speed, else 5."""
    speeds = [f.data.integer("speed") for f in features if f.kind == "Speed"]
    return max(speeds) if speeds else 5


def movement_modes(features: Iterable[ActiveFeature]) -> tuple[str, ...]:
    """The Movement Mode features' modes (fly, climb ...), each once, sorted."""
    return tuple(sorted({f.data.text("mode") for f in features if f.kind == "Movement Mode"} - {""}))


def save_threshold(features: Iterable[ActiveFeature]) -> int:
    """The lowest of 6 and the Save Threshold features' values."""
    return min([6, *(f.data.integer("value", 6) for f in features if f.kind == "Save Threshold")])
