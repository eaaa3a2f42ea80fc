"""bot/attachments.py: the one download every import shares, against a loopback HTTP server ("Download the
attachment from the URL in the interaction's resolved attachment, whatever its host, with a size
limit and a 10 s timeout")."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
import pytest_asyncio
from aiohttp import web

from bot import attachments
from bot.attachments import LIMIT, AttachmentError, download
from tests.bot.files_kit import loopback

WHAT = "a `.ds-monster` file"
Handler = Callable[[web.Request], Any]


@pytest_asyncio.fixture
async def host() -> AsyncIterator[tuple[str, dict[str, Handler]]]:
    """A server on 127.0.0.1 whose routes the test sets: (base URL, path -> handler)."""
    routes: dict[str, Handler] = {}

    async def serve(request: web.Request) -> web.StreamResponse:
        handler = routes.get(request.path)
        if handler is None:
            return web.Response(status=404)
        response: web.StreamResponse = await handler(request)
        return response

    async with loopback(serve) as base:
        yield base, routes


def attachment(url: str, size: int) -> discord.Attachment:
    """What `download` reads of a resolved attachment: its declared size and its URL."""
    return cast(discord.Attachment, SimpleNamespace(size=size, url=url, filename="x.ds-monster"))


async def test_the_file_is_read_from_its_url_whatever_the_host(host: tuple[str, dict[str, Handler]]) -> None:
    base, routes = host

    async def body(request: web.Request) -> web.Response:
        return web.Response(body=b'{"a": 1}')

    routes["/files/x.ds-monster"] = body
    assert await download(attachment(f"{base}/files/x.ds-monster", 8), what=WHAT) == b'{"a": 1}'


async def test_a_declared_size_over_the_limit_is_refused_before_any_request(
    host: tuple[str, dict[str, Handler]],
) -> None:
    base, routes = host
    asked: list[str] = []

    async def body(request: web.Request) -> web.Response:
        asked.append(request.path)
        return web.Response(body=b"{}")

    routes["/big"] = body
    with pytest.raises(AttachmentError, match=r"over 2 MB: upload a `\.ds-monster` file"):
        await download(attachment(f"{base}/big", LIMIT + 1), what=WHAT)
    assert asked == []


@pytest.mark.parametrize("declare_length", [True, False])
async def test_a_body_past_the_limit_is_cut_off_whatever_was_declared(
    host: tuple[str, dict[str, Handler]], declare_length: bool
) -> None:
    base, routes = host

    async def body(request: web.Request) -> web.StreamResponse:
        if declare_length:
            return web.Response(body=b" " * (LIMIT + 1))
        response = web.StreamResponse()
        response.enable_chunked_encoding()
        await response.prepare(request)
        for _ in range(40):
            await response.write(b" " * 65536)  # 2.5 MB, never declared
        await response.write_eof()
        return response

    routes["/liar"] = body
    with pytest.raises(AttachmentError, match="over 2 MB"):
        await download(attachment(f"{base}/liar", 10), what=WHAT)


async def test_a_host_that_never_answers_is_given_up_on(
    host: tuple[str, dict[str, Handler]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole download has a time limit (10 s; shortened here, the host never answers at all)."""
    base, routes = host
    monkeypatch.setattr(attachments, "TIMEOUT", 0.2)
    never = asyncio.Event()

    async def hang(request: web.Request) -> web.Response:
        await never.wait()
        return web.Response(body=b"{}")

    routes["/hang"] = hang
    with pytest.raises(AttachmentError, match="took over 0 seconds") as refused:
        await download(attachment(f"{base}/hang", 10), what=WHAT)
    assert "\n" not in str(refused.value)
    never.set()


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("{base}/missing", "HTTP 404"),
        ("http://127.0.0.1:9/closed", "couldn't be downloaded"),
        ("ftp://example.invalid/x", "can't be read from Discord"),
    ],
)
async def test_unreadable_urls_are_refused_in_one_line(
    host: tuple[str, dict[str, Handler]], url: str, says: str
) -> None:
    base, _ = host
    with pytest.raises(AttachmentError, match=says) as refused:
        await download(attachment(url.format(base=base), 10), what=WHAT)
    assert "\n" not in str(refused.value) and WHAT in str(refused.value)


async def test_a_compressed_body_counts_decompressed(host: tuple[str, dict[str, Handler]]) -> None:
    """A host that compresses anyway: the cap applies to what the file really is (no zip bomb)."""
    base, routes = host
    seen: list[str] = []

    async def bomb(request: web.Request) -> web.Response:
        seen.append(request.headers.get("Accept-Encoding", ""))
        response = web.Response(body=b" " * (LIMIT + 1))
        response.enable_compression(web.ContentCoding.gzip)
        return response

    async def small(request: web.Request) -> web.Response:
        response = web.Response(body=b'{"a": 1}' * 100)
        response.enable_compression(web.ContentCoding.gzip)
        return response

    routes["/bomb"] = bomb
    routes["/small"] = small
    with pytest.raises(AttachmentError, match="over 2 MB"):
        await download(attachment(f"{base}/bomb", 10), what=WHAT)
    assert seen == ["identity"]
    assert await download(attachment(f"{base}/small", 10), what=WHAT) == b'{"a": 1}' * 100
