"""The baseline actions that change later rolls, behind `/turn defend` and `/turn aid` (the commands live in
`exts.turn._cog`): Defend (a main action) and Aid Attack (a maneuver), through `bot.rules.encounter.baseline`
(draw-steel-combat.txt "Defend", "Aid Attack"); replies from `bot.ui.combat`. Who may: a player for the
creatures they control, the Director for any (`bot.permissions.require_controls`).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.autocomplete import own_creature
from bot.client import DrawSteelBot
from bot.permissions import require_controls
from bot.play import Caller, InTime, caller_of, commit, encounter_of, put_encounter
from bot.replies import send
from bot.rules.encounter import Encounter, baseline
from bot.rules.turns import current
from bot.store import Change, Table
from bot.ui.combat import aid_reply, defend_reply
from exts.turn._views import creatures_of


def acting_creature(encounter: Encounter, who: Caller, name: str | None) -> str:
    """The creature named, or (none named) the one whose turn it is when the caller controls it, or the
    caller's only creature."""
    if name is not None and name.strip():
        return encounter.find(name).id
    cur = current(encounter.turns)
    entry = encounter.turns.entry(cur.entry) if cur is not None else None
    ids = creatures_of(encounter, entry) if entry is not None else ()
    if ids and (who.director or encounter.creature(ids[0]).owner_id == who.actor.user_id):
        return ids[0]
    return own_creature(encounter, who.actor.user_id, option="combatant")


async def do_defend(interaction: discord.Interaction[Any], bot: DrawSteelBot, name: str | None) -> None:
    """The Defend main action (`bot.rules.encounter.baseline.defend`), for a creature the caller controls."""
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))

    def change(table: Table) -> Change[str]:
        encounter = encounter_of(table)
        creature = encounter.creature(acting_creature(encounter, who, name))
        require_controls(
            who.actor,
            creature.owner_id,
            who.director,
            creature=creature.id,
            action=f"have {creature.id} defend",
        )
        put_encounter(table, baseline.defend(encounter, creature.id))
        return Change(f"{creature.id} defends", creature.id)

    committed = await in_time.run(commit(interaction, "turn.defend", change))
    await send(interaction, content=defend_reply(committed.value))


async def do_aid(
    interaction: discord.Interaction[Any], bot: DrawSteelBot, target: str, name: str | None
) -> None:
    """The Aid Attack maneuver (`bot.rules.encounter.baseline.aid`), for a creature the caller controls."""
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))

    def change(table: Table) -> Change[tuple[str, str]]:
        encounter = encounter_of(table)
        creature = encounter.creature(acting_creature(encounter, who, name))
        require_controls(
            who.actor, creature.owner_id, who.director, creature=creature.id, action=f"have {creature.id} aid"
        )
        enemy = encounter.find(target).id
        put_encounter(table, baseline.aid(encounter, creature.id, enemy))
        return Change(f"{creature.id} aids the attack on {enemy}", (creature.id, enemy))

    committed = await in_time.run(commit(interaction, "turn.aid", change))
    await send(interaction, content=aid_reply(*committed.value))
