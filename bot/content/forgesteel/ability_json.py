"""A Forge Steel ability object (`src/models/ability.ts`) read into the shared `Ability` card.

Rules: Draw Steel, Combat, "Power Rolls" (the roll adds the highest of its characteristics).
"""

from __future__ import annotations

from bot.content.forgesteel.files import Fields, UnknownFormat
from bot.rules.ability import Ability, ActionType, PowerRollSpec
from bot.rules.characteristics import Characteristic, CharacteristicError

#: Forge Steel's `AbilityUsage` values -> the card's action type (`Action` is the older name of a main action;
#: a free strike is used as a main action).
_USAGES: dict[str, ActionType] = {
    "main action": ActionType.MAIN,
    "action": ActionType.MAIN,
    "free strike": ActionType.MAIN,
    "maneuver": ActionType.MANEUVER,
    "move action": ActionType.MOVE,
    "triggered action": ActionType.TRIGGERED,
    "no action": ActionType.NO_ACTION,
    "villain action": ActionType.VILLAIN,
    "other": ActionType.NO_ACTION,
}
#: Distance types written number first ("4 Burst", "10 x 1 Line within 1"); the rest are "Melee 1".
_AREAS = frozenset({"burst", "cube", "line", "wall"})


def _action(kind: Fields) -> ActionType:
    found = kind.known(
        "usage",
        "Main Action",
        _USAGES,
        "An ability's usage",
        "export it again from Forge Steel, or enter the ability by hand.",
    )
    return ActionType.from_text(found.value, free=kind.flag("free"))


def format_distance(distance: Fields, bonus: int = 0) -> str:
    """`Melee 1`, `Ranged 10`, `Aura 2`, `4 Burst`, `3 Cube within 10`, `10 x 1 Line within 1`, `Self`, or
    the special text, as Forge Steel shows them. `bonus` lengthens a Melee or Ranged distance (a hero's kit
    and features: `hero_bonuses`); Forge Steel leaves areas, auras and `within` as written."""
    kind = distance.text("type")
    qualifier = distance.text("qualifier")
    if kind.lower() == "self":
        text = "Self"
    elif kind.lower() == "special":
        return distance.text("special") or "Special"
    elif kind.lower() == "summoner":
        text = "Summoner Range"
    else:
        value = distance.integer("value")
        if kind.lower() in ("melee", "ranged"):
            value += bonus
        if kind.lower() == "line":
            text = f"{value} x {distance.integer('value2')} {kind}"
        elif kind.lower() in _AREAS:
            text = f"{value} {kind}"
        else:
            text = f"{kind} {value}"
        within = distance.integer("within")
        if within:
            text += f" within {within}"
    return f"{text} ({qualifier})" if qualifier else text


def _characteristics(names: tuple[str, ...]) -> tuple[Characteristic, ...]:
    try:
        return tuple(dict.fromkeys(Characteristic.from_text(n) for n in names))
    except CharacteristicError:
        raise UnknownFormat(
            f"A power roll names a characteristic this bot doesn't know ({', '.join(names)[:60]}): export it "
            "again from Forge Steel, or enter the ability by hand."
        ) from None


def _roll(roll: Fields) -> PowerRollSpec:
    tiers = (roll.text("tier1"), roll.text("tier2"), roll.text("tier3"))
    return PowerRollSpec(_characteristics(roll.texts("characteristic")), tiers, roll.integer("bonus"))


def _field(section: Fields) -> str:
    name = section.text("name") or "Spend"
    value = section.integer("value")
    label = f"{name} {value}{'+' if section.flag('repeatable') else ''}" if value else name
    return f"**{label}:** {section.text('effect')}"


def _sections(ability: Fields) -> tuple[PowerRollSpec | None, list[str]]:
    """The power roll and the other parts, in order, from `sections` or the older separate fields.

    Forge Steel keeps an ability's body as `sections`: a `roll` (characteristics, bonus, tier1..tier3),
    `text`, `field` (`Spend 2: ...`) and `package` (text a hero's Package feature adds by its tag: none of
    its own, so the hero import adds it). Files from before sections keep `powerRoll`, `preEffect`, `effect`,
    `spend`, `persistence` and `alternateEffects` instead; both are read. Tier texts are kept raw
    (`bot.rules.tiers` reads them)."""
    roll: PowerRollSpec | None = None
    parts: list[str] = []
    if "sections" in ability:
        for section in ability.objects("sections", "ability section"):
            kind = section.text("type")
            if kind == "roll" and roll is None:
                roll = _roll(section.obj("roll", "power roll"))
            elif kind == "roll":
                extra = _roll(section.obj("roll", "power roll"))
                parts.append(" / ".join(extra.tiers))
            elif kind == "field":
                parts.append(_field(section))
            else:
                parts.append(section.text("text"))
        return roll, [p for p in parts if p]
    parts.append(ability.text("preEffect"))
    legacy_roll = ability.optional("powerRoll", "power roll")
    if legacy_roll is not None:
        roll = _roll(legacy_roll)
    parts.append(ability.text("effect"))
    parts.extend(f"**Alternate effect:** {t}" for t in ability.texts("alternateEffects") if t)
    for key, name in (("spend", "Spend"), ("persistence", "Persistent")):
        for item in ability.objects(key, "ability section"):
            value = item.integer("value")
            parts.append(f"**{name}{f' {value}' if value else ''}:** {item.text('effect')}")
    return roll, [p for p in parts if p]


def read_ability(ability: Fields) -> Ability:
    """One Forge Steel ability as the card the bot keeps: its usage (`type.usage`, `type.free`,
    `type.trigger`), keywords, distances (`{type, value, value2, within, special, qualifier}`), target, cost
    (a number, or `"signature"`) and body (`_sections`)."""
    kind = ability.obj("type", "ability type")
    action = _action(kind)
    roll, parts = _sections(ability)
    cost_raw = ability.raw("cost")
    signature = cost_raw == "signature"
    cost = 0 if signature or cost_raw is None else ability.integer("cost")
    if kind.text("usage").lower() == "other" and kind.text("time"):
        parts.insert(0, f"**Time:** {kind.text('time')}")
    return Ability(
        name=ability.text("name") or "Unnamed ability",
        action=action,
        keywords=ability.texts("keywords"),
        distance=" or ".join(format_distance(d) for d in ability.objects("distance", "ability distance")),
        target=ability.text("target"),
        cost=max(0, cost),
        signature=signature,
        power_roll=roll,
        effect="\n\n".join(parts),
        trigger=kind.text("trigger"),
    )
