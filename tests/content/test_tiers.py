"""The tier-text parser: damage, potency effects, forced movement, and the rest kept verbatim."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.characteristics import Characteristic, Characteristics
from bot.rules.conditions import Condition, Duration
from bot.rules.damage import DamageDice, DamageType, Potency
from bot.rules.forced import ForcedKind, ForcedMovement
from bot.rules.tiers import (
    AbilityDamage,
    ConditionEffect,
    PotencyTest,
    TierEffect,
    parse_tier,
)
from tests.content.forgesteel_files import invented_bytes, real_bytes, tier_texts

M, A, R, INT, P = (
    Characteristic.MIGHT,
    Characteristic.AGILITY,
    Characteristic.REASON,
    Characteristic.INTUITION,
    Characteristic.PRESENCE,
)

# (text, damage, effects as (potency, conditions, duration), forced, rest)
DAMAGE_CASES: list[tuple[str, AbilityDamage | None]] = [
    ("3 + M damage; push 2", AbilityDamage(3, (M,))),
    ("5 fire damage; M < 2 weakened (save ends)", AbilityDamage(5, (), DamageType.FIRE)),
    ("3 damage + M or A damage", AbilityDamage(3, (M, A))),
    ("3 + M or A damage", AbilityDamage(3, (M, A))),
    ("8 + A psychic damage; vertical pull 3", AbilityDamage(8, (A,), DamageType.PSYCHIC)),
    ("11 + M holy damage", AbilityDamage(11, (M,), DamageType.HOLY)),
    ("2 + m, a, or r cold damage", AbilityDamage(2, (M, A, R), DamageType.COLD)),
    ("Push 1", None),
    ("2d6 fire damage", AbilityDamage(0, (), DamageType.FIRE, DamageDice(2, 6))),
    # dice damage as Forge Steel's cards write it (the Shadow's Coup de Grâce, 1st level)
    ("2d6 + 7 + A damage", AbilityDamage(7, (A,), dice=DamageDice(2, 6))),
    ("2d6 + 16 + A damage", AbilityDamage(16, (A,), dice=DamageDice(2, 6))),
    ("1d6 + 3 fire damage", AbilityDamage(3, (), DamageType.FIRE, DamageDice(1, 6))),
    ("2d10 damage", AbilityDamage(0, dice=DamageDice(2, 10))),
    ("2d6 + M or A damage; push 2", AbilityDamage(0, (M, A), dice=DamageDice(2, 6))),
    ("99d6 damage", None),
]


@pytest.mark.parametrize(("text", "damage"), DAMAGE_CASES)
def test_damage(text: str, damage: AbilityDamage | None) -> None:
    """Damage is "the base plus characteristic letters, with the damage type"; "M or A" means the
    highest of them."""
    assert parse_tier(text).damage == damage


EFFECT_CASES: list[tuple[str, tuple[ConditionEffect, ...]]] = [
    (
        "5 fire damage; M < 2 weakened (save ends)",
        (ConditionEffect((Condition.WEAKENED,), Duration.SAVE, PotencyTest(M, value=2)),),
    ),
    (
        "6 + A damage; A < [strong] slowed (EoT)",
        (ConditionEffect((Condition.SLOWED,), Duration.EOT, PotencyTest(A, strength=Potency.STRONG)),),
    ),
    ("2 damage; the target is grabbed", (ConditionEffect((Condition.GRABBED,), None, None),)),
    ("12 holy damage; **grabbed**", (ConditionEffect((Condition.GRABBED,), None, None),)),
    (
        "4 + M damage; M < [weak], bleeding and weakened (save ends)",
        (
            ConditionEffect(
                (Condition.BLEEDING, Condition.WEAKENED), Duration.SAVE, PotencyTest(M, strength=Potency.WEAK)
            ),
        ),
    ),
    (
        "16 damage; `M < 2` **bleeding** and **weakened** (save ends)",
        (ConditionEffect((Condition.BLEEDING, Condition.WEAKENED), Duration.SAVE, PotencyTest(M, value=2)),),
    ),
    (
        "4 damage; I < [average], bleeding, dazed, and slowed (save ends)",
        (
            ConditionEffect(
                (Condition.BLEEDING, Condition.DAZED, Condition.SLOWED),
                Duration.SAVE,
                PotencyTest(INT, strength=Potency.AVERAGE),
            ),
        ),
    ),
    (
        "2 corruption damage; A<0 restrained (save ends)",
        (ConditionEffect((Condition.RESTRAINED,), Duration.SAVE, PotencyTest(A, value=0)),),
    ),
    (
        "7 damage; P < −1 frightened (save ends)",
        (ConditionEffect((Condition.FRIGHTENED,), Duration.SAVE, PotencyTest(P, value=-1)),),
    ),
    ("I<0 prone", (ConditionEffect((Condition.PRONE,), None, PotencyTest(INT, value=0)),)),
    (
        "M (strong) prone",
        (ConditionEffect((Condition.PRONE,), None, PotencyTest(M, strength=Potency.STRONG)),),
    ),
    (
        "A < avg, taunted (EoT)",
        (ConditionEffect((Condition.TAUNTED,), Duration.EOT, PotencyTest(A, strength=Potency.AVERAGE)),),
    ),
    (
        "5 damage; the target is slowed until the end of their next turn",
        (ConditionEffect((Condition.SLOWED,), Duration.EOT, None),),
    ),
    ("restrained (end of encounter)", (ConditionEffect((Condition.RESTRAINED,), Duration.ENCOUNTER, None),)),
    ("The target is grabbed by you.", (ConditionEffect((Condition.GRABBED,), None, None),)),
    ("No effect.", ()),
    (
        "8 damage; P < [strong], frightened of you (save ends)",
        (ConditionEffect((Condition.FRIGHTENED,), Duration.SAVE, PotencyTest(P, strength=Potency.STRONG)),),
    ),
]


def _without_text(effects: tuple[ConditionEffect, ...]) -> tuple[ConditionEffect, ...]:
    return tuple(ConditionEffect(e.conditions, e.duration, e.potency, e.unread) for e in effects)


@pytest.mark.parametrize(("text", "effects"), EFFECT_CASES)
def test_condition_effects(text: str, effects: tuple[ConditionEffect, ...]) -> None:
    """ "potency conditions: a characteristic against a number or against weak / average /
    strong ... Each comes with its condition and duration (EoT, save ends)"."""
    parsed = parse_tier(text)
    assert _without_text(parsed.effects) == effects
    assert parsed.fully_parsed


