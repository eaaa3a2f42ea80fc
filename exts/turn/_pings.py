"""Play-by-post pings: who is pinged when a side must pick (`pick_ping`, `chooser_ping`: pure), and sending it
in the reply that moved the turns on (`reply`), or on its own with the bot token when the reply can't carry it
(`post`). Allowed mentions list exactly the members and role pinged; nothing else the bot sends pings.
A pick ping is the reply's pick line with the mentions in front, and a jump link to the tracker after it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import discord

from bot import replies
from bot.play import channel_key
from bot.replies import MAX_CONTENT, send
from bot.rules.encounter import Encounter
from bot.rules.turns import Controller, picking, waiting
from bot.rules.turns.policy import policy
from bot.store import ChannelKey
from exts.tracker._service import tracker_for
from exts.turn._views import controller_does, creatures_of, next_pick_text, side_does

log = logging.getLogger("bot.pings")


@dataclass(frozen=True, slots=True)
class Ping:
    """A message that pings `user_ids` and `role_ids` and nobody else."""

    content: str
    user_ids: tuple[int, ...]
    role_ids: tuple[int, ...]

    @property
    def allowed_mentions(self) -> discord.AllowedMentions:
        return discord.AllowedMentions(
            everyone=False,
            users=[discord.Object(u) for u in self.user_ids],
            roles=[discord.Object(r) for r in self.role_ids],
            replied_user=False,
        )


@dataclass(frozen=True, slots=True)
class Mover:
    """Who moved the turns on: they read the reply, so the ping leaves them out (`director`: they did it as a
    Director, so the Director's own creatures' pick pings nobody either)."""

    user_id: int
    director: bool


def _targets(
    owners: Iterable[int | None], director_id: int, director_role_id: int | None, mover: Mover | None = None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    users: list[int] = []
    roles: tuple[int, ...] = ()
    needs_director = False
    for owner in owners:
        if owner is None:
            needs_director = True
        elif owner not in users and (mover is None or owner != mover.user_id):
            users.append(owner)
    if needs_director and not (mover is not None and mover.director):
        if director_role_id is not None:
            roles = (director_role_id,)
        elif director_id not in users:
            users.append(director_id)
    return tuple(users), roles


def _mention_text(users: tuple[int, ...], roles: tuple[int, ...]) -> str:
    return " ".join([*(f"<@&{r}>" for r in roles), *(f"<@{u}>" for u in users)])


def pick_ping(
    encounter: Encounter,
    *,
    director_id: int,
    director_role_id: int | None,
    mover: Mover | None = None,
    line: str | None = None,
) -> Ping | None:
    """The ping for the side that picks now: the controllers of its creatures that may still act this round;
    in the Agility order only the next in order (Draw Steel, Combat, "Alternative Turn Order": "When it's
    time for someone on the heroes' side to act, the hero with the highest total goes first"); never `mover`,
    whose reply already says who picks (None when nobody is left to ping, or nobody picks: a turn is running,
    or the round or encounter is over). Its text is the pick line with the mentions in front: `line`, the
    one a turn change's reply made for the entries it names (it ends with the ping instead of the bare
    line), else `next_pick_text`'s."""
    turns = encounter.turns
    pick = picking(turns)
    if pick is None:
        return None
    still = set(pick.entries) if policy(turns.mode).ordered_within_side else set(waiting(turns))
    owners: list[int | None] = []
    for entry in turns.entries:
        if entry.side not in pick.sides or entry.id not in still:
            continue
        for creature_id in creatures_of(encounter, entry):
            owners.append(encounter.creature(creature_id).owner_id)
    users, roles = _targets(owners, director_id, director_role_id, mover)
    if not users and not roles:
        return None
    text = next_pick_text(encounter) if line is None else line
    return Ping(f"{_mention_text(users, roles)} {text}", users, roles)


def pick_what(encounter: Encounter) -> str:
    """ "the heroes pick who acts next", "the Director picks a fast turn" ("" when nobody picks)."""
    pick = picking(encounter.turns)
    if pick is None:
        return ""
    if pick.speed is not None:
        return f"{controller_does(pick.controller, 'pick')} a {pick.speed.value} turn"
    return f"{side_does(encounter, pick.sides[0], 'pick')} who acts next"


def linked(text: str, link: str | None) -> str:
    """`text` with the tracker's jump link at its end (unchanged without one, or without text)."""
    return f"{text} · [Jump to the tracker]({link})" if link is not None and text else text


def with_link(ping: Ping, link: str | None) -> Ping:
    """`ping` with the tracker's jump link at its end (unchanged without one)."""
    return Ping(linked(ping.content, link), ping.user_ids, ping.role_ids)


def chooser_ping(
    encounter: Encounter, chooser: Controller, *, director_id: int, director_role_id: int | None
) -> Ping | None:
    """The ping for whoever won the d10 roll and must choose which side goes first."""
    owners: list[int | None] = []
    for side in encounter.turns.sides:
        if side.controller is not chooser:
            continue
        for entry in encounter.turns.entries:
            if entry.side == side.id:
                owners += [encounter.creature(c).owner_id for c in creatures_of(encounter, entry)]
    if chooser is Controller.DIRECTOR:
        owners = [None]
    users, roles = _targets(owners, director_id, director_role_id)
    if not users and not roles:
        return None
    who = controller_does(chooser, "choose")
    return Ping(f"{_mention_text(users, roles)} — {who} which side goes first.", users, roles)


async def reply(
    interaction: discord.Interaction[Any],
    content: str,
    ping: Ping | None,
    *,
    enabled: bool,
    view: discord.ui.View | None = None,
    pick: str = "",
) -> None:
    """Answer `interaction` with `content` (and `view`) and, last, the pick line `pick` with the tracker's
    jump link; when `ping` pings, its text takes the pick line's place (the same line with the mentions in
    front), in the same message when it can carry the ping (see the module docstring), else in a message
    of its own after it."""
    ping = ping if enabled else None
    key = channel_key(interaction)
    tail = ping.content if ping is not None else pick
    link = await _link(interaction.client, key) if tail else None
    if ping is None:
        together = "\n".join(part for part in (content, linked(tail, link)) if part)
        await send(interaction, content=together, view=view)
        return
    ping = with_link(ping, link)
    together = f"{content}\n{ping.content}"
    if interaction.response.is_done() or len(together) > MAX_CONTENT:
        await send(interaction, content=content, view=view)
        await post(interaction.client, key, ping, enabled=enabled)
        return
    await send(interaction, content=together, view=view, mentions=ping.allowed_mentions)


async def _link(client: Any, key: ChannelKey) -> str | None:
    """The tracker's jump link (when the tracker is known)."""
    service = tracker_for(client)
    link = service.link(key)
    if link is None:
        link = await service.find_link(key, service.encounter_id(key))
    return link


async def post(client: Any, key: ChannelKey, ping: Ping | None, *, enabled: bool) -> None:
    """Send `ping` in the channel with the bot token (logged, never raised, when Discord refuses)."""
    if ping is None or not enabled:
        return
    channel = client.get_partial_messageable(key.channel_id, guild_id=key.guild_id)
    try:
        await replies.post(channel, content=ping.content, mentions=ping.allowed_mentions)
    except discord.HTTPException as error:
        log.warning("ping in channel %s failed: %s", key.channel_id, error)
