"""Running bot processes against the fake Discord: for the benchmark (bench/wire.py) and test_scale.py.

`seed_encounters(url, keys, director_id, player_id)` writes a 12-creature encounter (4 heroes, "Goblin 1"
.."Goblin 8", round 1 begun) into each channel through `bot.store.Store` before a bot starts.
`BotProcess.spawn(argv, env, workdir)` starts `python -m bot` (or the floor, `bench/floor_bot.py`) in its own
working directory (so no `.env` is picked up), output to files; `rss_kib()` reads its resident memory from
`/proc`; `kill()` is SIGKILL, `stop()` SIGTERM then a bounded wait. `bot_env(fake, workdir, ...)` is the
environment pointing a process at the fake.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TypeVar

from bot.rules import codec
from bot.rules.dice import FixedDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, new_encounter_state
from bot.rules.turns import Controller, choose_first, determine_first, next_round
from bot.store import Change, ChannelKey, Store, Table
from tests.wire.fake_discord import FakeDiscord

T = TypeVar("T")
REPO = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GwIrE0.wire-harness-token_never-printed-0123456789"
#: What the bot reads from its environment: a child process inherits none of it from the test's own.
SETTINGS = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "LOG_LEVEL",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "SHARD_COUNT",
    "SHARD_IDS",
    "DEV_GUILD_ID",
)
BOT_ARGV = (sys.executable, "-m", "bot")
FLOOR_ARGV = (sys.executable, str(REPO / "bench" / "floor_bot.py"))
HERO_NAMES = ("Ash", "Brim", "Cass", "Dara")
GOBLINS = 8
GOBLIN_STAMINA = 1_000_000  # no load ever kills one, so every interaction does the same work
ENCOUNTER_START = "encounter.start"  # the event kind of a seeded encounter
SEED_BATCH = 10


def encounter_state(player_id: int) -> dict[str, Any]:
    """12 creatures (4 heroes of `player_id`, 8 goblins), the heroes chosen to go first, round 1 started."""
    encounter: Encounter = new_encounter_state()
    for name in HERO_NAMES:
        encounter, _ = add_creatures(
            encounter, NewCreatures(name, 30, "heroes", is_hero=True, owner_id=player_id, recoveries=8)
        )
    encounter, _ = add_creatures(encounter, NewCreatures("Goblin", GOBLIN_STAMINA, "director", count=GOBLINS))
    turns = determine_first(encounter.turns, FixedDice([10])).state
    turns = choose_first(turns, "heroes", Controller.PLAYERS).state
    turns = next_round(turns).state
    data: dict[str, Any] = codec.to_data(encounter.with_turns(turns))
    return data


def _copy(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_copy(v) for v in data]
    return data


async def seed_encounters(
    url: str, keys: list[ChannelKey], director_id: int, player_id: int, *, schema: str | None = None
) -> float:
    """One active 12-creature encounter in each channel of `keys` (migrating the store first); the seconds
    it took."""
    began = time.perf_counter()
    state = encounter_state(player_id)
    store = await Store.open(url, migrate=True, schema=schema)

    def change(table: Table) -> Change[None]:
        table.begin_encounter("Bench ambush", director_id, _copy(state))
        return Change("Encounter started", None)

    try:  # a few at a time: each store call waits a bounded time for SQLite's one writer
        for start in range(0, len(keys), SEED_BATCH):
            batch = keys[start : start + SEED_BATCH]
            await asyncio.gather(*(store.mutate(k, director_id, ENCOUNTER_START, change) for k in batch))
    finally:
        await store.close()
    return time.perf_counter() - began


def bot_env(fake: FakeDiscord, database_url: str, **values: str) -> dict[str, str]:
    """The environment for a bot (or floor) process talking to `fake`; `values` add or override settings."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env.update(
        PYTHONPATH=str(REPO),
        PYTHONUNBUFFERED="1",
        DISCORD_TOKEN=TOKEN,
        DISCORD_API_BASE=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        DATABASE_URL=database_url,
        LOG_LEVEL="WARNING",
    )
    env.update(values)
    return env


async def unless_exits(
    process: asyncio.subprocess.Process, output: Callable[[], str], waiting: Awaitable[T]
) -> T:
    """Await `waiting`, but fail at once with the tail of `output()` if `process` exits first or `waiting`
    times out (a bot that crashed at start-up must not look like a slow one)."""
    task = asyncio.ensure_future(waiting)
    exited = asyncio.ensure_future(process.wait())
    try:
        await asyncio.wait({task, exited}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        exited.cancel()
    if not task.done():
        task.cancel()
        raise AssertionError(f"the process exited with {process.returncode}:\n{output()[-3000:]}")
    try:
        return task.result()
    except TimeoutError:
        raise AssertionError(f"timed out; the process's output:\n{output()[-3000:]}") from None


def rss_kib(pid: int) -> int:
    """Resident memory of process `pid` in KiB (`VmRSS` in /proc/<pid>/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


@dataclass
class BotProcess:
    """One child process and its output files."""

    process: asyncio.subprocess.Process
    stdout: Path
    stderr: Path
    started_at: float  # loop.time() just before the spawn

    @classmethod
    async def spawn(cls, argv: tuple[str, ...], env: dict[str, str], workdir: Path) -> BotProcess:
        os.makedirs(workdir, exist_ok=True)
        stdout, stderr = workdir / "stdout.txt", workdir / "stderr.txt"
        started = asyncio.get_running_loop().time()
        with stdout.open("ab") as out, stderr.open("ab") as err:
            process = await asyncio.create_subprocess_exec(
                *argv, cwd=workdir, env=env, stdout=out, stderr=err
            )
        return cls(process, stdout, stderr, started)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def running(self) -> bool:
        return self.process.returncode is None

    def output(self) -> str:
        return self.stdout.read_text(errors="replace") + self.stderr.read_text(errors="replace")

    def rss_kib(self) -> int:
        return rss_kib(self.pid)

    async def unless_it_exits(self, waiting: Awaitable[T]) -> T:
        return await unless_exits(self.process, self.output, waiting)

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs (a crash, an OOM kill, a pulled plug of the process)."""
        if self.running:
            self.process.kill()
        await self.process.wait()

    async def stop(self, within: float = 10.0) -> int:
        """SIGTERM, then SIGKILL if it has not exited `within` seconds; the exit code."""
        if self.running:
            self.process.send_signal(signal.SIGTERM)
            try:
                async with asyncio.timeout(within):
                    await self.process.wait()
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        code = self.process.returncode
        assert code is not None
        return code


def added_up(total: T, parts: Iterable[T]) -> T:
    """`total` with every part added in, field by field (counts summed, lists joined): dataclasses of a run's
    figures, one per channel or window."""
    for part in parts:
        for each in fields(part):  # type: ignore[arg-type]
            setattr(total, each.name, getattr(total, each.name) + getattr(part, each.name))
    return total


def cpu_seconds(pid: int) -> float:
    """User + system CPU time process `pid` has used so far (/proc/<pid>/stat, in clock ticks)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    utime, stime = int(fields[11]), int(fields[12])
    return (utime + stime) / os.sysconf("SC_CLK_TCK")
