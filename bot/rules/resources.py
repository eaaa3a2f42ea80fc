"""Resources: hero tokens, Victories and XP, respite, Malice and heroic resources.

Rules: Draw Steel, The Basics, "Hero Tokens" ("Earning Hero Tokens", "Spending Hero Tokens", "Optional Rule:
Hero Tokens Don't Reset"), "Victories", "Experience", "Heroic Resources", "Respite";
Draw Steel, Combat, "End of Combat". Malice and each class's per-turn heroic resource gain follow Draw
Steel (Monsters, "Malice"; Heroes ch. 5, the classes).
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from bot.rules import stamina
from bot.rules.dice import Dice, roll_expression
from bot.rules.errors import RuleError
from bot.rules.stamina import Vitals


class ResourceError(RuleError):
    """A resource request the rules refuse."""


# --- hero tokens ------------------------------------------------------------------------------------------
class TokenBenefit(enum.Enum):
    """What a hero token buys ("Spending Hero Tokens")."""

    SURGES = "surges"  # 1 token: gain 2 surges
    SAVE = "save"  # 1 token: succeed on a failed saving throw
    REROLL = "reroll"  # 1 token: reroll a test, keeping the new roll
    STAMINA = "stamina"  # 2 tokens: regain Stamina equal to your recovery value

    @property
    def cost(self) -> int:
        return 2 if self is TokenBenefit.STAMINA else 1


@dataclass(frozen=True, slots=True)
class HeroTokens:
    """The party's hero-token pool and the heroes who already used a benefit this turn (or test)."""

    pool: int = 0
    used_by: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.pool < 0:
            raise ResourceError("The hero-token pool can't be negative.")


def start_session(tokens: HeroTokens, heroes: int, tokens_reset: bool = True) -> HeroTokens:
    """Start of a session: the pool becomes the number of heroes, unless the "Hero Tokens Don't Reset" option
    is on (then the pool carries over)."""
    if heroes < 0:
        raise ResourceError("The number of heroes can't be negative.")
    return HeroTokens(heroes if tokens_reset else tokens.pool, ())


def award_tokens(tokens: HeroTokens, count: int = 1) -> HeroTokens:
    """The Director awards hero tokens ("Earning Hero Tokens")."""
    if count < 1:
        raise ResourceError("Award at least 1 hero token.")
    return dataclasses.replace(tokens, pool=tokens.pool + count)


def spend_tokens(tokens: HeroTokens, hero_id: str, benefit: TokenBenefit) -> HeroTokens:
    """Spend tokens for one benefit; only one benefit per hero per turn or test, never below 0."""
    if hero_id in tokens.used_by:
        raise ResourceError(
            "Each hero can use only one hero-token benefit per turn or test: wait for your next."
        )
    if tokens.pool < benefit.cost:
        raise ResourceError(
            f"Not enough hero tokens: the party has {tokens.pool}, that costs {benefit.cost}."
        )
    return HeroTokens(tokens.pool - benefit.cost, (*tokens.used_by, hero_id))


def spend_for_stamina(tokens: HeroTokens, hero_id: str, vitals: Vitals) -> tuple[HeroTokens, Vitals]:
    """2 tokens, on your turn or when you take damage: regain Stamina equal to your recovery value (before the
    damage: apply this, then the damage)."""
    spent = spend_tokens(tokens, hero_id, TokenBenefit.STAMINA)
    return spent, stamina.heal(vitals, vitals.recovery_value)


def new_turn(tokens: HeroTokens, hero_id: str | None = None) -> HeroTokens:
    """A new turn (or test) for `hero_id` (None: for everyone): they may use a benefit again."""
    used = () if hero_id is None else tuple(h for h in tokens.used_by if h != hero_id)
    return dataclasses.replace(tokens, used_by=used)


# --- Victories, XP, respite -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Progress:
    """A hero's Victories this adventure and their Experience."""

    victories: int = 0
    xp: int = 0


def award_victories(progress: Progress, count: int = 1) -> Progress:
    """Award Victories (combat, noncombat challenges, or extra for hard encounters)."""
    if count < 1:
        raise ResourceError("Award at least 1 Victory.")
    return dataclasses.replace(progress, victories=progress.victories + count)


def encounter_victories(
    progress: Mapping[str, Progress], survivors: Iterable[str], objectives_achieved: bool, count: int = 1
) -> dict[str, Progress]:
    """End of combat ("Victories For Combat"): each surviving hero earns `count` Victories (1 normally) if the
    party's objectives were achieved."""
    out = dict(progress)
    if objectives_achieved:
        for hero in survivors:
            out[hero] = award_victories(out.get(hero, Progress()), count)
    return out


def respite(progress: Progress, vitals: Vitals) -> tuple[Progress, Vitals]:
    """Finish a respite: Victories convert to XP and reset; all Recoveries and Stamina regained."""
    return Progress(0, progress.xp + progress.victories), stamina.respite(vitals)


