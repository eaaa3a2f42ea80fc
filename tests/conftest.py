"""Every in-process test runs the store with `Store.verify_shared` on: a bot change that edited the store's
shared memory of a channel in place (instead of replacing hero data or the encounter state) fails its test."""

from __future__ import annotations

import pytest

from bot.store import Store


@pytest.fixture(autouse=True)
def verify_shared_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Store, "verify_shared", True)
