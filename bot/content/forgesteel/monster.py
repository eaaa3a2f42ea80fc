"""Forge Steel monsters and monster groups (`.ds-monster`, `.ds-monster-group`) read into stat blocks
(`bot.content.monster`), as Forge Steel's `MonsterLogic` computes the values a table plays with (how:
docs/architecture.md, *Reading Forge Steel files*).

Rules: Draw Steel, Combat, "Stamina" (winded at half), "DAMAGE IMMUNITY", "DAMAGE WEAKNESS", "Free
Strikes". Public API: `read_monster(data) -> Monster`, `read_monster_group(data) -> MonsterGroup`;
`characteristic(name)` and `modifier_value(data, scores, level)` (the hero import shares them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from bot.content.forgesteel.ability_json import read_ability
from bot.content.forgesteel.files import BadValue, Fields, ForgeSteelError, Kind, UnknownFormat, load_export
from bot.content.monster import FREE_STRIKE_DISTANCE, Monster, MonsterGroup, Organization, Trait, echelon
from bot.rules.ability import Ability, ActionType
from bot.rules.characteristics import Characteristic, Characteristics
from bot.rules.damage import ALL, DamageError, DamageModifier, DamageModifiers, DamageType
from bot.rules.errors import RuleError

_ORGANIZATIONS: dict[str, Organization] = {
    "minion": Organization.MINION,
    "horde": Organization.HORDE,
    "band": Organization.HORDE,
    "platoon": Organization.PLATOON,
    "elite": Organization.ELITE,
    "troop": Organization.ELITE,
    "leader": Organization.LEADER,
    "solo": Organization.SOLO,
    "retainer": Organization.RETAINER,
    "companion": Organization.COMPANION,
    "no organization": Organization.NONE,
}
#: Stat-block numbers a Bonus feature can raise, by Forge Steel's `FeatureField` (spaces and case ignored).
_BONUS_FIELDS = ("stamina", "stability", "speed", "freestrikedamage")
T = TypeVar("T")


def _features(features: list[Fields]) -> Iterator[Fields]:
    """The features, with those inside Multiple Features and a Choice's selected options in their place."""
    for feature in features:
        kind = feature.text("type")
        data = feature.obj("data", "feature data")
        if kind == "Multiple Features":
            yield from _features(data.objects("features", "feature"))
        elif kind == "Choice":
            yield from _features(data.objects("selected", "feature"))
        else:
            yield feature


def _scores(monster: Fields, features: list[Fields]) -> dict[Characteristic, int]:
    scores = dict.fromkeys(Characteristic, 0)
    for entry in monster.objects("characteristics", "characteristic"):
        scores[characteristic(entry.text("characteristic"))] = entry.integer("value")
    for feature in features:
        if feature.text("type") == "Characteristic Bonus":
            data = feature.obj("data", "feature data")
            scores[characteristic(data.text("characteristic"))] += data.integer("value")
    return scores


def characteristic(name: str) -> Characteristic:
    for c in Characteristic:
        if c.value == name.strip().lower():
            return c
    raise UnknownFormat(
        f"A characteristic `{name[:30]}` isn't one this bot knows: export the file again from Forge Steel."
    )


def modifier_value(data: Fields, scores: dict[Characteristic, int], level: int) -> int:
    """A Bonus or damage modifier's value for this monster: its `value`, plus the highest of its
    `valueCharacteristics` times `valueCharacteristicMultiplier`, plus `valuePerLevel` per level above 1, plus
    `valuePerEchelon` per echelon (`bot.content.monster.echelon`). A value taken from a controlling
    hero (`valueFromController`, for summons and companions) is 0 for a monster on its own."""
    value = 0 if data.raw("valueFromController") else data.integer("value")
    names = data.texts("valueCharacteristics")
    if names:
        highest = max(scores[characteristic(n)] for n in names)
        value += highest * (data.integer("valueCharacteristicMultiplier", 1) or 1)
    value += data.integer("valuePerLevel") * (level - 1)
    value += data.integer("valuePerEchelon") * echelon(level)
    return value


