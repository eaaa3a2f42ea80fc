"""Minion squads (Draw Steel Monsters, "Minions")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.codec import load, to_data
from bot.rules.damage import DamageModifiers, DamageType
from bot.rules.squads import (
    MinionError,
    Squad,
    SquadDamage,
    damage_squad,
    new_squad,
    refuse_healing,
    undo_squad,
)

IDS = ("m1", "m2", "m3", "m4")


def squad() -> Squad:
    return new_squad("goblins", IDS, 5)  # pool 20


# Single-target damage to the pool: (amount, pool after, killed). A minion dies each time the pool drops past
# one minion's Stamina; the target dies first, then the squad order.
SINGLE = [
    (0, 20, ()),
    (3, 17, ()),
    (5, 15, ("m2",)),
    (6, 14, ("m2",)),
    (12, 8, ("m2", "m1")),
    (16, 4, ("m2", "m1", "m3")),
    (20, 0, ("m2", "m1", "m3", "m4")),
    (99, 0, ("m2", "m1", "m3", "m4")),
]


@pytest.mark.parametrize(("amount", "pool", "killed"), SINGLE)
def test_single_target(amount: int, pool: int, killed: tuple[str, ...]) -> None:
    record = damage_squad(squad(), amount, ["m2"])
    assert (record.after.pool, record.killed) == (pool, killed)
    assert record.after.dead == killed
    assert undo_squad(record) == squad()
    assert load(SquadDamage, to_data(record)) == record


def test_accumulated_damage_crosses_thresholds() -> None:
    first = damage_squad(squad(), 3, ["m1"])
    assert first.killed == ()
    second = damage_squad(first.after, 3, ["m3"])
    assert second.killed == ("m3",) and second.after.pool == 14


# Area damage: each minion hit counts at most its own Stamina, and only minions in the area die.
AREA = [
    (3, ("m1", "m2"), 14, ("m1",)),
    (5, ("m1", "m2"), 10, ("m1", "m2")),
    (50, ("m1", "m2"), 10, ("m1", "m2")),
    (2, ("m1",), 18, ()),
    (9, ("m4", "m2", "m3"), 5, ("m4", "m2", "m3")),
]


@pytest.mark.parametrize(("amount", "hit", "pool", "killed"), AREA)
def test_area(amount: int, hit: tuple[str, ...], pool: int, killed: tuple[str, ...]) -> None:
    record = damage_squad(squad(), amount, hit, area=True)
    assert (record.after.pool, record.killed) == (pool, killed)
    assert set(record.killed) <= set(hit)


def test_modifiers_apply_once_per_squad() -> None:
    """Immunity and weakness apply once to the damage, not per minion."""
    mods = DamageModifiers.parse("fire 2", "cold 3")
    assert damage_squad(squad(), 7, ["m1"], dtype=DamageType.FIRE, modifiers=mods).pool_loss == 5
    assert damage_squad(squad(), 2, ["m1"], dtype=DamageType.COLD, modifiers=mods).pool_loss == 5
    area = damage_squad(squad(), 4, ["m1", "m2"], area=True, dtype=DamageType.FIRE, modifiers=mods)
    assert area.dealt == 6 and area.pool_loss == 6  # (4 + 4) − 2 once, not (4 − 2) × 2
    assert damage_squad(squad(), 11, ["m1"], halved=True).pool_loss == 5


# "Weakness and immunity apply once to the squad's whole damage, after the
# per-minion area cap, not once per minion. Four 5-Stamina minions with fire weakness 3, hit by an area of 2
# fire on three of them: the pool loses 9, not 15." (amount, hit, weakness, immunity, pool loss, killed)
ONCE_AFTER_CAP = [
    pytest.param(2, ("m1", "m2", "m3"), "fire 3", "", 9, ("m1",), id="the example: 9, not 15"),
    pytest.param(7, ("m1", "m2"), "fire 3", "", 13, ("m1", "m2"), id="cap 5 each, then +3 once"),
    pytest.param(2, ("m1", "m2", "m3"), "", "fire 4", 2, (), id="immunity once: 6 − 4"),
    pytest.param(9, ("m1",), "fire 10", "", 9, ("m1",), id="only minions in the area die: pool 11"),
]


@pytest.mark.parametrize(("amount", "hit", "weakness", "immunity", "loss", "killed"), ONCE_AFTER_CAP)
def test_area_modifiers_once_after_the_cap(
    amount: int, hit: tuple[str, ...], weakness: str, immunity: str, loss: int, killed: tuple[str, ...]
) -> None:
    mods = DamageModifiers.parse(immunity, weakness)
    record = damage_squad(squad(), amount, hit, area=True, dtype=DamageType.FIRE, modifiers=mods)
    assert (record.pool_loss, record.killed) == (loss, killed)


def test_non_area_damage_to_several_minions_goes_to_the_pool_in_full() -> None:
    """ "Only area damage is capped per minion. A non-area strike that names several minions of one
    squad puts its full damage into the pool, and may drop more minions than it named." """
    record = damage_squad(squad(), [8, 8], ["m1", "m2"])
    assert record.pool_loss == 16 and record.killed == ("m1", "m2", "m3")
    capped = damage_squad(squad(), [8, 8], ["m1", "m2"], area=True)
    assert capped.pool_loss == 10 and capped.killed == ("m1", "m2")


