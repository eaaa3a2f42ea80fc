"""Benchmark of the reminders' start-up: with N stored encounters (10,000 by default), each with a reminder,
how long a starting process takes to find what is due (`due_reminders`, an indexed read on `due_at`) and
when the next one falls due (`next_reminder_at`), and to claim everything that fell due while it was down.

    .venv/bin/python bench/reminders.py [--url URL] [--encounters N] [--due D]

Runs on SQLite (a temp file) and on PostgreSQL when reachable (`--url`, else `TEST_DATABASE_URL`; a throwaway
schema is created and dropped). The rows are written in bulk (not through commands): the figures are the
start-up's, not the seeding's. `D` of the reminders (1,000 by default) are due; the rest fall due later.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402

from bot.store import Store  # noqa: E402
from bot.store.models import channels, encounters, reminders  # noqa: E402

GUILD = 10
BATCH = 1000
STATE = {"creatures": [{"name": f"Goblin {i}", "stamina": 10} for i in range(12)]}


async def seed(store: Store, count: int, due: int, now: datetime) -> None:
    """`count` channels, each with an active encounter and a nudge; the first `due` of them are due."""
    async with store.engine.begin() as connection:
        for start in range(0, count, BATCH):
            ids = range(start + 1, min(count, start + BATCH) + 1)
            await connection.execute(
                sa.insert(channels),
                [
                    {"id": 10_000 + i, "guild_id": GUILD, "tokens": 0, "version": 1, "updated_at": now}
                    for i in ids
                ],
            )
            await connection.execute(
                sa.insert(encounters),
                [
                    {
                        "id": i,
                        "guild_id": GUILD,
                        "channel_id": 10_000 + i,
                        "name": "Bench",
                        "director_id": 1,
                        "state": STATE,
                        "active": True,
                        "last_seq": 1,
                        "created_at": now,
                    }
                    for i in ids
                ],
            )
            rows: list[dict[str, Any]] = [
                {
                    "encounter_id": i,
                    "kind": "nudge",
                    "guild_id": GUILD,
                    "channel_id": 10_000 + i,
                    "due_at": now - timedelta(minutes=1) if i <= due else now + timedelta(minutes=i),
                    "version": 1,
                    "turn_key": "bench",
                    "step": 0,
                    "claimed": None,
                }
                for i in ids
            ]
            await connection.execute(sa.insert(reminders), rows)


async def start_up(store: Store, now: datetime) -> tuple[float, float, int]:
    """(seconds to read what is due and the next due time, seconds to claim all that is due, how many)."""
    began = time.perf_counter()
    first = await store.due_reminders(now)
    await store.next_reminder_at()
    found = time.perf_counter() - began
    claimed = 0
    began = time.perf_counter()
    due = first
    while due:
        for reminder in due:
            claim = await store.claim_reminder(reminder)
            if claim is not None:
                await store.advance_reminder(claim, None)
                claimed += 1
        due = await store.due_reminders(now)
    return found, time.perf_counter() - began, claimed


async def run(url: str, schema: str | None, count: int, due: int) -> None:
    now = datetime.now(UTC)
    store = await Store.open(url, schema=schema)
    try:
        began = time.perf_counter()
        await seed(store, count, due, now)
        seeded = time.perf_counter() - began
    finally:
        await store.close()
    began = time.perf_counter()
    store = await Store.open(url, schema=schema)  # a process starting (migrations already at head)
    opened = time.perf_counter() - began
    try:
        found, claiming, claimed = await start_up(store, now)
    finally:
        await store.close()
    backend = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
    print(
        f"{backend}: {count:,} encounters (seeded in {seeded:.1f} s): open {opened * 1000:.0f} ms, "
        f"first due batch + next due {found * 1000:.1f} ms, "
        f"claimed {claimed:,} due in {claiming * 1000:.0f} ms "
        f"— start-up total {(opened + found) * 1000:.0f} ms"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("TEST_DATABASE_URL", ""))
    parser.add_argument("--encounters", type=int, default=10_000)
    parser.add_argument("--due", type=int, default=1_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        await run(f"sqlite+aiosqlite:///{folder}/bench.db", None, args.encounters, args.due)
    if args.url:
        import asyncpg  # type: ignore[import-untyped]
        from sqlalchemy.engine import make_url

        dsn = make_url(args.url).set(drivername="postgresql").render_as_string(hide_password=False)
        admin = await asyncpg.connect(dsn, timeout=5)
        schema = f"bench_reminders_{uuid.uuid4().hex[:12]}"
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            await run(args.url, schema, args.encounters, args.due)
        finally:
            await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
            await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
