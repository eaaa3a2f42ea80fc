"""`Store.undo(allowed=...)`: the permission check runs on the event the undo reverts, inside the undo's own
check-and-act; a refusal writes nothing."""

from __future__ import annotations

import pytest

from bot.store import ChannelKey, Event, Store, Table
from tests.store.helpers import DIRECTOR, PLAYER, begin, increment


class NotYours(Exception):
    pass


class OnlyOwn:
    """An `allowed` predicate: only `user_id`'s own changes; remembers the events it judged."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.seen: list[Event] = []

    def __call__(self, table: Table, target: Event) -> None:
        assert table.encounter is not None and table.encounter.active
        self.seen.append(target)
        if target.user_id != self.user_id:
            raise NotYours(target.summary)


async def test_allowed_judges_the_event_undone(store: Store, key: ChannelKey) -> None:
    await begin(store, key)
    await store.mutate(key, PLAYER, "counter", increment)
    await store.mutate(key, DIRECTOR, "counter", increment)
    version = (await store.view(key)).version
    allowed = OnlyOwn(PLAYER)
    with pytest.raises(NotYours):
        await store.undo(key, PLAYER, allowed=allowed)
    assert [e.seq for e in allowed.seen] == [3]
    table = await store.view(key)
    assert table.version == version and table.require_encounter().state["counter"] == 2  # nothing written
    undone = await store.undo(key, DIRECTOR, allowed=OnlyOwn(DIRECTOR))
    assert undone.value.seq == 3
    undone = await store.undo(key, PLAYER, allowed=OnlyOwn(PLAYER))
    assert undone.value.seq == 2 and (await store.view(key)).require_encounter().state["counter"] == 0
