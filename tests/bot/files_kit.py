"""Uploading files in SimCord tests: SimCord's fake CDN served over HTTP on 127.0.0.1.

SimCord keeps an uploaded attachment's bytes in its in-memory CDN under an `https://cdn.simcord.invalid/...`
URL, which no HTTP client can reach. The bot downloads an attachment from its URL whatever the host
(`bot.attachments.download`), so `cdn_server` (a fixture) starts a tiny aiohttp server on 127.0.0.1 and makes
SimCord write attachment URLs on it; the server answers each with the stored bytes.

    async def test_x(table: Table, cdn_server: CdnServer) -> None:  # the fixture is in tests/bot/conftest.py
        await table.director.slash(table.channel, "monster import", file=fixture("Bogling.ds-monster-group"))

`fixture(name)` is a Forge Steel fixture file as an upload (`(filename, bytes)`); `cdn_server.chunked` makes
the server stream bodies without declaring their length, `body` serve other bytes than were uploaded, `hang`
never answer; `cdn_server.served` lists the paths it was asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

import pytest
import pytest_asyncio
from aiohttp import web
from simcord.backend import cdn
from simcord.env import Env
from simcord.results import InteractionResult

from bot.content.forgesteel.files import MAX_BYTES
from tests.content.forgesteel_files import invented_bytes


def refusal(env: Env, result: InteractionResult) -> str:
    """The one-line ephemeral refusal of a command that deferred to read its file: the "thinking…" message
    goes and the refusal follows up, ephemeral (`bot.error_hook`), as the last webhook call shows."""
    if result.response is not None:
        assert result.response.ephemeral, result.response.content
        content = result.response.content
        assert "\n" not in content.strip()
        return content
    posted = [r for r in env.http_requests if r.method == "POST" and r.path.startswith("/webhooks/")]
    assert posted, result
    body = posted[-1].json
    assert isinstance(body, dict) and body.get("flags", 0) & 64, body
    content = str(body["content"])
    assert "\n" not in content.strip()
    return content


def fixture(name: str) -> tuple[str, bytes]:
    """A Forge Steel fixture file as a SimCord upload."""
    return name, invented_bytes(name)


def oversized(name: str) -> tuple[str, bytes]:
    """An upload of JSON just over the size the importers read."""
    return name, json.dumps({"name": "x" * (MAX_BYTES + 10)}).encode()


@dataclass
class CdnServer:
    """The loopback server: its base URL, how many downloads it served, and test knobs."""

    base: str
    env: Env
    served: list[str] = field(default_factory=list)
    #: stream the body in chunks without a Content-Length (a server that doesn't declare its size)
    chunked: bool = False
    #: serve this instead of what was uploaded (a body larger than the attachment declared)
    body: bytes | None = None
    #: never answer (a host that hangs)
    hang: bool = False


@contextlib.asynccontextmanager
async def loopback(serve: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> AsyncIterator[str]:
    """An HTTP server on 127.0.0.1 answering every GET with `serve`; yields its base URL."""
    app = web.Application()
    app.router.add_get("/{tail:.*}", serve)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()


@pytest_asyncio.fixture
async def cdn_server(simcord_env: Env, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[CdnServer]:
    state: dict[str, CdnServer] = {}

    async def serve(request: web.Request) -> web.StreamResponse:
        server = state["server"]
        url = f"{server.base}{request.path}"  # decoded: SimCord keeps the filename as uploaded
        blob = simcord_env.backend.cdn.get(url)
        if blob is None:
            return web.Response(status=404)
        server.served.append(request.path)
        if server.hang:
            await asyncio.Event().wait()
        blob = blob if server.body is None else server.body
        if not server.chunked:
            return web.Response(body=blob)
        response = web.StreamResponse()
        response.enable_chunked_encoding()
        await response.prepare(request)
        for start in range(0, len(blob), 65536):
            await response.write(blob[start : start + 65536])
        await response.write_eof()
        return response

    async with loopback(serve) as base:
        state["server"] = CdnServer(base, simcord_env)
        monkeypatch.setattr(cdn, "CDN_BASE", base)
        yield state["server"]
