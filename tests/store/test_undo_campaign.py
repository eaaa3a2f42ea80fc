"""An encounter's undo and the campaign's values, on SQLite and PostgreSQL (docs/store.md, *Undo*): the
encounter's own changes only; the hero-token pool given back as a difference; a roster hero restored only
while it is as the change left it; a refusal writes nothing."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from bot.store import CannotUndo, Change, ChannelKey, NothingToUndo, Store, Table
from bot.store.models import events
from tests.store.helpers import DIRECTOR, PLAYER, begin, increment


def tokens_by(count: int, *, in_the_fight: bool) -> object:
    """A change of the pool by `count`; `in_the_fight`: the encounter's too (it records it)."""

    def change(table: Table) -> Change[int]:
        if in_the_fight:
            increment(table)
        table.tokens += count
        return Change(f"pool {count:+}", table.tokens)

    return change


def stamina(hero_id: str, value: int, *, in_the_fight: bool) -> object:
    """A roster hero's Stamina set (`in_the_fight`: by the encounter, e.g. its write-back on leaving)."""

    def change(table: Table) -> Change[None]:
        if in_the_fight:
            increment(table)
        table.heroes[hero_id].data = {**table.heroes[hero_id].data, "stamina": value}
        return Change(f"stamina {value}", None)

    return change


async def counter(store: Store, key: ChannelKey) -> int:
    return int((await store.view(key)).require_encounter().state["counter"])


async def test_the_campaigns_changes_are_passed_over(store: Store, key: ChannelKey) -> None:
    """A change that left the encounter as it was (an award) is not the encounter's: undo passes over it and
    it stands."""
    await begin(store, key)
    await store.mutate(key, PLAYER, "inc", increment)
    await store.mutate(key, DIRECTOR, "tokens.award", tokens_by(5, in_the_fight=False))
    assert (await store.undo(key, DIRECTOR)).value.seq == 2
    assert (await store.view(key)).tokens == 5 and await counter(store, key) == 0
    with pytest.raises(NothingToUndo):
        await store.undo(key, DIRECTOR)


async def test_outside_names_more_changes_to_pass_over(store: Store, key: ChannelKey) -> None:
    """`outside`: a change that followed into the fight (a claim) but is the campaign's is passed over too;
    what it did stands."""

    def claim(table: Table) -> Change[None]:
        table.require_encounter().state["owner"] = DIRECTOR
        return Change("claimed", None)

    await begin(store, key)
    await store.mutate(key, PLAYER, "inc", increment)
    await store.mutate(key, DIRECTOR, "hero.claim", claim)
    undone = await store.undo(key, PLAYER, outside=lambda event: event.kind == "hero.claim")
    assert undone.value.seq == 2
    assert (await store.view(key)).require_encounter().state == {"counter": 0, "owner": DIRECTOR}


async def test_a_pool_that_cant_give_the_tokens_back_refuses(store: Store, key: ChannelKey) -> None:
    await begin(store, key)
    await store.mutate(key, DIRECTOR, "gain", tokens_by(2, in_the_fight=True))
    await store.mutate(key, PLAYER, "tokens.spend", tokens_by(-1, in_the_fight=False))
    version = (await store.view(key)).version
    with pytest.raises(
        CannotUndo, match=r"^Change #2 can't be undone: .* 2 hero token\(s\) back, .* has 1\.$"
    ):
        await store.undo(key, DIRECTOR)
    table = await store.view(key)
    assert (table.version, table.tokens, await counter(store, key)) == (version, 1, 1)  # nothing written


async def test_a_hero_is_restored_only_while_as_the_change_left_it(store: Store, key: ChannelKey) -> None:
    """The encounter wrote Vex's Stamina back (12); an edit since (20) makes undoing it refuse, in one line,
    writing nothing; once Vex is as the change left Vex again, the undo restores the 30 before it."""
    added = await store.mutate(
        key, PLAYER, "hero.create", lambda t: Change("Vex", t.add_hero(PLAYER, "Vex", {"stamina": 30}).id)
    )
    hero_id = added.value
    await begin(store, key)
    await store.mutate(key, DIRECTOR, "encounter.remove", stamina(hero_id, 12, in_the_fight=True))
    await store.mutate(key, PLAYER, "hero.edit", stamina(hero_id, 20, in_the_fight=False))
    version = (await store.view(key)).version
    with pytest.raises(CannotUndo, match=r"^Change #2 can't be undone: Vex changed on the roster since"):
        await store.undo(key, DIRECTOR)
    table = await store.view(key)
    assert table.version == version and table.heroes[hero_id].data == {"stamina": 20}
    await store.mutate(key, PLAYER, "hero.edit", stamina(hero_id, 12, in_the_fight=False))
    await store.undo(key, DIRECTOR)
    table = await store.view(key)
    assert table.heroes[hero_id].data == {"stamina": 30} and await counter(store, key) == 0


async def test_a_change_saved_with_the_pools_old_value_refuses(store: Store, key: ChannelKey) -> None:
    """A change saved with the pool's old value only (no difference) can't be taken back safely."""
    started = await begin(store, key)
    await store.mutate(key, DIRECTOR, "tokens.spend", tokens_by(3, in_the_fight=True))
    absolute = {"d": {"tokens": {"=": 0}, "encounter": {"d": {"state": {"d": {"counter": {"=": 0}}}}}}}
    async with store.engine.begin() as connection:
        await connection.execute(
            sa.update(events)
            .where(events.c.encounter_id == started.encounter_id, events.c.seq == 2)
            .values(patch=absolute)
        )
    with pytest.raises(CannotUndo, match="set the hero-token pool outright"):
        await store.undo(key, DIRECTOR)
    assert (await store.view(key)).tokens == 3
