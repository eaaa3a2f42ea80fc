"""Replies to changes that move the turns on: the side that picks next pinged in the same message
(`exts.turn._pings`), the rounds a change outside a turn started by itself (`reply_with_rounds`), the saves'
replies with their hero-token button, and `PingMemory`, so the same people are not pinged twice for the same
moment.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Collection, Hashable
from typing import Any, Protocol

import discord

from bot.play import Caller, Played, channel_key
from bot.replies import send
from bot.rules.encounter import Encounter
from bot.rules.encounter.harm import SaveResult
from bot.rules.encounter.model import RoundNews
from bot.rules.turns import picking, waiting
from bot.store.table import ChannelKey
from bot.ui.combat import save_reply
from exts.tracker._controls import token_save_view
from exts.tracker._objectives import due_view
from exts.tracker._service import tracker_for
from exts.turn import _falls as falls
from exts.turn import _pings as pings
from exts.turn._views import named_in, news_lines, next_pick_text


class Versioned(Protocol):
    """A committed change's encounter and channel version (`Committed`, `Played`): what a reply's buttons
    are bound to."""

    @property
    def encounter_id(self) -> int | None: ...

    @property
    def version(self) -> int: ...


#: Channels whose last pinged moment `PingMemory` keeps (the oldest is forgotten first).
MOMENTS_KEPT = 4096


class PingMemory:
    """The last moment pinged in each channel: `first(key, moment)` is True unless `moment` (a hashable
    value naming the encounter, the round, the pick and who is pinged) is the one pinged there last."""

    def __init__(self) -> None:
        self._last: OrderedDict[ChannelKey, Hashable] = OrderedDict()

    def first(self, key: ChannelKey, moment: Hashable) -> bool:
        if self._last.get(key) == moment:
            return False
        self._last[key] = moment
        self._last.move_to_end(key)
        if len(self._last) > MOMENTS_KEPT:
            self._last.popitem(last=False)
        return True


_MEMORIES: weakref.WeakKeyDictionary[Any, PingMemory] = weakref.WeakKeyDictionary()


def ping_memory(client: Any) -> PingMemory:
    """The bot's `PingMemory` (one per bot, made on first use)."""
    memory = _MEMORIES.get(client)
    if memory is None:
        memory = _MEMORIES[client] = PingMemory()
    return memory


def _moment(client: Any, key: ChannelKey, encounter: Encounter, ping: pings.Ping) -> Hashable:
    """What makes a pick ping the same as an earlier one: the encounter (as the tracker knows it), the round,
    the pick, the entries still to act, and the members and roles pinged."""
    turns = encounter.turns
    eid = tracker_for(client).encounter_id(key)
    return (eid, turns.round, picking(turns), waiting(turns), ping.user_ids, ping.role_ids)


async def reply_and_ping(
    interaction: discord.Interaction[Any],
    who: Caller,
    content: str,
    encounter: Encounter,
    *,
    view: discord.ui.View | None = None,
    also: pings.Ping | None = None,
    named: Collection[str] | None = None,
) -> None:
    """Answer with `content` (and `view`) and, last, who picks next (`next_pick_text`), said once: pinging
    that side in the same line (`exts.turn._pings.reply`), but not the caller, who reads the reply (nor, when
    the caller is a Director, the Director's side), and not the people this channel's last ping already
    called for this very moment. And pinging `also`
    (`exts.turn._falls.fall_ping`), before the pick. `named`: the creatures the pick line doesn't name again
    (default: those `content` names, `named_in`)."""
    mover = pings.Mover(who.actor.user_id, who.director)
    if named is None:  # a turn change names each creature once: e.g. a solo whose first turn just ended
        named = named_in(encounter, content)
    role = who.settings.director_role_id
    pick = next_pick_text(encounter, named)
    ping = pings.pick_ping(
        encounter, director_id=who.director_id, director_role_id=role, mover=mover, line=pick
    )
    if ping is not None and who.settings.turn_pings:
        key = channel_key(interaction)
        if not ping_memory(interaction.client).first(key, _moment(interaction.client, key, encounter, ping)):
            ping = None
    if also is not None and ping is None and pick:
        ping = pings.Ping(pick, (), ())  # the fall's ping takes the pick line's place: keep the pick after it
    ping = falls.joined(also, ping)  # the fall first: the pick stays last
    await pings.reply(interaction, content, ping, enabled=who.settings.turn_pings, view=view, pick=pick)


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
    committed: Versioned,
    *,
    view: discord.ui.View | None = None,
    also: pings.Ping | None = None,
) -> None:
    """Answer a change outside a turn with `content` (and `view`); when it started rounds (`news`, from
    `bot.rules.encounter.rounds.news_since`), add their lines and the due objectives' buttons, and ping the
    side that picks next, as the end of a turn does; ping `also` either way."""
    if news is None:
        await pings.reply(interaction, content, also, enabled=who.settings.turn_pings, view=view)
        return
    text = "\n".join([content, *news_lines(encounter, news)])
    due = due_view(committed.encounter_id, committed.version, news.due)
    # a change's reply names its creatures for what happened to them: the pick line names whom one may pick
    view = _joined(view, due)
    await reply_and_ping(interaction, who, text, encounter, view=view, also=also, named=())


async def reply_played(
    interaction: discord.Interaction[Any],
    played: Played[Any],
    content: str,
    *,
    view: discord.ui.View | None = None,
) -> None:
    """`reply_with_rounds` for a change made with `bot.play.play`, with the heroic resource gains it brought,
    pinging the players whose heroes it left dying, dead or unconscious (`exts.turn._falls.fall_ping`)."""
    who = played.caller
    fell = falls.fall_ping(played.before, played.after, pings.Mover(who.actor.user_id, who.director))
    text = content + played.gains_said
    await reply_with_rounds(interaction, who, text, played.after, played.news, played, view=view, also=fell)


async def send_saves(
    interaction: discord.Interaction[Any], committed: Versioned, results: list[SaveResult], failed: bool
) -> None:
    """The saves' replies; when a hero's save just failed (`failed`), the button that spends a hero token to
    succeed instead (Draw Steel, The Basics, "Spending Hero Tokens")."""
    content = "\n".join(save_reply(r) for r in results)
    if failed and committed.encounter_id is not None:
        view = token_save_view(committed.encounter_id, committed.version)
        await send(interaction, content=content, view=view)
        return
    await send(interaction, content=content)
