"""Fault injection for the fault tests: a database that is locked or unreachable, a gateway that drops,
Discord answering 429/5xx, a bot process killed with SIGKILL.

`SqliteLock(path)` holds SQLite's write lock; `TcpProxy(host, port)` stands in front of PostgreSQL and can
`cut()`, `restore()` or `drop_at(marker)` (a COMMIT lost in flight); `FaultyDiscord` is the fake Discord that
also drops its gateway, refuses reconnects, keeps and replays missed events and replays an interaction;
`BotRun` is a `python -m bot` process against it (`spawn`, `kill`, `stop`), `bot_env` its environment.
REST faults use the fake's own `inject(Fault(...))`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]
import pytest
from aiohttp import web
from sqlalchemy.engine import URL, make_url

from tests.wire import harness
from tests.wire.fake_discord import FakeDiscord, NoSession, _Session

Json = dict[str, Any]
T = TypeVar("T")
PG_URL = os.environ.get("TEST_DATABASE_URL", "").strip()


class SqliteLock:
    """Hold SQLite's write lock on `path` from a separate connection (as another process would)."""

    def __init__(self, path: Path | str) -> None:
        self._connection = sqlite3.connect(
            str(path), timeout=0, isolation_level=None, check_same_thread=False
        )
        self._connection.execute("BEGIN EXCLUSIVE")  # in WAL mode: the write lock; readers carry on
        self.held = True

    def release(self) -> None:
        if self.held:
            self.held = False
            self._connection.execute("ROLLBACK")
            self._connection.close()

    def __enter__(self) -> SqliteLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


@contextlib.asynccontextmanager
async def postgres_behind_proxy(what: str) -> AsyncIterator[tuple[URL, Any, TcpProxy]]:
    """TEST_DATABASE_URL's server: its URL, an admin connection to it and a started `TcpProxy` in front of it,
    stopped and closed afterwards. Without a server the test (`what` it is for) is skipped."""
    if not PG_URL:
        pytest.skip(f"no TEST_DATABASE_URL for {what}")
    url = make_url(PG_URL)
    dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        admin = await asyncpg.connect(dsn, timeout=5)
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        pytest.skip(f"cannot connect to TEST_DATABASE_URL ({error})")
    proxy = TcpProxy(url.host or "127.0.0.1", url.port or 5432)
    await proxy.start()
    try:
        yield url, admin, proxy
    finally:
        await proxy.stop()
        await admin.close()


