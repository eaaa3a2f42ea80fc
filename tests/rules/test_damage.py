"""Damage: tiered damage text, surges, potency, modifiers, the pipeline, undo and other damage."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.characteristics import Characteristic, Characteristics
from bot.rules.codec import load, to_data
from bot.rules.damage import (
    ALL,
    DamageDice,
    DamageError,
    DamageModifier,
    DamageModifiers,
    DamageRecord,
    DamageType,
    Fall,
    Potency,
    PotencyCheck,
    Step,
    TierDamage,
    TieredDamage,
    apply_damage,
    bleeding_damage,
    breath_rounds,
    fall,
    potency_lands,
    potency_value,
    suffocation_damage,
    surge_damage,
    undo,
)
from bot.rules.dice import FixedDice
from bot.rules.forced import ForcedError, Hurl, Material, hurl_through, slam_creature, slam_object
from bot.rules.stamina import Vitals
from tests.rules import rules_kit

F = DamageType.FIRE
HERO = Vitals(max_stamina=30, stamina=30, recoveries=8, max_recoveries=8, is_hero=True)


# Draw Steel, Combat, "DAMAGE IMMUNITY", "DAMAGE WEAKNESS", "Temporary Stamina" and Draw Steel, The Basics,
# "Round Down": every worked example in the text. (vitals, amount, type, immunities, weaknesses, halved,
# damage dealt, temporary after, Stamina after)
EXAMPLES = [
    # basics "Round Down": the tactician takes 7 damage and Parries: halved to 3.
    pytest.param(HERO, 7, DamageType.UNTYPED, "", "", True, 3, 0, 27, id="7 halved is 3"),
    # "fire immunity 5 and takes 8 fire damage, they take 3 damage"
    pytest.param(HERO, 8, F, "fire 5", "", False, 3, 0, 27, id="fire immunity 5 vs 8 fire"),
    # "... halved ... 4 damage before immunity is applied, with immunity then reducing the damage to 0"
    pytest.param(HERO, 8, F, "fire 5", "", True, 0, 0, 30, id="8 fire halved then immunity 5"),
    # "damage immunity 5 and fire immunity 10 who takes 12 fire damage reduces the damage by 10 points"
    pytest.param(HERO, 12, F, "damage 5, fire 10", "", False, 2, 0, 28, id="highest immunity only"),
    # "fire weakness 5 and is dealt 10 fire damage, they take 15 fire damage instead"
    pytest.param(HERO, 10, F, "", "fire 5", False, 15, 0, 15, id="fire weakness 5 vs 10 fire"),
    # "both damage immunity and damage weakness ... apply the weakness first, then the immunity"
    pytest.param(HERO, 3, F, "fire 5", "fire 5", False, 3, 0, 27, id="weakness before immunity"),
    # "10 temporary Stamina and take 16 damage, you lose the temporary Stamina and then lose another 6"
    pytest.param(
        Vitals(30, 30, temporary=10, is_hero=True),
        16,
        DamageType.UNTYPED,
        "",
        "",
        False,
        16,
        0,
        24,
        id="temp",
    ),
    # "damage weakness X with no specific type ... has weakness ... when they take damage of any type"
    pytest.param(HERO, 4, DamageType.COLD, "", "damage 2, fire 9", False, 6, 0, 24, id="untyped weakness"),
    pytest.param(HERO, 4, DamageType.UNTYPED, "", "damage 2", False, 6, 0, 24, id="weakness on untyped"),
    # "If the value of the immunity is "all", then the target ignores all damage of the indicated type."
    pytest.param(HERO, 50, DamageType.POISON, "poison all", "", False, 0, 0, 30, id="immunity all"),
    pytest.param(HERO, 50, F, "poison all", "", False, 50, 0, -20, id="other type not immune"),
    pytest.param(HERO, 9, F, "all all", "fire 3", False, 0, 0, 30, id="all all ignores all damage"),
    # only the highest weakness applies
    pytest.param(HERO, 1, F, "", "fire 2, all 4", False, 5, 0, 25, id="highest weakness only"),
    # immunity never takes damage below 0
    pytest.param(HERO, 2, DamageType.ACID, "all 5", "", False, 0, 0, 30, id="never negative"),
]


@pytest.mark.parametrize(
    ("vitals", "amount", "dtype", "imm", "weak", "halved", "dealt", "temp", "stamina"), EXAMPLES
)
def test_damage_examples(
    vitals: Vitals,
    amount: int,
    dtype: DamageType,
    imm: str,
    weak: str,
    halved: bool,
    dealt: int,
    temp: int,
    stamina: int,
) -> None:
    record = apply_damage(vitals, amount, dtype, DamageModifiers.parse(imm, weak), halved=halved)
    assert record.dealt == dealt
    assert record.after.temporary == temp
    assert record.after.stamina == stamina
    assert undo(record) == vitals


def test_pipeline_steps_in_order() -> None:
    """Order: multiplier, halving, weakness, immunity, temporary Stamina, Stamina."""
    v = Vitals(40, 40, temporary=3)
    mods = DamageModifiers.parse("fire 2", "fire 4")
    record = apply_damage(v, 7, F, mods, multiplier=2, halved=True)
    assert [s.name for s in record.steps] == [
        "multiplier",
        "halved",
        "weakness",
        "immunity",
        "temporary Stamina",
        "Stamina",
    ]
    assert [(s.before, s.after) for s in record.steps] == [(7, 14), (14, 7), (7, 11), (11, 9), (9, 6), (6, 0)]
    assert record.to_temporary == 3 and record.to_stamina == 6 and record.dealt == 9


def test_bypass_immunity_for_bleeding() -> None:
    mods = DamageModifiers.parse("all 10")
    record = apply_damage(HERO, bleeding_damage(FixedDice([4]), 3), modifiers=mods, bypass_immunity=True)
    assert record.dealt == 7 and "immunity" not in [s.name for s in record.steps]


def test_bad_amounts_refused() -> None:
    with pytest.raises(DamageError):
        apply_damage(HERO, -1)
    with pytest.raises(DamageError):
        apply_damage(HERO, 5, multiplier=-1)


def test_kill_and_knock_out() -> None:
    """Draw Steel, Combat, "Director-Controlled Creatures" die at 0; "Knocking Creatures Out"."""
    goblin = Vitals(15, 15)
    record = apply_damage(goblin, 15)
    assert record.killed and record.after.dead
    out = apply_damage(goblin, 20, knock_out_instead=True)
    assert not out.killed and out.after.knocked_out and not out.after.dead
    again = apply_damage(out.after, 1)
    assert again.after.dead and again.after.slain
    assert undo(again) == out.after


# --- tiered damage ----------------------------------------------------------------------------------------
M3 = Characteristics(might=3, agility=1, presence=-1)

# Tiered damage text as abilities print it (Draw Steel, Combat, "Damage Types" for the types).
PARSE = [
    ("3/6/9", (3, 6, 9), DamageType.UNTYPED),
    ("2+M/5+M/7+M", (5, 8, 10), DamageType.UNTYPED),
    ("3/6/9 fire", (3, 6, 9), F),
    ("3/6/9 fire damage", (3, 6, 9), F),
    ("3/6/9 Damage", (3, 6, 9), DamageType.UNTYPED),
    (" 2 + m / 5 + m / 7 + m  Fire ", (5, 8, 10), F),
    ("4-P/6-P/8-p psychic", (5, 7, 9), DamageType.PSYCHIC),
    ("1-M/2-M/9−M", (0, 0, 6), DamageType.UNTYPED),
    ("2+A/4+A/6+R cold", (3, 5, 6), DamageType.COLD),
]


@pytest.mark.parametrize(("text", "amounts", "dtype"), PARSE)
def test_tiered_parse(text: str, amounts: tuple[int, int, int], dtype: DamageType) -> None:
    damage = TieredDamage.parse(text)
    assert tuple(damage.amount(t, M3) for t in (1, 2, 3)) == amounts
    assert damage.dtype is dtype
    assert TieredDamage.parse(damage.format()) == damage
    assert load(TieredDamage, to_data(damage)) == damage


@pytest.mark.parametrize(
    "text", ["", "3/6", "3/6/9/12", "3/6/9 banana", "1000/1/1", "2+X/3/4", "a/b/c", "3/6/9 f i"]
)
def test_tiered_parse_errors(text: str) -> None:
    with pytest.raises(DamageError):
        TieredDamage.parse(text)


# `/strike damage:` with dice: one value for every tier, or one per tier; the flat part is `amount`
DICE_PARSE = [
    ("2d6+3", (DamageDice(2, 6),) * 3, (3, 3, 3), DamageType.UNTYPED),
    ("2d6 + 3 fire damage", (DamageDice(2, 6),) * 3, (3, 3, 3), F),
    (
        "1d6+M/2d6+M/3d6+M",
        (DamageDice(1, 6), DamageDice(2, 6), DamageDice(3, 6)),
        (3, 3, 3),
        DamageType.UNTYPED,
    ),
    ("d10/5/2d10+2", (DamageDice(1, 10), None, DamageDice(2, 10)), (0, 5, 2), DamageType.UNTYPED),
    ("5", (None,) * 3, (5, 5, 5), DamageType.UNTYPED),
]


@pytest.mark.parametrize(("text", "dice", "flat", "dtype"), DICE_PARSE)
def test_tiered_parse_dice(
    text: str, dice: tuple[DamageDice | None, ...], flat: tuple[int, int, int], dtype: DamageType
) -> None:
    damage = TieredDamage.parse(text)
    assert tuple(t.dice for t in damage.tiers) == dice and damage.dtype is dtype
    assert tuple(damage.amount(t, M3) for t in (1, 2, 3)) == flat
    assert TieredDamage.parse(damage.format()) == damage
    assert load(TieredDamage, to_data(damage)) == damage


@pytest.mark.parametrize("text", ["2d6+", "2d6 3", "2d6+2d6", "-2d6", "21d6", "2d101", "2d6+3/4", "0d6"])
def test_tiered_parse_dice_errors(text: str) -> None:
    with pytest.raises(DamageError, match="Damage"):
        TieredDamage.parse(text)


def test_tier_dice_rolled_with_the_flat_part() -> None:
    """A d3 is a d6 read 1-2/3-4/5-6 (Draw Steel, The Basics, "D3s"); the total never goes below 0."""
    rolled = TieredDamage.parse("2d3+M/1/1").roll(1, M3, FixedDice([6, 1]))
    assert rolled is not None and rolled.dice.results == (3, 1) and rolled.total == 3 + 1 + 3
    assert rolled.format() == "2d3 [3, 1] + 3 = 7"
    low = TieredDamage.parse("1d4-M").roll(2, M3, FixedDice([1]))
    assert low is not None and low.total == 0 and low.format() == "1d4 [1] − 3 = 0"
    assert TieredDamage.parse("3/6/9").roll(3, M3, FixedDice([])) is None


def test_tiered_parse_keeps_what_it_read() -> None:
    """A text read before gives the same (immutable) value without reading it again; a bad one fails each
    time."""
    assert TieredDamage.parse("2+M/5+M/7+M fire") is TieredDamage.parse("2+M/5+M/7+M fire")
    for _ in range(2):
        with pytest.raises(DamageError):
            TieredDamage.parse("3/6/9 banana")


def test_tier_out_of_range() -> None:
    with pytest.raises(DamageError):
        TieredDamage.parse("1/2/3").amount(4, M3)
    assert TierDamage(3, Characteristic.MIGHT, -1).format() == "3-M"


# --- surges and potency (Heroes ch. 7 "Surges", "Potency") ---------------------------------
@pytest.mark.parametrize(("surges", "extra"), [(0, 0), (1, 3), (2, 6), (3, 9)])
def test_surge_damage(surges: int, extra: int) -> None:
    assert surge_damage(surges, M3) == extra


@pytest.mark.parametrize("surges", [-1, 4])
def test_surge_limits(surges: int) -> None:
    with pytest.raises(DamageError):
        surge_damage(surges, M3)


@pytest.mark.parametrize(
    ("strength", "surges", "value"),
    [(Potency.WEAK, 0, 1), (Potency.AVERAGE, 0, 2), (Potency.STRONG, 0, 3), (Potency.STRONG, 2, 4)],
)
def test_potency(strength: Potency, surges: int, value: int) -> None:
    assert potency_value(strength, M3, surges) == value


def test_potency_surges_must_be_two() -> None:
    with pytest.raises(DamageError):
        potency_value(Potency.WEAK, M3, 1)


@pytest.mark.parametrize(
    ("target", "potency", "lands"), [(1, 2, True), (2, 2, False), (3, 2, False), (-1, 0, True)]
)
def test_potency_lands(target: int, potency: int, lands: bool) -> None:
    check = potency_lands(target, potency)
    assert check.lands is lands
    assert check.note.startswith("lands" if lands else "resisted")


# --- modifiers --------------------------------------------------------------------------------------------
def test_modifier_parse() -> None:
    mods = DamageModifiers.parse("Fire 5, all 2; poison all", "damage 3")
    assert mods.immunities == (
        DamageModifier("fire", 5),
        DamageModifier(ALL, 2),
        DamageModifier("poison", None),
    )
    assert mods.weaknesses == (DamageModifier(ALL, 3),)
    assert mods.immunity_for(F) == DamageModifier("fire", 5)
    assert mods.immunity_for(DamageType.POISON) == DamageModifier("poison", None)
    assert mods.immunity_for(DamageType.UNTYPED) == DamageModifier(ALL, 2)
    assert DamageModifiers().immunity_for(F) is None
    assert "fire 5" in mods.format() and DamageModifiers().format() == "immunity none; weakness none"
    assert load(DamageModifiers, to_data(mods)) == mods


@pytest.mark.parametrize(
    ("imm", "weak"),
    [
        ("fire", ""),
        ("fire five", ""),
        ("untyped 3", ""),
        ("fire 1, fire 2", ""),
        ("", "fire all"),
        ("x 1", ""),
    ],
)
def test_modifier_parse_errors(imm: str, weak: str) -> None:
    with pytest.raises(DamageError):
        DamageModifiers.parse(imm, weak)


# --- other damage -----------------------------------------------------------------------------------------
# Draw Steel, Combat, "Falling" (and "Vertical Forced Movement": the goblin falls 5 squares, taking 10).
FALLS = [
    (1, 0, False, Fall(1, 0, False)),
    (2, 0, False, Fall(2, 4, True)),
    (5, 0, False, Fall(5, 10, True)),
    (5, 2, False, Fall(3, 6, True)),
    (5, 4, False, Fall(1, 0, False)),
    (5, -2, False, Fall(5, 10, True)),
    (10, 1, True, Fall(5, 10, True)),
    (3, 0, True, Fall(0, 0, False)),
    (40, 0, False, Fall(40, 50, True)),
]


@pytest.mark.parametrize(("squares", "agility", "liquid", "expected"), FALLS)
def test_fall(squares: int, agility: int, liquid: bool, expected: Fall) -> None:
    assert fall(squares, agility, liquid) == expected


def test_fall_negative() -> None:
    with pytest.raises(DamageError):
        fall(-1)


def test_slams() -> None:
    """Draw Steel, Combat, "Slamming Into Creatures": slide 5, 1 square moved, both take 4.
    "Hurling Through Objects": 1 square left into an unbroken wall: 1 + 2 = 3."""
    assert slam_creature(4) == 4
    assert slam_object(1) == 3
    with pytest.raises(ForcedError):
        slam_object(0)


def test_suffocation() -> None:
    """Draw Steel, Combat, "Suffocating": Might rounds (minimum 1), then 1d6 at the end of each round."""
    assert breath_rounds(-1) == 1 and breath_rounds(3) == 3
    assert suffocation_damage(FixedDice([]), 3, 3) == 0
    assert suffocation_damage(FixedDice([5]), 4, 3) == 5
    assert suffocation_damage(FixedDice([2]), 2, 0) == 2
    with pytest.raises(DamageError):
        suffocation_damage(FixedDice([]), 0, 1)


def test_damage_type_parse() -> None:
    assert DamageType.parse("") is DamageType.UNTYPED
    assert DamageType.parse(" HOLY ") is DamageType.HOLY


# --- properties -------------------------------------------------------------------------------------------
vitals = rules_kit.vitals()
modifier_lists = st.lists(
    st.builds(
        DamageModifier,
        dtype=st.sampled_from([ALL, *[t.value for t in DamageType if t is not DamageType.UNTYPED]]),
        value=st.integers(0, 20),
    ),
    max_size=3,
).map(tuple)
modifiers = st.builds(DamageModifiers, immunities=modifier_lists, weaknesses=modifier_lists)


@settings(max_examples=300, deadline=None)
@given(vitals, st.integers(0, 100), st.sampled_from(DamageType), modifiers, st.booleans(), st.integers(0, 3))
def test_pipeline_properties(
    v: Vitals, amount: int, dtype: DamageType, mods: DamageModifiers, halved: bool, mult: int
) -> None:
    """Damage never negative, Stamina never rises, undo restores exactly, records round-trip."""
    record = apply_damage(v, amount, dtype, mods, multiplier=mult, halved=halved)
    assert record.dealt >= 0
    assert all(s.after >= 0 for s in record.steps)
    assert record.after.stamina <= v.stamina <= v.max_stamina
    assert record.after.temporary <= v.temporary
    assert record.to_temporary + record.to_stamina == record.dealt
    assert undo(record) == v
    assert load(DamageRecord, to_data(record)) == record


# Draw Steel, Combat, "HURLING THROUGH OBJECTS": (remaining, material, thickness, broken, damage, left).
HURLS = [
    # the worked example: the null slides a commando 5, 1 square moved, into a thick wooden wall: 5 + 3.
    (4, Material.WOOD, 2, 1, 8, 0),
    (1, Material.GLASS, 1, 1, 3, 0),
    (3, Material.GLASS, 1, 1, 3, 2),
    (5, Material.STONE, 1, 0, 7, 0),
    (6, Material.STONE, 1, 1, 8, 0),
    (9, Material.METAL, 3, 1, 11, 0),
    (10, Material.METAL, 3, 1, 14, 0),
    (6, Material.WOOD, 2, 2, 10, 0),
]


@pytest.mark.parametrize(("remaining", "material", "thickness", "broken", "damage", "left"), HURLS)
def test_hurl_through(
    remaining: int, material: Material, thickness: int, broken: int, damage: int, left: int
) -> None:
    assert hurl_through(remaining, material, thickness) == Hurl(broken, damage, left)


def test_hurl_errors() -> None:
    with pytest.raises(ForcedError):
        hurl_through(0, Material.WOOD)
    with pytest.raises(ForcedError):
        hurl_through(3, Material.WOOD, 0)


@pytest.mark.parametrize(
    "value",
    [
        Fall(3, 6, True),
        Hurl(1, 5, 0),
        PotencyCheck(1, 2),
        Step("weakness", 3, 8, "fire weakness 5"),
        TierDamage(2, Characteristic.AGILITY, -1),
        DamageModifier(ALL, None),
    ],
)
def test_value_round_trip(value: object) -> None:
    assert load(type(value), to_data(value)) == value
