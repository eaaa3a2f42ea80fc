"""An interaction is applied at most once across processes: when another
process (the other copy of a shard during a rolling restart) already applied it, this one writes nothing and
answers nothing (that process answers), and logs why."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.store import Store
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


async def test_a_command_another_process_applied_is_not_applied_again(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await kit.ready(table)
    store = table.store
    other = await Store.open(store.engine.url.render_as_string(hide_password=False))  # the other process
    real_mutate = store.mutate

    async def applied_elsewhere_first(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(store, "mutate", real_mutate)
        await other.mutate(*args, **kwargs)  # the same interaction reached the other process first
        return await real_mutate(*args, **kwargs)

    monkeypatch.setattr(store, "mutate", applied_elsewhere_first)
    try:
        with caplog.at_level(logging.WARNING, logger="bot"):
            result = await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=3)
    finally:
        await other.close()
    goblin = (await kit.stored(table)).creature("Goblin 1")
    assert goblin.vitals.stamina == 7  # 10 - 3, once
    assert result.response is None and result.followups == []  # the other process answers it
    assert any("another process already applied it" in r.getMessage() for r in caplog.records)
