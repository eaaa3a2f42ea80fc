"""Fixtures for every test.

- In-process tests run the store with `Store.verify_shared` on: a bot change that edits the store's shared
  memory of a channel in place fails its test.
- After each test the per-bot tracker and reminder services are forgotten, so the thousands of bots the
  suite makes are freed (they would slow every later garbage collection).
- Each cog module is executed once per test process, as in production, not once per bot (discord.py's
  `load_extension` executes it anew for every bot); each bot still gets its own exts (`setup(bot)`).
- SimCord checks every 5 ms, not 50, whether the bot has settled: its sleeps are a command test's main wait.
- The wire tests run first, so under pytest-xdist other workers' tests fill their waits for processes.
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


_executed: dict[str, dict[str, ModuleType]] = {}


async def _load_executed_once(self: commands.Bot, spec: importlib.machinery.ModuleSpec, key: str) -> None:
    """discord.py's `_load_from_module_spec`, executing the extension's package only the first time. Its
    modules go back into `sys.modules` each time (an unloaded extension's are dropped from there), so a late
    import inside them finds the very modules the bot runs."""
    modules = _executed.get(key)
    if modules is None:
        await _load_from_module_spec(self, spec, key)
        _executed[key] = {
            name: module for name, module in sys.modules.items() if name == key or name.startswith(f"{key}.")
        }
        return
    sys.modules.update(modules)
    module = modules[key]
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
