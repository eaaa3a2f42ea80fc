"""Fixtures for every test.

- Every in-process test runs the store with `Store.verify_shared` on: a bot change that edited the store's
  shared memory of a channel in place (instead of replacing hero data or the encounter state) fails its test.
- After each test the per-bot tracker and reminder services are forgotten. They are kept in weak-keyed maps
  whose values hold their bot, so a bot is freed only when its entry goes: a process runs one bot, but the
  suite makes thousands, and each one kept alive made every later garbage collection slower (by the end of
  a serial run a full collection took seconds).
- Each cog module is executed once per test process, as in production (one bot a process), not once per bot:
  discord.py's `load_extension` executes the module anew for every bot it loads it into, and the suite
  makes a bot per test (that was a quarter of a command test's time). Each bot still gets its own exts
  (`setup(bot)`), and discord.py copies a cog class's commands into each instance.
- SimCord checks every 5 ms, not every 50, whether the bot has settled after an interaction: it sleeps that
  long whenever only scheduled callbacks remain (most often its own bookkeeping, due at the next turn of
  the loop), which happens a few times an interaction; at 50 ms those sleeps were half of a command
  test's time.
- The wire tests (real bot processes against the fake Discord) run first: they spend most of their time
  waiting for processes to start, stop and answer, so under pytest-xdist the other workers' in-process tests
  fill those waits instead of leaving the longest of them for the end.
"""

from __future__ import annotations

import importlib.machinery
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from discord.ext import commands
from simcord.env import Env

from bot.store import Store
from exts.reminders import _service as reminders
from exts.tracker import _service as tracker


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # a stable sort: each part keeps its own order
    items.sort(key=lambda item: not item.nodeid.startswith("tests/wire/"))


_executed: dict[str, ModuleType] = {}


async def _load_executed_once(self: commands.Bot, spec: importlib.machinery.ModuleSpec, key: str) -> None:
    """discord.py's `_load_from_module_spec`, executing the module only the first time."""
    module = _executed.get(key)
    if module is None:
        await _load_from_module_spec(self, spec, key)
        _executed[key] = self.extensions[key]
        return
    sys.modules[key] = module
    await module.setup(self)
    self._BotBase__extensions[key] = module  # type: ignore[attr-defined]  # what discord.py's own does


_load_from_module_spec = commands.Bot._load_from_module_spec
_settle_internal = Env._settle_internal
SETTLE_POLL = 0.005


async def _settle_polling_often(self: Env, *, idle: float = SETTLE_POLL, **kwargs: Any) -> None:
    await _settle_internal(self, idle=idle, **kwargs)


@pytest.fixture(autouse=True, scope="session")
def faster_bots_and_settling() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(commands.Bot, "_load_from_module_spec", _load_executed_once)
        patch.setattr(Env, "_settle_internal", _settle_polling_often)
        yield


@pytest.fixture(autouse=True)
def verify_shared_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Store, "verify_shared", True)


@pytest.fixture(autouse=True)
def forget_bot_services() -> Iterator[None]:
    yield
    tracker._SERVICES.clear()
    reminders._SERVICES.clear()
