"""The live tracker service: one message per encounter, posted and edited in place with the bot token after
each committed change (coalesced, paced across channels, never on a command's path), pinned (Discord's
"pinned a message" notice deleted), reposted when it has scrolled up only while it isn't pinned, and summed
up when the encounter ends. How it works, and its public API:
docs/architecture.md, "The tracker message".
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.client import DrawSteelBot, PerBot
from bot.play import encounter_of, resource_names
from bot.replies import edit, post
from bot.rules import codec
from bot.rules.encounter import Encounter
from bot.store import COMBAT, ChannelKey, Committed, GuildSettings, Store, scene_kind
from bot.store.errors import CannotSave, StoreUnavailable
from exts.tracker._controls import tracker_view
from exts.tracker._views import TrackerView, render_final, render_tracker

log = logging.getLogger("exts.tracker._service")

#: Interactions in a channel since its tracker was posted after which the next change reposts it at the
#: bottom (only while it isn't pinned: a pinned tracker stays where it is, and the pings link to it).
REPOST_AFTER = 15
#: Messages read after a freshly pinned tracker to find Discord's "pinned a message" notice and delete it.
PIN_NOTICE_WITHIN = 10
#: After Discord refused the bot a post in a channel, how many changes there don't ask again.
POST_RETRY_AFTER = 10
#: Seconds to wait before retrying a refresh the store refused as busy or unreachable, or Discord answered
#: with a 5xx (then give up: the next change renders the newest state anyway).
RETRY_DELAYS: tuple[float, ...] = (1.0, 3.0)
#: Seconds between the starts of two refreshes of one channel's tracker (docs/architecture.md,
#: "Coalescing"): one edit a second, within what Discord lets a bot edit in one channel (about five edits in
#: five seconds; a shorter gap runs into that limit, and spends the bot's time rendering states nobody sees).
EDIT_GAP = 1.0
#: Up to this fraction of `EDIT_GAP` is added at random to each gap, so that channels whose refreshes began
#: together (a guild's trackers after `/settings`, every busy channel after a restart) drift apart instead
#: of refreshing in the same instant for as long as they stay busy: refreshes in lockstep hold up every
#: command in flight at once.
EDIT_JITTER = 0.5
#: Seconds between two reposts asked for in one channel (`/encounter status`, `claim_ask`): each is a new
#: message (and a "pinned a message" notice where the bot may not delete it), so asking more often gets a
#: jump link to the tracker instead.
ASK_GAP = 30.0
#: Seconds `close` waits for tracker edits in flight.
CLOSE_WAIT = 5.0
#: Tracker requests (posts, edits, deletes) a bot may start per second, all channels together: Discord allows
#: a bot 50 requests a second (interaction replies and followups aside), and the rest is left for its other
#: posts. A sharded bot's processes split it by their share of the shards. See "Pacing".
TRACKER_RATE = 40.0
#: What the service says, once per encounter, when Discord refuses to pin the tracker.
PIN_REFUSED = (
    "📌 I can't pin the tracker here: give the bot the **Pin Messages** permission (Manage Messages on "
    "older servers) in this channel. The encounter goes on; every turn ping links to the tracker."
)


def jump_link(guild_id: int, channel_id: int, message_id: int) -> str:
    """The link that opens a message in its channel."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


@dataclass(slots=True)
class _Slot:
    """One channel's tracker state in this process."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    encounter_id: int | None = None
    message_id: int | None = None
    #: the encounter `message_id` belongs to (None: not looked up yet)
    known_for: int | None = None
    since_post: int = 0
    #: the posted message's id is not in the store yet (the store was busy): saved on the next pass
    unsaved: bool = False
    #: Discord refused the bot a post here: changes to let pass before asking again (`repost` always asks)
    skip_posts: int = 0
    #: loop time the last refresh pass started
    passed_at: float = float("-inf")
    #: the encounter for which Discord refused a pin (said once; not asked to unpin)
    pin_refused: int | None = None
    #: whether the tracker message (`message_id`) is pinned, as last seen (None: not known yet)
    pinned: bool | None = None
    #: this pass has its turn from the pacer already: its first request doesn't wait for another
    paced: bool = False
    #: loop time of the last repost asked for (`claim_ask`)
    asked_at: float = float("-inf")


class _Pacer:
    """Spaces out starts: at most `rate` a second, each `turn()` waiting for the next free moment in order."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self._next = float("-inf")

    async def turn(self) -> None:
        if not self.interval:  # an infinite rate never waits
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        start = max(now, self._next)
        self._next = start + self.interval
        if start > now:
            await asyncio.sleep(start - now)


