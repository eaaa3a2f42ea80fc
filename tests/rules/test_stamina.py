"""Stamina: winded, dying, dead, knocked out, temporary Stamina, recoveries, healing, respite."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.codec import load, to_data
from bot.rules.stamina import (
    StaminaError,
    Vitals,
    catch_breath,
    end_of_encounter,
    gain_temporary,
    heal,
    knock_out,
    lose_stamina,
    lose_stamina_outright,
    respite,
    set_max_stamina,
    spend_recovery,
    wake,
)
from tests.rules import rules_kit


def hero(stamina: int, max_stamina: int = 30, recoveries: int = 3, temporary: int = 0) -> Vitals:
    return Vitals(max_stamina, stamina, temporary, recoveries, 8, is_hero=True)


# Draw Steel, Combat, "Winded" (≤ half max, rounded down), "Dying and Death" (hero: dying at ≤ 0, dead at
# −winded value), "Director-Controlled Creatures" (dead at 0). (vitals, winded, dying, dead)
STATES = [
    (hero(30), False, False, False),
    (hero(16), False, False, False),
    (hero(15), True, False, False),
    (hero(1), True, False, False),
    (hero(0), True, True, False),
    (hero(-14), True, True, False),
    (hero(-15), False, False, True),
    (hero(10, max_stamina=31), True, False, False),  # winded value 15
    (hero(-15, max_stamina=31), False, False, True),
    (hero(0, max_stamina=1), True, True, False),  # winded value 0: dead only below 0
    (hero(-1, max_stamina=1), False, False, True),
    (Vitals(20, 10), True, False, False),
    (Vitals(20, 11), False, False, False),
    (Vitals(20, 0), False, False, True),
    (Vitals(20, -3), False, False, True),
    (Vitals(20, 0, death_threshold=-5), True, False, False),
    (Vitals(20, -5, death_threshold=-5), False, False, True),
    (Vitals(20, 0, knocked_out=True), True, False, False),
    (Vitals(20, 5, knocked_out=True, slain=True), False, False, True),
    # "If you have temporary Stamina while winded, dying, or dead, the temporary Stamina doesn't change those"
    (hero(15, temporary=20), True, False, False),
    (hero(0, temporary=20), True, True, False),
]


@pytest.mark.parametrize(("vitals", "winded", "dying", "dead"), STATES)
def test_states(vitals: Vitals, winded: bool, dying: bool, dead: bool) -> None:
    assert (vitals.winded, vitals.dying, vitals.dead) == (winded, dying, dead)


def test_recovery_value() -> None:
    """ "A recovery value that equals one-third of their Stamina maximum, rounded down"."""
    assert hero(30).recovery_value == 10
    assert hero(1, max_stamina=32).recovery_value == 10


def test_temporary_stamina() -> None:
    """Draw Steel, Combat, "Temporary Stamina": 10 when you have 5 gives 10, not 15; disappears at the end
    of an encounter; regaining Stamina can't restore it."""
    v = gain_temporary(hero(20, temporary=5), 10)
    assert v.temporary == 10
    assert gain_temporary(v, 3).temporary == 10
    assert end_of_encounter(v).temporary == 0
    assert heal(lose_stamina(v, 12), 50) == hero(30, temporary=0)
    with pytest.raises(StaminaError):
        gain_temporary(v, -1)


def test_heal_caps_at_max() -> None:
    assert heal(hero(25), 10).stamina == 30
    assert heal(hero(-5), 8).stamina == 3
    with pytest.raises(StaminaError):
        heal(hero(5), -1)
    with pytest.raises(StaminaError):
        heal(hero(-15), 5)


def test_catch_breath() -> None:
    """Draw Steel, Combat, "Catch Breath": spend a Recovery, regain the recovery value; not while dying."""
    v = catch_breath(hero(5))
    assert (v.stamina, v.recoveries) == (15, 2)
    assert catch_breath(hero(28)).stamina == 30
    with pytest.raises(StaminaError, match="dying"):
        catch_breath(hero(0))
    with pytest.raises(StaminaError, match="No Recoveries"):
        catch_breath(hero(5, recoveries=0))
    with pytest.raises(StaminaError):
        catch_breath(Vitals(30, 5))


def test_spend_recovery_while_dying_and_for_director_creatures() -> None:
    """Draw Steel, Combat, "Dying and Death": allies can help you spend Recoveries; "No Recoveries": a
    Director creature regains a third of its Stamina maximum."""
    assert spend_recovery(hero(-4)).stamina == 6
    assert spend_recovery(hero(0), extra=2).stamina == 12
    ogre = spend_recovery(Vitals(31, 1))
    assert (ogre.stamina, ogre.recoveries) == (11, 0)


