"""The hero token that saves a hero: what the "Spend 2 hero tokens: regain N first" button does.

A damage reply (and the tracker) carries the button when the damage made a hero dying or dead and the party
has 2 hero tokens (Draw Steel, The Basics, "Spending Hero Tokens"). The damage commands make the offers
(`bot.rules.encounter.rescue.offer_rescues`) and attach the button (`exts.tracker._controls.rescue_view`).
This module has no command: it registers what the button does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.client import DrawSteelBot
from bot.hero_tokens import spend_benefit
from bot.permissions import require
from bot.play import Caller, encounter_of, play, put_encounter
from bot.replies import inert, send
from bot.rules.encounter import Encounter
from bot.rules.encounter.rescue import OVER, RescueError, RescueResult, find_rescue, rescue
from bot.rules.resources import TokenBenefit
from bot.store import Table
from bot.ui.combat import rescue_reply, rescue_summary
from bot.ui.format import stamina_details
from exts.tracker._controls import offer_key, set_handler


@dataclass(frozen=True, slots=True)
class Rescued:
    """A rescue: the hero, the regain and damage again, and the hero tokens left."""

    hero_id: str
    result: RescueResult
    pool: int


async def on_rescue(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    """The rescue button: spend 2 hero tokens, regain the recovery value as if before that damage.

    The offer stays open whatever else changes meanwhile (`bot.rules.encounter.rescue.offer_rescues`), so
    the button names the offer (`offer_key`), not the channel version. A press, by the hero's player (or the
    Director), is one event: the tokens spent
    (`bot.hero_tokens.spend_benefit`, one benefit per turn) and the regain applied as if before that damage
    (`bot.rules.encounter.rescue.rescue`)."""
    key = offer_key(arg)

    def step(who: Caller, encounter: Encounter, table: Table) -> tuple[Encounter, Rescued]:
        doc = table.encounter
        if doc is None or not doc.active or doc.id != eid:
            raise RescueError(OVER)
        offer = find_rescue(encounter, *key)
        hero = encounter.creature(offer.creature_id)
        require(
            "enc:rescue",
            who.standing(owner_id=hero.owner_id),
            director_role_id=who.settings.director_role_id,
            action=f"spend hero tokens for {inert(hero.id)}",
            whose=hero.id,
        )
        updated, result = rescue(encounter, offer)
        put_encounter(table, updated)
        pool = spend_benefit(table, hero.id, TokenBenefit.STAMINA).pool
        return encounter_of(table), Rescued(hero.id, result, pool)

    def details(after: Encounter, done: Rescued) -> dict[str, Any]:
        return {"hero": done.hero_id, "use": "regain", **stamina_details(after, done.result.creature_id)}

    played = await play(
        interaction, "tokens.rescue", step, lambda done: rescue_summary(done.result), details=details
    )
    done = played.result
    await send(interaction, content=rescue_reply(done.result, done.pool, played.hidden))


async def setup(bot: DrawSteelBot) -> None:
    set_handler("rescue", on_rescue)
