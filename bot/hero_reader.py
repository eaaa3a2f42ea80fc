"""The process `/hero import` reads uploaded hero files in, off the event loop.

One worker process, spawned at the first import and kept, at a lower priority than the bot (`NICENESS`); a
dead worker is replaced and its file refused in one line (why a process: docs/architecture.md, *The
framework*). This module is all the worker imports besides the reader (`bot.content`): no discord, no store.

Public API: `Reader` (`await READER.read(data, use_state) -> HeroUpload`), `READER`, `NICENESS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.content.forgesteel import files
from bot.content.forgesteel.files import ForgeSteelError
from bot.content.forgesteel.hero_sheet import HeroUpload, read_upload

NICENESS = 10
"""How much lower than the bot the worker runs (`os.nice`)."""


def _start_worker() -> None:
    """In the worker, once, after this module (and so the reader) is imported at the bot's priority (those
    imports are the worker's one big cost): from now on the worker steps back."""
    with contextlib.suppress(OSError, AttributeError):  # no `os.nice` off Unix
        os.nice(NICENESS)


class Reader:
    """The worker process and what reads in it: one process, spawned at the first read and kept, uploads
    queued one at a time; a dead worker is replaced and its file refused."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def read(self, data: bytes, use_state: bool) -> HeroUpload:
        """The hero file `data` read into its sheet in the worker (`read_upload`), or its one-line
        `ForgeSteelError`."""
        if self._pool is None:
            # spawned, not forked: a fork of the running bot would copy its threads' locks mid-use
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(1, mp_context=context, initializer=_start_worker)
        pool, loop = self._pool, asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(pool, read_upload, data, use_state, files.READ_CPU_SECONDS)
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
            raise ForgeSteelError(
                "That file stopped the hero reader: export it again from Forge Steel and import it again."
            ) from None


READER = Reader()
