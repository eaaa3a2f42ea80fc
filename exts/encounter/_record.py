"""What the encounter shows on request: the tracker again (/encounter status, at most once every 30 s a
channel, else a jump link to it; `private`: the Director's exact tracker, seen only by them) and the log
(/encounter log).

While `show_monster_stamina` is off, players' copies of the log show no Director creature's exact Stamina
(`exts.encounter._views.players_view`: not in the Markdown, the JSON or the undo patches; each event's
details say whose Stamina its summary shows), and the encounter's Director gets the full log, seen only by
them (`bot.permissions` rule `/encounter log (full)`).
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.client import DrawSteelBot
from bot.permissions import RULES, actor_from_interaction, allowed, standing
from bot.play import InTime, caller_of, channel_key, encounter_of, resource_names
from bot.replies import fail, send
from exts.encounter._views import players_view
from exts.tracker._service import tracker_for
from exts.tracker._views import TrackerView, render_tracker
from exts.turn._glue import repost_tracker

PRIVATE_NOTE = "Only you see this: exact Stamina"


async def post_status(interaction: discord.Interaction[Any], bot: DrawSteelBot, private: bool) -> None:
    """Repost the tracker at the bottom; with `private`, the Director's exact tracker, ephemeral."""
    in_time = InTime(interaction)
    if private:
        who = await in_time.run(caller_of(interaction, bot))
        who.require("/encounter status private:")
        table = await in_time.run(bot.store.view(channel_key(interaction), shared=True))
        doc = table.require_encounter()
        encounter = encounter_of(table)
        view = TrackerView(doc.name, table.tokens, True, PRIVATE_NOTE, resource_names(table, encounter))
        await send(interaction, embed=render_tracker(encounter, view), ephemeral=True)
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
    if not settings.show_monster_stamina:
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
