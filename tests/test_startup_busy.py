"""Starting while another process holds the SQLite write lock: start-up tries again for up to
`OPEN_BUSY_LIMIT` (30 s), then exits 2 with a line saying the database is busy ("Holes to close":
"Starting while another process holds the SQLite write lock retries for up to 30 s, then exits 2 with a
message that says the database is busy. Today it says to check the URL and credentials.")."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.__main__ as entry
from bot.settings import Settings, settings_from_env
from bot.store import Store

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GwIrE0.startup-busy-token_0123456789abcdef"


@pytest.fixture
async def database(tmp_path: Path) -> Path:
    file = tmp_path / "bot.db"
    store = await Store.open(f"sqlite+aiosqlite:///{file}")
    await store.close()
    return file


@pytest.fixture
def held(database: Path) -> Iterator[sqlite3.Connection]:
    """Another process's connection holding the write lock."""
    other = sqlite3.connect(database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield other
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()


def settings_for(database: Path) -> Settings:
    return settings_from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": f"sqlite+aiosqlite:///{database}"})


async def test_a_busy_database_exits_2_saying_it_is_busy(
    database: Path, held: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(entry, "OPEN_BUSY_LIMIT", 0.2)  # the real 30 s, shortened
    with pytest.raises(entry.StartupError) as caught:
        await entry._open_store(settings_for(database))
    line = str(caught.value)
    assert "busy" in line and "credentials" not in line and "\n" not in line


async def test_start_up_waits_for_the_lock_and_then_opens(
    database: Path,
    held: sqlite3.Connection,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(entry, "OPEN_RETRY", 0.05)
    with caplog.at_level(logging.WARNING, logger="bot"):
        opening = asyncio.ensure_future(entry._open_store(settings_for(database)))
        async with asyncio.timeout(20):
            while not any("busy" in r.getMessage() for r in caplog.records):  # a first try found it busy
                assert not opening.done(), opening
                await asyncio.sleep(0.05)
        held.execute("ROLLBACK")  # the other process lets go
        store = await asyncio.wait_for(opening, 20)
    await store.close()
