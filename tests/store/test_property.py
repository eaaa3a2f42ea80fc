"""Property: any sequence of an encounter's changes (nested state edits, tokens, heroes), undone all the way
back, gives exactly the state right after the encounter's start, except for what the campaign changed
meanwhile in the thread's parent channel (hero-token awards, new heroes), which stands — on both engines."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store import Change, ChannelKey, NothingToUndo, Store, StoreError, Table
from tests.store.conftest import Target
from tests.store.helpers import DIRECTOR, PLAYER, begin
from tests.store.test_patch import strict

text = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=6)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | text
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)
names = st.text(st.characters(categories=("L", "N", "So")), min_size=1, max_size=12)
index = st.integers(min_value=0, max_value=1000)
operations = st.one_of(
    st.tuples(st.just("set"), index, text, values),
    st.tuples(st.just("delete"), index, index),
    st.tuples(st.just("append"), index, values),
    st.tuples(st.just("pop"), index, index),
    st.tuples(st.just("tokens"), st.integers(min_value=0, max_value=30)),
    st.tuples(st.just("hero.add"), names, st.dictionaries(text, values, max_size=3)),
    st.tuples(st.just("hero.edit"), index, text, values),
    st.tuples(st.just("hero.rename"), index, names),
    st.tuples(st.just("hero.remove"), index),
    st.tuples(st.just("noop")),
    st.tuples(st.just("fail")),
    st.tuples(st.just("undo")),
    st.tuples(st.just("out.award"), st.integers(min_value=1, max_value=5)),
    st.tuples(st.just("out.hero"), st.dictionaries(text, values, max_size=3)),
)


def containers(value: Any, kind: type) -> list[Any]:
    found = [value] if isinstance(value, kind) else []
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    for child in children:
        found += containers(child, kind)
    return found


def apply(op: tuple[Any, ...], tick: int, table: Table) -> Change[None]:
    """`op` as the encounter's change: whatever else it does, it records `tick` (a number no other change
    used) in the encounter, as a fight records a hero token's use."""
    state = table.require_encounter().state
    heroes = sorted(table.heroes)
    if op[0] != "noop":
        state["tick"] = tick
    match op:
        case ("set", i, key, value):
            dicts = containers(state, dict)
            dicts[i % len(dicts)][key] = value
        case ("delete", i, j):
            dicts = [d for d in containers(state, dict) if d]
            if dicts:
                target = dicts[i % len(dicts)]
                del target[sorted(target)[j % len(target)]]
        case ("append", i, value):
            lists = containers(state, list)
            if lists:
                lists[i % len(lists)].append(value)
            else:
                state["list"] = [value]
        case ("pop", i, j):
            lists = [items for items in containers(state, list) if items]
            if lists:
                items = lists[i % len(lists)]
                items.pop(j % len(items))
        case ("tokens", n):
            table.tokens = n
        case ("hero.add", name, data):
            table.add_hero(PLAYER, name, data)
        case ("hero.edit", i, key, value) if heroes:
            table.heroes[heroes[i % len(heroes)]].data[key] = value
        case ("hero.rename", i, name) if heroes:
            table.heroes[heroes[i % len(heroes)]].name = name
        case ("hero.remove", i) if heroes:
            table.remove_hero(heroes[i % len(heroes)])
        case ("fail",):
            state["poison"] = 1
            raise RuntimeError("a rule refused")
        case _:
            pass
    return Change(f"{op[0]}", None)


#: Each example opens a fresh store (a new connection pool): its first PostgreSQL connection may take longer
#: than the bot's 1.5 s answer limit on a loaded machine, which is not what this property is about.
PATIENT = 15.0


async def outside(store: Store, channel: ChannelKey, op: tuple[Any, ...], expected: dict[str, Any]) -> None:
    """The campaign's change `op` in the parent channel (an award, a hero whose name no thread change can
    give: theirs have no hyphen), and what it leaves in `expected`."""
    if op[0] == "out.award":
        await store.mutate(
            channel,
            DIRECTOR,
            "tokens.award",
            lambda t: Change("award", setattr(t, "tokens", t.tokens + op[1])),
        )
        expected["tokens"] += op[1]
        return
    name = f"Out-{len(expected['heroes'])}"
    added = await store.mutate(
        channel, PLAYER, "hero.add", lambda t: Change(name, t.add_hero(PLAYER, name, op[1]).id)
    )
    expected["heroes"][added.value] = {"owner_id": PLAYER, "name": name, "data": op[1]}


async def scenario(target: Target, channel_id: int, ops: list[tuple[Any, ...]]) -> None:
    store = await Store.open(target.url, migrate=False, schema=target.schema, wait_limit=PATIENT)
    try:
        channel = ChannelKey(10, channel_id)
        key = ChannelKey(10, channel_id + 1, parent_id=channel_id, name="fight")
        await store.mutate(
            key, PLAYER, "hero.add", lambda t: Change("Vex", t.add_hero(PLAYER, "Vex", {"xp": 0}))
        )
        await begin(store, key, {"counter": 0, "combatants": [{"name": "Goblin", "stamina": 5, "c": []}]})
        expected = (await store.view(key)).snapshot()
        for tick, op in enumerate(ops):
            try:
                if op[0] == "undo":
                    await store.undo(key, DIRECTOR)
                elif op[0].startswith("out."):
                    await outside(store, channel, op, expected)
                else:
                    await store.mutate(
                        key, PLAYER, "op", lambda table, op=op, tick=tick: apply(op, tick, table)
                    )
            except (StoreError, RuntimeError):
                pass
        for _ in range(len(ops) + 1):
            try:
                await store.undo(key, DIRECTOR)
            except NothingToUndo:
                break
        else:
            raise AssertionError("undo did not reach the start")
        assert strict((await store.view(key)).snapshot()) == strict(expected)
    finally:
        await store.close()


_channels = itertools.count(900_000, 2)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=st.lists(operations, max_size=12))
def test_undo_everything_restores_the_start(migrated: Target, ops: list[tuple[Any, ...]]) -> None:
    asyncio.run(scenario(migrated, next(_channels), ops))
