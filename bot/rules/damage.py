"""Damage: tiered damage text, surges, potency, damage modifiers, the damage pipeline and other damage.

Rules: Draw Steel, Combat, "Damage", "Damage Types", "DAMAGE IMMUNITY", "DAMAGE WEAKNESS", "Stamina",
"Temporary Stamina", "Falling", "Suffocating"; Draw Steel, The Basics, "Round Down". Surges, potency and
bleeding follow Draw Steel Heroes ch. 7 "Surges", "Potency" and ch. 5 "Bleeding".
"""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass

from bot.rules.characteristics import Characteristic, Characteristics
from bot.rules.dice import Dice, DiceGroup, d6, roll_die
from bot.rules.errors import RuleError
from bot.rules.stamina import Vitals, lose_stamina

DAMAGE_MAX = 999
MAX_SURGES = 3
ALL = "all"  # the immunity or weakness key meaning every damage type ("damage" is read as it)
FALL_MAX = 50


class DamageError(RuleError):
    """Damage text or a damage request the rules refuse."""


class DamageType(enum.Enum):
    """Damage types (Draw Steel, Combat, "Damage Types"); weapons, falling and traps are untyped."""

    UNTYPED = "untyped"
    ACID = "acid"
    COLD = "cold"
    CORRUPTION = "corruption"
    FIRE = "fire"
    HOLY = "holy"
    LIGHTNING = "lightning"
    POISON = "poison"
    PSYCHIC = "psychic"
    SONIC = "sonic"

    @classmethod
    def parse(cls, text: str) -> DamageType:
        """Read a damage type name (any case); empty text means untyped."""
        key = text.strip().lower()
        if not key:
            return cls.UNTYPED
        try:
            return cls(key)
        except ValueError:
            names = ", ".join(t.value for t in cls if t is not cls.UNTYPED)
            raise DamageError(f"`{text}` isn't a damage type: use one of {names} (or none).") from None


# --- tiered damage ----------------------------------------------------------------------------------------
#: One term of a tier's damage: dice (`2d6`, `d6`), a number, or a characteristic letter, after + or −.
_TERM = re.compile(r"\s*([+\-−]?)\s*(?:(\d{0,3})[dD](\d{1,4})|(\d{1,5})|([MARIPmarip]))\s*")
_TYPE_WORD = re.compile(r"\s([A-Za-z]{2,})\s*$")
_TIERED_USAGE = (
    "Damage must look like 3/6/9 or 2+M/5+M/7+M fire, or with dice 2d6+3 (every tier) or 2d6+2/2d6+5/2d6+8."
)
_DAMAGE_WORD = re.compile(r"\s+damage\s*$", re.IGNORECASE)
#: Damage texts kept parsed: players type the same few ("3/6/9") command after command.
PARSED_KEPT = 256
DAMAGE_DICE_MAX = 20
"""Most dice one tier's damage rolls (cards roll one to three)."""
DAMAGE_SIDES_MAX = 100
"""Most sides a damage die has."""


@dataclass(frozen=True, slots=True)
class DamageDice:
    """Dice in a tier's damage ("2d6 + 7 + A damage"): how many and of how many sides."""

    count: int
    sides: int

    def __post_init__(self) -> None:
        if not (1 <= self.count <= DAMAGE_DICE_MAX and 1 <= self.sides <= DAMAGE_SIDES_MAX):
            limits = f"Damage rolls 1 to {DAMAGE_DICE_MAX} dice of at most {DAMAGE_SIDES_MAX} sides."
            raise DamageError(f"{limits} {_TIERED_USAGE}")

    def roll(self, dice: Dice) -> DiceGroup:
        """Each die rolled (a d3 and a d100 as the basics read them: `bot.rules.dice.roll_die`)."""
        results = tuple(roll_die(dice, self.sides) for _ in range(self.count))
        return DiceGroup(self.format(), results, (True,) * self.count)

    def format(self) -> str:
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True, slots=True)
class RolledDamage:
    """A tier's dice damage as rolled: each die (`DiceGroup`) and the flat part added to them (the number,
    the characteristic, a kit's bonus). The total is the damage before weakness and immunity."""

    dice: DiceGroup
    flat: int = 0

    @property
    def total(self) -> int:
        """The dice plus the flat part, never negative."""
        return max(0, sum(self.dice.results) + self.flat)

    def format(self) -> str:
        """`2d6 [3, 5] + 10 = 18`."""
        flat = "" if not self.flat else f" {'+' if self.flat > 0 else '−'} {abs(self.flat)}"
        return f"{self.dice.format()}{flat} = {self.total}"


