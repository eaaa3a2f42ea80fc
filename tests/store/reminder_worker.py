"""A separate process that fires reminders, for the multi-process test (run as a script, not collected).

    python tests/store/reminder_worker.py URL SCHEMA|- GO_FILE

Waits for GO_FILE, then claims every reminder due (`due_reminders` + `claim_reminder`, as
`exts.reminders._service.ReminderService.fire_due` does) until none is left, printing `claimed <encounter>
<kind>`
for each one it won, flushed.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.store import Store

NOW = datetime(2100, 1, 1, tzinfo=UTC)


def _wait_for(path: str) -> None:
    while not os.path.exists(path):
        time.sleep(0.002)


async def main(url: str, schema: str, go: str) -> None:
    store = await Store.open(url, migrate=False, schema=None if schema == "-" else schema, wait_limit=15.0)
    try:
        print("ready", flush=True)
        await asyncio.to_thread(_wait_for, go)
        while due := await store.due_reminders(NOW, limit=20):
            for reminder in due:
                if await store.claim_reminder(reminder) is not None:
                    print(f"claimed {reminder.encounter_id} {reminder.kind}", flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
