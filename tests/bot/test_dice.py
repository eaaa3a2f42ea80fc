"""`/dice` through real dispatch: the roll shows breakdown and total; bad input gets a one-line hint."""

from __future__ import annotations

import re

import pytest
from simcord.env import Env

from bot.rules.dice import FixedDice, SeededDice, roll_expression
from exts.rolls._dice import render
from tests.bot.conftest import SEED, Table


async def test_dice_rolls_with_the_bots_dice(table: Table) -> None:
    result = await table.alice.slash(table.channel, "dice", expression="3d6+2")

    assert result.response is not None
    assert not result.ephemeral
    expected = roll_expression(SeededDice(SEED), "3d6+2")  # the same seed the harness injects
    assert result.response.content == render(expected)
    assert result.response.content.endswith(f"= **{expected.total}**")
    assert re.search(r"3d6 \[\d, \d, \d\] \+ 2", result.response.content)


async def test_dice_in_a_thread(table: Table) -> None:
    result = await table.bob.slash(table.thread, "dice", expression="4d6kh3")
    assert result.response is not None and "4d6kh3 [" in result.response.content


@pytest.mark.parametrize("expression", ["banana", "3d", "1d6 >= 3", "1000d6", "`@everyone`"])
async def test_bad_expressions_get_a_one_line_ephemeral_hint(
    simcord_env: Env, table: Table, expression: str
) -> None:
    result = await table.alice.slash(table.channel, "dice", expression=expression)

    assert result.ephemeral
    assert result.response is not None
    text = result.response.content
    assert "\n" not in text
    assert "3d6+2" in text  # says what to type
    assert "@everyone" not in text


async def test_blank_expression(table: Table) -> None:
    result = await table.alice.slash(table.channel, "dice", expression="   ")
    assert result.ephemeral
    assert result.response is not None
    assert result.response.content == "Type a dice expression. Try /dice 3d6+2, 1d3, d100 or 4d6kh3."


def test_render_bolds_only_the_total() -> None:
    rolled = roll_expression(FixedDice([4, 1, 6]), "3d6+2")
    assert render(rolled) == "🎲 `3d6+2` → `3d6 [4, 1, 6] + 2` = **13**"
