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
and collected once in full (then frozen again): at a quiet moment, when the process used less than
`QUIET_SHARE` of a core for `QUIET` seconds (it was handling next to no interaction), or after
`SWEEP_LIMIT` seconds whatever the load. What such cycles hold waits that long at most.

The youngest generation is collected once `YOUNG_THRESHOLD` more objects were made than freed, not 700 (the
default). Under load the objects of the commands in flight are alive at every young collection: at 100
channels in flight, about 10,000 of them, walked at each of the collections that came every few commands,
and promoted, then walked again by the middle generation's (2–4 ms each). That was 9 % of the bot's CPU.
Nearly everything a command makes is freed by reference counting as it finishes, so the count rarely
climbs that far: a young collection now comes every several thousand commands (0.3 % of the CPU).
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
#: Seconds of next to no CPU use that make a quiet moment; also how often the watcher looks.
QUIET = 0.2
#: The share of one core below which the process counts as quiet (a command costs about a millisecond).
QUIET_SHARE = 0.02
#: Objects made and not freed since the last young collection that start the next one (`gc.set_threshold`).
YOUNG_THRESHOLD = 20_000
_OLDEST = len(gc.get_count()) - 1  # the generation a full collection collects


class Heap:
    """The collector policy of one process (see the module docstring): `start()`, then `await stop()`."""

    def __init__(
        self, *, clock: Callable[[], float] = time.monotonic, cpu: Callable[[], float] = time.process_time
    ) -> None:
        self._clock = clock
        self._cpu = cpu  # the process's CPU seconds: its activity
        self._swept_at = clock()
        self._looked_at = (clock(), cpu())  # when the watcher last looked, and the CPU used by then
        self._watcher: asyncio.Task[None] | None = None
        self._thresholds: tuple[int, int, int] | None = None  # the collector's, before `start`

    def start(self) -> None:
        """Raise the young generation's threshold, freeze what is loaded, freeze every full collection's
        survivors from now on, and sweep in the background (on the running event loop). Once: a bot that
        logs in again keeps its heap running."""
        if self._watcher is not None:
            return
        self._thresholds = gc.get_threshold()
        gc.set_threshold(YOUNG_THRESHOLD, *self._thresholds[1:])
        gc.freeze()
        gc.callbacks.append(self._collected)
        self._watcher = asyncio.get_running_loop().create_task(self._watch(), name="heap-sweeps")

    async def stop(self) -> None:
        """Stop freezing and sweeping, give the frozen objects back to the collector, and its thresholds."""
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._collected)
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
        gc.unfreeze()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        """`gc.callbacks` hook (on whichever thread collected): freeze a full collection's survivors."""
        if phase == "stop" and info["generation"] == _OLDEST:
            gc.freeze()

    def due(self) -> bool:
        """Whether to sweep now; each call is one look, comparing the CPU used with the previous look's."""
        now, cpu = self._clock(), self._cpu()
        then, cpu_then = self._looked_at
        self._looked_at = (now, cpu)
        quiet = cpu - cpu_then <= QUIET_SHARE * max(now - then, QUIET)
        waited = now - self._swept_at
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
