"""What the encounter's persistent buttons do (`exts.tracker._controls`): who goes first, the end
confirmation, the award of an ended encounter's Victories, and Undo (shared with /encounter undo).

Victories are the campaign's: an encounter's end writes them only when a server Director ends it; otherwise
the summary offers an Award button that only a server Director may press (once).

Undo: the newest of the encounter's own changes (never the campaign's: awards, claims, roster edits); the
Director undoes it, a player only their own, a hero-token spend only its spender or a server Director.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import discord

from bot.client import DrawSteelBot
from bot.permissions import RULES, Refused, allowed
from bot.play import (
    Caller,
    InTime,
    Member,
    apply,
    caller_of,
    channel_key,
    commit,
    encounter_of,
    may_undo,
    outside_encounter,
    play,
    put_encounter,
    put_sheet,
    sheets_of,
)
from bot.replies import fail, inert, send
from bot.rules import codec
from bot.rules.encounter import Encounter
from bot.rules.encounter.flow import Finish, Flow, award_unawarded, choose_first_side, finish, side_named
from bot.store import COMBAT, AlreadyDone, Change, Event, Table, scene_kind
from exts.tracker._controls import award_view
from exts.turn._glue import Expect, check_expected, pressed
from exts.turn._replies import reply_and_ping
from exts.turn._views import begin_text, controller_does, finish_text


async def director_check(interaction: discord.Interaction[Any], bot: DrawSteelBot, key: str) -> Caller:
    """The caller, once they may do `key` (`bot.permissions.RULES`: the encounter's Director)."""
    who = await caller_of(interaction, bot)
    who.require(key)
    return who


# --- the button handlers ----------------------------------------------------------------------------------


async def on_first(interaction: discord.Interaction[Any], eid: int, ver: int, side: str) -> None:
    """A who-goes-first button: the winner of the d10 roll picks the side that goes first."""

    def step(who: Caller, encounter: Encounter, table: Table) -> tuple[Encounter, Flow]:
        if table.require_encounter().id != eid:
            fail("That encounter is over: start a new one with /encounter start.")
        first = encounter.turns.first
        if first is None or first.chooser is None or first.side is not None:
            fail("Who goes first is already settled: carry on with /turn act.")
        chooser = first.chooser
        mine = any(
            c.owner_id == who.actor.user_id and encounter.side_of(c.id).controller is chooser
            for c in encounter.creatures
        )
        if not allowed(RULES["enc:first"].authority, who.standing(in_encounter=mine)):
            said = controller_does(chooser, "choose")
            raise Refused(f"{said[0].upper()}{said[1:]} which side goes first.")
        flow = choose_first_side(encounter, side, chooser)
        return flow.encounter, flow

    played = await play(
        interaction,
        "encounter.first",
        step,
        lambda flow: f"{side_named(flow.encounter, side).name or side} go first",
    )
    await reply_and_ping(interaction, played.caller, begin_text(played.result), played.result.encounter)


@dataclass(frozen=True, slots=True)
class Ended:
    """An encounter just ended: its name and what ending it did (`Finish`)."""

    name: str
    done: Finish


async def on_end_confirmed(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    """End the encounter; its Victories are written when a server Director ends it, else they wait for one
    to press the summary's Award button (`on_award`). Through `commit` rather than `play`: the change ends
    the encounter, after which there is no running encounter for `play` to put back."""
    bot = interaction.client
    in_time = InTime(interaction)
    who = await in_time.run(director_check(interaction, bot, "enc:endok"))
    victory = arg != "0"
    award = allowed(RULES["enc:award"].authority, who.standing())

    def change(table: Table) -> Change[Ended]:
        doc = table.require_encounter()
        if doc.id != eid:
            fail("That encounter is over already.")
        encounter = encounter_of(table)
        sheets = sheets_of(table)
        done = finish(encounter, victory=victory, sheets=sheets, award=award)
        for hero_id, sheet in done.sheets.items():
            put_sheet(table.heroes[hero_id], sheet)
        put_encounter(table, done.encounter)
        table.end_encounter()
        return Change(f"Encounter {doc.name} ended", Ended(doc.name, done))

    committed = await in_time.run(commit(interaction, "encounter.end", change))
    name, done = committed.value.name, committed.value.done
    pending = done.encounter.unawarded
    view = award_view(eid, committed.version, len(pending)) if pending else None
    await send(interaction, content=finish_text(name, done, committed.encounter_id), view=view)


async def on_award(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    """A server Director awards the Victories an ended encounter kept waiting (`Encounter.unawarded`, read
    from the stored encounter, never from the button), once: a second press awards nothing."""
    bot = interaction.client
    key = channel_key(interaction)
    found = await InTime(interaction).run(bot.store.find_encounter(eid, guild_id=key.guild_id))
    if (
        found is None
        or found.channel_id != key.channel_id
        or found.active
        or scene_kind(found.state) != COMBAT
    ):
        fail("That encounter isn't one that ended here: award Victories with /victories award instead.")
    ended = codec.load(Encounter, found.state)
    if not ended.unawarded:
        fail("That encounter has no Victories waiting: award them with /victories award instead.")

    def change(_who: Member, table: Table) -> Change[tuple[str, ...]]:
        awarded = award_unawarded(ended, sheets_of(table))
        if not awarded:
            fail("Those heroes aren't on the roster any more: award Victories with /victories award.")
        for hero_id, sheet in awarded.items():
            put_sheet(table.heroes[hero_id], sheet)
        names = tuple(table.heroes[hero_id].name for hero_id in awarded)
        summary = f"1 Victory each to {', '.join(names)} for {found.name}"
        return Change(summary[:200], names, {"count": 1, "encounter": eid})

    try:
        awarded = await apply(interaction, "victories.award", change, rule="enc:award", once=f"award:{eid}")
    except AlreadyDone:
        fail("Those Victories are awarded already.")
    names = ", ".join(inert(n) for n in awarded)
    await send(interaction, content=f"🏆 The Director awards 1 Victory each to {names}.")


async def on_end_cancelled(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    await send(interaction, content="The encounter goes on.", ephemeral=True)


async def on_undo(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    bot = interaction.client
    await pressed(interaction, bot, do_undo(interaction, bot, Expect(eid, ver)))


async def do_undo(
    interaction: discord.Interaction[Any], bot: DrawSteelBot, expect: Expect | None = None
) -> None:
    """Undo the encounter's newest change (`bot.play.outside_encounter` passes over the campaign's) with the
    authority it needed (`bot.play.may_undo`, judged by the store on the very change it undoes); from a
    tracker, only while it shows the newest state."""
    in_time = InTime(interaction)
    key = channel_key(interaction)

    async def run() -> str:
        judge = may_undo(await caller_of(interaction, bot))

        def allowed(table: Table, target: Event) -> None:
            check_expected(table, expect)
            judge(table, target)

        committed = await bot.store.undo(
            key,
            interaction.user.id,
            allowed=allowed,
            outside=outside_encounter,
            interaction_id=interaction.id,
        )
        for listener in getattr(bot, "commit_listeners", ()):
            with contextlib.suppress(Exception):  # the undo is committed; the tracker catches up later
                await listener(key, committed)
        return committed.value.summary

    summary = await in_time.run(run())
    await send(interaction, content=f"↩️ Undone: {inert(summary)}")