class TcpProxy:
    """A loopback TCP proxy to `host:port` that a test can cut and restore."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self.connections = 0  # accepted so far
        self.dropped: list[bytes] = []  # markers that killed a connection
        self._server: asyncio.Server | None = None
        self._links: set[asyncio.StreamWriter] = set()
        self._drop: tuple[bytes, bool, bool] | None = None
        self._flowing = asyncio.Event()
        self._flowing.set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port, reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        await self.cut()

    async def cut(self) -> None:
        """Close every live connection and stop listening (new connections are refused)."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None
        self._close_links()

    async def restore(self) -> None:
        """Listen again, on the same port, and let data flow again."""
        self._flowing.set()
        if self._server is None:
            await self.start()

    def stall(self) -> None:
        """Keep every connection open but stop passing data on (a hung server or a silent network)."""
        self._flowing.clear()

    def drop_at(self, marker: bytes, *, forward: bool, then_cut: bool = False) -> None:
        """Kill the next connection whose client sends `marker`: after passing that data on to the server
        (`forward=True`: the server acts on it, the client never hears back) or instead of it; with
        `then_cut`, at that same moment `cut()` everything (the database stays unreachable)."""
        self._drop = (marker, forward, then_cut)

    def _close_links(self) -> None:
        for writer in list(self._links):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        self._links.clear()

    async def _accept(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError:
            client_writer.transport.abort()
            return
        pair = (client_writer, server_writer)
        self._links.update(pair)
        await asyncio.gather(
            self._pipe(client_reader, server_writer, pair, inspect=True),
            self._pipe(server_reader, client_writer, pair, inspect=False),
            return_exceptions=True,
        )

    async def _pipe(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        pair: tuple[asyncio.StreamWriter, asyncio.StreamWriter],
        *,
        inspect: bool,
    ) -> None:
        try:
            while data := await reader.read(65536):
                await self._flowing.wait()
                drop = self._drop
                if inspect and drop is not None and drop[0] in data:
                    self._drop = None
                    self.dropped.append(drop[0])
                    if drop[1]:
                        writer.write(data)
                        await writer.drain()
                    for end in pair:
                        end.transport.abort()
                        self._links.discard(end)
                    if drop[2] and self._server is not None:
                        self._server.close()
                        self._server = None
                        self._close_links()
                    return
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            for end in pair:
                with contextlib.suppress(Exception):
                    end.transport.abort()
                self._links.discard(end)


class FaultyDiscord(FakeDiscord):
    """The fake Discord with gateway faults: abrupt drops, RESUMEs recorded, replayed dispatches, and
    Discord's resume semantics: events dispatched while no session is up are kept and replayed, in order,
    to the session that resumes (before its RESUMED)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.resumes: list[Json] = []  # RESUME payloads (op 6), token removed
        self.dispatched: dict[int, tuple[int, Json]] = {}  # interaction id -> (guild id, payload)
        self.missed: list[tuple[int, str, Any]] = []  # dispatched while no session was up
        self.replayed: list[tuple[int, str, Any]] = []  # missed events delivered on a resume
        self.gateway_down = False  # True: new gateway connections are refused (503)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        if self.gateway_down:
            raise web.HTTPServiceUnavailable(text="gateway down (fault injected)")
        return await super()._gateway(request)

    async def _on_gateway(self, session: _Session, payload: Json) -> None:
        if payload.get("op") == 6:
            self.resumes.append({k: v for k, v in (payload.get("d") or {}).items() if k != "token"})
            missed, self.missed = self.missed, []
            for guild_id, event, data in missed:
                await session.dispatch(event, data)
                self.replayed.append((guild_id, event, data))
        await super()._on_gateway(session, payload)

    async def dispatch(self, guild_id: int, event: str, data: Any) -> None:
        if event == "INTERACTION_CREATE" and isinstance(data, dict) and "id" in data:
            self.dispatched[int(data["id"])] = (guild_id, data)
        try:
            await super().dispatch(guild_id, event, data)
        except NoSession:
            self.missed.append((guild_id, event, data))  # Discord keeps it for the resumed session

    async def replay(self, interaction_id: int) -> None:
        """Dispatch that interaction's INTERACTION_CREATE once more (same id, token and data)."""
        guild_id, payload = self.dispatched[interaction_id]
        await super().dispatch(guild_id, "INTERACTION_CREATE", payload)

    async def drop_gateway(self) -> int:
        """Cut every gateway connection without a close frame (a network drop); how many were cut."""
        cut = 0
        for session in list(self.sessions):
            transport = session.ws._req.transport if session.ws._req is not None else None
            if transport is not None:
                transport.abort()
                cut += 1
        return cut

    def callbacks_of(self, interaction_id: int) -> list[Any]:
        """Every callback request the bot made for that interaction (a second one is a double reply)."""
        interaction = self.interactions[interaction_id]
        return [
            r
            for r in self.requests
            if r.method == "POST" and r.path.endswith("/callback") and f"/{interaction.id}/" in r.path
        ]


# ------------------------------------------------------------------------------------- bot processes

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GwIrE0.wire-faults-token_never-printed-0123456789"


def bot_env(fake: FakeDiscord, database_url: str, **values: str) -> dict[str, str]:
    """The environment of a `python -m bot` process talking to `fake`, logging at INFO (the fault tests read
    what it logs)."""
    return harness.bot_env(fake, database_url, **{"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "INFO", **values})


def _output_file(workdir: Path) -> Path:
    workdir.mkdir(parents=True, exist_ok=True)
    return workdir / "output.txt"


class BotRun:
    """One `python -m bot` process in `workdir` (no `.env` there), its output appended to files."""

    def __init__(self, process: asyncio.subprocess.Process, output: Path) -> None:
        self.process = process
        self.output_file = output

    @classmethod
    async def spawn(cls, env: dict[str, str], workdir: Path) -> BotRun:
        output = _output_file(workdir)
        with open(output, "ab") as out:  # noqa: ASYNC230 - opening a local file for the child's output
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=workdir,
                env=env,
                stdout=out,
                stderr=asyncio.subprocess.STDOUT,
            )
        return cls(process, output)

    def output(self) -> str:
        return self.output_file.read_text(errors="replace")

    async def unless_it_exits(self, waiting: Awaitable[T]) -> T:
        """Await `waiting`; if the process exits first, raise with its output."""
        return await harness.unless_exits(self.process, self.output, waiting)

    async def kill(self) -> int:
        """SIGKILL: no shutdown code runs."""
        if self.process.returncode is None:
            self.process.kill()
        return await self.process.wait()

    async def stop(self) -> int:
        """SIGTERM, then SIGKILL after 10 s."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                async with asyncio.timeout(10):
                    await self.process.wait()
            except TimeoutError:
                self.process.kill()
        return await self.process.wait()