def _bonuses(features: list[Fields], scores: dict[Characteristic, int], level: int) -> dict[str, int]:
    out = dict.fromkeys(_BONUS_FIELDS, 0)
    for feature in features:
        if feature.text("type") != "Bonus":
            continue
        data = feature.obj("data", "feature data")
        key = "".join(data.text("field").lower().split())
        if key in out:
            out[key] += modifier_value(data, scores, level)
    return out


def _damage_type_key(name: str) -> str:
    key = name.strip().lower()
    return ALL if key in ("damage", "all", "") else key


def _modifiers(features: list[Fields], scores: dict[Characteristic, int], level: int) -> DamageModifiers:
    largest: dict[str, list[int]] = {}
    for feature in features:
        if feature.text("type") != "Damage Modifier":
            continue
        for dm in feature.obj("data", "feature data").objects("modifiers", "damage modifier"):
            kind = dm.text("type").lower()
            if kind not in ("immunity", "weakness"):
                raise UnknownFormat(f"A damage modifier of type `{kind[:20]}` isn't one this bot knows.")
            pair = largest.setdefault(_damage_type_key(dm.text("damageType")), [0, 0])
            index = 0 if kind == "immunity" else 1
            pair[index] = max(pair[index], modifier_value(dm, scores, level))
    immunities = tuple(DamageModifier(k, i - w) for k, (i, w) in sorted(largest.items()) if i > w)
    weaknesses = tuple(DamageModifier(k, w - i) for k, (i, w) in sorted(largest.items()) if w > i)
    return DamageModifiers(immunities, weaknesses)


def _free_strike_distance(abilities: list[tuple[Fields, Ability]]) -> int:
    distance = FREE_STRIKE_DISTANCE
    for raw, ability in abilities:
        if not ability.signature:
            continue
        for d in raw.objects("distance", "ability distance"):
            if d.text("type").lower() == "ranged":
                distance = max(distance, d.integer("value"))
    return distance


def _organization(role: Fields) -> Organization:
    return role.known(
        "organization",
        "Platoon",
        _ORGANIZATIONS,
        "The organization",
        "export the file again, or enter the monster with /monster add.",
    )


def _free_strike_type(name: str) -> DamageType:
    key = name.strip().lower()
    if key in ("", "damage"):
        return DamageType.UNTYPED
    try:
        return DamageType.parse(key)
    except DamageError:
        raise UnknownFormat(f"The free-strike damage type `{name[:30]}` isn't one this bot knows.") from None


def _retainer(monster: Fields, level: int) -> tuple[int, list[Fields], dict[str, int]]:
    """A retainer levelled up by its hero: its level now, the features its levels gave it, and what its
    levels add (9 Stamina a level; 2 free-strike damage at each level divisible by 3)."""
    retainer = monster.optional("retainer", "retainer")
    now = retainer.integer("level") if retainer is not None else 0
    if retainer is None or not now:
        return level, [], {}
    gained = [
        entry.obj("feature", "feature")
        for entry in retainer.objects("featuresByLevel", "retainer level")
        if entry.raw("feature") is not None and entry.integer("level") <= now
    ]
    levels = range(level + 1, min(now, 10) + 1)
    return (
        now,
        gained,
        {"stamina": 9 * (now - level), "freestrikedamage": 2 * sum(lv % 3 == 0 for lv in levels)},
    )


