"""What the turn commands, the tracker's buttons and the encounter exts share: a press checked against what
it was made for (a stale one answered with a note, then a fresh tracker below it), a turn entry looked up by
name and who controls it, the roster sheets of the encounter's heroes, and the autocompletes of who may act
(`bot.rules.turns`: `eligible`, `waiting`; a player is offered only the creatures they control,
`bot.permissions`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.client import DrawSteelBot
from bot.play import Caller, InTime, caller_of, channel_key, encounter_of, sheet_of
from bot.replies import UserError, fail, send
from bot.rules.encounter import Encounter, fold
from bot.rules.hero import HeroSheet
from bot.rules.turns import Entry, TurnState, eligible, waiting
from bot.store import Table
from exts.tracker._controls import moment, press_moment
from exts.tracker._service import tracker_for
from exts.turn._views import creatures_of

CHOICES_MAX = 25


class StaleTracker(UserError):
    """A press made for a moment of the encounter that has passed (another turn, another pick)."""


@dataclass(frozen=True, slots=True)
class Expect:
    """What a press was made for: the encounter and channel version its control showed and, on the controls
    that carry it, the moment (`exts.tracker._controls.moment`) its action depends on."""

    encounter_id: int
    version: int
    moment: str | None = None


def expect_of(interaction: discord.Interaction[Any], eid: int, ver: int) -> Expect:
    """The press's `Expect`, its moment read from the control's custom id."""
    return Expect(eid, ver, press_moment(interaction))


def check_expected(
    table: Table, expect: Expect | None, action: str = "", encounter: Encounter | None = None
) -> None:
    """Refuse a press on a control of another encounter, or made for a moment that has passed: for `action`
    (`end`, `act`, `save`) the moment it depends on, whatever else changed since (a strike in the same turn
    leaves End turn good); without one (Undo, a control from before moments), any change since. `encounter`:
    the table's, when the caller has it already."""
    if expect is None:
        return
    doc = table.encounter
    if doc is None or not doc.active or doc.id != expect.encounter_id:
        fail("That encounter is over: start a new one with /encounter start.")
    if action and expect.moment is not None:
        if moment(encounter or encounter_of(table), action) != expect.moment:
            raise StaleTracker(STALE)
    elif table.version != expect.version:
        raise StaleTracker(STALE)


STALE = "That tracker was out of date: the fresh one is below this note, try again there."


async def pressed(interaction: discord.Interaction[Any], bot: DrawSteelBot, work: Awaitable[None]) -> None:
    """Run a tracker press (its operation checks what the press was made for inside its change:
    `check_expected`); a stale press gets the short note first, then a fresh tracker below it."""
    try:
        await work
    except StaleTracker as stale:
        await send(interaction, content=str(stale), ephemeral=True)
        await InTime(interaction).run(repost_tracker(interaction, bot))


async def repost_tracker(interaction: discord.Interaction[Any], bot: DrawSteelBot) -> int | None:
    """Post this channel's tracker anew at the bottom (the tracker service's `repost`)."""
    return await tracker_for(bot).repost(channel_key(interaction))


def entry_named(encounter: Encounter, name: str) -> Entry:
    """The turn-engine entry called `name` (a creature, or a minion squad by its name or a minion's)."""
    key = fold(name)
    for entry in encounter.turns.entries:
        if fold(entry.id) == key:
            return entry
    return encounter.entry_of(encounter.find(name).id)


def owner_of(encounter: Encounter, entry: Entry) -> int | None:
    """Who controls an entry: its creature's, or a squad's first minion's, player (None: the Director)."""
    ids = creatures_of(encounter, entry)
    return encounter.creature(ids[0]).owner_id if ids else None


def controlled(encounter: Encounter, entry: Entry, who: Caller) -> bool:
    return who.director or (owner_of(encounter, entry) == who.actor.user_id)


def roster_sheets(table: Table, encounter: Encounter) -> dict[str, HeroSheet]:
    """The roster sheets of the encounter's roster heroes, by creature id (their heroic resource's name and
    per-turn gain live there)."""
    return {
        creature_id: sheet_of(table.heroes[hero_id])
        for creature_id, hero_id in encounter.roster.items()
        if hero_id in table.heroes
    }


async def _offer(
    interaction: discord.Interaction[Any], current_text: str, pool: Callable[[TurnState], tuple[str, ...]]
) -> list[app_commands.Choice[str]]:
    """The entries of `pool` the caller controls (the Director: all) whose names hold the text typed."""
    try:
        bot = interaction.client
        who = await caller_of(interaction, bot)
        encounter = encounter_of(await bot.store.view(channel_key(interaction), shared=True))
        key = fold(current_text)
        ids = pool(encounter.turns)
        out = []
        for entry in encounter.turns.entries:
            if entry.id in ids and controlled(encounter, entry, who) and key in fold(entry.id):
                out.append(app_commands.Choice(name=entry.id[:100], value=entry.id[:100]))
        return out[:CHOICES_MAX]
    except Exception:  # an autocomplete must never fail: offer nothing
        return []


async def actable(interaction: discord.Interaction[Any], current_text: str) -> list[app_commands.Choice[str]]:
    """Who may act now (turns.eligible), only the caller's own creatures unless they are the Director."""
    return await _offer(interaction, current_text, eligible)


async def still_to_act(
    interaction: discord.Interaction[Any], current_text: str
) -> list[app_commands.Choice[str]]:
    """Who may still act this round (turns.waiting), the caller's own creatures unless the Director."""
    return await _offer(interaction, current_text, waiting)
