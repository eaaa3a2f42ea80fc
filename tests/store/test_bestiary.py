"""The server bestiary in the store (bot/store/bestiary.py), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.content.forgesteel.files import ForgeSteelError
from bot.content.forgesteel.monster import read_monster_group
from bot.store import InvalidValue, Store, validate
from bot.store.bestiary import MONSTERS_MAX, BestiaryFull, NewMonster
from exts.bestiary._service import stat_block_of, to_new
from tests.content.forgesteel_files import invented_bytes
from tests.content.fuzz_kit import mutate
from tests.store.conftest import Target

GUILD = 10
OTHER_GUILD = 11
DANA = 501
ZED = 502
GROUP_TREE = json.loads(invented_bytes("Bogling.ds-monster-group"))
MUTATIONS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.text(max_size=80),
    st.sampled_from(["", "x" * 70, "Goblin Sniper", "Minion", "Solo", "Stamina", "Bonus", "a\x00b", "\n"]),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=6), st.integers(), max_size=2),
)


def block(name: str, stamina: int = 10) -> dict[str, Any]:
    return {"id": name.lower().replace(" ", "-"), "name": name, "stamina": stamina}


def new(name: str, group: str = "", source_id: str | None = None, stamina: int = 10) -> NewMonster:
    sid = name.lower().replace(" ", "-") if source_id is None else source_id
    return NewMonster(name, group, sid, block(name, stamina))


async def test_stored_monsters_are_listed_found_by_name_and_by_source_id(store: Store) -> None:
    stocked = await store.put_monsters(
        GUILD, DANA, [new("Goblin Sniper", "Goblin", "goblin-2"), new("Thorn Dragon", source_id="dragon")]
    )
    assert stocked.added == ("Goblin Sniper", "Thorn Dragon") and stocked.updated == ()
    index = await store.monster_index(GUILD)
    assert [(e.name, e.group, e.source_id) for e in index] == [
        ("Thorn Dragon", "", "dragon"),
        ("Goblin Sniper", "Goblin", "goblin-2"),
    ]
    found = await store.find_monster(GUILD, "  goblin SNIPER ")
    assert found is not None and found.name == "Goblin Sniper" and found.group == "Goblin"
    assert found.data == block("Goblin Sniper") and found.added_by == DANA
    assert found.added_at.tzinfo is not None
    by_id = await store.monsters_by_source(GUILD, ["goblin-2", "goblin-99", "goblin-2"])
    assert list(by_id) == ["goblin-2"] and by_id["goblin-2"].name == "Goblin Sniper"
    assert await store.find_monster(OTHER_GUILD, "Goblin Sniper") is None  # the bestiary is the server's
    assert await store.monster_index(OTHER_GUILD) == []


async def test_a_name_stored_again_is_replaced_in_place_keeping_its_group(store: Store) -> None:
    """Re-import updates in place; a lone monster file (no group) keeps the group it was stored with."""
    await store.put_monsters(GUILD, DANA, [new("Goblin Sniper", "Goblin", "goblin-2", stamina=3)])
    stocked = await store.put_monsters(GUILD, ZED, [new("GOBLIN SNIPER", "", "goblin-2", stamina=4)])
    assert stocked.added == () and stocked.updated == ("GOBLIN SNIPER",)
    (entry,) = await store.monster_index(GUILD)
    assert (entry.name, entry.group) == ("GOBLIN SNIPER", "Goblin")
    found = await store.find_monster(GUILD, "goblin sniper")
    assert found is not None and found.data["stamina"] == 4 and found.added_by == ZED


async def test_remove(store: Store) -> None:
    await store.put_monsters(GUILD, DANA, [new("Worg")])
    assert await store.remove_monster(OTHER_GUILD, "worg") is None
    assert await store.remove_monster(GUILD, "WORG") == "Worg"
    assert await store.remove_monster(GUILD, "Worg") is None
    assert await store.monster_index(GUILD) == []


async def test_a_full_bestiary_refuses_new_names_and_stores_nothing(store: Store) -> None:
    """At most MONSTERS_MAX monsters per server; a batch that would pass it stores none of its monsters."""
    await store.put_monsters(GUILD, DANA, [new(f"Goblin {n}") for n in range(MONSTERS_MAX - 1)])
    with pytest.raises(BestiaryFull) as refused:
        await store.put_monsters(GUILD, DANA, [new("Goblin 1", stamina=99), new("Worg"), new("Wolf")])
    assert "\n" not in str(refused.value) and "/monster remove" in str(refused.value)
    found = await store.find_monster(GUILD, "Goblin 1")
    assert found is not None and found.data["stamina"] == 10  # the whole batch was refused
    # replacing names already stored doesn't grow it; one more new name fits exactly
    stocked = await store.put_monsters(GUILD, DANA, [new("Goblin 1", stamina=99), new("Worg")])
    assert stocked.updated == ("Goblin 1",) and stocked.added == ("Worg",)
    assert len(await store.monster_index(GUILD)) == MONSTERS_MAX
    await store.put_monsters(OTHER_GUILD, DANA, [new("Worg")])  # another server's bestiary is its own


async def test_lookups_by_more_ids_than_a_query_may_bind_are_chunked(store: Store) -> None:
    """PostgreSQL binds at most 32,767 parameters a query (asyncpg): 40,000 Forge Steel ids, most unknown,
    still find the ones stored; a batch of 40,000 names is refused as too many, not by the database."""
    await store.put_monsters(GUILD, DANA, [new("Worg", source_id="id-39999"), new("Wolf", source_id="id-7")])
    wanted = [f"id-{n}" for n in range(40_000)]
    found = await store.monsters_by_source(GUILD, wanted)
    assert sorted(found) == ["id-39999", "id-7"] and found["id-7"].name == "Wolf"
    with pytest.raises(BestiaryFull):
        await store.put_monsters(GUILD, DANA, [new(f"Goblin {n}") for n in range(40_000)])
    assert len(await store.monster_index(GUILD)) == 2


@pytest.mark.parametrize(
    "monster",
    [
        NewMonster("", "", "x", {}),
        NewMonster("x" * 65, "", "x", {}),
        NewMonster("Bad\nName", "", "x", {}),
        NewMonster("Worg", "g" * 65, "x", {}),
        NewMonster("Worg", "", "i" * 101, {}),
        NewMonster("Worg", "", "x", {"nan": float("nan")}),
    ],
)
async def test_unsavable_monsters_are_refused_and_nothing_stored(store: Store, monster: NewMonster) -> None:
    with pytest.raises(InvalidValue):
        await store.put_monsters(GUILD, DANA, [new("Wolf"), monster])
    assert await store.monster_index(GUILD) == []


async def test_imports_of_a_new_name_at_once_all_succeed(store: Store) -> None:
    """An insert that loses the race for a new name finds it taken and replaces it instead (PostgreSQL runs
    them at once; SQLite one after the other)."""
    stores = (store.put_monsters(GUILD, DANA, [new("Worg", stamina=s)]) for s in range(5, 11))
    results = await asyncio.gather(*stores)
    assert [r.added + r.updated for r in results] == [("Worg",)] * 6
    assert [e.name for e in await store.monster_index(GUILD)] == ["Worg"]


def _mutated_group(data: st.DataObject) -> bytes:
    tree = mutate(copy.deepcopy(GROUP_TREE), data.draw, data.draw(st.integers(1, 3)), MUTATIONS)
    return json.dumps(tree).encode()


async def _import(target: Target, guild: int, raw: bytes) -> None:
    """What /monster import does with a file after downloading it: read, then store the whole group or
    nothing; what is stored reads back as the stat block that was read."""
    store = await target.open()
    try:
        try:
            monsters = read_monster_group(raw).monsters
            await store.put_monsters(guild, DANA, [to_new(m) for m in monsters])
        except (ForgeSteelError, InvalidValue) as refused:
            assert "\n" not in str(refused)
            assert await store.monster_index(guild) == []
            return
        by_key = {validate.name_key(m.name.strip()): m for m in monsters}  # the last of a name counts
        index = await store.monster_index(guild)
        assert len(index) == len(by_key)
        for monster in by_key.values():
            stored = await store.find_monster(guild, monster.name)
            assert stored is not None and stat_block_of(stored) == monster
    finally:
        await store.close()


_guilds = itertools.count(700_000)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_mutated_group_is_stored_whole_or_not_at_all(migrated: Target, data: st.DataObject) -> None:
    """ "mutated fixtures never crash them and never store half" (here a monster group)."""
    asyncio.run(_import(migrated, next(_guilds), _mutated_group(data)))
