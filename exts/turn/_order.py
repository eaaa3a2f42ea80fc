"""Choices of turn order outside the picks: a creature's fast or slow turn (Shadow of the Demon Lord,
Combat, "Anatomy of a Round", "Fast Turns", "Slow Turns": `bot.rules.encounter.flow.choose_speed`; the side
that picks next is pinged) and, in the Agility turn order, two heroes swapping places at the start of a
round (the Director's: `bot.rules.turns.swap_agility`, Draw Steel, Combat, "Alternative Turn Order").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.play import Caller, play
from bot.replies import fail, inert, send
from bot.rules.encounter import Encounter
from bot.rules.encounter.flow import Flow, choose_speed
from bot.rules.turns import Speed, swap_agility, waiting
from bot.store import Table
from exts.tracker._objectives import due_view
from exts.turn._glue import entry_named, owner_of
from exts.turn._replies import reply_and_ping
from exts.turn._views import speed_text


async def do_speed(interaction: discord.Interaction[Any], name: str | None, speed: Speed) -> None:
    """Fast/slow turns: `name` (or the caller's only creature still to act) takes a fast or slow turn."""

    def step(who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Sped]:
        if name is None:
            mine = [e for e in encounter.turns.entries if e.id in waiting(encounter.turns)]
            mine = [e for e in mine if owner_of(encounter, e) == who.actor.user_id]
            if len(mine) != 1:
                fail("Name the creature: /turn speed combatant: <name> speed: fast or slow.")
            entry = mine[0]
        else:
            entry = entry_named(encounter, name)
        who.require_controls(owner_of(encounter, entry), entry.id, f"choose {entry.id}'s turn")
        flow = choose_speed(encounter, entry.id, speed)
        return flow.encounter, Sped(entry.id, flow)

    played = await play(
        interaction, "turn.speed", step, lambda sped: f"{sped.entry_id} takes a {speed.value} turn"
    )
    sped = played.result
    due = due_view(played.encounter_id, played.version, sped.flow.due)
    text = speed_text(sped.entry_id, speed, sped.flow)
    await reply_and_ping(interaction, played.caller, text, sped.flow.encounter, view=due)


@dataclass(frozen=True, slots=True)
class Sped:
    """A creature's fast or slow turn chosen: its entry and the flow."""

    entry_id: str
    flow: Flow


async def do_swap(interaction: discord.Interaction[Any], hero: str, other: str) -> None:
    """Agility turn order: at the start of a round the Director lets two heroes swap places."""

    def step(who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Swapped]:
        if not who.director:
            fail("Only the Director can let heroes swap places in the Agility order.")
        a, b = entry_named(encounter, hero), entry_named(encounter, other)
        return encounter.with_turns(swap_agility(encounter.turns, a.id, b.id).state), Swapped(a.id, b.id)

    played = await play(
        interaction, "turn.swap", step, lambda s: f"{s.hero} and {s.other} swap places in the turn order"
    )
    hero_id, other_id = played.result.hero, played.result.other
    await send(
        interaction,
        content=f"🔁 **{inert(hero_id)}** and **{inert(other_id)}** swap places in the turn order.",
    )


@dataclass(frozen=True, slots=True)
class Swapped:
    """Two heroes who swapped places in the Agility order."""

    hero: str
    other: str
