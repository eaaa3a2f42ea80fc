"""`bot.heap.Heap`: survivors of full collections frozen, frozen cycles swept at quiet moments."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import AsyncIterator

import pytest

from bot import heap as heap_module
from bot.heap import Heap


class Node:
    """A weakly referable object, to see whether the collector freed it."""

    me: Node | None = None


class Clock:
    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def heap() -> AsyncIterator[Heap]:
    """A started heap with automatic collections off (only the test's own collections run); afterwards
    the process's collector is as it was. No full collection first: at the end of the suite the heap is large
    and one took 4 s a test; `start` freezes what is there, so the tests' own collections walk only what they
    make."""
    gc.disable()
    started = Heap(clock=Clock(), cpu=Clock(5.0))
    started.start()
    try:
        yield started
    finally:
        await started.stop()
        gc.enable()


def tracked(value: object) -> bool:
    """Whether `value` is in a generation the collector walks (not frozen)."""
    return any(o is value for o in gc.get_objects())


async def test_a_full_collection_freezes_its_survivors_and_stop_thaws_them(heap: Heap) -> None:
    survivor = [Node()]
    assert tracked(survivor)

    gc.collect()
    assert not tracked(survivor)
    assert gc.get_freeze_count() > 0

    await heap.stop()
    assert tracked(survivor)
    assert heap._collected not in gc.callbacks


async def test_the_young_threshold_is_raised_while_started_and_given_back() -> None:
    before = gc.get_threshold()
    started = Heap(clock=Clock())
    started.start()
    try:
        assert gc.get_threshold() == (heap_module.YOUNG_THRESHOLD, *before[1:])
    finally:
        await started.stop()
    assert gc.get_threshold() == before


async def test_a_young_collection_freezes_nothing(heap: Heap) -> None:
    gc.collect()
    young = [Node()]
    gc.collect(0)
    assert tracked(young)


async def test_a_frozen_object_is_still_freed_when_nothing_refers_to_it(heap: Heap) -> None:
    node = Node()
    ref = weakref.ref(node)
    gc.collect()
    del node
    assert ref() is None


async def test_a_frozen_cycle_waits_for_the_sweep(heap: Heap) -> None:
    node = Node()
    node.me = node
    ref = weakref.ref(node)
    gc.collect()  # survives: frozen
    del node

    gc.collect()
    assert ref() is not None  # no collection walks the frozen objects

    assert heap.sweep() >= 1
    assert ref() is None


@pytest.mark.parametrize(
    ("waited", "busy", "due"),
    [
        (heap_module.SWEEP_EVERY - 1, False, False),
        (heap_module.SWEEP_EVERY, False, True),
        (heap_module.SWEEP_EVERY, True, False),
        (heap_module.SWEEP_LIMIT - 1, True, False),
        (heap_module.SWEEP_LIMIT, True, True),
    ],
)
async def test_a_sweep_is_due_at_a_quiet_moment_or_after_the_limit(
    heap: Heap, waited: float, busy: bool, due: bool
) -> None:
    clock, cpu = heap._clock, heap._cpu
    assert isinstance(clock, Clock) and isinstance(cpu, Clock)
    heap.due()  # the first look
    clock.now += waited
    share = 0.5 if busy else heap_module.QUIET_SHARE / 2  # of one core since the last look
    cpu.now += share * waited
    assert heap.due() is due


async def test_the_watcher_sweeps_when_the_bot_goes_quiet(
    heap: Heap, monkeypatch: pytest.MonkeyPatch
) -> None:
    await heap.stop()
    monkeypatch.setattr(heap_module, "QUIET", 0.01)
    monkeypatch.setattr(heap_module, "SWEEP_EVERY", 0.0)
    # a CPU clock that stands still: the process looks quiet at every look, however busy the machine running
    # the suite is (when a look counts as quiet is `due`'s, tested with a fake clock above)
    watched = Heap(cpu=Clock(5.0))
    watched.start()
    try:
        node = Node()
        node.me = node
        ref = weakref.ref(node)
        gc.collect()
        del node
        for _ in range(500):
            if ref() is None:
                break
            await asyncio.sleep(0.01)
        assert ref() is None
    finally:
        await watched.stop()
