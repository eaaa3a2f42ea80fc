"""A Reroll press spends a hero token at most once per roll message, recorded in the store: a second press
during the first is refused and spends nothing."""

from __future__ import annotations

import pytest
from simcord.env import Env

from tests.bot.conftest import Table, slow_commits
from tests.bot.roll_kit import LoadedDice, reply
from tests.bot.test_roll import SLOW, dice, give_hero, tokens_left

__all__ = ["dice"]  # the module's loaded dice fixture


async def test_a_second_reroll_press_during_the_first_is_refused(
    table: Table, dice: LoadedDice, monkeypatch: pytest.MonkeyPatch, simcord_env: Env
) -> None:
    """ "A Reroll press spends a hero token at most once per roll message, recorded in the store; a second
    press during the first is refused." """
    slow_commits(simcord_env, monkeypatch, "exts.rolls._cog", SLOW)
    await give_hero(table, table.alice.id, tokens=3)
    dice.load(2, 3)
    shown = reply(await table.alice.slash(table.channel, "roll", kind="test", difficulty="easy"))

    dice.load(6, 6, 5, 5)
    first = await table.alice.click(shown.message, label="Reroll (hero token)")
    second = await table.alice.click(shown.message, label="Reroll (hero token)")  # before the first lands
    await simcord_env.advance_time(SLOW)

    assert await tokens_left(table) == 2  # one token spent, not two
    assert not first.ephemeral and first.followups == []
    (refusal,) = second.followups
    assert refusal.ephemeral and "already rerolled" in refusal.content
    edited = table.env.backend.get_message(table.channel.id, shown.id)
    assert "Dice: 6 + 6" in edited.content
