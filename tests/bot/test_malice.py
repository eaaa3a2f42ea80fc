"""/malice show | gain | spend through SimCord: anyone sees it, only the Director changes it, never below 0,
the transcript names each change, bad input on every option."""

from __future__ import annotations

import pytest

from tests.bot import harm_kit
from tests.bot.conftest import Table


async def test_show_gain_spend(table: Table) -> None:
    await harm_kit.start(table)

    shown = await table.alice.slash(table.channel, "malice show")
    gained = await table.director.slash(table.channel, "malice gain", amount=5)
    spent = await table.director.slash(table.channel, "malice spend", amount=3)
    again = await table.bob.slash(table.channel, "malice show")

    assert shown.response is not None and gained.response is not None
    assert spent.response is not None and again.response is not None
    assert shown.response.content == "😈 Malice: **0**" and not shown.ephemeral
    assert gained.response.content == "😈 Malice: **5** (+5)"
    assert spent.response.content == "😈 Malice: **2** (−3)"
    assert again.response.content == "😈 Malice: **2**"
    assert (await harm_kit.current(table)).malice.value == 2
    view = await table.store.view(harm_kit.key(table))
    assert view.encounter is not None and view.encounter.id is not None
    summaries = [e.summary for e in await table.store.events(view.encounter.id, guild_id=table.guild.id)]
    assert summaries[-2:] == ["The Director gains 5 Malice (now 5)", "The Director spends 3 Malice (now 2)"]


async def test_a_director_by_role_may_spend(table: Table) -> None:
    await harm_kit.start(table)
    await table.configure_director_role()
    other = table.guild.add_member(table.env.create_user("erin"), roles=[table.director_role])

    result = await other.slash(table.channel, "malice gain", amount=1)

    assert result.response is not None and not result.ephemeral


@pytest.mark.parametrize("command", ["malice gain", "malice spend"])
@pytest.mark.parametrize("who", ["alice", "stranger"])
async def test_only_the_director_changes_malice(table: Table, command: str, who: str) -> None:
    await harm_kit.start(table)
    await table.director.slash(table.channel, "malice gain", amount=4)
    member = table.add_player("carol") if who == "stranger" else table.alice

    result = await member.slash(table.channel, command, amount=1)

    assert result.ephemeral and result.response is not None
    verb = command.split()[1]
    assert result.response.content == f"Only the Director can {verb} Malice."
    assert (await harm_kit.current(table)).malice.value == 4


@pytest.mark.parametrize(
    ("command", "amount", "hint"),
    [
        ("malice spend", 5, "Not enough Malice: the Director has 4, that costs 5."),
        ("malice spend", -1, "Spend at least 1 Malice"),
        ("malice spend", 0, "Spend at least 1 Malice"),
        ("malice gain", -2, "Gain at least 1 Malice"),
        ("malice gain", 10**6, "Malice can be at most 999"),
    ],
)
async def test_bad_amounts(table: Table, command: str, amount: int, hint: str) -> None:
    await harm_kit.start(table)
    await table.director.slash(table.channel, "malice gain", amount=4)

    result = await table.director.slash(table.channel, command, amount=amount)

    assert result.ephemeral and result.response is not None
    assert hint in result.response.content and "\n" not in result.response.content
    assert (await harm_kit.current(table)).malice.value == 4


@pytest.mark.parametrize(("command", "options"), [("malice show", {}), ("malice gain", {"amount": 1})])
async def test_no_encounter_here(table: Table, command: str, options: dict[str, object]) -> None:
    result = await table.director.slash(table.thread, command, **options)
    assert result.ephemeral and result.response is not None
    assert "No encounter in this channel" in result.response.content
