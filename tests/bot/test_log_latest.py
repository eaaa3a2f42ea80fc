"""/encounter log with no encounter running gives the last one that ended in the channel."""

from __future__ import annotations

from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


async def _play_and_end(table: Table, name: str) -> int:
    kit.ok(await table.director.slash(table.channel, "encounter start", name=name))
    await kit.add(table, name="Goblin", stamina=5)
    await kit.begin(table, first="director")
    encounter = (await table.store.view(kit.key(table))).encounter
    assert encounter is not None and encounter.id is not None
    asked = await table.director.slash(table.channel, "encounter end")
    assert asked.response is not None
    kit.ok(await table.director.click(asked.response.message, label="End the encounter"))
    return encounter.id


def _log_of(result: object) -> tuple[str, list[str]]:
    message = getattr(result, "response", None)
    assert message is not None and not message.ephemeral
    return message.content, sorted(a.filename for a in message.attachments)


async def test_the_log_without_a_number_is_the_last_ended_encounters(table: Table) -> None:
    text = kit.refused(await table.alice.slash(table.channel, "encounter log"))
    assert "No encounter has run in this channel yet" in text
    await _play_and_end(table, "Ambush")
    second = await _play_and_end(table, "Bridge")
    content, files = _log_of(await table.alice.slash(table.channel, "encounter log"))
    assert f"encounter {second}" in content
    assert files == [f"encounter-{second}.json", f"encounter-{second}.md"]
    # while one runs, it is the one running
    kit.ok(await table.director.slash(table.channel, "encounter start", name="Camp"))
    running = (await table.store.view(kit.key(table))).encounter
    assert running is not None
    content, _ = _log_of(await table.alice.slash(table.channel, "encounter log"))
    assert f"encounter {running.id}" in content


async def test_another_channels_encounters_are_not_this_ones(table: Table) -> None:
    await _play_and_end(table, "Ambush")
    text = kit.refused(await table.alice.slash(table.thread, "encounter log"))
    assert "No encounter has run in this channel yet" in text
