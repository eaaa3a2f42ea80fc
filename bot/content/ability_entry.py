"""Hand-entered abilities (`/ability add | edit | remove`): the typed options read into an `Ability` card,
their limits, and a hero's list of cards (the syntax: docs/abilities.md).

Rules: Draw Steel, Combat, "Power Rolls" (a power roll adds the highest of the card's characteristics;
three tiers); Draw Steel, The Basics, "Main Actions", "Maneuvers", "Triggered Actions". Every refusal is one
line saying what to type instead, naming nothing the user typed.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.ability import Ability, AbilityError, ActionType, PowerRollSpec
from bot.rules.characteristics import Characteristic
from bot.rules.names import clean_name, name_key

ABILITIES_MAX = 60
"""Most abilities one hero keeps (a level-10 hero from Forge Steel has about 30)."""
KEYWORDS_MAX = 12
KEYWORD_MAX = 24
SHORT_MAX = 100
"""Longest distance or target text."""
TIER_MAX = 300
EFFECT_MAX = 1000
TRIGGER_MAX = 300
COST_MAX = 99
BONUS_MAX = 10
CLEAR = frozenset({"none", "-"})
"""What an edit types to clear a text (`effect:none`; `tiers:none` drops the power roll)."""

_TIERS_HINT = (
    "Give three tier results, e.g. tiers:2 + R damage; 4 + R damage; 6 + R damage "
    "(separate them with | when a tier has its own ;)."
)
_CHARACTERISTIC_SPLIT = re.compile(r"\s*(?:,|/|\bor\b|\s)\s*", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class AbilityForm:
    """What `/ability add` or `/ability edit` was given; None: not given (an edit keeps the card's)."""

    name: str | None = None
    action: str | None = None
    characteristic: str | None = None
    keywords: str | None = None
    tiers: str | None = None
    distance: str | None = None
    target: str | None = None
    cost: int | None = None
    effect: str | None = None
    trigger: str | None = None
    bonus: int | None = None


def _text(value: str, what: str, limit: int) -> str:
    """`value` with its spacing collapsed, within `limit` characters and without control characters."""
    if any(unicodedata.category(ch) == "Cc" and not ch.isspace() for ch in value):
        raise AbilityError(f"The {what} can't contain control characters: type it as plain text.")
    clean = " ".join(value.split())
    if len(clean) > limit:
        raise AbilityError(f"The {what} can be at most {limit} characters: shorten it.")
    return clean


def _cleared(value: str) -> bool:
    return value.strip().lower() in CLEAR


def read_tiers(text: str) -> tuple[str, str, str]:
    """The three tier results of `2 + R damage; 4 + R damage; 6 + R damage` (or `|`-separated), as typed:
    the card keeps them raw, and `bot.rules.tiers.parse_tier` reads them again whenever the card is used."""
    parts = text.split("|") if "|" in text else text.split(";")
    tiers = [_text(p, "tier result", TIER_MAX) for p in parts]
    if len(tiers) != 3 or not all(tiers):
        raise AbilityError(_TIERS_HINT)
    return tiers[0], tiers[1], tiers[2]


def read_characteristics(text: str) -> tuple[Characteristic, ...]:
    """`reason`, `might or agility`, `M, A` -> the characteristics a power roll may use (each once)."""
    words = [w for w in _CHARACTERISTIC_SPLIT.split(text.strip()) if w]
    if not words:
        raise AbilityError("Name the characteristic the power roll uses, e.g. characteristic:might.")
    return tuple(dict.fromkeys(Characteristic.from_text(w) for w in words))


def read_keywords(text: str) -> tuple[str, ...]:
    """`Magic, Psionic, Ranged, Strike` -> the keywords, each once (any case), as typed."""
    found: dict[str, str] = {}
    for part in text.split(","):
        word = _text(part, "keyword", KEYWORD_MAX)
        if word:
            found.setdefault(word.casefold(), word)
    if len(found) > KEYWORDS_MAX:
        raise AbilityError(f"An ability has at most {KEYWORDS_MAX} keywords: separate them with commas.")
    return tuple(found.values())


def _number(value: int, low: int, high: int, what: str) -> int:
    if not low <= value <= high:
        raise AbilityError(f"The {what} must be a number from {low} to {high}.")
    return value


def _power_roll(card: Ability, form: AbilityForm) -> PowerRollSpec | None:
    """The card's power roll after `form`: `tiers:none` drops it; tiers and characteristic go together."""
    roll = card.power_roll
    if form.tiers is not None and _cleared(form.tiers):
        if form.characteristic is not None and not _cleared(form.characteristic):
            raise AbilityError("An ability without a power roll has no characteristic: leave it out.")
        return None
    tiers = read_tiers(form.tiers) if form.tiers is not None else (roll.tiers if roll else None)
    if form.characteristic is not None and not _cleared(form.characteristic):
        chars: tuple[Characteristic, ...] | None = read_characteristics(form.characteristic)
    else:
        chars = roll.characteristics if roll is not None else None
    bonus = form.bonus if form.bonus is not None else (roll.bonus if roll is not None else 0)
    _number(bonus, -BONUS_MAX, BONUS_MAX, "power roll's bonus")
    if tiers is None:
        if chars is not None or form.bonus is not None:
            raise AbilityError(
                "A characteristic or bonus is for a power roll: give the tiers too, "
                "e.g. tiers:2 + R damage; 4 + R damage; 6 + R damage."
            )
        return None
    if not chars:
        raise AbilityError("Name the characteristic the power roll uses, e.g. characteristic:might.")
    return PowerRollSpec(chars, tiers, bonus)


def _optional_text(value: str | None, old: str, what: str, limit: int) -> str:
    if value is None:
        return old
    return "" if _cleared(value) else _text(value, what, limit)


def edit_ability(card: Ability, form: AbilityForm) -> Ability:
    """`card` with what `form` gives changed (an empty text, or `none`, clears distance, target, effect,
    trigger or keywords; `tiers:none` drops the power roll)."""
    name = card.name if form.name is None else clean_name(form.name)
    action = card.action if form.action is None else ActionType.from_text(form.action)
    keywords = card.keywords
    if form.keywords is not None:
        keywords = () if _cleared(form.keywords) else read_keywords(form.keywords)
    cost = card.cost if form.cost is None else _number(form.cost, 0, COST_MAX, "cost")
    edited = dataclasses.replace(
        card,
        name=name,
        action=action,
        keywords=keywords,
        distance=_optional_text(form.distance, card.distance, "distance", SHORT_MAX),
        target=_optional_text(form.target, card.target, "target", SHORT_MAX),
        cost=cost,
        power_roll=_power_roll(card, form),
        effect=_optional_text(form.effect, card.effect, "effect", EFFECT_MAX),
        trigger=_optional_text(form.trigger, card.trigger, "trigger", TRIGGER_MAX),
    )
    if edited.power_roll is None and not edited.effect:
        raise AbilityError(
            "An ability needs a power roll or an effect: give tiers and characteristic, or effect."
        )
    return edited


def new_ability(form: AbilityForm) -> Ability:
    """A new card from `/ability add`'s options (name and action needed; a power roll or an effect)."""
    if form.name is None or form.action is None:
        raise AbilityError("Give the ability's name and action, e.g. name:Mind Spike action:main.")
    blank = Ability(name=clean_name(form.name), action=ActionType.from_text(form.action))
    return edit_ability(blank, form)


def ability_index(abilities: Sequence[Ability], name: str) -> int | None:
    """Where the ability named `name` (any case and spacing) is in `abilities`, or None."""
    key = name_key(name)
    return next((i for i, a in enumerate(abilities) if name_key(a.name) == key), None)


def _check_unique(abilities: Sequence[Ability], card: Ability, skip: int | None = None) -> None:
    found = ability_index(abilities, card.name)
    if found is not None and found != skip:
        raise AbilityError(
            "This hero already has an ability by that name: change it with /ability edit, or pick another "
            "name."
        )


def add_ability(abilities: tuple[Ability, ...], card: Ability) -> tuple[Ability, ...]:
    """`abilities` with `card` last: its name not already taken, at most `ABILITIES_MAX` in all."""
    if len(abilities) >= ABILITIES_MAX:
        raise AbilityError(
            f"A hero keeps at most {ABILITIES_MAX} abilities: remove one with /ability remove first."
        )
    _check_unique(abilities, card)
    return (*abilities, card)


def replace_ability(abilities: tuple[Ability, ...], index: int, card: Ability) -> tuple[Ability, ...]:
    """`abilities` with the one at `index` now `card` (a new name must not be another's)."""
    _check_unique(abilities, card, skip=index)
    return (*abilities[:index], card, *abilities[index + 1 :])
