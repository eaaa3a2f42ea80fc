"""Reminders that survive restarts: nudges and the argument timer, scheduled from the tracker's refreshes and
fired by one loop per process. What is reminded, where the due times live, and the public API:
docs/architecture.md, "Reminders".
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import discord

from bot.client import DrawSteelBot, PerBot
from bot.replies import post
from bot.rules import codec
from bot.rules.encounter import Encounter
from bot.rules.turns import Controller, Phase, current, picking
from bot.store import COMBAT, ChannelKey, Claim, EncounterInfo, GuildSettings, Store, scene_kind
from bot.store.core import utc_now
from bot.store.errors import StoreError
from bot.store.reminders import DUE_BATCH
from exts.reminders._views import argument_prompt, argument_view, director_note, nudge, scene_note
from exts.tracker._service import Seen, jump_link, scene_renderer, tracker_for
from exts.turn import _pings as pings

log = logging.getLogger("exts.reminders._service")

NUDGE = "nudge"
ARGUMENT = "argument"
#: Seconds between two looks at the database for reminders other processes set (a reminder this process
#: sets wakes the loop itself).
POLL = 30.0
#: Seconds the loop waits after a failure (the database away) before it looks again.
RETRY = 5.0


def turn_key(encounter: Encounter) -> str | None:
    """The wait an encounter is in: who picks, from whom, in which round after how many turns (None when
    nobody picks: a turn is running, or the round or the encounter is not under way)."""
    turns = encounter.turns
    if turns.phase is not Phase.IN_ROUND or current(turns) is not None:
        return None
    pick = picking(turns)
    if pick is None:
        return None
    raw = "|".join(
        (
            str(turns.round),
            str(len(turns.turns)),
            pick.controller.value,
            ",".join(pick.sides),
            pick.speed.value if pick.speed is not None else "",
            "\x1f".join(pick.entries),
        )
    )
    return hashlib.blake2b(raw.encode(), digest_size=8).hexdigest()


@dataclass(frozen=True, slots=True)
class _Plan:
    key: ChannelKey
    seen: Seen
    turn_key: str | None


class ReminderService:
    """Schedules the reminders of the encounters this process sees, and fires those that fall due."""

    def __init__(self, bot: DrawSteelBot, clock: Callable[[], datetime] = utc_now) -> None:
        self.bot = bot
        self.clock = clock
        self._written: dict[int, str] = {}  # encounter id -> the wait last written ("" none)
        self._plans: dict[int, _Plan] = {}
        self._writer: asyncio.Task[None] | None = None
        self._loop: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self.closed = False

    # -- scheduling -----------------------------------------------------------------------------------
    def observe(self, key: ChannelKey, seen: Seen) -> None:
        """The tracker showed `seen`: when its wait changed, (re)schedule its reminders in the background."""
        wait = None
        if seen.active and seen.wait is not None:
            wait = seen.wait.key
        elif seen.active and seen.encounter is not None:
            wait = turn_key(seen.encounter)
        if self._written.get(seen.encounter_id) == (wait or "") or self.closed:
            return
        self._plans[seen.encounter_id] = _Plan(key, seen, wait)
        if self._writer is None:
            self._writer = asyncio.create_task(self._write(), name="reminders-write")

    async def flush(self) -> None:
        """Wait until what was observed is written (tests; `close`)."""
        while self._writer is not None:
            await asyncio.shield(self._writer)

    async def _write(self) -> None:
        try:
            while self._plans:
                encounter_id = next(iter(self._plans))
                plan = self._plans.pop(encounter_id)
                try:
                    await self._schedule(plan)
                except (StoreError, OSError) as error:  # the next change schedules again
                    log.warning("reminders of encounter %s not scheduled: %s", encounter_id, error)
                except Exception:
                    log.exception("reminders of encounter %s not scheduled", encounter_id)
        finally:
            self._writer = None

    async def _schedule(self, plan: _Plan) -> None:
        store = self._store()
        seen = plan.seen
        settings = await store.get_settings(plan.key.guild_id)
        due = self._due(seen.encounter, settings) if plan.turn_key is not None else {}
        if not due and settings.nudge_after is None and settings.argument_timer is None:
            pass  # nothing was set for this guild (a reminder set before the settings went off is dropped)
        elif due:
            assert plan.turn_key is not None
            await store.set_reminders(
                seen.encounter_id,
                guild_id=plan.key.guild_id,
                channel_id=plan.key.channel_id,
                version=seen.version,
                turn_key=plan.turn_key,
                due=due,
            )
            self._wake.set()
        else:
            await store.clear_reminders(seen.encounter_id, guild_id=plan.key.guild_id)
        if seen.active:
            self._written[seen.encounter_id] = plan.turn_key or ""
        else:
            self._written.pop(seen.encounter_id, None)

    def _due(self, encounter: Encounter | None, settings: GuildSettings) -> dict[str, datetime]:
        """The reminders a wait gets: the nudge; the argument timer only in combat (a scene's heroes each
        act for themselves)."""
        now = self.clock()
        due: dict[str, datetime] = {}
        if settings.nudge_after is not None:
            due[NUDGE] = now + timedelta(seconds=settings.nudge_after)
        if encounter is None:
            return due
        pick = picking(encounter.turns)
        if settings.argument_timer is not None and pick is not None and pick.controller is Controller.PLAYERS:
            due[ARGUMENT] = now + timedelta(seconds=settings.argument_timer)
        return due

    # -- firing ---------------------------------------------------------------------------------------
    async def fire_due(self) -> int:
        """Claim and fire every reminder due now; how many this process fired."""
        store = self._store()
        fired = 0
        while True:
            due = await store.due_reminders(self.clock())
            for reminder in due:
                claim = await store.claim_reminder(reminder)
                if claim is None:  # another process fired it, or it was set again meanwhile
                    continue
                following = None
                try:
                    following = await self._fire(claim)
                    fired += 1
                finally:
                    await store.advance_reminder(claim, following)
            if len(due) < DUE_BATCH:
                return fired

    async def _fire(self, claim: Claim) -> datetime | None:
        """Send what `claim` reminds of (if its wait is still the encounter's); when its next step is due."""
        reminder = claim.reminder
        store = self._store()
        key = ChannelKey(reminder.guild_id, reminder.channel_id)
        # the row itself: no channel read, no cache
        doc = await store.find_encounter(reminder.encounter_id, guild_id=reminder.guild_id)
        if doc is None or not doc.active:
            return None
        if scene_kind(doc.state) != COMBAT:
            return await self._fire_scene(claim, doc)
        encounter = codec.load(Encounter, doc.state)
        if turn_key(encounter) != reminder.turn_key:
            return None  # the turn moved on: the tracker's observer sets the new wait
        settings = await store.get_settings(reminder.guild_id)
        link = tracker_for(self.bot).link(key)
        if link is None and doc.tracker_message_id is not None:
            link = jump_link(key.guild_id, doc.tracker_channel_id or key.channel_id, doc.tracker_message_id)
        if reminder.kind == NUDGE and settings.nudge_after is not None:
            ping = pings.pick_ping(
                encounter, director_id=doc.director_id, director_role_id=settings.director_role_id
            )
            if ping is None:
                return None
            if reminder.step == 0:
                await self._send(key, pings.with_link(nudge(ping, settings.nudge_after), link))
                return self.clock() + timedelta(seconds=settings.nudge_after)
            names = [f"<@{u}>" for u in ping.user_ids if u != doc.director_id]
            what = pings.pick_what(encounter)
            await self._send(key, director_note(doc.director_id, names, what, 2 * settings.nudge_after, link))
            return None
        if reminder.kind == ARGUMENT and settings.argument_timer is not None:
            pick = picking(encounter.turns)
            if pick is None or pick.controller is not Controller.PLAYERS:
                return None
            prompt = argument_prompt(doc.director_id, settings.argument_timer)
            view = argument_view(doc.id, reminder.turn_key, pick.entries)
            await self._send(key, prompt, view)
        return None

    async def _fire_scene(self, claim: Claim, doc: EncounterInfo) -> datetime | None:
        """A scene's nudge (a montage's heroes who haven't acted): pinged once, then the Director told."""
        reminder = claim.reminder
        renderer = scene_renderer(scene_kind(doc.state))
        settings = await self._store().get_settings(reminder.guild_id)
        if renderer is None or reminder.kind != NUDGE or settings.nudge_after is None:
            return None
        wait = renderer(doc.name, doc.state, doc.id, 0, True, settings).wait
        if wait.key != reminder.turn_key or not wait.user_ids:
            return None  # the scene moved on: the tracker's observer sets the new wait
        key = ChannelKey(reminder.guild_id, reminder.channel_id)
        link = tracker_for(self.bot).link(key)
        if link is None and doc.tracker_message_id is not None:
            link = jump_link(key.guild_id, doc.tracker_channel_id or key.channel_id, doc.tracker_message_id)
        if reminder.step == 0:
            ping = pings.Ping(wait.content, wait.user_ids, ())
            await self._send(key, pings.with_link(nudge(ping, settings.nudge_after), link))
            return self.clock() + timedelta(seconds=settings.nudge_after)
        note = scene_note(doc.director_id, wait.names, wait.hint, 2 * settings.nudge_after, link)
        await self._send(key, note)
        return None

    async def _send(self, key: ChannelKey, ping: pings.Ping, view: discord.ui.View | None = None) -> None:
        channel = self.bot.get_partial_messageable(key.channel_id, guild_id=key.guild_id)
        try:
            await post(channel, content=ping.content, mentions=ping.allowed_mentions, view=view)
        except discord.HTTPException as error:  # claimed: not sent twice, whatever Discord said
            log.warning("reminder in channel %s not sent: %s", key.channel_id, error)

    # -- the loop -------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Read when the first reminder falls due, then fire whatever falls due until `close` (one loop per
        process). The read happens here, during the bot's set-up, before it takes any command: when nothing
        is due yet, the loop doesn't touch the database again until then (or `POLL`)."""
        if self._loop is not None or self.closed:
            return
        first: datetime | None = None
        try:
            first = await self._store().next_reminder_at()
        except Exception as error:  # the database away: the loop looks at once
            log.warning("reminders: %s", error)
            first = self.clock()
        self._loop = asyncio.create_task(self._run(first), name="reminders")

    async def _run(self, following: datetime | None) -> None:
        while not self.closed:
            if following is not None and following <= self.clock():
                try:
                    await self.fire_due()
                    following = await self._store().next_reminder_at()
                except asyncio.CancelledError:
                    raise
                except Exception as error:  # the database away: look again a little later
                    log.warning("reminders: %s", error)
                    await asyncio.sleep(RETRY)
                    continue
            wait = POLL
            if following is not None:
                wait = min(POLL, max(0.0, (following - self.clock()).total_seconds()))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)
            following = self.clock()  # woken, or time to look again (other processes set reminders too)

    async def close(self) -> None:
        self.closed = True
        if self._loop is not None:
            self._loop.cancel()
            await asyncio.gather(self._loop, return_exceptions=True)
            self._loop = None
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)

    def _store(self) -> Store:
        return self.bot.store


_SERVICES = PerBot(ReminderService)


def reminders_for(bot: DrawSteelBot) -> ReminderService:
    """The bot's reminder service (one per bot, created on first use)."""
    return _SERVICES(bot)
