"""/move slam through SimCord: the Director reports a collision, the bot deals the slam damage through the
damage pipeline; players can't; bad input is refused."""

from __future__ import annotations

from tests.bot import harm_kit
from tests.bot.conftest import Table


async def test_slam_into_a_creature_damages_both(table: Table) -> None:
    """Draw Steel, Combat, "SLAMMING INTO CREATURES": "both creatures take 1 damage for each square
    remaining in the first creature's forced movement"."""
    await harm_kit.start(table)

    result = await table.director.slash(
        table.channel, "move slam", target="Goblin 1", squares_left=4, into="creature", other="goblin 2"
    )

    assert result.response is not None and not result.ephemeral
    lines = result.response.content.splitlines()
    assert lines[0].startswith(
        "💥 **Goblin 1** slams into **Goblin 2** with 4 squares of forced movement left"
    )
    assert lines[1] == "**Goblin 1** takes 4 damage · Stamina: 6/10"
    assert lines[2] == "**Goblin 2** takes 4 damage · Stamina: 6/10"


async def test_slam_into_objects_and_hurling_through(table: Table) -> None:
    """ "SLAMMING INTO OBJECTS": "2 damage plus 1 damage for each square remaining"; "HURLING THROUGH
    OBJECTS": wood costs 3 squares and deals 5; a damage immunity still applies (untyped damage)."""
    await harm_kit.start(table)

    wall = await table.director.slash(table.channel, "move slam", target="Ash", squares_left=2, into="object")
    wood = await table.director.slash(
        table.channel,
        "move slam",
        target="Goblin 1",
        squares_left=4,
        into="object",
        material="wood",
        thickness=2,
    )

    assert wall.response is not None and wood.response is not None
    assert wall.response.content.endswith("**Ash** takes 4 damage · Stamina: 26/30")
    assert "is hurled into 2 squares of wood" in wood.response.content
    assert "breaks 1 square" in wood.response.content
    assert "**Goblin 1** takes 8 damage · Stamina: 2/10 · winded" in wood.response.content


async def test_only_the_director_reports_a_collision_and_bad_input_is_refused(table: Table) -> None:
    await harm_kit.start(table)
    player = await table.alice.slash(
        table.channel, "move slam", target="Goblin 1", squares_left=2, into="object"
    )
    assert player.ephemeral and player.response is not None and "Only the Director" in player.response.content
    for options in (
        {"into": "object", "other": "Goblin 2"},
        {"into": "creature", "material": "wood"},
        {"into": "creature", "other": "Goblin 1"},
    ):
        bad = await table.director.slash(
            table.channel, "move slam", target="Goblin 1", squares_left=2, **options
        )
        assert bad.ephemeral, options
    assert (await harm_kit.current(table)).creature("Goblin 1").vitals.stamina == 10
