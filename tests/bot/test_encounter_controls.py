"""The pure parts of play-by-post and the tracker controls: who a pick ping names (exts/turn/_pings.py), and
the
tracker's buttons and select (exts/tracker/_controls.py) within Discord's limits."""

from __future__ import annotations

import re

import discord
import pytest

from bot.rules.dice import FixedDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, new_encounter_state
from bot.rules.encounter.flow import act, begin, end_turn
from bot.rules.turns import Controller, Mode, Side
from exts.tracker._controls import BUTTON_TEMPLATE, SELECT_TEMPLATE, moment, tracker_view
from exts.turn._pings import chooser_ping, pick_ping

ALICE, BOB, DIRECTOR, ROLE = 11, 22, 99, 500


def party(mode: Mode = Mode.DRAW_STEEL, count: int = 2) -> Encounter:
    sides = (Side("red", Controller.PLAYERS, "Red"), Side("blue", Controller.PLAYERS, "Blue"))
    enc = new_encounter_state(mode, sides) if mode is Mode.TEAMS else new_encounter_state(mode)
    one, two = ("red", "blue") if mode is Mode.TEAMS else ("heroes", "director")
    for spec in (
        NewCreatures("Ash", 30, one, is_hero=True, owner_id=ALICE),
        NewCreatures("Bree", 24, one, is_hero=True, owner_id=BOB),
        NewCreatures("Goblin", 10, two, count=count),
    ):
        enc, _ = add_creatures(enc, spec)
    return enc


@pytest.mark.parametrize(
    ("first", "role", "users", "roles"),
    [
        ("heroes", None, (ALICE, BOB), ()),
        ("heroes", ROLE, (ALICE, BOB), ()),
        ("director", None, (DIRECTOR,), ()),
        ("director", ROLE, (), (ROLE,)),
    ],
)
def test_the_picking_side_is_pinged_exactly(
    first: str, role: int | None, users: tuple[int, ...], roles: tuple[int, ...]
) -> None:
    enc = begin(party(), FixedDice([]), first=first).encounter
    ping = pick_ping(enc, director_id=DIRECTOR, director_role_id=role)
    assert ping is not None
    assert (ping.user_ids, ping.role_ids) == (users, roles)
    allowed = ping.allowed_mentions.to_dict()
    assert allowed["parse"] == [] and sorted(allowed.get("users", [])) == sorted(users)
    assert sorted(allowed.get("roles", [])) == sorted(roles)


def test_only_players_who_may_still_act_are_pinged_and_nobody_mid_turn() -> None:
    enc = begin(party(), FixedDice([]), first="heroes").encounter
    enc = act(enc, "Ash", Controller.PLAYERS, FixedDice([])).encounter
    assert pick_ping(enc, director_id=DIRECTOR, director_role_id=None) is None  # a turn is running
    enc = end_turn(enc).encounter
    enc = end_turn(act(enc, "Goblin 1", Controller.DIRECTOR, FixedDice([])).encounter).encounter
    ping = pick_ping(enc, director_id=DIRECTOR, director_role_id=None)
    assert ping is not None and ping.user_ids == (BOB,)


def test_teams_ping_the_owners_and_the_director_for_unowned_creatures() -> None:
    enc = begin(party(Mode.TEAMS), FixedDice([]), team_order=("Blue",)).encounter
    ping = pick_ping(enc, director_id=DIRECTOR, director_role_id=None)
    assert ping is not None and ping.user_ids == (DIRECTOR,) and "team Blue" in ping.content


def test_the_chooser_of_the_first_side_is_pinged() -> None:
    enc = begin(party(), FixedDice([8])).encounter
    players = chooser_ping(enc, Controller.PLAYERS, director_id=DIRECTOR, director_role_id=ROLE)
    assert players is not None and players.user_ids == (ALICE, BOB) and players.role_ids == ()
    director = chooser_ping(enc, Controller.DIRECTOR, director_id=DIRECTOR, director_role_id=ROLE)
    assert director is not None and director.user_ids == () and director.role_ids == (ROLE,)


def _ids(view: discord.ui.View) -> list[str]:
    return [
        item["custom_id"] for row in view.to_components() for item in row["components"] if "custom_id" in item
    ]


def test_tracker_controls_carry_the_encounter_and_version_within_limits() -> None:
    enc = begin(party(count=38), FixedDice([]), first="director").encounter
    view = tracker_view(123456789012345678, 987654, enc)
    ids = _ids(view)
    acts, saving = moment(enc, "act"), moment(enc, "save")
    assert ids[:5] == [
        f"enc:act:123456789012345678:987654~{acts}",
        f"enc:end:123456789012345678:987654~{moment(enc, 'end')}",
        "enc:undo:123456789012345678:987654",
        f"enc:save:123456789012345678:987654~{saving}",
        "enc:me:123456789012345678:987654",
    ]
    assert ids[5] == f"enc:pick:123456789012345678:987654~{acts}"
    assert all(len(i) <= 100 for i in ids)
    for custom_id in ids[:5]:
        assert re.fullmatch(BUTTON_TEMPLATE, custom_id)
    assert re.fullmatch(SELECT_TEMPLATE, ids[5])
    [select] = [i for row in view.to_components() for i in row["components"] if i["type"] == 3]
    assert len(select["options"]) == 25  # Discord's limit, though 38 goblins may act


def test_no_select_while_a_turn_runs_or_before_the_fight() -> None:
    enc = party()
    assert not any(i.startswith("enc:pick") for i in _ids(tracker_view(1, 1, enc)))
    running = act(
        begin(enc, FixedDice([]), first="heroes").encounter, "Ash", Controller.PLAYERS, FixedDice([])
    )
    assert not any(i.startswith("enc:pick") for i in _ids(tracker_view(1, 2, running.encounter)))