def _monster(monster: Fields, group: str = "") -> Monster:
    level, gained, levelled = _retainer(monster, monster.integer("level", 1))
    features = list(_features([*monster.objects("features", "feature"), *gained]))
    scores = _scores(monster, features)
    bonus = _bonuses(features, scores, level)
    for key, extra in levelled.items():
        bonus[key] += extra
    role = monster.obj("role", "monster role")
    role_type = role.text("type")
    abilities: list[tuple[Fields, Ability]] = []
    traits: list[Trait] = []
    immune: dict[str, None] = {}
    for feature in features:
        kind = feature.text("type")
        data = feature.obj("data", "feature data")
        if kind == "Ability":
            raw = data.obj("ability", "ability")
            abilities.append((raw, read_ability(raw)))
            continue
        if kind == "Condition Immunity":
            immune.update(dict.fromkeys(data.texts("conditions")))
        traits.append(Trait(feature.text("name"), kind, feature.text("description")))
    speed = monster.obj("speed", "monster speed")
    size = monster.obj("size", "monster size")
    name = monster.text("name") or (f"{group} {role_type}".strip() if group else "") or "Unnamed Monster"
    return Monster(
        id=monster.text("id"),
        name=name,
        group=group,
        level=level,
        role=role_type,
        organization=_organization(role),
        keywords=monster.texts("keywords"),
        encounter_value=monster.integer("encounterValue"),
        size=f"{size.integer('value', 1)}{size.text('mod')}",
        speed=speed.integer("value") + bonus["speed"],
        movement=speed.texts("modes"),
        stamina=monster.integer("stamina") + bonus["stamina"],
        stability=monster.integer("stability") + bonus["stability"],
        free_strike=monster.integer("freeStrikeDamage") + bonus["freestrikedamage"],
        free_strike_type=_free_strike_type(monster.text("freeStrikeType", "Damage")),
        free_strike_distance=_free_strike_distance(abilities),
        characteristics=Characteristics(**{c.value: v for c, v in scores.items()}),
        modifiers=_modifiers(features, scores, level),
        condition_immunities=tuple(immune),
        abilities=tuple(a for _, a in abilities),
        traits=tuple(traits),
        with_captain=monster.text("withCaptain"),
    )


def _malice(feature: Fields) -> Ability:
    """A group's Malice feature as an ability costing its Malice (`Malice`; or `Malice Ability`, an
    ability)."""
    kind = feature.text("type")
    data = feature.obj("data", "feature data")
    if kind in ("Ability", "Malice Ability") and "ability" in data:
        return read_ability(data.obj("ability", "ability"))
    parts = [feature.text("description")]
    for section in data.items("sections"):
        if isinstance(section, str):
            parts.append(section)
        elif isinstance(section, dict):
            parts.append(Fields(section, "malice section").text("text"))
    return Ability(
        name=feature.text("name") or "Malice",
        action=ActionType.NO_ACTION,
        cost=max(0, data.integer("cost")),
        effect="\n\n".join(p for p in parts if p),
    )


def _build(make: Callable[[], T]) -> T:
    """Build a stat block, a value the rules refuse (a characteristic out of range ...) becoming the file's
    typed error."""
    try:
        return make()
    except ForgeSteelError:
        raise
    except RuleError as error:
        raise BadValue(f"That file has a value the bot can't use: {error}") from None


def read_monster(data: bytes) -> Monster:
    """A `.ds-monster` export as a stat block (or a `ForgeSteelError` saying what to upload instead)."""
    _, top = load_export(data, Kind.MONSTER)
    return _build(lambda: _monster(top))


def read_monster_group(data: bytes) -> MonsterGroup:
    """A `.ds-monster-group` export: its monsters (each keeping the group's name) and its Malice features."""
    _, top = load_export(data, Kind.MONSTER_GROUP)

    def build() -> MonsterGroup:
        name = top.text("name")
        return MonsterGroup(
            id=top.text("id"),
            name=name,
            monsters=tuple(_monster(m, name) for m in top.objects("monsters", "monster")),
            malice=tuple(_malice(f) for f in top.objects("malice", "Malice feature")),
            information=tuple(
                Trait(i.text("name"), "Information", i.text("description"))
                for i in top.objects("information", "information")
            ),
        )

    return _build(build)
