"""The reminders' due times (`bot.store.reminders`) on SQLite and PostgreSQL: set, kept for the same wait,
replaced for a new one, read when due (indexed), claimed exactly once — by one of several tasks, and by one
of several processes."""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.store import ChannelKey, Store
from tests.store.conftest import Target
from tests.store.helpers import begin

WORKER = Path(__file__).with_name("reminder_worker.py")
T0 = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


async def encounter(store: Store, channel_id: int) -> int:
    started = await begin(store, ChannelKey(10, channel_id))
    assert started.encounter_id is not None
    return started.encounter_id


async def plan(store: Store, eid: int, wait: str, due: dict[str, datetime], version: int = 1) -> None:
    await store.set_reminders(eid, guild_id=10, channel_id=eid, version=version, turn_key=wait, due=due)


async def test_a_wait_set_again_keeps_its_due_time_and_a_new_wait_replaces_it(store: Store) -> None:
    eid = await encounter(store, 900)
    await plan(store, eid, "a", {"nudge": T0 + HOUR, "argument": T0})
    await plan(store, eid, "a", {"nudge": T0 + 2 * HOUR, "argument": T0 + HOUR}, version=5)  # a restart
    due = await store.due_reminders(T0 + HOUR)
    assert [(r.kind, r.due_at, r.version) for r in due] == [("argument", T0, 1), ("nudge", T0 + HOUR, 1)]
    await plan(store, eid, "b", {"nudge": T0 + 3 * HOUR}, version=7)  # the turn moved on
    [moved] = await store.due_reminders(T0 + 10 * HOUR)
    assert (moved.kind, moved.due_at, moved.turn_key, moved.version) == ("nudge", T0 + 3 * HOUR, "b", 7)
    assert await store.next_reminder_at() == T0 + 3 * HOUR
    await store.clear_reminders(eid, guild_id=10)
    assert await store.due_reminders(T0 + 10 * HOUR) == [] and await store.next_reminder_at() is None


async def test_a_due_reminder_is_claimed_once_and_advanced_by_its_claimer(store: Store) -> None:
    eid = await encounter(store, 901)
    await plan(store, eid, "a", {"nudge": T0})
    [due] = await store.due_reminders(T0)
    claims = await asyncio.gather(*(store.claim_reminder(due) for _ in range(10)))
    [claim] = [c for c in claims if c is not None]
    assert await store.due_reminders(T0 + 10 * HOUR) == []  # claimed: not due to anyone
    await store.advance_reminder(claim, T0 + HOUR)
    [second] = await store.due_reminders(T0 + HOUR)
    assert (second.step, second.due_at) == (1, T0 + HOUR)
    assert await store.claim_reminder(due) is None  # the old step can't be claimed again
    last = await store.claim_reminder(second)
    assert last is not None
    await store.advance_reminder(last, None)  # done for this wait
    await plan(store, eid, "a", {"nudge": T0})  # seen again (a restart): not brought back
    assert await store.due_reminders(T0 + 10 * HOUR) == []


async def test_a_reminder_set_again_while_being_fired_is_not_claimed_with_the_old_read(store: Store) -> None:
    eid = await encounter(store, 902)
    await plan(store, eid, "a", {"nudge": T0})
    [stale] = await store.due_reminders(T0)
    await plan(store, eid, "b", {"nudge": T0}, version=2)
    assert await store.claim_reminder(stale) is None


async def test_several_processes_never_claim_a_reminder_twice(
    target: Target, store: Store, tmp_path: Path
) -> None:
    """ "Several processes on PostgreSQL never send a reminder twice" (and on SQLite neither)."""
    # the setup's 80 writes are not what this test measures: a patient store, whatever the machine's load
    store.wait_limit = 15.0
    ids = [await encounter(store, 1000 + i) for i in range(40)]
    for eid in ids:
        await plan(store, eid, "a", {"nudge": T0, "argument": T0 - HOUR})
    go = tmp_path / "go"
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable, str(WORKER), *target.argv(), str(go), stdout=asyncio.subprocess.PIPE
        )
        for _ in range(3)
    ]
    for worker in workers:
        assert worker.stdout is not None
        assert (await asyncio.wait_for(worker.stdout.readline(), 30)).strip() == b"ready"
    go.touch()
    outputs = [await asyncio.wait_for(worker.communicate(), 60) for worker in workers]
    assert [worker.returncode for worker in workers] == [0, 0, 0]
    claimed = [line for out, _ in outputs for line in out.decode().splitlines()]
    assert sorted(claimed) == sorted(f"claimed {eid} {kind}" for eid in ids for kind in ("nudge", "argument"))
