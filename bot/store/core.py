"""Small helpers every part of the store uses: the clock, the channel key's check, and the bounded memory
of recent channels and settings."""

from __future__ import annotations

from collections import OrderedDict
from datetime import UTC, datetime
from typing import TypeVar

from bot.store import validate
from bot.store.table import ChannelKey

K = TypeVar("K")
V = TypeVar("V")

#: How many channels' last committed tables are kept in memory (a hit skips the read; the version
#: compare-and-set still catches another process's write).
CACHE_SIZE = 4096


def utc_now() -> datetime:
    return datetime.now(UTC)


def keep_recent(kept: OrderedDict[K, V], key: K, value: V) -> None:
    """Put `value` in a least-recently-used memory of `CACHE_SIZE` entries."""
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > CACHE_SIZE:
        kept.popitem(last=False)


def check_key(key: ChannelKey) -> None:
    validate.snowflake(key.guild_id, "guild id")
    validate.snowflake(key.channel_id, "channel id")
