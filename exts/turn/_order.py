"""Choices of turn order outside the picks: a creature's fast or slow turn (fast-slow-turns-combat.md "Anatomy
of a Round", "Fast Turns", "Slow Turns": `bot.rules.encounter.flow.choose_speed`; the side that picks next is
pinged) and, in the Agility turn order, two heroes swapping places at the start of a round (the Director's:
`bot.rules.turns.swap_agility`, draw-steel-turn-order.txt "Alternative Turn Order").
"""

from __future__ import annotations

from typing import Any

import discord

from bot.client import DrawSteelBot
from bot.permissions import require_controls
from bot.play import InTime, caller_of, commit, encounter_of, put_encounter
from bot.replies import fail, inert, send
from bot.rules.encounter.flow import Flow, choose_speed
from bot.rules.turns import Speed, swap_agility, waiting
from bot.store import Change, Table
from exts.tracker._objectives import due_view
from exts.turn._glue import entry_named, owner_of
from exts.turn._replies import reply_and_ping
from exts.turn._views import speed_text


async def do_speed(
    interaction: discord.Interaction[Any], bot: DrawSteelBot, name: str | None, speed: Speed
) -> None:
    """Fast/slow turns: `name` (or the caller's only creature still to act) takes a fast or slow turn."""
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))

    def change(table: Table) -> Change[tuple[str, Flow]]:
        encounter = encounter_of(table)
        if name is None:
            mine = [e for e in encounter.turns.entries if e.id in waiting(encounter.turns)]
            mine = [e for e in mine if owner_of(encounter, e) == who.actor.user_id]
            if len(mine) != 1:
                fail("Name the creature: /turn speed combatant: <name> speed: fast or slow.")
            entry = mine[0]
        else:
            entry = entry_named(encounter, name)
        require_controls(
            who.actor,
            owner_of(encounter, entry),
            who.director,
            creature=entry.id,
            action=f"choose {entry.id}'s turn",
        )
        flow = choose_speed(encounter, entry.id, speed)
        put_encounter(table, flow.encounter)
        return Change(f"{entry.id} takes a {speed.value} turn", (entry.id, flow))

    committed = await in_time.run(commit(interaction, "turn.speed", change))
    entry_id, flow = committed.value
    due = due_view(committed.encounter_id, committed.version, flow.due)
    await reply_and_ping(interaction, who, speed_text(entry_id, speed, flow), flow.encounter, view=due)


async def do_swap(interaction: discord.Interaction[Any], bot: DrawSteelBot, hero: str, other: str) -> None:
    """Agility turn order: at the start of a round the Director lets two heroes swap places."""
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))
    if not who.director:
        fail("Only the Director can let heroes swap places in the Agility order.")

    def change(table: Table) -> Change[tuple[str, str]]:
        encounter = encounter_of(table)
        a, b = entry_named(encounter, hero), entry_named(encounter, other)
        put_encounter(table, encounter.with_turns(swap_agility(encounter.turns, a.id, b.id).state))
        return Change(f"{a.id} and {b.id} swap places in the turn order", (a.id, b.id))

    committed = await in_time.run(commit(interaction, "turn.swap", change))
    a, b = committed.value
    await send(interaction, content=f"🔁 **{inert(a)}** and **{inert(b)}** swap places in the turn order.")
