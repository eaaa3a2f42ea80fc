"""Replies to changes that move the turns on: the side that picks next pinged in the same message
(`bot.ui.pings`), and the rounds a change outside a turn started by itself.

A round ends when nobody is left to act, also outside a turn: a free strike, `/stamina damage`, `/strike`
or `/encounter remove` that kills, knocks out or removes the last creature still to act
(draw-steel-turn-order.txt "End of Round": "Once all creatures on both sides of a battle have acted, the
combat round ends and a new combat round begins"; `bot.rules.encounter.rounds.carry_on`). Such a reply
says so as a turn's end does: "Round N begins" with its Malice, the objectives whose counter hit 0 with the
Director's buttons, who picks now, and the side that picks is pinged.

Public API: `reply_and_ping`, `reply_with_rounds`.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.play import Caller
from bot.replies import send
from bot.rules.encounter import Encounter
from bot.rules.encounter.model import RoundNews
from bot.store.table import Committed
from bot.ui import pings
from bot.ui.encounter import news_lines
from bot.ui.objectives import due_view


async def reply_and_ping(
    interaction: discord.Interaction[Any],
    who: Caller,
    content: str,
    encounter: Encounter,
    *,
    view: discord.ui.View | None = None,
) -> None:
    """Answer with `content` (and `view`), pinging the side that picks next in the same message
    (`bot.ui.pings.reply`): not the caller, who reads the reply (nor, when the caller is a Director, the
    Director's side)."""
    mover = pings.Mover(who.actor.user_id, who.director)
    ping = pings.pick_ping(
        encounter, director_id=who.director_id, director_role_id=who.settings.director_role_id, mover=mover
    )
    await pings.reply(interaction, content, ping, enabled=who.settings.turn_pings, view=view)


def _joined(view: discord.ui.View | None, more: discord.ui.View | None) -> discord.ui.View | None:
    """One view with the buttons of both (a reply carries one)."""
    if view is None or more is None:
        return view if more is None else more
    for item in more.children:
        view.add_item(item)
    return view


async def reply_with_rounds(
    interaction: discord.Interaction[Any],
    who: Caller,
    content: str,
    encounter: Encounter,
    news: RoundNews | None,
    committed: Committed[Any],
    *,
    view: discord.ui.View | None = None,
) -> None:
    """Answer a change outside a turn with `content` (and `view`); when it started rounds (`news`, from
    `bot.rules.encounter.rounds.news_since`), add their lines and the due objectives' buttons, and ping the
    side that picks next, as the end of a turn does."""
    if news is None:
        await send(interaction, content=content, view=view)
        return
    text = "\n".join([content, *news_lines(encounter, news)])
    due = due_view(committed.encounter_id, committed.version, news.due)
    await reply_and_ping(interaction, who, text, encounter, view=_joined(view, due))
