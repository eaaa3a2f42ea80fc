"""`python -m bot` settles the garbage collector once the bot is set up (`bot.__main__.settle_heap`): what
start-up loaded goes to the permanent generation, which no collection walks, before the gateway connects;
and young collections wait for `YOUNG_THRESHOLD` new objects (docs/performance.md, "Speed-only code kept")."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any, cast

import pytest

import bot.__main__ as entry
from bot.client import DrawSteelBot


@pytest.fixture
def collector() -> Iterator[None]:
    """The test process's collector as it was, afterwards."""
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


class StartingBot:
    """What `serve` calls on the bot; `login` stands for `setup_hook` loading the extensions."""

    def __init__(self) -> None:
        self.loaded: list[Any] = []
        self.seen: list[tuple[str, bool, int]] = []  # (step, the loaded objects frozen, the young threshold)

    def frozen(self) -> bool:
        marker = self.loaded[0] if self.loaded else None
        return marker is not None and not any(o is marker for o in gc.get_objects())

    async def login(self, token: str) -> None:
        self.loaded = [[n] for n in range(1000)]  # long-lived; lists are tracked by the collector
        self.seen.append(("login", self.frozen(), gc.get_threshold()[0]))

    async def connect(self) -> None:
        self.seen.append(("connect", self.frozen(), gc.get_threshold()[0]))


async def test_what_start_up_loaded_is_frozen_before_the_gateway_connects(collector: None) -> None:
    before = gc.get_threshold()[0]
    bot = StartingBot()
    await entry.serve(cast(DrawSteelBot, bot), "token")
    assert bot.seen == [("login", False, before), ("connect", True, entry.YOUNG_THRESHOLD)]
    assert before < entry.YOUNG_THRESHOLD
