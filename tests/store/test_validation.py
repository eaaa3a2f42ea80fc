"""Bad input gets a clear `StoreError` (one line) and writes nothing — never a crash or a partial write."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from bot.store import (
    Change,
    ChannelKey,
    EncounterDoc,
    InvalidValue,
    NoEncounter,
    Store,
    StoreError,
    Table,
    validate,
)
from bot.store.models import events
from bot.store.validate import NAME_LIMIT
from tests.store.helpers import DIRECTOR, PLAYER, begin

Edit = Callable[[Table], Any]


def set_state(value: Any) -> Edit:
    def edit(table: Table) -> None:
        table.require_encounter().state["x"] = value

    return edit


class Weird:
    pass


def deep(levels: int) -> Any:
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


BAD_EDITS: dict[str, Edit] = {
    "int above int64": set_state(2**63),
    "int below int64": set_state(-(2**63) - 1),
    "nested huge int": set_state({"a": [1, {"b": 10**30}]}),
    "nan": set_state(float("nan")),
    "infinity": set_state(float("inf")),
    "object": set_state(Weird()),
    "set": set_state({1, 2}),
    "bytes": set_state(b"x"),
    "non-text key": set_state({1: "a"}),
    "NUL in text": set_state("a\x00b"),
    "lone surrogate": set_state("\ud800"),
    "too deep": set_state(deep(80)),
    "too large": set_state("x" * 1_100_000),
    "state not a mapping": lambda t: setattr(t.require_encounter(), "state", [1, 2]),
    "negative tokens": lambda t: setattr(t, "tokens", -1),
    "huge tokens": lambda t: setattr(t, "tokens", 2**70),
    "bool tokens": lambda t: setattr(t, "tokens", True),
    "empty encounter name": lambda t: setattr(t.require_encounter(), "name", "   "),
    "long encounter name": lambda t: setattr(t.require_encounter(), "name", "x" * (NAME_LIMIT + 1)),
    "control char in name": lambda t: setattr(t.require_encounter(), "name", "Goblin\nambush"),
    "zero director": lambda t: setattr(t.require_encounter(), "director_id", 0),
    "negative director": lambda t: setattr(t.require_encounter(), "director_id", -5),
    "director beyond int64": lambda t: setattr(t.require_encounter(), "director_id", 2**64),
    "encounter dropped": lambda t: setattr(t, "encounter", None),
    "encounter replaced": lambda t: setattr(t, "encounter", EncounterDoc(None, "New", DIRECTOR, {})),
    "hero name taken (case)": lambda t: (t.add_hero(1, "Vex", {}), t.add_hero(2, "VEX", {})),
    "hero renamed onto another": lambda t: (
        t.add_hero(1, "Vex", {}),
        setattr(t.add_hero(2, "Ash", {}), "name", "vex"),
    ),
    "hero long name": lambda t: t.add_hero(1, "é" * (NAME_LIMIT + 1), {}),
    "hero empty name": lambda t: t.add_hero(1, "", {}),
    "hero name expanding when folded": lambda t: t.add_hero(1, "ﷺ" * 20, {}),
    "hero tab in name": lambda t: t.add_hero(1, "Vex\tthe bold", {}),
    "hero huge data": lambda t: t.add_hero(1, "Vex", {"xp": 2**64}),
    "hero data not a mapping": lambda t: t.add_hero(1, "Vex", [1]),  # type: ignore[arg-type]
    "hero bad owner": lambda t: t.add_hero(-1, "Vex", {}),
    "hero inserted by hand": lambda t: t.heroes.__setitem__("x", t.heroes.get("nope")),
    "remove unknown hero": lambda t: t.remove_hero("nope"),
    "second encounter": lambda t: t.begin_encounter("Another", DIRECTOR, {}),
}


async def event_count(store: Store) -> int:
    async with store.engine.connect() as connection:
        return int((await connection.execute(sa.select(sa.func.count()).select_from(events))).scalar_one())


async def test_bad_edits_raise_and_write_nothing(store: Store, key: ChannelKey) -> None:
    await begin(store, key, {"counter": 0, "nested": {"list": [1, 2, 3]}})
    before = (await store.view(key)).snapshot()
    for label, edit in BAD_EDITS.items():

        def change(table: Table, edit: Edit = edit) -> Change[None]:
            table.require_encounter().state["counter"] += 1  # a valid edit alongside the bad one
            edit(table)
            return Change("bad", None)

        with pytest.raises(StoreError) as caught:
            await store.mutate(key, PLAYER, "edit", change)
        message = str(caught.value)
        assert message and "\n" not in message and len(message) < 200, label
    after = await store.view(key)
    assert after.snapshot() == before and after.version == 1
    assert await event_count(store) == 1


@pytest.mark.parametrize("summary", ["a\x00b", "hit \ud800", "\udfff", "x" * 2001])
async def test_unsavable_summaries_raise_and_write_nothing(
    store: Store, key: ChannelKey, summary: str
) -> None:
    await begin(store, key, {"counter": 0})

    def change(table: Table) -> Change[None]:
        table.require_encounter().state = {"counter": 1}
        return Change(summary, None)

    with pytest.raises(StoreError):
        await store.mutate(key, PLAYER, "edit", change)
    assert (await store.view(key)).require_encounter().state == {"counter": 0}
    assert await event_count(store) == 1


async def test_valid_edge_values_are_kept(store: Store, key: ChannelKey) -> None:
    await begin(store, key)
    name = "龍" * NAME_LIMIT

    def change(table: Table) -> Change[str]:
        encounter = table.require_encounter()
        encounter.state.update(
            big=2**63 - 1, small=-(2**63), tuple=(1, (2, 3)), text="👩‍👩‍👧 ünïcödé", f=-0.5, none=None
        )
        table.tokens = 1_000_000
        table.add_hero(1, "ß" * NAME_LIMIT, {})  # folds to 128 characters: fine
        return Change("edge", table.add_hero(2**63 - 1, "  " + name + "  ", {"emoji": "🐉"}).id)

    hero_id = (await store.mutate(key, PLAYER, "edge", change)).value
    table = await store.view(key)
    assert table.encounter is not None
    assert table.encounter.state["tuple"] == [1, [2, 3]] and table.encounter.state["big"] == 2**63 - 1
    assert table.encounter.state["text"] == "👩‍👩‍👧 ünïcödé" and table.tokens == 1_000_000
    assert table.heroes[hero_id].name == name


async def test_bad_encounter_start_writes_nothing(store: Store, key: ChannelKey) -> None:
    for name in ("", "x" * 65, "a\u0007b"):
        with pytest.raises(InvalidValue):
            await store.mutate(
                key,
                DIRECTOR,
                "encounter.start",
                lambda t, n=name: Change("s", t.begin_encounter(n, DIRECTOR, {})),
            )
    assert (await store.view(key)).version == 0 and await event_count(store) == 0


async def test_bad_arguments(store: Store, key: ChannelKey) -> None:
    noop: Callable[[Table], Change[None]] = lambda table: Change("x", None)  # noqa: E731
    with pytest.raises(InvalidValue):
        await store.mutate(key, 0, "x", noop)
    with pytest.raises(InvalidValue):
        await store.mutate(key, 2**64, "x", noop)
    with pytest.raises(InvalidValue):
        await store.mutate(key, PLAYER, "", noop)
    with pytest.raises(InvalidValue):
        await store.mutate(key, PLAYER, "drop table;", noop)
    with pytest.raises(InvalidValue, match="reserved"):
        await store.mutate(key, PLAYER, "undo", noop)
    with pytest.raises(InvalidValue):
        await store.mutate(ChannelKey(-1, 5), PLAYER, "x", noop)
    with pytest.raises(InvalidValue):
        await store.mutate(key, PLAYER, "x", lambda t: Change("s" * 3000, setattr(t, "tokens", 1)))
    with pytest.raises(InvalidValue):
        await store.mutate(key, PLAYER, "x", lambda t: Change("s", setattr(t, "tokens", 1), {"n": 2**80}))
    with pytest.raises(TypeError):
        await store.mutate(key, PLAYER, "x", lambda t: "not a Change")  # type: ignore[arg-type,return-value]
    with pytest.raises(InvalidValue):
        await store.update_settings(1, colour="red")
    with pytest.raises(InvalidValue):
        await store.update_settings(1, malice_rounding="sideways")
    with pytest.raises(InvalidValue):
        await store.update_settings(1, turn_pings="yes")
    with pytest.raises(InvalidValue):
        await store.update_settings(1, director_role_id=-3)
    with pytest.raises(InvalidValue):
        await store.update_settings(0, turn_pings=True)
    with pytest.raises(InvalidValue):
        await store.prune(timedelta(days=-1))
    started = await begin(store, key)
    assert started.encounter_id is not None
    with pytest.raises(InvalidValue):
        await store.set_tracker(started.encounter_id, key.channel_id, 2**64, guild_id=key.guild_id)
    assert await store.find_encounter(2**80, guild_id=key.guild_id) is None
    assert await store.find_encounter(2**40, guild_id=key.guild_id) is None
    assert await store.find_encounter(-1, guild_id=key.guild_id) is None
    with pytest.raises(NoEncounter):
        await store.set_tracker(2**40, key.channel_id, 5, guild_id=key.guild_id)
    with pytest.raises(NoEncounter):
        await store.export_json(2**40, guild_id=key.guild_id)
    assert (await store.get_settings(1)).malice_rounding == "down"
    assert await event_count(store) == 1


def test_clean_data_is_kept_as_is_and_other_data_cleaned_into_a_copy() -> None:
    clean = {"a": [1, 2.5, None, True, "x"], "b": {"c": []}}
    assert validate.json_data(clean, "state") is clean
    messy = {"a": (1, 2), "b": [(3,)]}
    cleaned = validate.json_data(messy, "state")
    assert cleaned == {"a": [1, 2], "b": [[3]]} and type(cleaned["a"]) is list


def test_parts_shared_with_saved_data_are_not_checked_again_but_new_parts_are() -> None:
    creatures = [{"name": f"Goblin {i}", "stamina": 5} for i in range(3)]
    saved = {"creatures": creatures, "round": 1}
    changed = {"creatures": [creatures[0], {"name": "Goblin 1", "stamina": 2**64}, creatures[2]], "round": 1}
    with pytest.raises(InvalidValue, match="too large"):
        validate.json_data(changed, "state", like=saved)
    changed["creatures"][1]["stamina"] = 2
    assert validate.json_data(changed, "state", like=saved) is changed


@pytest.mark.parametrize("grown", [True, False])
def test_a_list_that_grew_or_shrank_at_its_end_keeps_its_start_unchecked(grown: bool) -> None:
    kept = (1, 2)  # a tuple is not clean data: checking it again would make the result a cleaned copy
    saved = {"turns": [kept, {"n": 1}]}
    if grown:
        changed = {"turns": [kept, saved["turns"][1], {"n": 2**64}]}
        with pytest.raises(InvalidValue, match="too large"):
            validate.json_data(changed, "state", like=saved)  # the new end is checked
        changed["turns"][2] = {"n": 2}
    else:
        changed = {"turns": [kept]}
    assert validate.json_data(changed, "state", like=saved) is changed


async def test_a_saved_hero_is_checked_again_only_when_its_data_changed(
    store: Store, key: ChannelKey, monkeypatch: pytest.MonkeyPatch
) -> None:
    await begin(store, key)

    def create(table: Table) -> Change[str]:
        return Change("hero", table.add_hero(PLAYER, "Vex", {"xp": 1, "notes": "x" * 100}).id)

    hero_id = (await store.mutate(key, PLAYER, "hero", create)).value
    sized: list[str] = []
    real_check_size = validate.check_size

    def counting(value: Any, what: str) -> str:
        sized.append(what)
        return real_check_size(value, what)

    monkeypatch.setattr(validate, "check_size", counting)
    # the store's own memory, hero data untouched: the encounter state is checked, the hero's data is not
    await store.mutate(key, PLAYER, "inc", increment_counter, shared=True)
    assert "encounter state" in sized and "hero data" not in sized

    def grow(table: Table) -> Change[None]:  # a copy of the saved data, edited: checked in full
        table.heroes[hero_id].data = {**table.heroes[hero_id].data, "notes": "x" * 1_100_000}
        return Change("grow", None)

    with pytest.raises(InvalidValue, match="too large"):
        await store.mutate(key, PLAYER, "grow", grow, shared=True)

    def overflow(table: Table) -> Change[None]:  # edited in place on a working copy: checked in full
        table.heroes[hero_id].data["xp"] = 2**64
        return Change("overflow", None)

    with pytest.raises(InvalidValue):
        await store.mutate(key, PLAYER, "overflow", overflow)
    assert (await store.view(key)).heroes[hero_id].data["xp"] == 1


def increment_counter(table: Table) -> Change[None]:
    encounter = table.require_encounter()
    encounter.state = {**encounter.state, "counter": encounter.state["counter"] + 1}
    return Change("counter", None)
