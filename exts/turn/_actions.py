"""The baseline actions that change later rolls, behind `/turn defend` and `/turn aid` (the commands live in
`exts.turn._cog`): Defend (a main action) and Aid Attack (a maneuver), through `bot.rules.encounter.baseline`
(Draw Steel, Combat, "Defend", "Aid Attack"); replies from `bot.ui.combat`. Who may: a player for the
creatures they control, the Director for any (`bot.permissions.require_controls`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.autocomplete import own_creature
from bot.play import Caller, play
from bot.replies import send
from bot.rules.encounter import Encounter, baseline
from bot.rules.turns import current
from bot.store import Table
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


async def do_defend(interaction: discord.Interaction[Any], name: str | None) -> None:
    """The Defend main action (`bot.rules.encounter.baseline.defend`), for a creature the caller controls."""

    def step(who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, str]:
        creature_id = _acting(encounter, who, name, "have {name} defend")
        return baseline.defend(encounter, creature_id), creature_id

    played = await play(interaction, "turn.defend", step, lambda creature_id: f"{creature_id} defends")
    await send(interaction, content=defend_reply(played.result))


async def do_aid(interaction: discord.Interaction[Any], target: str, name: str | None) -> None:
    """The Aid Attack maneuver (`bot.rules.encounter.baseline.aid`), for a creature the caller controls."""

    def step(who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Aided]:
        creature_id = _acting(encounter, who, name, "have {name} aid")
        enemy = encounter.find(target).id
        return baseline.aid(encounter, creature_id, enemy), Aided(creature_id, enemy)

    played = await play(
        interaction, "turn.aid", step, lambda aided: f"{aided.helper} aids the attack on {aided.enemy}"
    )
    await send(interaction, content=aid_reply(played.result.helper, played.result.enemy))


@dataclass(frozen=True, slots=True)
class Aided:
    """An Aid Attack: the creature aiding and the enemy attacked."""

    helper: str
    enemy: str


def _acting(encounter: Encounter, who: Caller, name: str | None, action: str) -> str:
    """`acting_creature`, once the caller may `action` it (its player or the Director)."""
    creature = encounter.creature(acting_creature(encounter, who, name))
    who.require_controls(creature.owner_id, creature.id, action.format(name=creature.id))
    return creature.id
