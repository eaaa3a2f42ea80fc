"""The ping's jump link costs no database read once this process has looked the tracker up."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.store import ChannelKey
from exts.tracker._service import TrackerService, _Slot


class CountingStore:
    def __init__(self) -> None:
        self.reads = 0

    async def tracker_of(self, encounter_id: int, *, guild_id: int) -> tuple[int, int] | None:
        self.reads += 1
        return None


def service(store: CountingStore) -> TrackerService:
    bot: Any = SimpleNamespace(store=store, settings=SimpleNamespace(shard_count=None, shard_ids=None))
    return TrackerService(bot)


async def test_a_tracker_not_posted_yet_is_not_read_again_for_every_ping() -> None:
    store = CountingStore()
    trackers = service(store)
    key = ChannelKey(1, 2)
    assert await trackers.find_link(key, 7) is None
    assert store.reads == 1  # not known here yet (the first ping after a start): read once
    trackers._slots[key] = _Slot(encounter_id=7, known_for=7)  # looked up: no message posted yet
    for _ in range(3):
        assert await trackers.find_link(key, 7) is None
    assert store.reads == 1


async def test_a_known_tracker_links_without_a_read() -> None:
    store = CountingStore()
    trackers = service(store)
    key = ChannelKey(1, 2)
    trackers._slots[key] = _Slot(encounter_id=7, known_for=7, message_id=99)
    assert await trackers.find_link(key, 7) == "https://discord.com/channels/1/2/99"
    assert store.reads == 0