# --- Malice -----------------------------------------------------------------------------------------------
class Rounding(enum.Enum):
    """How the heroes' average Victories becomes starting Malice; NEAREST rounds halves up."""

    DOWN = "down"
    NEAREST = "nearest"
    UP = "up"


@dataclass(frozen=True, slots=True)
class Malice:
    """The Director's Malice in the current combat (Draw Steel Monsters, "Malice")."""

    value: int = 0


def starting_malice(victories: Sequence[int], rounding: Rounding = Rounding.DOWN) -> Malice:
    """Start of combat: the heroes' average Victories (rounded down by default)."""
    if not victories:
        return Malice(0)
    average = Fraction(sum(victories), len(victories))
    if rounding is Rounding.DOWN:
        value = math.floor(average)
    elif rounding is Rounding.UP:
        value = math.ceil(average)
    else:
        value = math.floor(average + Fraction(1, 2))
    return Malice(max(0, value))


def malice_start_of_round(malice: Malice, heroes_in_fight: int, round_number: int) -> Malice:
    """Start of each round: + the number of heroes still in the fight + the round number."""
    if heroes_in_fight < 0 or round_number < 1:
        raise ResourceError("Give the number of heroes still fighting and a round number from 1.")
    return Malice(malice.value + heroes_in_fight + round_number)


def spend_malice(malice: Malice, cost: int) -> Malice:
    """Spend Malice, never below 0."""
    if cost < 0:
        raise ResourceError("Malice to spend can't be negative.")
    if cost > malice.value:
        raise ResourceError(f"Not enough Malice: the Director has {malice.value}, that costs {cost}.")
    return Malice(malice.value - cost)


def end_of_combat_malice(malice: Malice) -> Malice:
    """Malice is lost at the end of combat."""
    return Malice(0)


# --- heroic resources -------------------------------------------------------------------------------------
class _LowDice:
    def randint(self, low: int, high: int) -> int:
        return low


@lru_cache(maxsize=256)
def _rollable(gain: str) -> bool:
    """True when a per-turn gain text rolls (a number like 2 or dice like 1d3). Every resource made (each
    turn start, each decoded sheet) checks its gain, and a table has a few distinct gains: each is tried
    once, with dice that always roll their lowest face."""
    try:
        roll_expression(_LowDice(), gain)
    except RuleError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class HeroicResource:
    """A hero's Heroic Resource (wrath, focus, ...): current value, per-turn gain ("1d3" or "2"), and whether
    the class lets it go negative (Draw Steel, The Basics, "Heroic Resources"; the per-turn gain is each
    class's, Heroes ch. 5)."""

    hero_id: str
    name: str = "heroic resource"
    value: int = 0
    gain: str = "0"
    may_go_negative: bool = False

    def __post_init__(self) -> None:
        if not _rollable(self.gain):
            raise ResourceError("The per-turn gain must be a number like 2 or dice like 1d3.")


def resource_start_of_combat(resource: HeroicResource, victories: int) -> HeroicResource:
    """Each combat starts with the resource equal to the hero's Victories."""
    return dataclasses.replace(resource, value=victories)


def resource_start_of_turn(dice: Dice, resource: HeroicResource) -> tuple[HeroicResource, int]:
    """Start of the hero's turn: gain the class's per-turn amount. Returns the new resource and the gain."""
    amount = max(0, roll_expression(dice, resource.gain).total)
    return dataclasses.replace(resource, value=resource.value + amount), amount


def gain_resource(resource: HeroicResource, amount: int) -> HeroicResource:
    """Gain from a class trigger."""
    if amount < 0:
        raise ResourceError("To lose some, spend it instead.")
    return dataclasses.replace(resource, value=resource.value + amount)


def spend_resource(resource: HeroicResource, cost: int) -> HeroicResource:
    """Spend the resource; below 0 only when the class allows it."""
    if cost < 0:
        raise ResourceError("The cost can't be negative.")
    if resource.value - cost < 0 and not resource.may_go_negative:
        raise ResourceError(f"Not enough {resource.name}: you have {resource.value}, that costs {cost}.")
    return dataclasses.replace(resource, value=resource.value - cost)


def resource_end_of_combat(resource: HeroicResource) -> HeroicResource:
    """The resource resets at the end of combat."""
    return dataclasses.replace(resource, value=0)


