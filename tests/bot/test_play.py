"""bot.play's encounter aggregate: `encounter_of` / `active_encounter` / `put_encounter` and their memo of
decoded states, and `sheet_of`'s of roster sheets (a hit must be exactly what decoding returns; anything else
decodes anew)."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from bot.play import active_encounter, encounter_of, put_encounter, sheet_of
from bot.rules import codec
from bot.rules.encounter import Encounter
from bot.rules.hero import HeroSheet, new_sheet
from bot.store import ChannelKey, Hero, Table
from bot.store.errors import NoEncounter
from tests.wire.harness import encounter_state

KEY = ChannelKey(1_000_000_000_000_001, 1_000_000_000_000_002)
OTHER = ChannelKey(1_000_000_000_000_001, 1_000_000_000_000_003)
#: A channel no other test reads: its memo starts empty whichever tests ran before in this process.
UNREAD = ChannelKey(1_000_000_000_000_001, 1_000_000_000_000_004)


def table_with(state: dict[str, Any] | None, key: ChannelKey = KEY, *, active: bool = True) -> Table:
    encounter = None
    if state is not None:
        encounter = {"name": "Ambush", "director_id": 7, "state": state, "active": active}
    return Table.from_snapshot(key, 3, {"tokens": 0, "heroes": {}, "encounter": encounter}, 1)


def test_an_equal_state_is_served_from_the_memo() -> None:
    state = encounter_state(42)
    first = encounter_of(table_with(copy.deepcopy(state)))
    again = encounter_of(table_with(copy.deepcopy(state)))  # an equal copy, as every store read gives
    assert again is first
    assert again == codec.load(Encounter, state)


def test_a_changed_state_is_decoded_anew() -> None:
    state = encounter_state(42)
    first = encounter_of(table_with(copy.deepcopy(state)))
    changed = copy.deepcopy(state)
    changed["creatures"][0]["vitals"]["stamina"] -= 5
    second = encounter_of(table_with(changed))
    assert second is not first
    assert second == codec.load(Encounter, changed)
    assert second.creatures[0].vitals.stamina == first.creatures[0].vitals.stamina - 5


def test_put_encounter_writes_the_state_and_serves_it_back() -> None:
    table = table_with(copy.deepcopy(encounter_state(42)))
    moved = dataclasses.replace(encounter_of(table), tokens_used=("Ash",))
    put_encounter(table, moved)
    assert table.require_encounter().state == codec.to_data(moved)
    assert encounter_of(table) is moved
    # a fresh read of what was committed (an equal copy) is the same value, not decoded again
    assert encounter_of(table_with(copy.deepcopy(codec.to_data(moved)))) is moved


def test_channels_do_not_share_entries() -> None:
    state = encounter_state(42)
    here = encounter_of(table_with(copy.deepcopy(state)))
    there = encounter_of(table_with(copy.deepcopy(state), OTHER))
    assert there == here
    assert encounter_of(table_with(copy.deepcopy(state))) is here


@pytest.mark.parametrize(("state", "active"), [(None, True), (encounter_state(42), False)])
def test_no_active_encounter(state: dict[str, Any] | None, active: bool) -> None:
    table = table_with(copy.deepcopy(state) if state is not None else None, active=active)
    assert active_encounter(table) is None
    if state is None:
        with pytest.raises(NoEncounter):
            encounter_of(table)


def test_the_state_before_the_newest_still_hits() -> None:
    """A tracker refresh may read the committed state while a command is putting the next one. (On a channel
    of its own: where an earlier test left this state second in the memo, the put pushed it out.)"""
    older = encounter_of(table_with(copy.deepcopy(encounter_state(42)), UNREAD))
    table = table_with(copy.deepcopy(encounter_state(42)), UNREAD)
    newer = dataclasses.replace(encounter_of(table), tokens_used=("Ash",))
    put_encounter(table, newer)
    assert encounter_of(table_with(copy.deepcopy(encounter_state(42)), UNREAD)) is older
    assert encounter_of(table_with(copy.deepcopy(codec.to_data(newer)), UNREAD)) is newer


def test_a_sheet_is_decoded_once_and_anew_after_any_edit() -> None:
    hero = Hero("h1", 7, "Vex", codec.to_data(new_sheet(30, 8)))
    first = sheet_of(hero)
    assert first == codec.load(HeroSheet, hero.data)
    assert sheet_of(Hero("h2", 8, "Ash", copy.deepcopy(hero.data))) is first  # equal data, same value
    hero.data["vitals"]["stamina"] = 12  # even an edit in place of the very dict decoded before
    edited = sheet_of(hero)
    assert edited.vitals.stamina == 12 and edited == codec.load(HeroSheet, hero.data)