@dataclass(frozen=True, slots=True)
class TierDamage:
    """One tier's damage: a number plus or minus one of the striker's characteristics (or none), and the dice
    it rolls (none: flat damage)."""

    base: int
    characteristic: Characteristic | None = None
    sign: int = 1
    dice: DamageDice | None = None

    def amount(self, characteristics: Characteristics) -> int:
        """The flat damage for this striker (the part besides any dice), never negative."""
        extra = 0 if self.characteristic is None else self.sign * characteristics.get(self.characteristic)
        return max(0, self.base + extra)

    def roll(self, characteristics: Characteristics, dice: Dice) -> RolledDamage | None:
        """The dice rolled with the flat part for this striker; None for flat damage (nothing to roll)."""
        if self.dice is None:
            return None
        extra = 0 if self.characteristic is None else self.sign * characteristics.get(self.characteristic)
        return RolledDamage(self.dice.roll(dice), self.base + extra)

    def format(self) -> str:
        parts = [self.dice.format()] if self.dice is not None else []
        if self.base or self.dice is None:
            parts.append(str(self.base))
        text = "+".join(parts)
        if self.characteristic is not None:
            text += f"{'+' if self.sign > 0 else '-'}{self.characteristic.letter}"
        return text


def _tier_damage(text: str) -> TierDamage:
    """One tier's damage: terms joined by + (a letter may be subtracted): at most one of each of dice, a
    number and a letter."""
    dice: DamageDice | None = None
    base: int | None = None
    letter: tuple[Characteristic, int] | None = None
    position = 0
    while position < len(text) or position == 0:
        m = _TERM.match(text, position)
        if m is None or m.end() == position:
            raise DamageError(_TIERED_USAGE)
        op, count, sides, number, name = m.groups()
        negative = op in ("-", "−")
        if position and not op:
            raise DamageError(_TIERED_USAGE)
        if sides is not None and dice is None and not negative:
            dice = DamageDice(int(count or 1), int(sides))
        elif number is not None and base is None and not negative:
            base = int(number)
        elif name is not None and letter is None:
            letter = (Characteristic.from_text(name), -1 if negative else 1)
        else:
            raise DamageError(_TIERED_USAGE)
        position = m.end()
    if (base or 0) > DAMAGE_MAX:
        raise DamageError(f"Damage can be at most {DAMAGE_MAX} per tier. {_TIERED_USAGE}")
    if letter is None:
        return TierDamage(base or 0, dice=dice)
    return TierDamage(base or 0, letter[0], letter[1], dice)


@dataclass(frozen=True, slots=True)
class TieredDamage:
    """An ability's damage per tier, e.g. "2+M/5+M/7+M fire" or "2d6+3"."""

    tiers: tuple[TierDamage, TierDamage, TierDamage]
    dtype: DamageType = DamageType.UNTYPED

    @classmethod
    @functools.lru_cache(maxsize=PARSED_KEPT)
    def parse(cls, text: str) -> TieredDamage:
        """Read "3/6/9", "2+M/5+M/7+M", "3/6/9 fire" (letters any case, spaces anywhere, + or −; a trailing
        "damage" is allowed: "3/6/9 fire damage"), with dice in any tier ("2d6+2/2d6+5/2d6+8"); one value
        without slashes is every tier's ("2d6+3", "5"). The value is immutable, so a text read before is not
        read again."""
        body = _DAMAGE_WORD.sub("", text).strip()
        typed = _TYPE_WORD.search(body)
        dtype = DamageType.UNTYPED
        if typed is not None:
            dtype = DamageType.parse(typed.group(1))
            body = body[: typed.start()]
        parts = [_tier_damage(part) for part in body.split("/")]
        if len(parts) == 1:
            parts *= 3
        if len(parts) != 3:
            raise DamageError(_TIERED_USAGE)
        return cls((parts[0], parts[1], parts[2]), dtype)

    def _tier(self, tier: int) -> TierDamage:
        if not 1 <= tier <= 3:
            raise DamageError("Tier must be 1, 2 or 3.")
        return self.tiers[tier - 1]

    def amount(self, tier: int, characteristics: Characteristics) -> int:
        """Flat damage at `tier` (1–3), the letters read from the striker's characteristics (a tier with dice:
        the part besides the dice; `roll` gives the whole)."""
        return self._tier(tier).amount(characteristics)

    def roll(self, tier: int, characteristics: Characteristics, dice: Dice) -> RolledDamage | None:
        """The dice of `tier` rolled with its flat part; None when the tier rolls no dice."""
        return self._tier(tier).roll(characteristics, dice)

    @property
    def rolls_dice(self) -> bool:
        """Whether some tier's damage rolls dice."""
        return any(t.dice is not None for t in self.tiers)

    def format(self) -> str:
        text = "/".join(t.format() for t in self.tiers)
        return text if self.dtype is DamageType.UNTYPED else f"{text} {self.dtype.value}"


