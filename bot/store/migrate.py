"""Upgrade a database to the newest Alembic revision on start (no alembic.ini needed at runtime)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.engine import WRITE_OPTION

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: Serialises concurrent upgrades on PostgreSQL (several bot processes starting at once).
_ADVISORY_LOCK = 0x5D57EE1


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic `Config` built in code, pointing at the package's migrations."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection, revision: str) -> None:
    command.upgrade(alembic_config(connection), revision)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Upgrade to `revision` in one transaction (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: an advisory lock)."""
    async with engine.connect() as connection:
        await connection.execution_options(**{WRITE_OPTION: True})
        async with connection.begin():
            if connection.dialect.name == "postgresql":
                await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _ADVISORY_LOCK})
            await connection.run_sync(_upgrade, revision)
