"""`/turn heal` (the Heal main action; its command sits with the other /turn commands in exts/turn/_cog.py).

Rules: `bot.rules.encounter.helping.heal_action` (Draw Steel, Combat, "Heal", "Dying and Death", "No
Recoveries"): the target spends a Recovery (a dying hero too; a Director creature regains a third of its
Stamina maximum), or makes one extra saving throw. Who may: the healer's player or the Director; the healer
is the creature taking its turn (when the caller controls it), else the caller's own creature.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.autocomplete import own_creature
from bot.client import DrawSteelBot
from bot.options import read_condition
from bot.play import Caller, play
from bot.replies import inert, send
from bot.rules.conditions import Condition
from bot.rules.encounter import Encounter, harm, saves
from bot.rules.encounter.helping import HealOutcome, HealUse, heal_action
from bot.rules.turns import current
from bot.store import Table
from bot.ui.combat import healing_reply, healing_summary, save_summary
from bot.ui.format import stamina_details
from exts.turn._replies import send_saves


async def do_heal(
    interaction: discord.Interaction[Any],
    bot: DrawSteelBot,
    target: str,
    use: HealUse,
    healer: str | None,
    condition: str | None,
    text: str | None,
) -> None:
    chosen: tuple[Condition | None, str] = (
        read_condition(condition, text) if condition is not None else (None, "")
    )
    dice = bot.dice

    def step(who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, HealOutcome]:
        helper = harm.target(encounter, _healer(encounter, who, healer))
        who.require_controls(helper.owner_id, helper.id, f"have {helper.id} use Heal")
        return heal_action(encounter, dice, helper.id, target, use, *chosen)

    played = await play(interaction, "turn.heal", step, _summary, details=_details)
    outcome = played.result
    if outcome.healing is not None:
        verb = f"spends a Recovery, helped by **{inert(outcome.healer)}**'s Heal"
        await send(interaction, content="🩹 " + healing_reply(outcome.healing, verb, played.hidden))
        return
    assert outcome.save is not None
    await send_saves(interaction, played, [outcome.save], bool(saves.open_failures(played.after)))


def _healer(encounter: Encounter, who: Caller, healer: str | None) -> str:
    """The healer named, else the caller's creature taking its turn, else the caller's own creature."""
    if healer is not None and healer.strip():
        return healer
    now = current(encounter.turns)
    up = encounter.turns.entry(now.entry) if now is not None else None
    mine = [
        c.id
        for c in encounter.creatures
        if up is not None and c.id in up.creature_ids and (who.director or c.owner_id == who.actor.user_id)
    ]
    return mine[0] if mine else own_creature(encounter, who.actor.user_id, option="healer")


def _summary(outcome: HealOutcome) -> str:
    if outcome.healing is not None:
        return healing_summary(outcome.healing, f"is healed by {outcome.healer} (1 Recovery)")
    assert outcome.save is not None
    return f"{outcome.healer} uses Heal: " + save_summary(outcome.save)


def _details(after: Encounter, outcome: HealOutcome) -> dict[str, Any]:
    return stamina_details(after, outcome.healing.target) if outcome.healing is not None else {}