# --- surges and potency -----------------------------------------------------------------------------------
def surge_damage(surges: int, characteristics: Characteristics) -> int:
    """Extra damage from surges on one target: each adds the striker's highest characteristic; at most 3
    (Heroes ch. 7 "Surges")."""
    if not 0 <= surges <= MAX_SURGES:
        raise DamageError(f"You can spend 0 to {MAX_SURGES} surges on one target's damage.")
    return max(0, surges * characteristics.highest)


class Potency(enum.Enum):
    """Potency strength: weak / average / strong = highest characteristic −2 / −1 / +0 (Heroes ch. 7
    "Potency")."""

    WEAK = "weak"
    AVERAGE = "average"
    STRONG = "strong"

    @property
    def offset(self) -> int:
        return {"weak": -2, "average": -1, "strong": 0}[self.value]


POTENCY_SURGES = 2
"""Surges that raise an ability's potency by 1 against one target."""


def raised_potency(potency: int, surges: int = 0) -> int:
    """A potency (the striker's, or a number a monster's card writes) against one target: spending 2 surges on
    one target raises it by 1 for that target (Heroes ch. 7 "Surges")."""
    if surges not in (0, POTENCY_SURGES):
        raise DamageError(f"Spend exactly {POTENCY_SURGES} surges to raise potency by 1 (or none).")
    return potency + (1 if surges == POTENCY_SURGES else 0)


def potency_value(strength: Potency, characteristics: Characteristics, surges: int = 0) -> int:
    """The striker's potency; spending 2 surges on one target raises it by 1 for that target."""
    return raised_potency(characteristics.highest + strength.offset, surges)


@dataclass(frozen=True, slots=True)
class PotencyCheck:
    """Whether a potency effect lands: it does when the target's characteristic is lower than the potency."""

    target_value: int
    potency: int

    @property
    def lands(self) -> bool:
        return self.target_value < self.potency

    @property
    def note(self) -> str:
        if self.lands:
            return f"lands: {self.target_value} is lower than potency {self.potency}"
        return f"resisted: {self.target_value} is not lower than potency {self.potency}"


def potency_lands(target_value: int, potency: int) -> PotencyCheck:
    """Check a potency effect against the target's characteristic."""
    return PotencyCheck(target_value, potency)


# --- damage modifiers -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DamageModifier:
    """One immunity or weakness: a damage type value or `ALL`, and an amount (None: immunity "all", as in
    "fire all", which ignores all damage of that type)."""

    dtype: str
    value: int | None

    def applies_to(self, dtype: DamageType) -> bool:
        return self.dtype == ALL or self.dtype == dtype.value

    def format(self) -> str:
        return f"{self.dtype} {'all' if self.value is None else self.value}"


_MOD_USAGE = (
    "Immunities and weaknesses must look like `fire 5, all 2` or `damage 3` (immunity can be `fire all`)."
)


def _parse_modifiers(text: str, allow_all_value: bool) -> tuple[DamageModifier, ...]:
    out: dict[str, DamageModifier] = {}
    for chunk in re.split(r"[,;]", text):
        words = chunk.lower().split()
        if not words:
            continue
        if len(words) != 2:
            raise DamageError(_MOD_USAGE)
        kind, raw = words
        if kind in (ALL, "damage"):
            kind = ALL
        else:
            dtype = DamageType.parse(kind)
            if dtype is DamageType.UNTYPED:
                raise DamageError(_MOD_USAGE)
        if raw == ALL:
            if not allow_all_value:
                raise DamageError("A weakness needs a number, like `fire 5`.")
            value: int | None = None
        elif raw.isascii() and raw.isdigit() and int(raw) <= DAMAGE_MAX:  # "²".isdigit(), yet int refuses it
            value = int(raw)
        else:
            raise DamageError(_MOD_USAGE)
        if kind in out:
            raise DamageError(f"`{kind}` is given twice. {_MOD_USAGE}")
        out[kind] = DamageModifier(kind, value)
    return tuple(out.values())


