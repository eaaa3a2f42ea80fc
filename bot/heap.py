"""The garbage collector, run for a long-lived bot's latency: `Heap` (`python -m bot` gives the bot one).

CPython's collector walks every object in its oldest generation on each full collection, with the event
loop stopped. A bot's oldest generation is what lives for long: the modules, discord.py's caches, the
store's memory of each active channel and its decoded encounter (about 350 objects a channel). At 10
channels in flight with 100 active, a full collection came about once a second and took 10–15 ms (every
command in flight waited for it); with 1,000 active, 60–120 ms.

So: everything loaded at start, and then the survivors of every full collection, go to the permanent
generation (`gc.freeze`), which no collection walks; the next full collections walk only what survived
since (about 1 ms). Freezing changes nothing else: an object there is still freed by reference counting
the moment nothing refers to it (as the store's snapshots are, replaced command after command). Only a
reference cycle that dies there is not, so every `SWEEP_EVERY` seconds the permanent generation is thawed
and collected once in full (then frozen again): at a quiet moment, when no collection at all ran for
`QUIET` seconds (the bot allocated next to nothing: it was handling no interaction), or after
`SWEEP_LIMIT` seconds whatever the load. What such cycles hold waits that long at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("bot.heap")

#: Seconds between two full sweeps of the frozen objects, at the next quiet moment.
SWEEP_EVERY = 60.0
#: Seconds after which a sweep runs even though the bot never went quiet.
SWEEP_LIMIT = 600.0
#: Seconds without any collection that make a quiet moment; also how often the watcher looks.
QUIET = 0.2
_OLDEST = len(gc.get_count()) - 1  # the generation a full collection collects


class Heap:
    """The collector policy of one process (see the module docstring): `start()`, then `await stop()`."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._swept_at = clock()
        self._collections = 0  # collections of any generation seen: the bot's activity
        self._looked_at = 0  # `_collections` when the watcher last looked
        self._watcher: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Freeze what is loaded, freeze every full collection's survivors from now on, and sweep in the
        background (on the running event loop). Once: a bot that logs in again keeps its heap running."""
        if self._watcher is not None:
            return
        gc.freeze()
        gc.callbacks.append(self._collected)
        self._watcher = asyncio.get_running_loop().create_task(self._watch(), name="heap-sweeps")

    async def stop(self) -> None:
        """Stop freezing and sweeping, and give the frozen objects back to the collector."""
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._collected)
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
        gc.unfreeze()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        """`gc.callbacks` hook (on whichever thread collected): count, and freeze a full one's survivors."""
        if phase != "stop":
            return
        self._collections += 1
        if info["generation"] == _OLDEST:
            gc.freeze()

    def due(self) -> bool:
        """Whether to sweep now; each call is one look, comparing the activity with the previous look's."""
        quiet = self._collections == self._looked_at
        self._looked_at = self._collections
        waited = self._clock() - self._swept_at
        return waited >= SWEEP_LIMIT or (quiet and waited >= SWEEP_EVERY)

    def sweep(self) -> int:
        """Collect everything in full once, the frozen objects included (then frozen again); how many
        unreachable objects it found."""
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()  # `_collected` freezes the survivors
        self._swept_at = self._clock()
        log.debug("swept the heap: %d unreachable, %.1f ms", found, (time.perf_counter() - started) * 1000)
        return found

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(QUIET)
            if self.due():
                self.sweep()
