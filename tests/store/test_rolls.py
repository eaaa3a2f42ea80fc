"""Power rolls kept for their buttons (`bot.store.rolls`): read back only in the channel they were made in,
rewritten by each press, bounded in size and in age."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.store import ChannelKey, InvalidValue, Store
from bot.store import rolls as kept

ROLL = 1456074443980800045
CARD = "9-9:0:x:0:0:0:ax:1456074443980800029:00"


async def test_a_roll_is_read_back_in_its_channel_only(store: Store, key: ChannelKey) -> None:
    await store.save_roll(ROLL, key, CARD)
    assert await store.roll(ROLL, key) == CARD
    assert await store.roll(ROLL, ChannelKey(key.guild_id, key.channel_id + 1)) is None
    assert await store.roll(ROLL, ChannelKey(key.guild_id + 1, key.channel_id)) is None
    assert await store.roll(ROLL + 1, key) is None

    await store.update_roll(ROLL, key, CARD[:-2] + "20")
    assert await store.roll(ROLL, key) == CARD[:-2] + "20"


async def test_a_roll_is_bounded(store: Store, key: ChannelKey) -> None:
    with pytest.raises(InvalidValue):
        await store.save_roll(ROLL, key, "x" * (kept.CARD_MAX + 1))
    with pytest.raises(InvalidValue):
        await store.save_roll(2**64, key, CARD)


async def test_old_rolls_are_deleted_as_new_ones_come(
    store: Store, key: ChannelKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    await store.save_roll(ROLL, key, CARD)
    later = kept.utc_now() + kept.ROLL_KEPT + timedelta(minutes=1)
    monkeypatch.setattr(kept, "utc_now", lambda: later)
    monkeypatch.setattr(store.rolls, "saves", 0)  # the next save prunes
    await store.save_roll(ROLL + 1, key, CARD)
    assert await store.roll(ROLL, key) is None
    assert await store.roll(ROLL + 1, key) == CARD  # `roll` reads any age: the old row is gone


async def test_a_roll_saved_again_keeps_the_new_card(store: Store, key: ChannelKey) -> None:
    await store.save_roll(ROLL, key, CARD)
    await store.save_roll(ROLL, key, CARD[:-2] + "20")
    assert await store.roll(ROLL, key) == CARD[:-2] + "20"
