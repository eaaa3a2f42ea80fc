"""Undo checks and acts in one transaction: the permission is judged by the store
on the very change it undoes, for /encounter undo and the tracker's Undo button."""

from __future__ import annotations

from typing import Any

import pytest

from bot.play import encounter_of, put_encounter
from bot.rules.encounter.malice import gain_malice
from bot.store import Change
from bot.store import Table as StoreTable
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


def award(t: StoreTable) -> Change[None]:
    """A Director's change of the encounter (an award alone is the campaign's: no undo reaches it)."""
    put_encounter(t, gain_malice(encounter_of(t), 5))
    return Change("The Director gains 5 Malice", None)


async def malice(table: Table) -> int:
    return (await kit.stored(table)).malice.value


def race_before_undo(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Director's change lands just as the next undo starts (after any check the command made)."""
    store = table.store
    real_undo = store.undo

    async def racing(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(store, "undo", real_undo)
        await store.mutate(kit.key(table), table.director.id, "malice.gain", award)
        return await real_undo(*args, **kwargs)

    monkeypatch.setattr(store, "undo", racing)


async def test_a_player_cannot_undo_the_directors_change_in_a_race(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Today /encounter undo checks the newest event's author, then Store.undo picks its own target, so a
    player can undo the Director's change in a race." """
    await kit.ready(table)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    before = await malice(table)
    race_before_undo(table, monkeypatch)
    assert "Only the Director or the member" in kit.refused(
        await table.alice.slash(table.channel, "encounter undo")
    )
    assert await malice(table) == before + 5  # the Director's change stands
    undone = kit.ok(await table.director.slash(table.channel, "encounter undo"))
    assert "Undone: The Director gains" in undone
    assert "Undone: Ash starts their turn" in kit.ok(await table.alice.slash(table.channel, "encounter undo"))


async def test_the_tracker_undo_button_judges_the_change_it_undoes(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "The same goes for the tracker's Undo button." """
    await kit.ready(table)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    tracker = kit.tracker(table.channel)
    undo_id = next(
        c.custom_id
        for row in tracker.components
        for c in getattr(row, "children", [])
        if (getattr(c, "custom_id", "") or "").startswith("enc:undo:")
    )
    before = await malice(table)
    race_before_undo(table, monkeypatch)
    result = await table.alice.click(tracker, custom_id=undo_id)
    assert await malice(table) == before + 5  # the Director's change stands
    stored = await kit.stored(table)
    assert stored.turns.turns != ()  # and Ash's turn was not undone either: the tracker was out of date
    message = result.response or (result.followups[0] if result.followups else None)
    assert message is not None and message.ephemeral
