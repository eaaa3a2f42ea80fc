"""Alembic: an empty database upgrades to head and then matches the models exactly (both engines)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

from bot.store.migrate import alembic_config, upgrade
from bot.store.models import METADATA
from tests.store.conftest import Target


def _compare(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, METADATA))


def _current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def _tables(connection: Connection) -> set[str]:
    return set(sa.inspect(connection).get_table_names())


async def test_empty_database_upgrades_to_head_and_matches_the_models(target: Target) -> None:
    store = await target.open(migrate=True)
    try:
        async with store.engine.connect() as connection:
            assert await connection.run_sync(_compare) == []
            head = ScriptDirectory.from_config(alembic_config()).get_current_head()
            assert head is not None and await connection.run_sync(_current) == head
            tables = await connection.run_sync(_tables)
        assert {"guild_settings", "channels", "heroes", "encounters", "events", "alembic_version"} <= tables
        await upgrade(store.engine)  # already at head: a no-op
    finally:
        await store.close()
    reopened = await target.open(migrate=True)
    await reopened.close()


def _downgrade(connection: Connection) -> None:
    command.downgrade(alembic_config(connection), "base")


async def test_downgrade_to_base_and_back(target: Target) -> None:
    store = await target.open(migrate=True)
    try:
        async with store.engine.begin() as connection:
            await connection.run_sync(_downgrade)
        async with store.engine.connect() as connection:
            assert await connection.run_sync(_tables) <= {"alembic_version"}
        await upgrade(store.engine)
        async with store.engine.connect() as connection:
            assert await connection.run_sync(_compare) == []
    finally:
        await store.close()
