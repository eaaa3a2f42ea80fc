"""Fixtures for every test.

- Every in-process test runs the store with `Store.verify_shared` on: a bot change that edited the store's
  shared memory of a channel in place (instead of replacing hero data or the encounter state) fails its test.
- After each test the per-bot tracker and reminder services are forgotten. They are kept in weak-keyed maps
  whose values hold their bot, so a bot is freed only when its entry goes: a process runs one bot, but the
  suite makes thousands, and each one kept alive made every later garbage collection slower (by the end of
  a serial run a full collection took seconds).
- The wire tests (real bot processes against the fake Discord) run first: they spend most of their time
  waiting for processes to start, stop and answer, so under pytest-xdist the other workers' in-process tests
  fill those waits instead of leaving the longest of them for the end.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot import reminders, tracker
from bot.store import Store


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # a stable sort: each part keeps its own order
    items.sort(key=lambda item: not item.nodeid.startswith("tests/wire/"))


@pytest.fixture(autouse=True)
def verify_shared_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Store, "verify_shared", True)


@pytest.fixture(autouse=True)
def forget_bot_services() -> Iterator[None]:
    yield
    tracker._SERVICES.clear()
    reminders._SERVICES.clear()