@dataclass(frozen=True, slots=True)
class SceneWait:
    """Who a scene other than combat (a montage...) waits for, for the reminders: the wait's `key` (None:
    nobody is waited on; a new key is a new wait), the members it pings with `content`, their names, and
    what the Director may do about it (`hint`)."""

    key: str | None
    user_ids: tuple[int, ...] = ()
    content: str = ""
    names: tuple[str, ...] = ()
    hint: str = ""


@dataclass(frozen=True, slots=True)
class SceneView:
    """A scene's tracker: its embed, its controls and who it waits for."""

    embed: discord.Embed
    view: discord.ui.View | None
    wait: SceneWait


#: A scene kind's tracker: (its name, state data, encounter id, version, active, the server's settings now)
#: -> `SceneView`. The features register theirs (`register_scene`), so the tracker renders them without
#: importing upward. The settings are the current ones: a settings change shows at the next refresh.
SceneRenderer = Callable[[str, dict[str, Any], int, int, bool, GuildSettings], SceneView]
_SCENES: dict[str, SceneRenderer] = {}


def register_scene(kind: str, renderer: SceneRenderer) -> None:
    """Render the channel's scenes of `kind` (its feature's `setup` calls this)."""
    _SCENES[kind] = renderer


def scene_renderer(kind: str) -> SceneRenderer | None:
    """The renderer of a scene kind (None for combat, or a kind no loaded feature renders)."""
    return _SCENES.get(kind)


@dataclass(frozen=True, slots=True)
class Seen:
    """What a refresh showed: an encounter's newest state (`active` False: it just ended) at `version`; for a
    scene other than combat, `encounter` is None and `wait` says who it waits for."""

    encounter_id: int
    encounter: Encounter | None
    version: int
    director_id: int
    active: bool
    wait: SceneWait | None = None


@dataclass(frozen=True, slots=True)
class _Rendered:
    encounter_id: int
    embed: discord.Embed
    view: discord.ui.View | None
    active: bool
    seen: Seen


