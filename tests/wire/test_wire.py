"""The real `python -m bot` process against the loopback fake Discord (tests/wire/fake_discord.py).

Few and fast: one full round trip of `/dice` (plain and sharded), and the exit-2 paths. Every wait is
bounded, the test stops the subprocess itself, and the token must never appear in its output.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sys
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

from tests.wire.fake_discord import FakeDiscord
from tests.wire.harness import REPO, SETTINGS, unless_exits

T = TypeVar("T")
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GwIrE0.wire-test-token_never-printed-0123456789"
START_WITHIN = 15.0
REPLY_WITHIN = 3.0


def bot_env(tmp_path: Path, **values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env.update(
        PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1", DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/db/bot.db"
    )
    env.update(values)
    return env


@dataclass
class BotProcess:
    process: asyncio.subprocess.Process
    stdout: Path
    stderr: Path

    def output(self) -> str:
        return self.stdout.read_text(errors="replace") + self.stderr.read_text(errors="replace")

    async def unless_it_exits(self, waiting: Awaitable[T]) -> T:
        """Await `waiting`, but fail at once (with the bot's output) if the process exits first."""
        return await unless_exits(self.process, self.output, waiting)

    async def stop(self, sig: signal.Signals = signal.SIGTERM) -> int:
        if self.process.returncode is None:
            self.process.send_signal(sig)
            try:
                async with asyncio.timeout(10):
                    await self.process.wait()
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        assert self.process.returncode is not None
        return self.process.returncode


@contextlib.asynccontextmanager
async def run_bot(tmp_path: Path, env: dict[str, str]) -> AsyncIterator[BotProcess]:
    """`python -m bot` in an empty working directory (so no `.env` is picked up)."""
    stdout, stderr = tmp_path / "stdout.txt", tmp_path / "stderr.txt"
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=out, stderr=err
        )
    bot = BotProcess(process, stdout, stderr)
    try:
        yield bot
    finally:
        await bot.stop()


async def run_to_exit(tmp_path: Path, env: dict[str, str]) -> tuple[int, str, str]:
    async with run_bot(tmp_path, env) as bot, asyncio.timeout(START_WITHIN):
        code = await bot.process.wait()
    return code, bot.stdout.read_text(), bot.stderr.read_text()


@pytest.mark.parametrize(("shard_count", "shard_ids"), [(None, None), (2, "1")], ids=["plain", "sharded"])
async def test_dice_round_trip_over_the_wire(
    tmp_path: Path, shard_count: int | None, shard_ids: str | None
) -> None:
    async with FakeDiscord(shard_count=shard_count or 1) as fake:
        guild = fake.guilds[-1]  # with SHARD_IDS=1 only shard 1's guild is served
        extra = (
            {"SHARD_COUNT": str(shard_count), "SHARD_IDS": shard_ids}
            if shard_count and shard_ids
            else {"DEV_GUILD_ID": str(guild.id)}
        )
        env = bot_env(
            tmp_path,
            DISCORD_TOKEN=TOKEN,
            DISCORD_API_BASE=fake.api_base,
            DISCORD_GATEWAY_URL=fake.gateway_url,
            LOG_LEVEL="DEBUG",
            **extra,
        )
        async with run_bot(tmp_path, env) as bot:
            await bot.unless_it_exits(fake.wait_for_commands(within=START_WITHIN))
            await bot.unless_it_exits(fake.wait_until_ready(within=START_WITHIN))
            assert {c["name"] for c in fake.global_commands} >= {"dice", "help"}
            if not shard_count:  # DEV_GUILD_ID: the same commands, synced to that guild too
                await bot.unless_it_exits(
                    fake.wait_until(lambda: guild.id in fake.guild_commands, within=START_WITHIN)
                )
                assert {c["name"] for c in fake.guild_commands[guild.id]} >= {"dice", "help"}

            interaction_id = await fake.slash("dice", {"expression": "2d6"}, guild=guild)
            callback = await bot.unless_it_exits(fake.wait_for_callback(interaction_id, within=REPLY_WITHIN))

            body = callback.json
            assert body["type"] == 4
            content = body["data"]["content"]
            assert "2d6" in content
            total = int(re.findall(r"\*\*(\d+)\*\*", content)[-1])
            assert 2 <= total <= 12
            assert body["data"]["allowed_mentions"] == {"parse": []}
            assert callback.query.get("with_response") in {"1", "true", "True"}
            latency = fake.interactions[interaction_id].latency_ms
            assert latency is not None and 0 < latency < REPLY_WITHIN * 1000

            code = await bot.stop(signal.SIGINT if shard_count else signal.SIGTERM)
        output = bot.output()
        assert code == 0, output[-3000:]
        assert "INFO bot: stop signal received; shutting down" in output
        # the store was closed last (aiosqlite's worker threads log "operation … completed" just after they
        # hand the result back, so those DEBUG lines may trail the bot's last line)
        lines = [line for line in output.splitlines() if " DEBUG aiosqlite: " not in line]
        assert lines[-1].endswith("INFO bot: stopped"), lines[-5:]
        assert fake.unknown_routes == []
        if shard_count:
            assert [p.get("shard") for p in fake.identify_payloads] == [[1, 2]]
            assert not any(r.path == "/gateway/bot" for r in fake.requests)
        assert TOKEN not in output
        assert TOKEN.split(".")[-1] not in output
        # the interaction's token (discord.py logs the callback's URL at DEBUG) is redacted too
        assert fake.interactions[interaction_id].token not in output
        assert f"/interactions/{interaction_id}/[redacted]/callback" in output
        assert re.search(
            rf"command=/dice guild={guild.id} channel={guild.channel.id} ms=[\d.]+ outcome=ok", output
        )
        assert " ERROR " not in output, output[-3000:]


async def test_missing_token_exits_2_with_one_line(tmp_path: Path) -> None:
    code, stdout, stderr = await run_to_exit(tmp_path, bot_env(tmp_path))
    assert code == 2
    assert stdout == ""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "DISCORD_TOKEN is missing" in lines[0]
    assert "https://discord.com/developers/applications" in lines[0]


async def test_unusable_database_exits_2_without_printing_the_token(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    env = bot_env(
        tmp_path, DISCORD_TOKEN=f"Bot {TOKEN}", DATABASE_URL=f"sqlite+aiosqlite:///{blocker}/x/bot.db"
    )
    code, stdout, stderr = await run_to_exit(tmp_path, env)
    assert code == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "DATABASE_URL" in lines[0] and "cannot be created" in lines[0]
    assert TOKEN not in stdout + stderr


async def test_unreachable_database_exits_2_with_one_line(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql+asyncpg://bot:secret@127.0.0.1:{port}/drawsteel"
    code, stdout, stderr = await run_to_exit(
        tmp_path, bot_env(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=url)
    )
    assert code == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "the database at DATABASE_URL could not be opened" in lines[0]
    assert TOKEN not in stdout + stderr


async def test_rejected_token_exits_2_with_one_line(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        fake.reject_login = True
        env = bot_env(
            tmp_path,
            DISCORD_TOKEN=TOKEN,
            DISCORD_API_BASE=fake.api_base,
            DISCORD_GATEWAY_URL=fake.gateway_url,
        )
        code, stdout, stderr = await run_to_exit(tmp_path, env)
    assert code == 2
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, stderr
    assert "Discord rejected DISCORD_TOKEN" in errors[0]
    assert stderr.strip().splitlines()[-1] == errors[0]
    assert TOKEN not in stdout + stderr
