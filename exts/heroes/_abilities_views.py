"""Renderers for ability cards (`/ability show`, `/ability list`) and what a Forge Steel hero import read
(`/hero import`).

An ability card shows its tier texts as written and, beside each, what the bot understood of it
(`bot.rules.tiers.parse_tier`): the damage (and what it comes to for this hero), potency effects with
their conditions and durations, forced movement, and whatever it didn't understand, quoted verbatim: the
table sees exactly what a strike will and won't apply. Every text from a card, a file or a hero's sheet came
from a user, so each goes through `bot.replies.inert`.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.content.ability_entry import ABILITIES_MAX
from bot.embeds import Colour, Field, clamp, make_embed
from bot.replies import inert
from bot.rules.ability import Ability, ActionType
from bot.rules.characteristics import Characteristics
from bot.rules.hero import HeroSheet
from bot.rules.kit import KitDamageBonus
from bot.rules.tiers import ConditionEffect, TierEffect, parse_tier
from exts.heroes._views import HeroView, hero_fields, hero_header
from exts.tracker._views import DURATION_LONG

ACTION_LABELS = {
    ActionType.MAIN: "Main action",
    ActionType.MANEUVER: "Maneuver",
    ActionType.MOVE: "Move action",
    ActionType.TRIGGERED: "Triggered action",
    ActionType.FREE_TRIGGERED: "Free triggered action",
    ActionType.FREE_MANEUVER: "Free maneuver",
    ActionType.NO_ACTION: "No action",
    ActionType.VILLAIN: "Villain action",
}
TIER_BANDS = ("Tier 1 (11 or lower)", "Tier 2 (12-16)", "Tier 3 (17+)")
STANDARD_NOTE = "Every hero also has the Melee and Ranged Weapon Free Strikes, Grab, Knockback and Charge."
#: Most warnings an import's reply lists (the rest are counted).
WARNINGS_SHOWN = 10
#: Longest effect, trigger or warning text shown.
TEXT_SHOWN = 900


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def _cost(card: Ability, sheet: HeroSheet | None) -> str:
    if card.signature:
        return "Signature"
    if not card.cost:
        return ""
    resource = inert(sheet.resource_name) if sheet is not None else "heroic resource"
    return f"{card.cost} {resource}"


def _effect_line(effect: ConditionEffect, scores: Characteristics | None) -> str:
    conditions = ", ".join(c.value for c in effect.conditions)
    duration = f" ({DURATION_LONG[effect.duration]})" if effect.duration is not None else ""
    if effect.potency is None:
        return f"**condition** {conditions}{duration}"
    test = effect.potency
    against = f" = {test.potency(scores)}" if scores is not None and test.strength is not None else ""
    what = f"{conditions}{duration}" if not effect.unread else f"“{inert(effect.unread)}” (as written)"
    return f"**potency** {test.format()}{against}: {what}"


def tier_reading(text: str, scores: Characteristics | None = None, bonus: int = 0) -> str:
    """What the bot understood of one tier text, one part a line; what it didn't, quoted verbatim. `bonus`:
    the card's own damage bonus, counted in the amount shown."""
    effect: TierEffect = parse_tier(text)
    lines = []
    if effect.damage is not None:
        known = scores is not None and (effect.damage.characteristics or bonus)
        amount = f" (= {effect.damage.total(scores, bonus)})" if scores is not None and known else ""
        lines.append(f"**damage** {effect.damage.format()}{amount}")
    lines += [_effect_line(e, scores) for e in effect.effects]
    lines += [f"**forced movement** {f.format()}" for f in effect.forced]
    lines += [f"**as written** “{inert(rest)}”" for rest in effect.rest]
    return "\n".join(f"→ {line}" for line in lines) if lines else "→ no effect"


def _kit_line(card: Ability, bonuses: Sequence[KitDamageBonus]) -> str:
    applying = [b for b in bonuses if b.applies_to(card.keywords)]
    return " · ".join(
        f"Kit ({inert(b.name)}): {'/'.join(_signed(t) for t in b.tiers)} damage" for b in applying
    )


def _bonus_line(card: Ability) -> str:
    """`Damage bonus: Prayer of Destruction +1 on every tier that deals damage`, or nothing."""
    if not card.damage_bonuses:
        return ""
    named = " · ".join(f"{inert(b.source)} {_signed(b.value)}" for b in card.damage_bonuses)
    return f"Damage bonus: {named} on every tier that deals damage"


