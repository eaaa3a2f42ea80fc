"""Change functions shared by the store tests (pure functions of the table, as commands must be)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.store import Change, ChannelKey, Committed, EncounterDoc, Store, Table

DIRECTOR = 111
PLAYER = 222


def start(
    name: str = "Goblin ambush", state: dict[str, Any] | None = None
) -> Callable[[Table], Change[EncounterDoc]]:
    """A change that begins an encounter."""

    def change(table: Table) -> Change[EncounterDoc]:
        doc = table.begin_encounter(name, DIRECTOR, state if state is not None else {"counter": 0})
        return Change(f"Started {name}", doc)

    return change


def increment(table: Table) -> Change[int]:
    """Add one to the encounter's counter."""
    encounter = table.require_encounter()
    encounter.state["counter"] += 1
    return Change(f"counter → {encounter.state['counter']}", encounter.state["counter"])


async def begin(
    store: Store, key: ChannelKey, state: dict[str, Any] | None = None
) -> Committed[EncounterDoc]:
    """Start an encounter in `key`."""
    return await store.mutate(key, DIRECTOR, "encounter.start", start(state=state))