def _strongest(mods: tuple[DamageModifier, ...], dtype: DamageType) -> DamageModifier | None:
    best: DamageModifier | None = None
    for mod in mods:
        if not mod.applies_to(dtype):
            continue
        if mod.value is None:
            return mod
        if best is None or (best.value is not None and mod.value > best.value):
            best = mod
    return best


@dataclass(frozen=True, slots=True)
class DamageModifiers:
    """A creature's damage immunities and weaknesses (Draw Steel, Combat, "DAMAGE IMMUNITY", "DAMAGE
    WEAKNESS")."""

    immunities: tuple[DamageModifier, ...] = ()
    weaknesses: tuple[DamageModifier, ...] = ()

    @classmethod
    def parse(cls, immunities: str = "", weaknesses: str = "") -> DamageModifiers:
        """Read "fire 5, all 2" / "damage 3" / "poison all" (weaknesses take numbers only)."""
        return cls(_parse_modifiers(immunities, True), _parse_modifiers(weaknesses, False))

    def immunity_for(self, dtype: DamageType) -> DamageModifier | None:
        """The single immunity that applies: the highest of the matching type and `all`."""
        return _strongest(self.immunities, dtype)

    def weakness_for(self, dtype: DamageType) -> DamageModifier | None:
        """The single weakness that applies: the highest of the matching type and `all`."""
        return _strongest(self.weaknesses, dtype)

    def format(self) -> str:
        imm = ", ".join(m.format() for m in self.immunities) or "none"
        weak = ", ".join(m.format() for m in self.weaknesses) or "none"
        return f"immunity {imm}; weakness {weak}"


# --- the pipeline -----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Step:
    """One step of the damage pipeline: the amount before and after it, and why."""

    name: str
    before: int
    after: int
    note: str = ""


@dataclass(frozen=True, slots=True)
class DamageRecord:
    """The result of `apply_damage`: vitals before and after, each step, and what got through."""

    before: Vitals
    after: Vitals
    incoming: int
    dtype: DamageType
    steps: tuple[Step, ...]
    dealt: int

    @property
    def to_temporary(self) -> int:
        return self.before.temporary - self.after.temporary

    @property
    def to_stamina(self) -> int:
        return self.before.stamina - self.after.stamina

    @property
    def killed(self) -> bool:
        return self.after.dead and not self.before.dead


@dataclass(frozen=True, slots=True)
class PartDamage:
    """The damage after some steps of the pipeline (`scale_damage`, `resist_damage`), and those steps."""

    value: int
    steps: tuple[Step, ...] = ()


