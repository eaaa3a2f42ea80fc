"""Alembic environment of the store.

At runtime `bot.store.migrate.upgrade` hands Alembic an open connection (`config.attributes["connection"]`)
inside its own transaction. From the command line (`alembic upgrade head`, `alembic revision --autogenerate`
with the repository's alembic.ini) the URL comes from `DATABASE_URL` or the ini's `sqlalchemy.url`.
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy.engine import Connection

from bot.store.engine import create_engine, normalise_url
from bot.store.models import METADATA

config = context.config


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=METADATA,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _online(url: str) -> None:
    engine = create_engine(normalise_url(url))
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        await engine.dispose()


def _url() -> str:
    return (
        os.environ.get("DATABASE_URL")
        or config.get_main_option("sqlalchemy.url")
        or ("sqlite+aiosqlite:///data/bot.db")
    )


given = config.attributes.get("connection")
if given is not None:
    _run(given)
elif context.is_offline_mode():
    context.configure(url=str(normalise_url(_url())), target_metadata=METADATA, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_online(_url()))
