"""bot/store/prepared.py: the write's statements run on `sqlite3` directly store exactly what SQLAlchemy's
`Connection.execute` stores, and fail as it fails."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from bot.store.engine import create_sqlite_writer_engine
from bot.store.models import channels
from bot.store.prepared import execute
from bot.store.rows import CAS_VERSION, INSERT_EVENT

AT = datetime(2026, 11, 23, 17, 5, 9, 123456, tzinfo=UTC)


def event(seq: int, **changes: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "encounter_id": None,
        "channel_id": 2,
        "seq": seq,
        "user_id": 3,
        "at": AT,
        "kind": "strike",
        "summary": "Ash hits — Goblin 1 *9*",
        "details": {"targets": ["Goblin 1"], "tier": 3, "critical": False, "ratio": 1.5},
        "patch": None,
        "undoes": None,
        "interaction_id": None,
        "once_key": None,
    }
    return values | changes


def rows(sqlite_path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(sqlite_path) as connection:
        return list(connection.execute("SELECT * FROM events ORDER BY id"))


def test_the_same_rows_as_sqlalchemy_stores(sqlite_path: Path) -> None:
    engine = create_sqlite_writer_engine(sa.make_url(f"sqlite:///{sqlite_path}"), 1000)
    try:
        with engine.begin() as connection:
            for seq in (1, 3):
                assert (
                    execute(
                        connection, INSERT_EVENT, event(seq, patch={"op": [1, "x"]} if seq == 1 else None)
                    )
                    == 1
                )
                connection.execute(
                    INSERT_EVENT.statement, event(seq + 1, patch={"op": [1, "x"]} if seq == 1 else None)
                )
    finally:
        engine.dispose()
    stored = rows(sqlite_path)
    same = (1, 2, 4, 5, 6, 7, 8, 9, 10)  # every column but the id and seq
    for prepared, through_sqlalchemy in (stored[0:2], stored[2:4]):
        assert [prepared[i] for i in same] == [through_sqlalchemy[i] for i in same]
    assert stored[0][5] == "2026-11-23 17:05:09.123456" and stored[2][9] == "null"


def test_a_compare_and_set_counts_the_rows_it_matched(sqlite_path: Path) -> None:
    engine = create_sqlite_writer_engine(sa.make_url(f"sqlite:///{sqlite_path}"), 1000)
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.insert(channels).values(id=2, guild_id=1, tokens=0, version=1, updated_at=AT)
            )
            cas = {"b_id": 2, "b_guild": 1, "b_version": 1, "b_new": 2, "b_tokens": 3, "b_now": AT}
            assert execute(connection, CAS_VERSION, cas) == 1
            assert execute(connection, CAS_VERSION, cas) == 0  # version 1 is gone
            version, tokens = connection.execute(sa.select(channels.c.version, channels.c.tokens)).one()
    finally:
        engine.dispose()
    assert (version, tokens) == (2, 3)


def test_a_driver_error_is_sqlalchemys_and_the_transaction_rolls_back(sqlite_path: Path) -> None:
    engine = create_sqlite_writer_engine(sa.make_url(f"sqlite:///{sqlite_path}"), 1000)
    try:
        with pytest.raises(IntegrityError, match="NOT NULL"), engine.begin() as connection:
            execute(connection, INSERT_EVENT, event(1))
            execute(connection, INSERT_EVENT, event(2, summary=None))
    finally:
        engine.dispose()
    assert rows(sqlite_path) == []
