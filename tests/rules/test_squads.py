"""Minion squads (Draw Steel Monsters "Minions", as the brief gives them)."""

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
    assert area.dealt == 2 and area.pool_loss == 4
    assert damage_squad(squad(), 11, ["m1"], halved=True).pool_loss == 5


@pytest.mark.parametrize(("targets", "area"), [([], False), (["m9"], False), (["m1", "m2"], False)])
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
        record = damage_squad(s, amount, targets, area=area)
        if area:
            assert set(record.killed) <= set(targets)
        assert record.after.pool >= 0
        assert load(Squad, to_data(record.after)) == record.after
        s = record.after