# --- heroic resource gains by trigger ---------------------------------------------------------------------
class GainTrigger(enum.StrEnum):
    """When a class's heroic resource gain comes (Heroes ch. 5, each class's "Heroic Resource" section; the
    Forge Steel export words them as triggers). The bot applies the ones it can see happen
    (`bot.rules.encounter.heroic.triggered_gains`), each once per its limit (`limit`); OTHER gains (a
    judged, marked or sworn creature, a distance, three heroes on one turn) are
    the table's to apply with /resource gain."""

    START_OF_TURN = "start-of-turn"
    TAKE_DAMAGE = "take-damage"
    FIRST_DAMAGE_EACH_ROUND = "first-damage-each-round"
    WINDED_OR_DYING = "winded-or-dying"
    FIRST_WINDED_OR_DYING = "first-winded-or-dying"
    MALICE_ABILITY_EACH_ROUND = "malice-ability-each-round"
    FIRST_HERO_WINDED = "first-hero-winded"
    NATURAL_19_OR_20 = "natural-19-or-20"
    HERO_DIES = "hero-dies"
    FIRST_FORCE_MOVED_EACH_ROUND = "first-force-moved-each-round"
    FIRST_SURGE_DAMAGE_EACH_ROUND = "first-surge-damage-each-round"
    OTHER = "other"

    @property
    def limit(self) -> GainLimit:
        """How often the gain may come: every time it happens, once a combat round, once an encounter."""
        if self in (
            GainTrigger.FIRST_DAMAGE_EACH_ROUND,
            GainTrigger.MALICE_ABILITY_EACH_ROUND,
            GainTrigger.FIRST_FORCE_MOVED_EACH_ROUND,
            GainTrigger.FIRST_SURGE_DAMAGE_EACH_ROUND,
        ):
            return GainLimit.ROUND
        if self in (GainTrigger.FIRST_WINDED_OR_DYING, GainTrigger.FIRST_HERO_WINDED):
            return GainLimit.ENCOUNTER
        return GainLimit.EACH_TIME


class GainLimit(enum.Enum):
    """How often a gain may come ("the first time each combat round", "the first time ... in an
    encounter", else every time its trigger happens)."""

    EACH_TIME = "each time"
    ROUND = "round"
    ENCOUNTER = "encounter"


#: Each trigger's wordings in the classes' heroic resource sections and Forge Steel's export.
_TRIGGER_WORDS: dict[GainTrigger, tuple[str, ...]] = {
    GainTrigger.START_OF_TURN: ("start of your turn", "you start your turn"),
    GainTrigger.TAKE_DAMAGE: ("you take damage",),
    GainTrigger.FIRST_DAMAGE_EACH_ROUND: (
        "the first time each combat round that you take damage",
        "the first time each round that you take damage",
    ),
    GainTrigger.WINDED_OR_DYING: ("you become winded or are dying",),
    GainTrigger.FIRST_WINDED_OR_DYING: (
        "the first time you become winded or are dying in an encounter",
        "the first time in an encounter that you become winded or dying",
    ),
    GainTrigger.MALICE_ABILITY_EACH_ROUND: (
        "the first time each combat round that the director uses an ability that costs malice",
    ),
    GainTrigger.FIRST_HERO_WINDED: (
        "a hero becomes winded for the first time (only once per encounter and not once per hero)",
        "the first time any hero is made winded during the encounter",
    ),
    # line of effect is assumed: the bot has no map (docs/rules-coverage.md)
    GainTrigger.NATURAL_19_OR_20: (
        "a creature within your line of effect rolls a natural 19 or 20",
        "whenever a creature within your line of effect rolls a natural 19 or 20",
    ),
    GainTrigger.HERO_DIES: ("a hero, including you, dies", "when you or another hero dies"),
    GainTrigger.FIRST_FORCE_MOVED_EACH_ROUND: (
        "the first time each combat round that a creature is force moved",
    ),
    GainTrigger.FIRST_SURGE_DAMAGE_EACH_ROUND: (
        "the first time each combat round that you deal damage incorporating 1 or more surges",
    ),
}
_BY_WORDS = {words: trigger for trigger, wordings in _TRIGGER_WORDS.items() for words in wordings}


@lru_cache(maxsize=256)
def read_gain_trigger(text: str) -> GainTrigger:
    """The trigger a class's wording names (exactly, ignoring case, spacing and a final full stop); anything
    with a further condition ("damage that isn't untyped", "a creature judged by you") is OTHER."""
    key = " ".join(text.replace("’", "'").split()).casefold().rstrip(".")
    return _BY_WORDS.get(key, GainTrigger.OTHER)


@dataclass(frozen=True, slots=True)
class ResourceGain:
    """One way a hero gains their heroic resource: the trigger, the amount ("1", "1d3") and the class's own
    words for the trigger (shown for OTHER gains)."""

    trigger: GainTrigger
    value: str = "1"
    text: str = ""

    def __post_init__(self) -> None:
        if not _rollable(self.value):
            raise ResourceError("A heroic resource gain must be a number like 2 or dice like 1d3.")


def roll_gain(dice: Dice, gain: ResourceGain) -> int:
    """The amount one gain gives (never negative)."""
    return max(0, roll_expression(dice, gain.value).total)
