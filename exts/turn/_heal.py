"""`/turn heal` (the Heal main action; its command sits with the other /turn commands in exts/turn/_cog.py).

Rules: `bot.rules.encounter.helping.heal_action` (draw-steel-combat.txt "Heal", "Dying and Death", "No
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
from bot.permissions import require_controls
from bot.play import InTime, caller_of, commit, encounter_of, put_encounter
from bot.replies import inert, send
from bot.rules.conditions import Condition
from bot.rules.encounter import harm, saves
from bot.rules.encounter.helping import HealOutcome, HealUse, heal_action
from bot.rules.turns import current
from bot.store import Change, Table
from bot.ui.combat import healing_reply, healing_summary, save_summary
from bot.ui.format import hidden_stamina, stamina_details
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
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))
    dice = bot.dice

    def change(table: Table) -> Change[tuple[HealOutcome, bool, frozenset[str]]]:
        encounter = encounter_of(table)
        name = healer if healer is not None and healer.strip() else None
        if name is None:
            now = current(encounter.turns)
            up = encounter.turns.entry(now.entry) if now is not None else None
            mine = [
                c.id
                for c in encounter.creatures
                if up is not None
                and c.id in up.creature_ids
                and (who.director or c.owner_id == who.actor.user_id)
            ]
            name = mine[0] if mine else own_creature(encounter, who.actor.user_id, option="healer")
        helper = harm.target(encounter, name)
        require_controls(
            who.actor, helper.owner_id, who.director, creature=helper.id, action=f"have {helper.id} use Heal"
        )
        updated, outcome = heal_action(encounter, dice, helper.id, target, use, *chosen)
        put_encounter(table, updated)
        if outcome.healing is not None:
            summary = healing_summary(outcome.healing, f"is healed by {outcome.healer} (1 Recovery)")
            details = stamina_details(updated, outcome.healing.target)
        else:
            assert outcome.save is not None
            summary = f"{outcome.healer} uses Heal: " + save_summary(outcome.save)
            details = {}
        hidden = hidden_stamina(updated, who.settings.show_monster_stamina)
        return Change(summary, (outcome, bool(saves.open_failures(updated)), hidden), details)

    committed = await in_time.run(commit(interaction, "turn.heal", change))
    outcome, failed, hidden = committed.value
    if outcome.healing is not None:
        verb = f"spends a Recovery, helped by **{inert(outcome.healer)}**'s Heal"
        await send(interaction, content="🩹 " + healing_reply(outcome.healing, verb, hidden))
        return
    assert outcome.save is not None
    await send_saves(interaction, committed, [outcome.save], failed)
