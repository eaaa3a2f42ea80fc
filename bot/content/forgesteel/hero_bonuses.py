"""What a Forge Steel hero's kits and features add to its ability cards: distance and damage, as Forge Steel
shows the cards (how: docs/architecture.md, *Reading Forge Steel files*). A bonus that would reach the free
strikes, or a card whose tier damage the bot can't read, is reported.

Public API: `FeatureBonus`, `CardBonuses`, `folded(keywords)`, `card_bonuses(...)`, `distance_bonus(...)`,
`with_bonuses(card, raw, bonuses, custom, warnings)`, `free_strike_distances(bonuses)`,
`unapplied(bonuses, cards)`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.content.forgesteel.ability_json import format_distance
from bot.content.forgesteel.files import Fields
from bot.content.forgesteel.hero_features import ActiveFeature
from bot.content.forgesteel.monster import modifier_value
from bot.rules.ability import Ability, DamageBonus
from bot.rules.characteristics import Characteristic
from bot.rules.kit import Kit
from bot.rules.standard import hero_free_strikes
from bot.rules.tiers import parse_tier

#: The distance types a bonus lengthens, and the keyword an ability used that way loses (Forge Steel reads
#: a Melee distance of a Melee-and-Ranged ability as the melee use only).
_OTHER_USE = {"melee": "ranged", "ranged": "melee"}
CUSTOMIZATION = "Forge Steel customization"
"""The source named for a bonus set on one ability in Forge Steel."""


@dataclass(frozen=True, slots=True)
class FeatureBonus:
    """One Ability Damage or Ability Distance feature: its name and source, the keywords (case folded) an
    ability needs all of (none: every ability), and its value for this hero."""

    name: str
    source: str
    keywords: frozenset[str]
    value: int

    def covers(self, words: frozenset[str]) -> bool:
        """Whether a card with these keywords (case folded: `folded`) takes the bonus."""
        return self.keywords <= words

    @property
    def label(self) -> str:
        return f"{self.name[:60]} ({self.source[:40]})"


@dataclass(frozen=True, slots=True)
class CardBonuses:
    """What lengthens or strengthens a hero's cards: the best kit's melee and ranged distance bonuses and the
    Ability Distance and Ability Damage features (those worth 0 left out)."""

    melee_distance: int = 0
    ranged_distance: int = 0
    distance: tuple[FeatureBonus, ...] = ()
    damage: tuple[FeatureBonus, ...] = ()


def folded(keywords: Iterable[str]) -> frozenset[str]:
    """A card's keywords as `FeatureBonus.covers` compares them (once per card, not per feature)."""
    return frozenset(k.casefold() for k in keywords)


def _features(
    features: Iterable[ActiveFeature], kind: str, scores: dict[Characteristic, int], level: int
) -> tuple[FeatureBonus, ...]:
    out = []
    for f in features:
        if f.kind != kind:
            continue
        data = f.data
        keywords = folded(data.texts("keywords"))
        value = modifier_value(data, scores, level)
        if value:
            out.append(FeatureBonus(f.name, f.source, keywords, value))
    return tuple(out)


def card_bonuses(
    features: Iterable[ActiveFeature], kits: Sequence[Kit], scores: dict[Characteristic, int], level: int
) -> CardBonuses:
    """The hero's card bonuses from the features that count and the kits."""
    features = list(features)
    return CardBonuses(
        melee_distance=max((k.melee_distance for k in kits), default=0),
        ranged_distance=max((k.ranged_distance for k in kits), default=0),
        distance=_features(features, "Ability Distance", scores, level),
        damage=_features(features, "Ability Damage", scores, level),
    )


def distance_bonus(bonuses: CardBonuses, keywords: Iterable[str], kind: str, custom: int = 0) -> int:
    """How much longer a card's distance of type `kind` is (0 for any type but Melee and Ranged)."""
    use = kind.casefold()
    if use not in _OTHER_USE:
        return 0
    words = folded(keywords) - {_OTHER_USE[use]}
    kit = 0
    if "weapon" in words and use in words:
        kit = bonuses.melee_distance if use == "melee" else bonuses.ranged_distance
    return kit + sum(f.value for f in bonuses.distance if f.covers(words)) + custom


def _reads_damage(card: Ability) -> bool:
    roll = card.power_roll
    return roll is not None and any(parse_tier(t).damage is not None for t in roll.tiers)


def _unreadable(card: Ability) -> bool:
    """Whether Forge Steel adds a damage bonus to a tier of `card` (its first part ends in damage) while the
    bot reads no damage in any."""
    roll = card.power_roll
    if roll is None or _reads_damage(card):
        return False
    firsts = (t.split(";")[0].strip().casefold() for t in roll.tiers)
    return any(p.endswith(("damage", "dmg")) for p in firsts)


def with_bonuses(
    card: Ability, raw: Fields, bonuses: CardBonuses, custom: Fields | None, warnings: list[str]
) -> Ability:
    """`card` (read from the ability `raw`) with its distances lengthened and its damage bonuses; `custom` is
    the hero's `abilityCustomizations` entry for it. A customized damage bonus the bot can't add is a
    warning (the features' are `unapplied`'s)."""
    extra_distance = custom.integer("distanceBonus") if custom is not None else 0
    distance = " or ".join(
        format_distance(d, distance_bonus(bonuses, card.keywords, d.text("type"), extra_distance))
        for d in raw.objects("distance", "ability distance")
    )
    words = folded(card.keywords)
    damage = [DamageBonus(f.name, f.value) for f in bonuses.damage if f.covers(words)]
    extra_damage = custom.integer("damageBonus") if custom is not None else 0
    if extra_damage:
        damage.append(DamageBonus(CUSTOMIZATION, extra_damage))
    if not _reads_damage(card):
        if extra_damage:
            warnings.append(
                f"{card.name[:40]}: the damage bonus of {extra_damage:+d} set in Forge Steel can't be added "
                "(the bot reads no damage in its tiers): give it with damage: on /strike."
            )
        damage = []
    return dataclasses.replace(card, distance=distance, damage_bonuses=tuple(damage))


@dataclass(frozen=True, slots=True)
class FreeStrikeReach:
    """How much longer the Melee and the Ranged Weapon Free Strike reach."""

    melee: int
    ranged: int


def free_strike_distances(bonuses: CardBonuses) -> FreeStrikeReach:
    """How much longer the Melee and Ranged Weapon Free Strikes reach (kit and features)."""
    melee, ranged = hero_free_strikes()
    return FreeStrikeReach(
        distance_bonus(bonuses, melee.keywords, "melee"),
        distance_bonus(bonuses, ranged.keywords, "ranged"),
    )


def _names(cards: Iterable[Ability]) -> str:
    names = list(dict.fromkeys(c.name[:40] for c in cards))
    shown = ", ".join(names[:4])
    return shown + (f" and {len(names) - 4} more" if len(names) > 4 else "")


def unapplied(bonuses: CardBonuses, cards: Sequence[Ability]) -> list[str]:
    """One warning per Ability Damage feature the bot couldn't add everywhere it counts, with how much and
    to which abilities: the free strikes (built at the strike), and cards whose tiers Forge Steel adds damage
    to but whose damage the bot can't read."""
    out = []
    # each card is read once, not once per feature
    reached = [(c, folded(c.keywords)) for c in (*hero_free_strikes(), *(c for c in cards if _unreadable(c)))]
    for f in bonuses.damage:
        missed = [c for c, words in reached if f.covers(words)]
        if missed:
            out.append(
                f"{f.label} adds {f.value:+d} damage to {_names(missed)}: the bot can't add it there; give "
                "it with damage: on /strike."
            )
    return out
