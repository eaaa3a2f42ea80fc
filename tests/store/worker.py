"""A separate bot-like process for the multi-process tests (run as a script, not collected by pytest).

    python tests/store/worker.py URL SCHEMA|- CHANNEL_ID COUNT (inc|stream) [GO_FILE]

`inc`: waits for GO_FILE to exist, then COUNT increments; prints `retries N` (re-runs after a stale write).
`stream`: increments until killed, printing each committed seq after the commit, flushed.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.store import Change, ChannelKey, Store, Table


def _wait_for(path: str) -> None:
    while not os.path.exists(path):
        time.sleep(0.002)


async def main(url: str, schema: str, channel_id: int, count: int, mode: str, go: str | None) -> None:
    store = await Store.open(url, migrate=False, schema=None if schema == "-" else schema)
    key = ChannelKey(10, channel_id)
    calls = 0

    def increment(table: Table) -> Change[int]:
        nonlocal calls
        calls += 1
        encounter = table.require_encounter()
        encounter.state["counter"] += 1
        return Change(f"pid {os.getpid()}", encounter.state["counter"])

    try:
        if mode == "inc":
            print("ready", flush=True)
            if go is not None:
                await asyncio.to_thread(_wait_for, go)
            for _ in range(count):
                await store.mutate(key, 333, "inc", increment, retries=1000)
            print(f"retries {calls - count}", flush=True)
        else:
            for _ in range(count):
                committed = await store.mutate(key, 333, "inc", increment, retries=1000)
                sys.stdout.write(f"{committed.seq}\n")
                sys.stdout.flush()
    finally:
        await store.close()


if __name__ == "__main__":
    args = sys.argv[1:]
    asyncio.run(
        main(args[0], args[1], int(args[2]), int(args[3]), args[4], args[5] if len(args) > 5 else None)
    )