def test_knock_out_and_wake() -> None:
    """Draw Steel, Combat, "Knocking Creatures Out"."""
    goblin = lose_stamina(Vitals(10, 4), 6)
    assert goblin.dead
    out = knock_out(goblin)
    assert out.knocked_out and not out.dead
    assert wake(out) == Vitals(10, 1)
    assert lose_stamina(out, 1).dead
    assert lose_stamina(out, 0) == out
    with pytest.raises(StaminaError):
        knock_out(Vitals(10, 4))
    with pytest.raises(StaminaError):
        wake(Vitals(10, 4))
    down = knock_out(lose_stamina(hero(3), 40))
    awake = wake(down)
    assert not awake.knocked_out and awake.stamina == -14 + 10 and awake.recoveries == 2
    with pytest.raises(StaminaError):
        wake(knock_out(lose_stamina(hero(3, recoveries=0), 40)))


def test_regaining_stamina_wakes_a_knocked_out_creature() -> None:
    """Draw Steel, Combat, "Knocking Creatures Out": they remain unconscious "if no one does anything to
    wake them"; healing them does. A Director creature counts from 0 ("They then gain 1 Stamina"); a hero
    wakes once above the Stamina they'd die at, and is dying if still at 0 or below."""
    goblin = knock_out(lose_stamina(Vitals(10, 4), 9))
    woken = heal(goblin, 3)
    assert not woken.knocked_out and woken.stamina == 3 and not woken.dead
    down = knock_out(lose_stamina(hero(3), 40))  # Stamina −37, dies at −15
    assert heal(down, 10).knocked_out  # −27: still where they'd die
    up = heal(down, 30)
    assert not up.knocked_out and up.stamina == -7 and up.dying
    with pytest.raises(StaminaError):
        heal(lose_stamina(knock_out(lose_stamina(Vitals(10, 4), 9)), 1), 5)  # slain: dead


def test_stamina_lost_outright_passes_temporary_stamina() -> None:
    """Bleeding: "it loses Stamina equal to 1d6 + its level ... Nothing prevents this loss.";
    temporary Stamina only absorbs damage (Draw Steel, Combat, "Temporary Stamina": "Whenever you take
    damage while you have temporary Stamina")."""
    assert lose_stamina_outright(hero(10, temporary=5), 4) == hero(6, temporary=5)
    with pytest.raises(StaminaError):
        lose_stamina_outright(hero(10), -1)


def test_lose_stamina_knock_out_instead() -> None:
    v = lose_stamina(hero(5), 100, knock_out_instead=True)
    assert v.knocked_out and not v.dead
    assert not lose_stamina(hero(5), 3, knock_out_instead=True).knocked_out
    with pytest.raises(StaminaError):
        lose_stamina(hero(5), -1)


def test_respite() -> None:
    """Draw Steel, The Basics, "Respite": regain all Recoveries and Stamina."""
    assert respite(hero(-3, recoveries=0)) == hero(30, recoveries=8)
    with pytest.raises(StaminaError):
        respite(hero(-20))


@pytest.mark.parametrize(("max_stamina", "stamina", "temporary"), [(0, 0, 0), (5, 5, -1), (5, 6, 0)])
def test_bad_vitals(max_stamina: int, stamina: int, temporary: int) -> None:
    with pytest.raises(StaminaError):
        Vitals(max_stamina, stamina, temporary)


def test_set_max_stamina() -> None:
    assert set_max_stamina(hero(30), 20).stamina == 20
    assert set_max_stamina(hero(10), 40) == Vitals(40, 10, 0, 3, 8, is_hero=True)
    with pytest.raises(StaminaError):
        set_max_stamina(hero(10), 0)


def test_fresh() -> None:
    assert Vitals.fresh(30, 8, is_hero=True) == hero(30, recoveries=8)


vitals = rules_kit.vitals(death_threshold=st.none() | st.integers(-50, 0), slain=st.booleans())


@settings(max_examples=200, deadline=None)
@given(vitals, st.integers(0, 300))
def test_heal_never_exceeds_max(v: Vitals, amount: int) -> None:
    """Stamina never exceeds the maximum; codec round trip."""
    assert load(Vitals, to_data(v)) == v
    if not v.dead:
        healed = heal(v, amount)
        assert healed.stamina <= healed.max_stamina
        assert healed.temporary == v.temporary