FORCED_CASES: list[tuple[str, tuple[ForcedMovement, ...]]] = [
    ("3 + M damage; push 2", (ForcedMovement(ForcedKind.PUSH, 2),)),
    ("8 + A psychic damage; vertical pull 3", (ForcedMovement(ForcedKind.PULL, 3, vertical=True),)),
    ("1 poison damage; slide 1", (ForcedMovement(ForcedKind.SLIDE, 1),)),
    ("Push 3", (ForcedMovement(ForcedKind.PUSH, 3),)),
    ("3 cold damage, vertical push 4", (ForcedMovement(ForcedKind.PUSH, 4, vertical=True),)),
    ("push 2 squares", ()),
]


@pytest.mark.parametrize(("text", "forced"), FORCED_CASES)
def test_forced_movement(text: str, forced: tuple[ForcedMovement, ...]) -> None:
    """ "forced movement: push, pull or slide N, vertical or not"."""
    assert parse_tier(text).forced == forced


UNREAD_CASES: list[tuple[str, tuple[str, ...]]] = [
    ("12 poison damage; the target is dragonsealed (save ends)", ("the target is dragonsealed (save ends)",)),
    ("I<1 prone and can’t stand (EoT)", ("I<1 prone and can’t stand (EoT)",)),
    ("Prone; I<2 can’t stand (save ends)", ("I<2 can’t stand (save ends)",)),
    ("2d6 fire damage", ()),
    ("2d6 + 7 + A damage", ()),
    ("99d6 damage", ("99d6 damage",)),
    ("5 damage; 3 damage", ("3 damage",)),
    ("M<2", ("M<2",)),
    ("push 2 squares", ("push 2 squares",)),
    ("", ()),
]