def scale_damage(amount: int, multiplier: int = 1, halved: bool = False) -> PartDamage:
    """Step 1 of the pipeline: multipliers, then halving, rounded down once (Draw Steel, The Basics, "Round
    Down"; halving comes before immunity: Draw Steel, Combat, "DAMAGE IMMUNITY", "if an ally first halved
    the damage ... immunity then reducing the damage")."""
    if not 0 <= amount <= DAMAGE_MAX * 10:
        raise DamageError(f"Damage must be a number from 0 to {DAMAGE_MAX * 10}.")
    if multiplier < 0:
        raise DamageError("A damage multiplier can't be negative.")
    steps: list[Step] = []
    value = amount
    if multiplier != 1:
        steps.append(Step("multiplier", value, value * multiplier, f"×{multiplier}"))
        value *= multiplier
    if halved:
        steps.append(Step("halved", value, value // 2, "halved, rounded down"))
        value //= 2
    return PartDamage(value, tuple(steps))


def resist_damage(
    value: int,
    dtype: DamageType = DamageType.UNTYPED,
    modifiers: DamageModifiers | None = None,
    bypass_immunity: bool = False,
) -> PartDamage:
    """Steps 2–3 of the pipeline: the one weakness that applies, then the one immunity, last ("DAMAGE
    WEAKNESS": "apply the weakness first, then the immunity"). A minion squad applies them once to its whole
    damage (`bot.rules.squads`)."""
    mods = modifiers if modifiers is not None else DamageModifiers()
    steps: list[Step] = []
    weakness = mods.weakness_for(dtype)
    if weakness is not None and weakness.value and value > 0:
        steps.append(
            Step("weakness", value, value + weakness.value, f"{weakness.dtype} weakness {weakness.value}")
        )
        value += weakness.value
    immunity = mods.immunity_for(dtype)
    if immunity is not None and not bypass_immunity:
        reduced = 0 if immunity.value is None else max(0, value - immunity.value)
        steps.append(Step("immunity", value, reduced, f"{immunity.format().replace(' ', ' immunity ', 1)}"))
        value = reduced
    return PartDamage(value, tuple(steps))


def apply_damage(
    vitals: Vitals,
    amount: int,
    dtype: DamageType = DamageType.UNTYPED,
    modifiers: DamageModifiers | None = None,
    multiplier: int = 1,
    halved: bool = False,
    bypass_immunity: bool = False,
    knock_out_instead: bool = False,
) -> DamageRecord:
    """Apply damage in the rules' order and record every step (Draw Steel, Combat, "Damage"): the one damage
    pipeline. Its first three steps are `scale_damage` then `resist_damage`, which minion squads use apart
    (the area cap comes between them: `bot.rules.squads`).

    1. multipliers, then halving, rounded down once ("Round Down");
    2. weakness: only the highest that applies ("DAMAGE WEAKNESS", applied before immunity); only when some
       damage remains (0 damage is no damage taken);
    3. immunity, last: only the highest that applies; an "all" immunity ignores the damage ("DAMAGE
       IMMUNITY"); skipped with `bypass_immunity` (e.g. bleeding, which isn't reduced by immunity);
    4. temporary Stamina absorbs first, then Stamina ("Temporary Stamina").
    Damage is never negative. `knock_out_instead`: damage that would kill knocks out instead.
    """
    scaled = scale_damage(amount, multiplier, halved)
    resisted = resist_damage(scaled.value, dtype, modifiers, bypass_immunity)
    steps = [*scaled.steps, *resisted.steps]
    value = dealt = resisted.value
    after = lose_stamina(vitals, dealt, knock_out_instead=knock_out_instead)
    absorbed = vitals.temporary - after.temporary
    if absorbed:
        steps.append(
            Step("temporary Stamina", value, value - absorbed, f"{absorbed} temporary Stamina absorbed")
        )
        value -= absorbed
    steps.append(Step("Stamina", value, 0, f"Stamina {vitals.stamina} → {after.stamina}"))
    return DamageRecord(vitals, after, amount, dtype, tuple(steps), dealt)


def undo(record: DamageRecord) -> Vitals:
    """The vitals exactly as they were before the damage."""
    return record.before


# --- other damage -----------------------------------------------------------------------------------------
# Slamming and hurling through objects are forced movement's (`bot.rules.forced`).
@dataclass(frozen=True, slots=True)
class Fall:
    """Falling: the effective height, the damage and whether the creature lands prone."""

    effective_height: int
    damage: int
    prone: bool


def fall(squares: int, agility: int = 0, into_liquid: bool = False) -> Fall:
    """Falling (Draw Steel, Combat, "Falling").

    The height is reduced by the creature's Agility (a negative Agility doesn't lengthen the fall), and by 4
    more into liquid 1 square deep or more, to a minimum of 0. From an effective 2 squares or more the
    creature takes 2 damage per square (at most 50) and lands prone. Force moved downward into an object:
    call with agility=0 ("SLAMMING INTO OBJECTS").
    """
    if squares < 0:
        raise DamageError("A fall can't be a negative number of squares.")
    height = max(0, squares - max(0, agility) - (4 if into_liquid else 0))
    if height < 2:
        return Fall(height, 0, False)
    return Fall(height, min(FALL_MAX, 2 * height), True)


def breath_rounds(might: int) -> int:
    """Combat rounds a creature can hold its breath: its Might, minimum 1 (Draw Steel, Combat,
    "Suffocating")."""
    return max(1, might)


def suffocation_damage(dice: Dice, round_holding: int, might: int) -> int:
    """Damage at the end of the `round_holding`-th round without air: 1d6 once past `breath_rounds`."""
    if round_holding < 1:
        raise DamageError("Count rounds without air from 1.")
    return d6(dice) if round_holding > breath_rounds(might) else 0


def bleeding_damage(dice: Dice, level: int) -> int:
    """Bleeding: the Stamina a bleeding creature loses, 1d6 + its level (Heroes ch. 5 "Bleeding"). It is a
    loss of Stamina, not damage: nothing prevents it (`bot.rules.stamina.lose_stamina_outright`)."""
    return d6(dice) + max(0, level)
