"""What the encounter shows on request: the tracker again (/encounter status, at most once every 30 s a
channel, else a jump link to it; `private`: the Director's exact tracker with the villain actions, seen only
by them, with a Refresh button that shows it as it is now) and the log (/encounter log).

While `show_monster_stamina` is off, players' copies of the log show no Director creature's exact Stamina
(`exts.encounter._views.players_view`: not in the Markdown, the JSON or the undo patches; each event's
details say whose Stamina its summary shows), and the encounter's Director gets the full log, seen only by
them (`bot.permissions` rule `/encounter log (full)`).
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable
from typing import Any

import discord

from bot.client import DrawSteelBot
from bot.permissions import RULES, actor_from_interaction, allowed, standing
from bot.play import InTime, caller_of, channel_key, encounter_of, resource_names
from bot.replies import edit_response, fail, send
from bot.store import COMBAT, Event, Table, scene_kind
from exts.encounter._views import players_view
from exts.tracker._controls import private_view
from exts.tracker._service import tracker_for
from exts.tracker._views import TrackerView, render_tracker
from exts.turn._glue import repost_tracker

PRIVATE_NOTE = "Only you see this: exact Stamina and villain actions · Refresh shows it as it is now"


def private_tracker(table: Table) -> discord.Embed:
    """The Director's private tracker: the encounter as it is in `table`, every creature's exact Stamina and
    the villain actions."""
    doc = table.require_encounter()
    encounter = encounter_of(table)
    names = resource_names(table, encounter)
    view = TrackerView(doc.name, table.tokens, True, PRIVATE_NOTE, private=True, resource_names=names)
    return render_tracker(encounter, view)


def private_controls(table: Table) -> discord.ui.View:
    """The private tracker's Refresh button, for the encounter `table` holds."""
    doc = table.require_encounter()
    assert doc.id is not None
    return private_view(doc.id, table.version)


async def post_status(interaction: discord.Interaction[Any], bot: DrawSteelBot, private: bool) -> None:
    """Repost the tracker at the bottom; with `private`, the Director's exact tracker, ephemeral, with a
    Refresh button (`refresh_private`)."""
    in_time = InTime(interaction)
    if private:
        who = await in_time.run(caller_of(interaction, bot))
        who.require("/encounter status private:")
        table = await in_time.run(bot.store.view(channel_key(interaction), shared=True))
        embed = private_tracker(table)
        await send(interaction, embed=embed, view=private_controls(table), ephemeral=True)
        return
    key = channel_key(interaction)
    table = await in_time.run(bot.store.view(key))
    table.require_encounter()
    service = tracker_for(bot)
    if not service.claim_ask(key):  # reposted moments ago: each repost is a new message and a pin notice
        link = await in_time.run(service.find_link(key, service.encounter_id(key)))
        where = f"[jump to the tracker]({link})" if link is not None else "scroll up to it"
        await send(interaction, content=f"📌 The tracker was posted moments ago: {where}.", ephemeral=True)
        return
    posted = await in_time.run(repost_tracker(interaction, bot))
    if posted is None:
        service.release_ask(key)
        fail("The tracker couldn't be posted here: check the bot may send messages in this channel.")
    await send(interaction, content=service.where_text(key), ephemeral=True)


def _no_state(event: Event) -> Event:
    return dataclasses.replace(event, patch=None, details={})


async def _scene_secrets(
    interaction: discord.Interaction[Any], bot: DrawSteelBot, eid: int
) -> Callable[[Event], Event] | None:
    """A scene other than combat (a montage) keeps the Director's secrets in its state and undo patches:
    the players' log leaves both out (None: the full log, for its Director or combat's own rules)."""
    key = channel_key(interaction)
    found = await bot.store.find_encounter(eid, guild_id=key.guild_id)
    if found is None or scene_kind(found.state) == COMBAT:
        return None
    settings = await bot.store.get_settings(key.guild_id)
    at = standing(
        actor_from_interaction(interaction),
        director_role_id=settings.director_role_id,
        encounter_director_id=found.director_id,
    )
    return None if allowed(RULES["/encounter log (full)"].authority, at) else _no_state


async def refresh_private(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    """The private tracker's Refresh: the same ephemeral message shows the encounter as it is now (an
    ephemeral message can't be edited by the bot later on its own, only in answer to a press)."""
    bot = interaction.client
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))
    who.require("enc:view")
    table = await in_time.run(bot.store.view(channel_key(interaction), shared=True))
    doc = table.encounter
    if doc is None or not doc.active or doc.id != eid:
        fail("That encounter is over: see the one running here with /encounter status private:true.")
    await edit_response(interaction, content=None, embed=private_tracker(table), view=private_controls(table))


async def post_log(interaction: discord.Interaction[Any], bot: DrawSteelBot, number: int | None) -> None:
    """The log of the encounter running here, else the last one that ended here (or the ended one `number`),
    as Markdown and JSON files."""
    key = channel_key(interaction)
    in_time = InTime(interaction)
    store = bot.store
    if number is None:
        latest = await in_time.run(store.latest_encounter(key.channel_id, guild_id=key.guild_id))
        if latest is None:
            fail("No encounter has run in this channel yet: start one with /encounter start.")
        eid = latest
    else:
        info = await in_time.run(store.find_encounter(number, guild_id=key.guild_id))
        if info is None or info.channel_id != key.channel_id:
            fail("No encounter with that number in this channel: leave it out for the one running here.")
        eid = info.id
    settings = await in_time.run(store.get_settings(key.guild_id))
    hide = None
    secret = await in_time.run(_scene_secrets(interaction, bot, eid))
    if secret is not None:
        hide = secret
    elif not settings.show_monster_stamina:
        found = await in_time.run(store.find_encounter(eid, guild_id=key.guild_id))
        assert found is not None
        role = settings.director_role_id
        at = standing(
            actor_from_interaction(interaction),
            director_role_id=role,
            encounter_director_id=found.director_id,
        )
        if not allowed(RULES["/encounter log (full)"].authority, at):
            events = await in_time.run(store.events(eid, guild_id=key.guild_id))
            hide = players_view(events)
    full = hide is None and not settings.show_monster_stamina
    markdown = await in_time.run(store.transcript_markdown(eid, guild_id=key.guild_id, hide=hide))
    exported = await in_time.run(store.export_json(eid, guild_id=key.guild_id, hide=hide))
    files = [
        discord.File(io.BytesIO(markdown.encode()), filename=f"encounter-{eid}.md"),
        discord.File(io.BytesIO(exported.encode()), filename=f"encounter-{eid}.json"),
    ]
    if full:
        content = (
            f"📜 The full log of encounter {eid}, with the Director creatures' Stamina: only you see it."
        )
    elif hide is not None:
        content = f"📜 The log of encounter {eid} (the Director creatures' Stamina is hidden)."
    else:
        content = f"📜 The log of encounter {eid}."
    await send(interaction, content=content, files=files, ephemeral=full)