@pytest.mark.parametrize(("text", "unread"), UNREAD_CASES)
def test_what_is_not_understood_stays_text(text: str, unread: tuple[str, ...]) -> None:
    """ "Anything the parser doesn't understand stays text and is shown. It is never dropped and
    never guessed"."""
    parsed = parse_tier(text)
    assert parsed.unread == unread
    assert parsed.fully_parsed is (not unread)


def test_a_potency_whose_effect_is_not_conditions_keeps_its_test() -> None:
    """The potency is still checked (the bot can say whether it lands); its effect is shown as written."""
    (effect,) = parse_tier("I<1 prone and can’t stand (EoT)").effects
    assert effect.potency == PotencyTest(INT, value=1)
    assert effect.conditions == ()
    assert effect.unread == "prone and can't stand (EoT)"


@pytest.mark.parametrize(
    ("test", "striker", "potency"),
    [
        (PotencyTest(M, strength=Potency.WEAK), Characteristics(might=2, reason=3), 1),
        (PotencyTest(M, strength=Potency.AVERAGE), Characteristics(might=2, reason=3), 2),
        (PotencyTest(M, strength=Potency.STRONG), Characteristics(might=2, reason=3), 3),
        (PotencyTest(M, value=2), Characteristics(might=5), 2),
    ],
)
def test_potency(test: PotencyTest, striker: Characteristics, potency: int) -> None:
    """Weak / average / strong "are the hero's highest characteristic − 2, − 1 and ± 0; for a
    monster the number is written out"."""
    assert test.potency(striker) == potency


def test_potency_lands_when_the_target_is_below_it() -> None:
    """ "a potency condition lands when the target's characteristic is below the potency"."""
    test = PotencyTest(M, value=2)
    assert test.check(Characteristics(might=1), Characteristics()).lands
    assert not test.check(Characteristics(might=2), Characteristics()).lands


@pytest.mark.parametrize(
    ("damage", "scores", "amount"),
    [
        (AbilityDamage(3, (M, A)), Characteristics(might=1, agility=4), 7),
        (AbilityDamage(3, (M,)), Characteristics(might=-5), 0),
        (AbilityDamage(3), Characteristics(might=5), 3),
        (AbilityDamage(7, (A,), dice=DamageDice(2, 6)), Characteristics(agility=3), 10),
    ],
)
def test_damage_amount(damage: AbilityDamage, scores: Characteristics, amount: int) -> None:
    """The flat part; a tier's dice are rolled at the strike."""
    assert damage.amount(scores) == amount


def test_dice_damage_comes_to_what_forge_steel_shows() -> None:
    """A hero's card in Forge Steel shows the dice and one number, the characteristic and kit bonus added
    (`2d6 + 7 + A damage` for Agility 3 with a +2 kit: `2d6 + 12`)."""
    coup = AbilityDamage(7, (A,), dice=DamageDice(2, 6))
    assert coup.total(Characteristics(agility=3), 2) == "2d6 + 12"
    assert AbilityDamage(3, (M, A)).total(Characteristics(might=1, agility=4)) == "7"


def test_forced_movement_reduced_by_stability() -> None:
    """Forced movement is "reduced by the target's stability" ("push 2 → 1, stability 1")."""
    assert ForcedMovement(ForcedKind.PUSH, 2).reduced_by(1) == 1
    assert ForcedMovement(ForcedKind.PUSH, 2).reduced_by(5) == 0


def test_formats() -> None:
    assert AbilityDamage(3, (M, A), DamageType.FIRE).format() == "3 + M or A fire damage"
    assert AbilityDamage(7, (A,), dice=DamageDice(2, 6)).format() == "2d6 + 7 + A damage"
    assert AbilityDamage(0, (), DamageType.FIRE, DamageDice(2, 10)).format() == "2d10 fire damage"
    assert PotencyTest(M, strength=Potency.WEAK).format() == "M < [weak]"
    assert PotencyTest(A, value=-1).format() == "A < -1"
    assert ForcedMovement(ForcedKind.PULL, 3, vertical=True).format() == "vertical pull 3"


