"""An ability as its card states it: the shared model for hand-entered, Forge Steel and bestiary abilities.

Rules: Draw Steel, Combat, "Power Rolls" (an ability's power roll adds a characteristic; its three tiers);
Draw Steel, The Basics, "Main Actions", "Maneuvers", "Triggered Actions" (action types).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.rules.characteristics import Characteristic
from bot.rules.errors import RuleError


class AbilityError(RuleError):
    """An ability the bot can't read or use as given."""


class ActionType(enum.StrEnum):
    """What using the ability costs in the turn's action economy (Draw Steel, The Basics, "Main Actions",
    "Maneuvers", "Triggered Actions"; villain actions are a Director's, used at the end of a turn)."""

    MAIN = "main"
    MANEUVER = "maneuver"
    MOVE = "move"
    TRIGGERED = "triggered"
    FREE_TRIGGERED = "free-triggered"
    FREE_MANEUVER = "free-maneuver"
    NO_ACTION = "none"
    VILLAIN = "villain"

    @classmethod
    def from_text(cls, text: str, *, free: bool = False) -> ActionType:
        """Read an action type as typed by a user (`main`, `maneuver`, `free triggered` ...) or as Forge Steel
        writes an ability's usage (`Main Action`, `Triggered Action` with `free`, `Villain Action` ...)."""
        key = " ".join(text.strip().lower().replace("-", " ").split())
        key = key.removesuffix(" action").strip()
        if key.startswith("free "):
            free, key = True, key.removeprefix("free ").strip()
        found = _BY_WORD.get(key)
        if found is None:
            names = ", ".join(t.value.replace("-", " ") for t in cls)  # the book's words: "free maneuver"
            raise AbilityError(f"`{text}` isn't an action type: use one of {names}.")
        if free and found is cls.TRIGGERED:
            return cls.FREE_TRIGGERED
        if free and found is cls.MANEUVER:
            return cls.FREE_MANEUVER
        return found


_BY_WORD: dict[str, ActionType] = {
    "main": ActionType.MAIN,
    "maneuver": ActionType.MANEUVER,
    "move": ActionType.MOVE,
    "triggered": ActionType.TRIGGERED,
    "trigger": ActionType.TRIGGERED,
    "free triggered": ActionType.FREE_TRIGGERED,
    "free maneuver": ActionType.FREE_MANEUVER,
    "none": ActionType.NO_ACTION,
    "no": ActionType.NO_ACTION,
    "villain": ActionType.VILLAIN,
}


@dataclass(frozen=True, slots=True)
class PowerRollSpec:
    """An ability's power roll as the card states it: the characteristics it may use (the roll adds the
    highest of them), a stated bonus (monsters' cards write `2d10 + 2`), and the three tier texts verbatim
    (tier 1: 11 or lower, tier 2: 12–16, tier 3: 17+) (Draw Steel, Combat, "Power Rolls").

    The tier texts stay raw: what the bot understood of them is derived from the text by the tier-text
    parser (`bot.rules.tiers`), never stored beside it, so a better parser improves every stored ability and
    nothing on a card is ever lost."""

    characteristics: tuple[Characteristic, ...]
    tiers: tuple[str, str, str]
    bonus: int = 0


@dataclass(frozen=True, slots=True)
class DamageBonus:
    """Damage a hero's feature adds to every damaging tier of one card (a Forge Steel import's Ability Damage
    features and customized damage bonus): where it comes from (`Prayer of Destruction`) and how much."""

    source: str
    value: int


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability card. `cost` is the heroic resource a hero spends, or the Malice a Director's creature
    spends (0: free; `signature` marks a hero's signature ability). `effect` is the card's text beside the
    power roll, kept whole; `trigger` is a triggered action's trigger; `damage_bonuses` are added to each tier
    that deals damage (the kit's bonus is the sheet's, added at the strike)."""

    name: str
    action: ActionType
    keywords: tuple[str, ...] = ()
    distance: str = ""
    target: str = ""
    cost: int = 0
    signature: bool = False
    power_roll: PowerRollSpec | None = None
    effect: str = ""
    trigger: str = ""
    damage_bonuses: tuple[DamageBonus, ...] = ()

    @property
    def damage_bonus(self) -> int:
        """The damage `damage_bonuses` add to each damaging tier."""
        return sum(b.value for b in self.damage_bonuses)

    def has_keyword(self, keyword: str) -> bool:
        """Whether the card lists `keyword` (any case): `has_keyword("area")`."""
        wanted = keyword.casefold()
        return any(k.casefold() == wanted for k in self.keywords)
