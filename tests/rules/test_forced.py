"""Forced movement (bot.rules.forced): distance, stability, size, and slams — Draw Steel, Combat, "Forced
Movement", "STABILITY", "SLAMMING INTO CREATURES", "SLAMMING INTO OBJECTS", "HURLING THROUGH OBJECTS"."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import codec
from bot.rules.forced import (
    ForcedError,
    ForcedKind,
    ForcedMovement,
    Into,
    Material,
    Size,
    Slam,
    forced_distance,
    slam,
)

# (distance, stability, mover size, target size, melee weapon, squares the target can be moved)
DISTANCES = [
    pytest.param(3, 0, None, None, False, 3, id="push 3, stability 0"),
    pytest.param(3, 2, None, None, False, 1, id="stability reduces the movement"),
    pytest.param(2, 5, None, None, False, 0, id="never below 0"),
    pytest.param(2, 0, "2", "1M", True, 3, id="larger mover, melee weapon: +1"),
    pytest.param(2, 0, "2", "1M", False, 2, id="not a melee weapon ability: no +1"),
    pytest.param(2, 0, "1S", "1L", True, 2, id="smaller moves larger: the distance doesn't change"),
    pytest.param(2, 0, "1M", "1M", True, 2, id="same size: no +1"),
    pytest.param(2, 1, "1L", "1S", True, 2, id="+1, then stability 1"),
    pytest.param(1, 0, 3, "2", True, 2, id="sizes as numbers"),
]


@pytest.mark.parametrize(("distance", "stability", "mover", "moved", "melee", "squares"), DISTANCES)
def test_forced_distance(
    distance: int, stability: int, mover: str | int | None, moved: str | None, melee: bool, squares: int
) -> None:
    """ "When a larger creature force moves a smaller target with a melee weapon ability, the distance of the
    forced movement is increased by 1. If a smaller creature force moves a larger target with a melee weapon
    ability, the distance doesn't change." "When a creature is force moved, they can reduce that movement up
    to a number of squares equal to their stability." """
    assert (
        forced_distance(distance, stability, mover_size=mover, target_size=moved, melee_weapon=melee)
        == squares
    )


def test_sizes_order_and_read_back() -> None:
    sizes = [Size.parse(t) for t in ("1T", "1s", "1M", "1L", "2", "3", 10)]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)
    assert [s.format() for s in sizes] == ["1T", "1S", "1M", "1L", "2", "3", "10"]
    assert Size.parse("1") == Size.parse("1M")
    for bad in ("0", "1X", "big", ""):
        with pytest.raises(ForcedError):
            Size.parse(bad)


def test_forced_move_text() -> None:
    assert ForcedMovement.parse("Push 3") == ForcedMovement(ForcedKind.PUSH, 3)
    assert ForcedMovement.parse("vertical slide 2").format() == "vertical slide 2"
    with pytest.raises(ForcedError):
        ForcedMovement.parse("shove 2")


# (squares left, into, material, thickness, the slam)
SLAMS = [
    pytest.param(4, Into.CREATURE, None, 1, Slam(4, 4), id="the null slides a commando 5: both take 4"),
    pytest.param(1, Into.OBJECT, None, 1, Slam(3), id="into an object: 2 + 1 per square"),
    pytest.param(4, Into.OBJECT, Material.WOOD, 2, Slam(5 + 3, 0, 1, 0), id="the wooden wall example"),
    pytest.param(3, Into.OBJECT, Material.GLASS, 1, Slam(3, 0, 1, 2), id="through glass, 2 squares to use"),
    pytest.param(5, Into.OBJECT, Material.STONE, 1, Slam(7), id="stone holds: 2 + 5"),
    pytest.param(9, Into.OBJECT, Material.METAL, 1, Slam(11, 0, 1, 0), id="metal breaks at 9"),
]


@pytest.mark.parametrize(("left", "into", "material", "thickness", "expected"), SLAMS)
def test_slams(left: int, into: Into, material: Material | None, thickness: int, expected: Slam) -> None:
    """ "both creatures take 1 damage for each square remaining"; "the target takes 2 damage plus 1 damage for
    each square remaining"; the hurling table (glass 1/3, wood 3/5, stone 6/8, metal 9/11)."""
    assert slam(left, into, material, thickness) == expected
    assert codec.load(Slam, codec.to_data(expected)) == expected


def test_slam_refusals() -> None:
    with pytest.raises(ForcedError):
        slam(0, Into.OBJECT)
    with pytest.raises(ForcedError):
        slam(2, Into.CREATURE, Material.WOOD)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 20), st.integers(0, 20), st.booleans())
def test_distance_never_more_than_one_over_nor_below_zero(distance: int, stability: int, melee: bool) -> None:
    moved = forced_distance(distance, stability, mover_size="3", target_size="1M", melee_weapon=melee)
    assert 0 <= moved <= distance + 1
