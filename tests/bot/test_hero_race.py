"""`/hero delete`, a rename and a re-import against an encounter elsewhere in the campaign, through SimCord:
whether the hero is fighting elsewhere is decided in the store's write transaction, not only when the command
looked. Each test lets the command's early look pass, then (as another member's command would) has the
thread's encounter bring the hero in before the command's change commits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from simcord.env import Env

from bot.play import encounter_of, put_encounter, sheet_of
from bot.rules.encounter import add_hero
from bot.store import Change, ChannelKey, Hero, Store
from bot.store import Table as StoreTable
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table
from tests.bot.files_kit import CdnServer, fixture, refusal


async def roster(table: Table) -> dict[str, Hero]:
    stored = await table.store.view(ChannelKey(table.guild.id, table.channel.id))
    return {h.name: h for h in stored.heroes.values()}


def bring_in_first(monkeypatch: pytest.MonkeyPatch, table: Table, kind: str, name: str) -> list[str]:
    """Before the next `kind` change reaches the store, the thread's encounter brings in the roster hero
    `name` (committed first, as a command there would). Returns the kinds it ran before (for the test)."""
    store: Store = table.store
    real = store.mutate
    ran: list[str] = []
    thread = ChannelKey(table.guild.id, table.thread.id, table.channel.id, "Goblin ambush")

    def bring(view: StoreTable) -> Change[None]:
        hero = view.hero_named(name)
        assert hero is not None
        encounter = encounter_of(view)
        updated, _ = add_hero(encounter, hero.id, hero.owner_id, hero.name, sheet_of(hero), "heroes")
        put_encounter(view, updated)
        return Change(f"{name} joined the encounter", None)

    async def mutate(key: ChannelKey, user_id: int, got: str, change: Callable[..., Any], **kw: Any) -> Any:
        if got == kind and not ran:
            ran.append(got)
            await real(thread, table.director.id, "encounter.hero", bring, shared=True)
        return await real(key, user_id, got, change, **kw)

    monkeypatch.setattr(store, "mutate", mutate)
    return ran


async def ash_and_a_fight_in_the_thread(table: Table) -> None:
    await table.configure_director_role()
    kit.ok(await table.alice.slash(table.channel, "hero create", name="Ash", stamina=30, recoveries=8))
    await kit.start(table, channel=table.thread)


async def test_a_delete_confirmed_while_a_thread_brings_the_hero_in_is_refused(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ash_and_a_fight_in_the_thread(table)
    asked = await table.alice.slash(table.channel, "hero delete", hero="Ash")  # not fighting yet: asks
    assert asked.response is not None and "for good" in asked.response.content
    ran = bring_in_first(monkeypatch, table, "hero.delete", "Ash")
    done = await table.alice.click(asked.response.message, label="Delete Ash")
    assert ran == ["hero.delete"]
    text = kit.refused(done)
    assert f"is in the encounter in <#{table.thread.id}>" in text
    assert "Ash" in await roster(table)
    assert set((await kit.stored(table, table.thread)).roster) == {"Ash"}


async def test_a_rename_while_a_thread_brings_the_hero_in_is_refused(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ash_and_a_fight_in_the_thread(table)
    bring_in_first(monkeypatch, table, "hero.edit", "Ash")
    text = kit.refused(await table.alice.slash(table.channel, "hero edit", hero="Ash", new_name="Ashen"))
    assert f"<#{table.thread.id}>" in text
    assert "Ash" in await roster(table)


async def test_a_re_import_while_a_thread_brings_the_hero_in_is_refused(
    table: Table, cdn_server: CdnServer, simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    await table.configure_director_role()
    kit.ok(await table.alice.slash(table.channel, "hero import", file=fixture("Brannoc.ds-hero")))
    kit.ok(await table.alice.slash(table.channel, "hero edit", hero="Brannoc", level=2))
    before = (await roster(table))["Brannoc"].data
    await kit.start(table, channel=table.thread)
    bring_in_first(monkeypatch, table, "hero.import", "Brannoc")
    text = refusal(
        simcord_env, await table.alice.slash(table.channel, "hero import", file=fixture("Brannoc.ds-hero"))
    )
    assert f"is in the encounter in <#{table.thread.id}>" in text
    assert (await roster(table))["Brannoc"].data == before


async def test_the_thread_bringing_a_hero_in_claims_the_campaigns_roster(table: Table) -> None:
    """`/encounter hero` in a thread relies on the roster it read: its write compares-and-sets the campaign
    home's version, so a delete committed meanwhile by another process makes it run again (and refuse)."""
    kit.ok(await table.alice.slash(table.channel, "hero create", name="Ash", stamina=30, recoveries=8))
    await kit.start(table, channel=table.thread)
    home = ChannelKey(table.guild.id, table.channel.id)
    before = (await table.store.view(home)).version
    kit.ok(await table.alice.slash(table.thread, "encounter hero", name="Ash"))
    assert (await table.store.view(home)).version == before + 1