def ability_embed(hero: str, card: Ability, sheet: HeroSheet | None = None) -> discord.Embed:
    """One ability card with each tier as written and as the bot reads it (`sheet`: the hero's, for the
    numbers its characteristics and kit give)."""
    scores = sheet.characteristics if sheet is not None else None
    head = [ACTION_LABELS[card.action], inert(", ".join(card.keywords)), _cost(card, sheet)]
    lines = [f"{inert(hero)}'s ability", " · ".join(p for p in head if p)]
    if card.distance:
        lines.append(f"**Distance** {inert(card.distance)}")
    if card.target:
        lines.append(f"**Target** {inert(card.target)}")
    fields: list[Field] = []
    if card.trigger:
        fields.append(Field("Trigger", inert(clamp(card.trigger, TEXT_SHOWN))))
    roll = card.power_roll
    if roll is not None:
        names = " or ".join(c.value.title() for c in roll.characteristics) or "no characteristic"
        bonus = f" {_signed(roll.bonus)}" if roll.bonus else ""
        total = ""
        if scores is not None:
            best = max((scores.get(c) for c in roll.characteristics), default=0)
            total = f" (2d10 {_signed(best + roll.bonus)} for {inert(hero)})"
        lines.append(f"**Power roll** + {names}{bonus}{total}")
        kit = _kit_line(card, sheet.kit_bonuses if sheet is not None else ())
        lines += [line for line in (kit, _bonus_line(card)) if line]
        fields += [
            Field(band, f"{inert(text)}\n{tier_reading(text, scores, card.damage_bonus)}")
            for band, text in zip(TIER_BANDS, roll.tiers, strict=True)
        ]
    if card.effect:
        fields.append(Field("Effect", inert(clamp(card.effect, TEXT_SHOWN))))
    return make_embed(inert(card.name), "\n".join(lines), colour=Colour.HEROES, fields=fields)


def _entry(card: Ability, sheet: HeroSheet) -> str:
    cost = _cost(card, sheet)
    return inert(card.name) + (f" ({cost})" if cost else "")


def abilities_text(sheet: HeroSheet) -> str:
    """The hero's abilities by action type, one line each: `**Main action**: Brutal Slam (Signature), ...`."""
    by_action: dict[ActionType, list[str]] = {}
    for card in sheet.abilities:
        by_action.setdefault(card.action, []).append(_entry(card, sheet))
    return "\n".join(f"**{ACTION_LABELS[a]}**: {', '.join(names)}" for a, names in by_action.items())


def abilities_embed(hero: str, sheet: HeroSheet) -> discord.Embed:
    """The hero's abilities (`/ability list`)."""
    if not sheet.abilities:
        body = (
            f"{inert(hero)} has no abilities of their own yet: /ability add name:Mind Spike action:main "
            "characteristic:reason keywords:Magic, Psionic, Ranged, Strike "
            "tiers:2 + R damage; 4 + R damage; 6 + R damage, or /hero import a Forge Steel hero."
        )
    else:
        body = abilities_text(sheet)
    return make_embed(
        f"{inert(hero)}'s abilities ({len(sheet.abilities)}/{ABILITIES_MAX})",
        f"{body}\n\n{STANDARD_NOTE}",
        colour=Colour.HEROES,
        footer="/ability show for a card with its tiers",
    )


def kit_text(sheet: HeroSheet) -> str:
    """`Panther: melee +0/+0/+4` for each kit damage bonus; the hero's speed, size and stability."""
    bonuses = [
        f"{inert(b.name)}: {b.reach.value} {'/'.join(_signed(t) for t in b.tiers)}" for b in sheet.kit_bonuses
    ]
    numbers = f"Speed {sheet.speed} · Size {inert(sheet.size)} · Stability {sheet.stability}"
    return "\n".join([numbers, *(f"Kit damage bonus: {b}" for b in bonuses)])


def _warnings_text(warnings: Sequence[str]) -> str:
    """As many warnings as fit the field (each cut short), then how many more there are."""
    shown: list[str] = []
    used = 0
    for warning in warnings[:WARNINGS_SHOWN]:
        line = f"⚠️ {inert(clamp(warning, 200))}"
        if used + len(line) + 1 > TEXT_SHOWN:
            break
        shown.append(line)
        used += len(line) + 1
    more = len(warnings) - len(shown)
    return "\n".join([*shown, *([f"and {more} more"] if more > 0 else [])])


def import_embed(hero: HeroView, warnings: Sequence[str], updated: bool) -> discord.Embed:
    """The sheet `/hero import` read and stored: the hero's sheet, its abilities and kit, and each thing it
    couldn't use (the file's own text made inert)."""
    sheet = hero.sheet
    what = sheet.description
    fields = [
        *hero_fields(hero),
        Field("Speed, size, kit", kit_text(sheet)),
        Field(f"Abilities ({len(sheet.abilities)})", abilities_text(sheet) or "none"),
    ]
    if warnings:
        fields.append(Field("Not used", _warnings_text(warnings)))
    did = "Updated from Forge Steel" if updated else "Imported from Forge Steel"
    return make_embed(
        inert(hero.name),
        f"{did}: {inert(what) + ' · ' if what else ''}{hero_header(hero)}",
        colour=Colour.WARNING if warnings else Colour.HEROES,
        fields=fields,
    )
