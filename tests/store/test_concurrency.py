"""Concurrency: many tasks on one channel, two processes on one encounter, a SIGKILL mid-stream."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import sqlalchemy as sa

from bot.store import ChannelKey, Store
from bot.store.models import channels, encounters, events
from tests.store.conftest import Target
from tests.store.helpers import PLAYER, begin, increment

WORKER = Path(__file__).with_name("worker.py")


async def encounter_log(store: Store, encounter_id: int) -> list[int]:
    return [event.seq for event in await store.events(encounter_id, guild_id=10)]


async def counter(store: Store, key: ChannelKey) -> int:
    table = await store.view(key)
    assert table.encounter is not None
    return int(table.encounter.state["counter"])


async def test_200_concurrent_mutations_apply_exactly_once(store: Store, key: ChannelKey) -> None:
    started = await begin(store, key)
    assert started.encounter_id is not None
    results = await asyncio.gather(*(store.mutate(key, PLAYER, "inc", increment) for _ in range(200)))
    assert sorted(r.value for r in results) == list(range(1, 201))
    assert sorted(r.seq or 0 for r in results) == list(range(2, 202))
    assert await counter(store, key) == 200
    assert await encounter_log(store, started.encounter_id) == list(range(1, 202))
    assert (await store.view(key)).version == 201


async def test_many_channels_at_once_stay_separate(store: Store) -> None:
    keys = [ChannelKey(20, 50_000 + i) for i in range(20)]
    await asyncio.gather(*(begin(store, k) for k in keys))
    await asyncio.gather(*(store.mutate(k, PLAYER, "inc", increment) for k in keys for _ in range(5)))
    assert [await counter(store, k) for k in keys] == [5] * 20


async def _spawn(
    target: Target, channel_id: int, count: int, mode: str, *extra: str
) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(WORKER),
        *target.argv(),
        str(channel_id),
        str(count),
        mode,
        *extra,
        stdout=asyncio.subprocess.PIPE,
    )


async def test_two_processes_lose_nothing(
    target: Target, store: Store, key: ChannelKey, tmp_path: Path
) -> None:
    count = 60
    started = await begin(store, key)
    assert started.encounter_id is not None
    go = tmp_path / "go"
    workers = [await _spawn(target, key.channel_id, count, "inc", str(go)) for _ in range(2)]
    for worker in workers:
        assert worker.stdout is not None
        assert (await asyncio.wait_for(worker.stdout.readline(), 30)).strip() == b"ready"
    go.touch()
    outputs = [await asyncio.wait_for(worker.communicate(), 60) for worker in workers]
    assert [worker.returncode for worker in workers] == [0, 0]
    retries = [int(out.split()[-1]) for out, _ in outputs]
    assert all(r >= 0 for r in retries)
    print(f"stale retries per process: {retries}")
    assert await counter(store, key) == 2 * count
    assert await encounter_log(store, started.encounter_id) == list(range(1, 2 * count + 2))


async def test_sigkill_mid_stream_leaves_a_consistent_prefix(target: Target, key: ChannelKey) -> None:
    setup = await target.open()
    try:
        started = await begin(setup, key)
    finally:
        await setup.close()
    assert started.encounter_id is not None
    worker = await _spawn(target, key.channel_id, 1_000_000, "stream")
    assert worker.stdout is not None
    printed: list[int] = []
    while len(printed) < 40:
        line = await asyncio.wait_for(worker.stdout.readline(), 30)
        assert line, "worker ended early"
        printed.append(int(line))
    worker.send_signal(signal.SIGKILL)
    rest, _ = await worker.communicate()
    printed += [int(line) for line in rest.split()]
    assert worker.returncode == -signal.SIGKILL
    assert printed == list(range(2, printed[-1] + 1))

    store = await target.open()
    try:
        async with store.engine.connect() as connection:
            if target.backend == "sqlite":
                assert (await connection.exec_driver_sql("PRAGMA integrity_check")).scalar() == "ok"
            last_seq, state = (
                await connection.execute(
                    sa.select(encounters.c.last_seq, encounters.c.state).where(
                        encounters.c.id == started.encounter_id
                    )
                )
            ).one()
            version = (
                await connection.execute(sa.select(channels.c.version).where(channels.c.id == key.channel_id))
            ).scalar_one()
            kinds = (
                await connection.execute(
                    sa.select(events.c.kind).where(events.c.encounter_id == started.encounter_id)
                )
            ).scalars()
            assert list(kinds).count("inc") == last_seq - 1
        seqs = await encounter_log(store, started.encounter_id)
        # every printed seq is there; the log is a contiguous prefix; at most the commit in flight is extra
        assert seqs == list(range(1, len(seqs) + 1))
        assert printed[-1] <= seqs[-1] <= printed[-1] + 1
        assert last_seq == seqs[-1] and version == seqs[-1]
        assert state == {"counter": seqs[-1] - 1}
        # and the database still takes writes
        assert (await store.mutate(key, PLAYER, "inc", increment)).seq == seqs[-1] + 1
    finally:
        await store.close()
