"""Reading an uploaded file: the one download every import shares (`/monster import`, `/encounter import`,
`/hero import`).

A file is hostile until read: the bytes come from the URL in the interaction's resolved attachment, whatever
its host, over aiohttp, within `LIMIT` (2 MB: the declared size, then the body as it streams) and `TIMEOUT`
(10 s), else a one-line `AttachmentError`. `defer_for_file(interaction)` acknowledges first, since a download
may take longer than Discord's 3 seconds; `download(attachment, what=)` reads it.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import aiohttp
import discord

from bot.content.forgesteel.files import MAX_BYTES
from bot.replies import UserError

LIMIT = MAX_BYTES
"""The largest file read (2 MB: a level-10 hero is about 200 KB, a big monster group about 100 KB)."""
TIMEOUT = 10.0
"""Seconds a whole download may take."""
_CHUNK = 64 * 1024


class AttachmentError(UserError):
    """An uploaded file the bot couldn't read (too large, too slow, gone); nothing was stored."""


async def defer_for_file(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge the command ("thinking…") before reading its file, unless it is already acknowledged."""
    if not interaction.response.is_done():
        # the tree's watchdog (bot.error_hook) may be deferring at the same moment
        with contextlib.suppress(discord.HTTPException, discord.InteractionResponded):
            await interaction.response.defer(thinking=True)


def _too_large(what: str) -> AttachmentError:
    return AttachmentError(f"That file is over {LIMIT // (1024 * 1024)} MB: upload {what}.")


async def download(attachment: discord.Attachment, *, what: str, limit: int = LIMIT) -> bytes:
    """The attachment's bytes, read from its URL; `what` names the file wanted ("a `.ds-monster` file") for
    the refusals. Raises `AttachmentError` when it is over `limit`, takes over `TIMEOUT` seconds, or can't be
    fetched."""
    if attachment.size > limit:
        raise _too_large(what)
    url = attachment.url
    if not url.startswith(("http://", "https://")):
        raise AttachmentError(f"That file can't be read from Discord: upload {what} again.")
    try:
        async with asyncio.timeout(TIMEOUT):
            return await _fetch(url, limit, what)
    except TimeoutError:
        raise AttachmentError(
            f"Reading that file took over {TIMEOUT:.0f} seconds: try again, or upload {what} again."
        ) from None
    except aiohttp.ClientError:
        raise AttachmentError(
            f"That file couldn't be downloaded from Discord: upload {what} again."
        ) from None


async def _fetch(url: str, limit: int, what: str) -> bytes:
    async with (
        aiohttp.ClientSession() as session,
        # asked uncompressed; a body compressed anyway is counted as it decompresses, against the same cap
        session.get(url, headers={"Accept-Encoding": "identity"}) as response,
    ):
        if response.status != 200:
            raise AttachmentError(
                f"That file couldn't be downloaded from Discord (HTTP {response.status}): "
                f"upload {what} again."
            )
        if response.content_length is not None and response.content_length > limit:
            raise _too_large(what)
        body = bytearray()
        async for chunk in response.content.iter_chunked(_CHUNK):
            body += chunk
            if len(body) > limit:
                raise _too_large(what)
        return bytes(body)