def test_parse_is_cached() -> None:
    assert parse_tier("3 + M damage; push 2") is parse_tier("3 + M damage; push 2")


# The figures docs/abilities.md states: how many distinct tier texts parse fully, in the real Forge Steel
# exports and in our own fixtures.
FIXTURE_TEXTS_PARSED = 101


def test_fixture_tier_texts_floor() -> None:
    """ "A test runs the parser over every tier text in the Forge Steel fixtures ... records how
    many texts parse fully"; docs/abilities.md states the figure and lists the rest."""
    texts = tier_texts(real_bytes)
    parsed = [t for t in texts if parse_tier(t).fully_parsed]
    assert len(texts) == 105
    assert len(parsed) >= FIXTURE_TEXTS_PARSED, sorted(set(texts) - set(parsed))


def test_our_fixtures_tier_texts_all_parse() -> None:
    texts = tier_texts(invented_bytes)
    assert len(texts) == 95
    assert [t for t in texts if not parse_tier(t).fully_parsed] == []


@settings(deadline=None, max_examples=200)
@given(st.text(max_size=80))
def test_any_text_is_kept(text: str) -> None:
    """Nothing is dropped: every word of a clause the parser didn't read is shown."""
    parsed = parse_tier(text)
    assert isinstance(parsed, TierEffect)
    assert parsed.text == text
    for clause in parsed.unread:
        for word in clause.replace("*", " ").replace("`", " ").split():
            assert word.strip(".") in text.replace("’", "'").replace("−", "-") or word in text


_DURATION_WORDS = {
    Duration.SAVE: " (save ends)",
    Duration.EOT: " (EoT)",
    Duration.ENCOUNTER: " (end of encounter)",
}
_PLAIN_CONDITIONS = [c for c in Condition if c not in (Condition.SURPRISED, Condition.CUSTOM)]


@settings(deadline=None, max_examples=150)
@given(
    base=st.integers(0, 99),
    dice=st.one_of(
        st.none(), st.builds(DamageDice, st.integers(1, 20), st.sampled_from([3, 4, 6, 8, 10, 12]))
    ),
    letters=st.lists(st.sampled_from(list(Characteristic)), max_size=3, unique=True),
    dtype=st.sampled_from(list(DamageType)),
    potency=st.one_of(
        st.builds(PotencyTest, st.sampled_from(list(Characteristic)), value=st.integers(-5, 9)),
        st.builds(
            PotencyTest, st.sampled_from(list(Characteristic)), strength=st.sampled_from(list(Potency))
        ),
    ),
    conditions=st.lists(st.sampled_from(_PLAIN_CONDITIONS), min_size=1, max_size=3, unique=True),
    duration=st.sampled_from([None, *_DURATION_WORDS]),
    forced=st.lists(
        st.builds(ForcedMovement, st.sampled_from(list(ForcedKind)), st.integers(1, 20), st.booleans()),
        max_size=2,
    ),
)
def test_what_the_card_writes_reads_back(
    base: int,
    dice: DamageDice | None,
    letters: list[Characteristic],
    dtype: DamageType,
    potency: PotencyTest,
    conditions: list[Condition],
    duration: Duration | None,
    forced: list[ForcedMovement],
) -> None:
    """Any damage, potency effect and forced movement written as cards write them parses back whole."""
    damage = AbilityDamage(base, tuple(letters), dtype, dice)
    names = [c.value for c in conditions]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    effect = f"{potency.format()} {joined}{_DURATION_WORDS[duration] if duration else ''}"
    text = "; ".join([damage.format(), effect, *(f.format() for f in forced)])
    parsed = parse_tier(text)
    assert parsed.fully_parsed, text
    assert parsed.damage == damage
    assert _without_text(parsed.effects) == (ConditionEffect(tuple(conditions), duration, potency),)
    assert parsed.forced == tuple(forced)