def test_halving_comes_before_the_area_cap_and_weakness() -> None:
    """Draw Steel, Combat, "DAMAGE IMMUNITY": "if an ally first halved the damage ... immunity then
    reducing the damage": each minion's damage is halved, capped, then weakness applies once."""
    mods = DamageModifiers.parse("", "fire 3")
    record = damage_squad(
        squad(), 9, ["m1", "m2"], area=True, halved=True, dtype=DamageType.FIRE, modifiers=mods
    )
    assert record.pool_loss == 4 + 4 + 3


@pytest.mark.parametrize(("targets", "area"), [([], False), (["m9"], False), (["m1", "m1"], False)])
def test_bad_targets(targets: list[str], area: bool) -> None:
    with pytest.raises(MinionError):
        damage_squad(squad(), 3, targets, area=area)


def test_dead_minion_cannot_be_targeted() -> None:
    after = damage_squad(squad(), 5, ["m1"]).after
    with pytest.raises(MinionError):
        damage_squad(after, 5, ["m1"])


def test_minions_never_winded_or_healed() -> None:
    s = damage_squad(squad(), 15, ["m1"]).after
    assert not s.winded and not s.defeated
    with pytest.raises(MinionError):
        refuse_healing(s)
    assert damage_squad(s, 5, ["m4"]).after.defeated


@pytest.mark.parametrize(
    "kwargs",
    [
        {"id": "s", "minion_stamina": 0, "alive": ("a",), "pool": 0},
        {"id": "s", "minion_stamina": 5, "alive": ("a",), "pool": 6},
        {"id": "s", "minion_stamina": 5, "alive": ("a", "a"), "pool": 10},
        {"id": "s", "minion_stamina": 5, "alive": ("a",), "pool": -1},
    ],
)
def test_bad_squads(kwargs: dict[str, object]) -> None:
    with pytest.raises(MinionError):
        Squad(**kwargs)  # type: ignore[arg-type]


def test_empty_squad() -> None:
    with pytest.raises(MinionError):
        new_squad("s", [], 5)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 8),
    st.integers(1, 12),
    st.lists(st.tuples(st.integers(0, 40), st.booleans(), st.integers(1, 3)), max_size=6),
)
def test_squad_invariants(size: int, stamina: int, hits: list[tuple[int, bool, int]]) -> None:
    """Alive minions always equal ceil(pool / minion Stamina); kills only among the targets for areas."""
    s = new_squad("s", [f"m{i}" for i in range(size)], stamina)
    for amount, area, count in hits:
        if s.defeated:
            break
        targets = list(s.alive[:count]) if area else [s.alive[-1]]
        mods = DamageModifiers.parse("", f"fire {stamina}")
        record = damage_squad(s, amount, targets, area=area, dtype=DamageType.FIRE, modifiers=mods)
        if area:
            assert set(record.killed) <= set(targets)
        assert record.after.pool >= 0
        s = record.after
        assert load(Squad, to_data(record.after)) == record.after
        s = record.after