class TrackerService:
    """Posts, edits and reposts each channel's tracker message (see the module docstring)."""

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot
        self._slots: dict[ChannelKey, _Slot] = {}
        self.closed = False
        settings = bot.settings
        share = 1.0
        if settings.shard_count is not None and settings.shard_ids is not None:
            share = len(settings.shard_ids) / settings.shard_count
        self._pacer = _Pacer(TRACKER_RATE * share)
        #: Told what each refresh showed (see "Observers"); plain functions, never raising into the worker.
        self.observers: list[Callable[[ChannelKey, Seen], object]] = []

    # -- the public API -----------------------------------------------------------------------------------
    async def on_commit(self, key: ChannelKey, committed: Committed[Any]) -> None:
        """The commit listener: schedule a refresh and return at once."""
        self.schedule(key, committed.encounter_id)

    def note_interaction(self, key: ChannelKey) -> None:
        """An interaction arrived in `key` (it will most likely leave a message there): count it towards
        reposting the tracker at the bottom. Channels without a tracker are not tracked."""
        slot = self._slots.get(key)
        if slot is not None:
            slot.since_post += 1

    def schedule(self, key: ChannelKey, encounter_id: int | None = None) -> asyncio.Task[None] | None:
        """Ask for the tracker of `key` to show the newest state; returns the channel's worker task."""
        if self.closed:
            return None
        slot = self._slot(key)
        if encounter_id is not None:
            slot.encounter_id = encounter_id
        slot.dirty = True
        if slot.task is None:
            slot.task = asyncio.create_task(self._work(key, slot), name=f"tracker-{key.channel_id}")
        return slot.task

    def schedule_guild(self, guild_id: int) -> list[asyncio.Task[None]]:
        """Refresh every tracker this process knows in a guild (its settings changed: monster Stamina)."""
        tasks = [
            self.schedule(key)
            for key, slot in list(self._slots.items())
            if key.guild_id == guild_id and slot.encounter_id is not None
        ]
        return [task for task in tasks if task is not None]

    async def refresh(self, key: ChannelKey, encounter_id: int | None = None) -> None:
        """Refresh the tracker of `key` now and wait until it shows the newest state."""
        task = self.schedule(key, encounter_id)
        if task is not None:
            await asyncio.shield(task)

    async def repost(self, key: ChannelKey, channel: object = None) -> int | None:
        """Post the tracker anew at the bottom of the channel (the old message is deleted); the new message's
        id, or None when there is no active encounter or the bot may not post there. In a forum post the
        tracker stays where it is: it is refreshed in place and its id returned. `channel` is accepted
        for convenience and ignored: the tracker always goes to the encounter's own channel."""
        slot = self._slot(key)
        async with slot.lock:
            rendered = await self._render(key, slot)
            if rendered is None or not rendered.active:
                return None
            old = await self._message_id(key, slot, rendered.encounter_id)
            if old is not None and self.stays(key):
                await self._edit(key, slot, rendered, old, replace_missing=True)
                return slot.message_id
            new = await self._post(key, slot, rendered)
            if new is not None and old is not None and old != new:
                await self._delete(key, slot, old)
            return new

    def claim_ask(self, key: ChannelKey) -> bool:
        """Whether a repost asked for now (`/encounter status`) may go ahead: at most one every `ASK_GAP`
        seconds a channel, claimed at once (ten asks at the same moment repost once); `release_ask` when the
        repost didn't happen."""
        slot = self._slot(key)
        now = asyncio.get_running_loop().time()
        if now - slot.asked_at < ASK_GAP:
            return False
        slot.asked_at = now
        return True

    def release_ask(self, key: ChannelKey) -> None:
        """The repost `claim_ask` allowed didn't happen: the next ask may try at once."""
        self._slot(key).asked_at = float("-inf")

    def stays(self, key: ChannelKey) -> bool:
        """True in a forum post (a thread whose parent is a forum channel): the tracker doesn't move there."""
        parent = key.parent_id
        if parent is None:
            parent = getattr(self.bot.get_channel(key.channel_id), "parent_id", None)
        return parent is not None and isinstance(self.bot.get_channel(parent), discord.ForumChannel)

    def where_text(self, key: ChannelKey) -> str:
        """Where `repost` left the tracker, in a word to the member who asked."""
        link = self.link(key)
        if self.stays(key) and link is not None:
            return f"📌 In a forum post the tracker stays where it is: [jump to the tracker]({link})."
        return "📌 The tracker is at the bottom again."

    def encounter_id(self, key: ChannelKey) -> int | None:
        """The encounter whose tracker this process keeps in `key` (None: none known here)."""
        slot = self._slots.get(key)
        return slot.encounter_id if slot is not None else None

    def link(self, key: ChannelKey) -> str | None:
        """The jump link of the channel's tracker as this process knows it (no database read)."""
        slot = self._slots.get(key)
        if slot is None or slot.message_id is None or slot.known_for is None:
            return None
        return jump_link(key.guild_id, key.channel_id, slot.message_id)

    async def find_link(self, key: ChannelKey, encounter_id: int | None) -> str | None:
        """The tracker's jump link: known here, else read from the store (the first ping after a restart)."""
        known = self.link(key)
        if known is not None or encounter_id is None:
            return known
        slot = self._slots.get(key)
        if slot is not None and slot.known_for == encounter_id:
            return None  # looked up here already: its tracker isn't posted yet (no read per ping meanwhile)
        found = await self._store().tracker_of(encounter_id, guild_id=key.guild_id)
        return None if found is None else jump_link(key.guild_id, *found)

    async def close(self) -> None:
        """Stop scheduling; give edits in flight `CLOSE_WAIT` seconds to finish, then cancel them (the bot is
        closing: the next start renders the newest state on the next change anyway)."""
        self.closed = True
        tasks = [slot.task for slot in self._slots.values() if slot.task is not None]
        if not tasks:
            return
        _done, pending = await asyncio.wait(tasks, timeout=CLOSE_WAIT)
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending)

    # -- the worker ------------------------------------------------------------------------------------
    def _slot(self, key: ChannelKey) -> _Slot:
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots[key] = _Slot()
        return slot

    async def _work(self, key: ChannelKey, slot: _Slot) -> None:
        failures = 0
        loop = asyncio.get_running_loop()
        try:
            await asyncio.sleep(0)  # let commits queued in the same loop turn join this pass
            while slot.dirty:
                wait = slot.passed_at + EDIT_GAP * (1 + random.random() * EDIT_JITTER) - loop.time()
                if wait > 0 and not self.closed:
                    await asyncio.sleep(wait)  # changes made meanwhile join this pass
                try:
                    await self._pacer.turn()  # before rendering: see "Pacing"
                    async with slot.lock:
                        slot.passed_at = loop.time()
                        slot.dirty = False
                        slot.paced = True
                        try:
                            await self._update(key, slot)
                        finally:
                            slot.paced = False
                    failures = 0
                except (StoreUnavailable, discord.DiscordServerError) as error:  # try again a little later
                    failures += 1
                    if failures > len(RETRY_DELAYS) or self.closed:
                        log.warning("tracker: gave up refreshing channel %s: %s", key.channel_id, error)
                        continue
                    log.warning("tracker: channel %s not refreshed (%s); retrying", key.channel_id, error)
                    slot.dirty = True
                    await asyncio.sleep(RETRY_DELAYS[failures - 1])
                except CannotSave:  # a full disk or read-only database: the store has logged it once
                    continue
                except Exception:  # never crash the loop: the next change renders the newest state
                    log.exception("tracker update failed for channel %s", key.channel_id)
        finally:
            slot.task = None

    async def _update(self, key: ChannelKey, slot: _Slot) -> None:
        await self._save(key, slot)
        rendered = await self._render(key, slot)
        if rendered is None:
            return
        self._tell(key, rendered.seen)
        message_id = await self._message_id(key, slot, rendered.encounter_id)
        if not rendered.active:
            if message_id is not None:
                await self._edit(key, slot, rendered, message_id, replace_missing=False)
                if slot.pin_refused != rendered.encounter_id:
                    await self._unpin(key, slot, message_id)
            slot.encounter_id = slot.message_id = slot.known_for = None
            slot.since_post, slot.unsaved = 0, False
            return
        if message_id is None:
            if slot.skip_posts > 0:
                slot.skip_posts -= 1
            else:
                await self._post(key, slot, rendered)
        elif slot.since_post >= REPOST_AFTER and slot.pinned is False and not self.stays(key):
            new = await self._post(key, slot, rendered)
            if new is not None:
                await self._delete(key, slot, message_id)
        else:
            await self._edit(key, slot, rendered, message_id, replace_missing=True)

    async def _render(self, key: ChannelKey, slot: _Slot) -> _Rendered | None:
        """The newest state of the channel's encounter, rendered (None when there is nothing to show)."""
        store = self._store()
        table = await store.view(key, shared=True)
        doc = table.encounter
        settings = await store.get_settings(key.guild_id)
        if doc is not None and doc.active and doc.id is not None and doc.kind != COMBAT:
            slot.encounter_id = doc.id
            return self._scene(doc.id, doc.name, doc.state, table.version, doc.director_id, True, settings)
        if doc is not None and doc.active and doc.id is not None:
            encounter = encounter_of(table)
            names = resource_names(table, encounter)
            view = TrackerView(doc.name, table.tokens, settings.show_monster_stamina, resource_names=names)
            slot.encounter_id = doc.id
            controls = tracker_view(doc.id, table.version, encounter)
            seen = Seen(doc.id, encounter, table.version, doc.director_id, True)
            return _Rendered(doc.id, render_tracker(encounter, view), controls, True, seen)
        if slot.encounter_id is None:
            return None
        info = await store.find_encounter(slot.encounter_id, guild_id=key.guild_id)
        if info is None or info.active or info.channel_id != key.channel_id:
            return None
        if scene_kind(info.state) != COMBAT:
            return self._scene(
                info.id, info.name, info.state, table.version, info.director_id, False, settings
            )
        ended = codec.load(Encounter, info.state)
        view = TrackerView(info.name, table.tokens, settings.show_monster_stamina)
        seen = Seen(info.id, ended, table.version, info.director_id, False)
        return _Rendered(info.id, render_final(ended, view), None, False, seen)

    def _scene(
        self,
        encounter_id: int,
        name: str,
        state: dict[str, Any],
        version: int,
        director_id: int,
        active: bool,
        settings: GuildSettings,
    ) -> _Rendered | None:
        """A scene other than combat, rendered by its feature's renderer (None when no loaded one does)."""
        renderer = scene_renderer(scene_kind(state))
        if renderer is None:
            return None
        shown = renderer(name, state, encounter_id, version, active, settings)
        seen = Seen(encounter_id, None, version, director_id, active, shown.wait)
        return _Rendered(encounter_id, shown.embed, shown.view, active, seen)

    async def _message_id(self, key: ChannelKey, slot: _Slot, encounter_id: int) -> int | None:
        """The tracker message of `encounter_id`: remembered, or read from the store (after a restart)."""
        if slot.known_for != encounter_id:
            found = await self._store().tracker_of(encounter_id, guild_id=key.guild_id)
            slot.message_id = found[1] if found is not None else None
            slot.known_for, slot.pinned = encounter_id, None
        return slot.message_id

    # -- Discord I/O -----------------------------------------------------------------------------------
    async def _turn(self, slot: _Slot) -> None:
        """Wait for the pacer's turn to start a request (the first of a refresh pass has it already)."""
        if slot.paced:
            slot.paced = False
            return
        await self._pacer.turn()

    def _channel(self, key: ChannelKey) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(key.channel_id, guild_id=key.guild_id)

    async def _post(self, key: ChannelKey, slot: _Slot, rendered: _Rendered) -> int | None:
        try:
            await self._turn(slot)
            message = await post(self._channel(key), embed=rendered.embed, view=rendered.view)
        except discord.Forbidden:
            log.warning("tracker: no permission to post in channel %s", key.channel_id)
            slot.skip_posts = POST_RETRY_AFTER
            return None
        except discord.DiscordServerError:  # 5xx after discord.py's own retries (it never retries 503)
            raise
        except discord.HTTPException as error:
            log.warning("tracker: posting in channel %s failed: %s", key.channel_id, error)
            return None
        slot.message_id, slot.known_for, slot.since_post = message.id, rendered.encounter_id, 0
        slot.unsaved, slot.skip_posts, slot.pinned = True, 0, False
        await self._save(key, slot)
        await self._pin(key, slot, message.id, rendered.encounter_id)
        return message.id

    async def _pin(self, key: ChannelKey, slot: _Slot, message_id: int, encounter_id: int) -> None:
        """Pin a posted tracker; when Discord refuses, say once per encounter which permission to grant."""
        if slot.pin_refused == encounter_id:
            return
        await self._turn(slot)
        try:
            await self._channel(key).get_partial_message(message_id).pin(reason="The encounter's tracker")
            slot.pinned = True
            await self._drop_pin_notice(key, slot, message_id)
        except discord.Forbidden:
            log.info("tracker: no permission to pin in channel %s", key.channel_id)
            slot.pin_refused = encounter_id
            await self._turn(slot)
            try:
                await post(self._channel(key), content=PIN_REFUSED)
            except discord.HTTPException as error:
                log.info("tracker: couldn't say the pin was refused in %s: %s", key.channel_id, error)
        except discord.HTTPException as error:  # e.g. the channel's 50 pins are taken: carry on
            log.info("tracker: pinning in channel %s failed: %s", key.channel_id, error)

    async def _drop_pin_notice(self, key: ChannelKey, slot: _Slot, message_id: int) -> None:
        """Delete Discord's "pinned a message" notice for the tracker just pinned: the channel's pins lead to
        the tracker, and the notice is one more line in the channel for every repost. Without the intents
        the bot sees no messages, so it reads the few posted after the tracker. The notice's author is the
        bot (who pinned), so it may delete it; when Discord refuses (no Read Message History), it stays."""
        await self._turn(slot)
        try:
            async for message in self._channel(key).history(
                limit=PIN_NOTICE_WITHIN, after=discord.Object(message_id)
            ):
                reference = message.reference
                mine = self.bot.user is not None and message.author.id == self.bot.user.id
                if (
                    message.type is discord.MessageType.pins_add
                    and mine
                    and (reference is None or reference.message_id == message_id)
                ):
                    await self._turn(slot)
                    await message.delete()
                    return
        except discord.DiscordServerError:  # the notice is noise, not worth a retry
            log.info("tracker: pin notice in channel %s not read (server error)", key.channel_id)
        except discord.HTTPException as error:  # no permission to read or delete: it stays
            log.info("tracker: pin notice in channel %s not deleted: %s", key.channel_id, error)

    async def _unpin(self, key: ChannelKey, slot: _Slot, message_id: int) -> None:
        await self._turn(slot)
        try:
            await self._channel(key).get_partial_message(message_id).unpin(reason="The encounter ended")
        except discord.HTTPException as error:  # not pinned, gone, or no permission: nothing to undo
            log.info("tracker: message %s not unpinned: %s", message_id, error)

    def _tell(self, key: ChannelKey, seen: Seen) -> None:
        for observer in self.observers:
            try:
                observer(key, seen)
            except Exception:
                log.exception("tracker observer %r failed", observer)

    async def _save(self, key: ChannelKey, slot: _Slot) -> None:
        """Store the posted tracker's id (a busy store raises; the next pass tries again)."""
        if slot.unsaved and slot.known_for is not None and slot.message_id is not None:
            await self._store().set_tracker(
                slot.known_for, key.channel_id, slot.message_id, guild_id=key.guild_id
            )
            slot.unsaved = False

    async def _edit(
        self, key: ChannelKey, slot: _Slot, rendered: _Rendered, message_id: int, *, replace_missing: bool
    ) -> None:
        message = self._channel(key).get_partial_message(message_id)
        await self._turn(slot)
        try:
            edited = await edit(message, embed=rendered.embed, view=rendered.view)
            slot.pinned = edited.pinned  # after a restart: known from the first edit
        except discord.NotFound:
            log.info("tracker message %s in channel %s is gone", message_id, key.channel_id)
            if replace_missing:
                await self._post(key, slot, rendered)
        except discord.Forbidden:
            log.warning("tracker: no permission to edit in channel %s", key.channel_id)
        except discord.DiscordServerError:  # 5xx after discord.py's own retries: the worker tries again
            raise
        except discord.HTTPException as error:
            log.warning("tracker: editing in channel %s failed: %s", key.channel_id, error)

    async def _delete(self, key: ChannelKey, slot: _Slot, message_id: int) -> None:
        await self._turn(slot)
        try:
            await self._channel(key).get_partial_message(message_id).delete()
        except discord.HTTPException as error:  # gone already, or no permission: the new one is posted
            log.info("tracker: old message %s not deleted: %s", message_id, error)

    def _store(self) -> Store:
        return self.bot.store


_SERVICES = PerBot(TrackerService)


def tracker_for(bot: DrawSteelBot) -> TrackerService:
    """The bot's tracker service (one per bot, created on first use)."""
    return _SERVICES(bot)
