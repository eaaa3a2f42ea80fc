"""An interaction is applied at most once across processes: its id is saved with its event under a unique
constraint, so a second process (the other copy of a shard during a rolling restart) applying the same
command gets `AlreadyApplied` and writes nothing. Likewise a `once` key
(`AlreadyDone`). Two stores on one database are two processes to it (their own engines and connections)."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa

from bot.store import AlreadyApplied, AlreadyDone, ChannelKey, InvalidValue, Store
from bot.store.engine import create_engine, normalise_url
from bot.store.migrate import upgrade
from bot.store.models import events
from tests.store.conftest import Target
from tests.store.helpers import DIRECTOR, PLAYER, begin, increment

INTERACTION = 1_234_567_890_123_456_789


async def counter(store: Store, key: ChannelKey) -> int:
    return int((await store.view(key)).require_encounter().state["counter"])


async def test_one_interaction_is_applied_once_by_two_processes(
    store: Store, target: Target, key: ChannelKey
) -> None:
    """ "Two processes running the same shard during a rolling restart must not apply one command twice." """
    await begin(store, key)
    other = await target.open()
    try:
        await other.view(key)  # the other process has the channel cached too
        first = await store.mutate(key, PLAYER, "counter", increment, interaction_id=INTERACTION)
        assert first.value == 1
        with pytest.raises(AlreadyApplied):
            await other.mutate(key, PLAYER, "counter", increment, interaction_id=INTERACTION)
        assert await counter(other, key) == 1 and await counter(store, key) == 1
        with pytest.raises(AlreadyApplied):  # an undo carries its interaction too
            await other.undo(key, PLAYER, interaction_id=INTERACTION)
        assert await counter(store, key) == 1
        second = await other.mutate(key, PLAYER, "counter", increment, interaction_id=INTERACTION + 1)
        assert second.value == 2  # another interaction is another command
        async with store.engine.connect() as connection:
            saved = (
                await connection.execute(
                    sa.select(events.c.interaction_id).where(events.c.channel_id == key.channel_id)
                )
            ).scalars()
            assert sorted(i for i in saved if i is not None) == [INTERACTION, INTERACTION + 1]
    finally:
        await other.close()


async def test_at_the_same_moment_exactly_one_applies(store: Store, target: Target, key: ChannelKey) -> None:
    await begin(store, key)
    other = await target.open()
    try:
        results = await asyncio.gather(
            store.mutate(key, PLAYER, "counter", increment, interaction_id=INTERACTION),
            other.mutate(key, PLAYER, "counter", increment, interaction_id=INTERACTION),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["AlreadyApplied", "Committed"]
        assert await counter(store, key) == 1
    finally:
        await other.close()


async def test_a_once_key_is_used_once(store: Store, key: ChannelKey) -> None:
    await begin(store, key)
    await store.mutate(key, DIRECTOR, "counter", increment, once="reroll:42")
    with pytest.raises(AlreadyDone):
        await store.mutate(key, DIRECTOR, "counter", increment, once="reroll:42")
    assert await counter(store, key) == 1
    await store.mutate(key, DIRECTOR, "counter", increment, once="reroll:43")
    with pytest.raises(InvalidValue):
        await store.mutate(key, DIRECTOR, "counter", increment, once="x" * 81)


async def test_a_database_of_the_previous_schema_upgrades_and_keeps_its_log(target: Target) -> None:
    """Migration 0003_interaction_ids on a database built with 0001_initial: the log is kept (no interaction
    id), and new changes are deduplicated."""
    engine = create_engine(normalise_url(target.url), schema=target.schema)
    try:
        await upgrade(engine, "0001_initial")
    finally:
        await engine.dispose()
    old = await target.open(migrate=False)
    key = ChannelKey(10, 77)
    try:
        async with old.engine.begin() as connection:  # a change saved by the previous version
            await connection.execute(
                sa.text(
                    "INSERT INTO channels (id, guild_id, tokens, version, updated_at) "
                    "VALUES (77, 10, 2, 1, CURRENT_TIMESTAMP)"
                )
            )
            await connection.execute(
                sa.text(
                    "INSERT INTO events (channel_id, seq, user_id, at, kind, summary, details) "
                    "VALUES (77, 1, 5, CURRENT_TIMESTAMP, 'tokens.award', 'two tokens', '{}')"
                )
            )
    finally:
        await old.close()
    store = await target.open()  # upgrades to head
    try:
        assert (await store.view(key)).tokens == 2
        await begin(store, key)
        await store.mutate(key, PLAYER, "counter", increment, interaction_id=INTERACTION)
        with pytest.raises(AlreadyApplied):
            await store.mutate(key, PLAYER, "counter", increment, interaction_id=INTERACTION)
        async with store.engine.connect() as connection:
            kinds = (
                await connection.execute(
                    sa.select(events.c.kind).where(events.c.channel_id == 77).order_by(events.c.id)
                )
            ).scalars()
            assert list(kinds) == ["tokens.award", "encounter.start", "counter"]
    finally:
        await store.close()
