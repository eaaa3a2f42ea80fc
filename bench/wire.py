"""Wire benchmark: the real `python -m bot` against the loopback fake Discord, with the floor — a bare
discord.py bot that only acknowledges (bench/floor_bot.py) — measured the same way in the same run.

    .venv/bin/python bench/wire.py [--quick] [--sizes 10,10000] [--seconds 8] [--postgres URL]

Each scenario runs sequentially and closed-loop with 1, 10 and 100 channels in flight, after a warm-up, in
windows alternating with the floor; scenarios switch on when the bot registers their command. What is
measured and how: docs/performance.md, *How it is measured*.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.rules import codec  # noqa: E402
from bot.rules.encounter import Encounter, flow  # noqa: E402
from bot.rules.turns import Controller, TurnState, current, eligible, start_turn  # noqa: E402
from bot.store import ChannelKey, Store  # noqa: E402
from bot.store.models import channels as channels_table  # noqa: E402
from tests.wire.fake_discord import EPHEMERAL, FakeChannel, FakeDiscord, FakeGuild, FakeMember  # noqa: E402
from tests.wire.harness import (  # noqa: E402
    BOT_ARGV,
    FLOOR_ARGV,
    BotProcess,
    added_up,
    bot_env,
    cpu_seconds,
    encounter_state,
    seed_encounters,
)

Json = dict[str, Any]
IN_FLIGHT = (1, 10, 100)
SEQUENTIAL_MODE = "sequential"
MODES = (SEQUENTIAL_MODE, *(f"{n} in flight" for n in IN_FLIGHT))
GROWTH_MODES = MODES[1:3]  # 1 and 10 in flight: the growth table's
SEQUENTIAL = 300  # interactions measured sequentially (a 10 ms idle gap before each)
SEQUENTIAL_WITHIN = 30.0  # seconds a sequential window may take at most (a stalled bot)
#: The windows of one measurement, the floor's alternating with the bot's in this order, all as long (the
#: bot's four make its `--seconds`). Each half cancels a steady drift of the machine's speed; two halves make
#: a burst of slowness (this machine has them, a second or so long) less likely to fall on one side only.
BOT, FLOOR = "bot", "floor"
WINDOWS = (FLOOR, BOT, BOT, FLOOR, FLOOR, BOT, BOT, FLOOR)
REPLY_WITHIN = 10.0
START_WITHIN = 60.0
GUILDS = 10
CHANNELS_PER_GUILD = 100  # 1,000 channels the bot knows: the "active" ones of part 2
TRACKER_CHANNEL = 150  # a seeded channel no scenario uses before start-up is measured
FILLER_GUILD = 4_000_000_000_000_000  # stored encounters in channels the bot never sees
APOLOGY_HINTS = ("went wrong", "unexpected")
#: The floor's two kinds of interaction: a slash command, and a click on a tracker message (discord.py also
#: parses the message a component interaction carries, and rebuilds its view for a persistent item).
SLASH, CLICK = "slash command", "click on a tracker message"


# ----------------------------------------------------------------------------------------------- seeding


def copy_database(source: Path, target: Path) -> None:
    """Copy a closed SQLite database (with its WAL files, if any are left)."""
    for suffix in ("", "-wal", "-shm"):
        path = Path(f"{source}{suffix}")
        if path.exists():
            shutil.copy(path, Path(f"{target}{suffix}"))


# ------------------------------------------------------------------------------------------- the world


@dataclass
class World:
    """The fake Discord with `GUILDS` guilds of `CHANNELS_PER_GUILD` channels each."""

    fake: FakeDiscord
    channels: list[tuple[FakeGuild, FakeChannel]]
    turns: TurnDriver = field(init=False)
    clicks: TurnDriver = field(init=False)
    store: Store | None = None  # the bot's database, opened by the benchmark to read turn states
    cursor: int = 0  # channels (from the end) taken up by the turn drivers in this bot run
    slots: dict[int, Slot] = field(default_factory=dict)  # worker's channel id -> the channel it plays
    only: tuple[str, ...] = ()  # `--only`: the scenarios whose names contain one of these (none: every one)

    def __post_init__(self) -> None:
        self.turns = TurnDriver(self)
        self.clicks = TurnDriver(self, clicks=True)

    async def open_store(self, url: str) -> None:
        """A new bot run on the database at `url`: the turn drivers start over."""
        await self.close_store()
        self.store = await Store.open(url, migrate=False)
        self.cursor = 0
        self.slots.clear()

    async def close_store(self) -> None:
        if self.store is not None:
            await self.store.close()
            self.store = None

    @classmethod
    def build(cls) -> World:
        fake = FakeDiscord()
        for i in range(1, GUILDS):
            fake.add_guild(f"Bench Guild {i + 1}")
        # The same people in every guild (as on Discord): the seeded heroes belong to one alice everywhere.
        alice, dana = fake.member("alice").user, fake.member("dana").user
        for guild in fake.guilds[1:]:
            fake.member("alice", guild).user = alice
            fake.member("dana", guild).user = dana
        channels: list[tuple[FakeGuild, FakeChannel]] = []
        for guild in fake.guilds:
            channels.append((guild, guild.channel))
            for n in range(CHANNELS_PER_GUILD - 1):
                channels.append((guild, fake.add_channel(f"table-{n}", guild)))
        return cls(fake, channels)

    def director(self, guild: FakeGuild) -> FakeMember:
        return self.fake.member("owner", guild)

    def player(self, guild: FakeGuild) -> FakeMember:
        return self.fake.member("alice", guild)

    def keys(self) -> list[ChannelKey]:
        return [ChannelKey(g.id, c.id) for g, c in self.channels]


def filler_keys(count: int) -> list[ChannelKey]:
    return [ChannelKey(FILLER_GUILD, FILLER_GUILD + 1 + i) for i in range(count)]


# ------------------------------------------------------------------------------------------- scenarios

Sender = Callable[[FakeGuild, FakeChannel], Awaitable[int]]


@dataclass
class Scenario:
    """A measured interaction: `send` dispatches one in a channel and returns its id."""

    name: str
    command: str | None  # the registered command it needs (None: always available)
    send: Sender
    needs: tuple[str, ...] = ()  # option names the command must have
    floor: str = SLASH  # the floor it is compared with: `SLASH` or `CLICK`


def command_options(fake: FakeDiscord, name: str) -> set[str]:
    for command in fake.global_commands:
        if command["name"] == name:
            return {o["name"] for o in command.get("options") or []}
    return set()


def registered(fake: FakeDiscord) -> set[str]:
    return {c["name"] for c in fake.global_commands}


def scenarios(world: World) -> list[Scenario]:
    fake = world.fake

    async def dice(guild: FakeGuild, channel: FakeChannel) -> int:
        return await fake.slash(
            "dice", {"expression": "2d6"}, guild=guild, channel=channel, user=world.player(guild)
        )

    async def roll(guild: FakeGuild, channel: FakeChannel) -> int:
        return await fake.slash("roll", {"bonus": 2}, guild=guild, channel=channel, user=world.player(guild))

    async def strike(guild: FakeGuild, channel: FakeChannel) -> int:
        options = {"targets": "Goblin 1, Goblin 2", "damage": "3/6/9", "attacker": "Ash", "bonus": 2}
        return await fake.slash("strike", options, guild=guild, channel=channel, user=world.player(guild))

    async def strike_ability(guild: FakeGuild, channel: FakeChannel) -> int:
        # every hero has the standard abilities: the seeded encounters stay as they are
        options = {"targets": "Goblin 1, Goblin 2", "ability": "Melee Weapon Free Strike", "attacker": "Ash"}
        return await fake.slash("strike", options, guild=guild, channel=channel, user=world.player(guild))

    every = [
        Scenario("/dice 2d6", "dice", dice, ("expression",)),
        Scenario("/roll bonus:2", "roll", roll, ("bonus",)),
        Scenario("/strike on a 12-creature encounter (2 targets)", "strike", strike, ("targets", "damage")),
        Scenario(
            "/strike ability: (the melee free strike, 2 targets)",
            "strike",
            strike_ability,
            ("targets", "ability"),
        ),
        Scenario("turn change (/turn act, /turn end)", "turn", world.turns.send, ("act", "end")),
        Scenario(
            "tracker clicks (who-acts select, End turn button)",
            "turn",
            world.clicks.send,
            ("act", "end"),
            CLICK,
        ),
    ]
    return [s for s in every if not world.only or any(part in s.name for part in world.only)]


async def _not_built(guild: FakeGuild, channel: FakeChannel) -> int:
    raise NotYet("the command is not built yet")


class NotYet(Exception):
    """A scenario whose command has not landed: reported as "not yet"."""


class Exhausted(Exception):
    """A scenario has nothing left to do in this run (every seeded round has been played)."""


@dataclass
class Slot:
    """The channel a turn-driving worker is playing through."""

    guild: FakeGuild
    channel: FakeChannel
    encounter: Encounter  # as the bot has it, as far as turns go
    encounter_id: int
    version: int | None = None  # the channel's stored version, as far as the driver knows (None: read it)
    last: int | None = None  # the interaction sent last here (its outcome tells the next version)

    @property
    def state(self) -> TurnState:
        return self.encounter.turns


class TurnDriver:
    """Turn changes as players make them: `/turn act combatant:<first creature that may act>` by its
    controller (alice for the heroes, the Director for the goblins), then `/turn end` — or, with `clicks`, the
    same through the tracker's controls: its "who acts now" select (`enc:pick:<encounter>:<version>`) and
    its End turn button (`enc:end:<encounter>:<version>`), with the channel's current version (read from the
    database when a channel is taken up or after an interaction that may not have changed it — a refusal, a
    deferral, no answer — and otherwise counted up by one per answered change: the tracker's own writes
    don't bump it, and reading it before every click cost the load generator as much CPU as the bot spends
    on the click). Each closed-loop worker plays one channel (taken
    up from the end of the list, away from the channels `/strike` uses; both drivers share the channels),
    round after round. A channel's encounter is read from the store when it is taken up, then advanced
    locally by the same rules the bot applies (`bot.rules.encounter.flow`: a finished round starts the next
    one)."""

    def __init__(self, world: World, *, clicks: bool = False) -> None:
        self.world = world
        self.clicks = clicks
        self.slots = world.slots  # shared: the click driver plays on where the slash-command one stopped

    async def _take_up(self) -> Slot:
        store = self.world.store
        assert store is not None
        channels = self.world.channels
        while self.world.cursor < len(channels):
            guild, channel = channels[len(channels) - 1 - self.world.cursor]
            self.world.cursor += 1
            table = await store.view(ChannelKey(guild.id, channel.id))
            if table.encounter is None or table.encounter.id is None:
                continue
            encounter = codec.load(Encounter, table.encounter.state)
            state = encounter.turns
            if eligible(state) or current(state) is not None:
                return Slot(guild, channel, encounter, table.encounter.id, table.version)
        raise Exhausted("every seeded round has been played")

    def _member(self, guild: FakeGuild, state: TurnState, entry_id: str) -> tuple[FakeMember, Controller]:
        entry = next(e for e in state.entries if e.id == entry_id)
        side = state.side(entry.side)
        assert side is not None
        if side.controller is Controller.PLAYERS:
            return self.world.player(guild), Controller.PLAYERS
        return self.world.director(guild), Controller.DIRECTOR

    async def _version(self, slot: Slot) -> int:
        """The channel's version now: one more than before the last interaction when the bot answered it
        with a change, else read from the database."""
        fake = self.world.fake
        if slot.last is not None and slot.version is not None:
            record = fake.interactions[slot.last]
            changed = record.response_type in (4, 7) and refusal(fake, slot.last) is None
            slot.version = slot.version + 1 if changed else None
        if slot.version is None:
            store = self.world.store
            assert store is not None
            async with store.engine.connect() as connection:
                result = await connection.execute(
                    sa.select(channels_table.c.version).where(channels_table.c.id == slot.channel.id)
                )
                slot.version = int(result.scalar_one())
        return slot.version

    async def send(self, guild: FakeGuild, channel: FakeChannel) -> int:
        slot = self.slots.get(channel.id)
        while True:
            if slot is None:
                slot = await self._take_up()
                self.slots[channel.id] = slot
            state = slot.state
            turn = current(state)
            if turn is not None:
                member, _ = self._member(slot.guild, state, turn.entry)
                after = flow.end_turn(slot.encounter).encounter  # a finished round starts the next one
                sent = await self._end(slot, member)
                self._sent(slot, after, sent)
                return sent
            ready = eligible(state)
            if not ready:
                slot = None
                continue
            member, by = self._member(slot.guild, state, ready[0])
            after = slot.encounter.with_turns(start_turn(state, ready[0], by).state)
            sent = await self._act(slot, member, ready[0])
            self._sent(slot, after, sent)
            return sent

    def _sent(self, slot: Slot, after: Encounter, interaction_id: int) -> None:
        slot.encounter, slot.last = after, interaction_id
        if not self.clicks:  # only the click driver counts versions; the next click reads it afresh
            slot.version = None

    async def _act(self, slot: Slot, member: FakeMember, entry: str) -> int:
        fake = self.world.fake
        if self.clicks:
            message, custom_id = self._control(slot, await self._version(slot), "enc:pick:")
            return await fake.click(
                message, custom_id, guild=slot.guild, user=member, component_type=3, values=[entry]
            )
        option = {"name": "combatant", "type": 3, "value": entry}
        act = {"name": "act", "type": 1, "options": [option]}
        return await fake.slash(
            "turn", guild=slot.guild, channel=slot.channel, user=member, raw_options=[act]
        )

    async def _end(self, slot: Slot, member: FakeMember) -> int:
        fake = self.world.fake
        if self.clicks:
            message, custom_id = self._control(slot, await self._version(slot), "enc:end:")
            return await fake.click(message, custom_id, guild=slot.guild, user=member)
        end = {"name": "end", "type": 1, "options": []}
        return await fake.slash(
            "turn", guild=slot.guild, channel=slot.channel, user=member, raw_options=[end]
        )

    def _control(self, slot: Slot, version: int, prefix: str) -> tuple[Json, str]:
        """The tracker message the click is made on, with the controls the bot renders for this state and
        version (`tracker_view`), and the custom id of its control starting with `prefix` (as rendered: it
        carries more than the encounter and the version). A fresh copy per click stands in for the bot's own
        tracker message: looking that up among every recorded message would slow the load generator down,
        and the controls are persistent items, so the message they sit on doesn't change what a press does."""
        from exts.tracker._controls import tracker_view

        view = tracker_view(slot.encounter_id, version, slot.encounter)
        components: list[Json] = view.to_components()
        custom_id = next(
            str(item["custom_id"])
            for row in components
            for item in row.get("components", [])
            if str(item.get("custom_id") or "").startswith(prefix)
        )
        data = {"components": components, "embeds": []}
        return self.world.fake.add_message(slot.channel, data), custom_id


def availability(fake: FakeDiscord, scenario: Scenario) -> str | None:
    """None when the scenario can run against the bot that `fake` talks to; else why not."""
    if scenario.send is _not_built:
        return "not yet"
    if scenario.command is not None:
        if scenario.command not in registered(fake):
            return f"not yet (no /{scenario.command})"
        missing = [o for o in scenario.needs if o not in command_options(fake, scenario.command)]
        if missing:
            return f"not yet (/{scenario.command} has no option {', '.join(missing)})"
    return None


def refusal(fake: FakeDiscord, interaction_id: int) -> str | None:
    """The text of an ephemeral refusal or apology, None for a normal reply."""
    record = fake.interactions[interaction_id]
    callback = record.callback
    if callback is None or not isinstance(callback.json, dict):
        return "no callback"
    if record.response_type in (5, 6):  # a deferral: the answer comes later, as a followup or an edit
        return None
    data = callback.json.get("data") or {}
    if int(data.get("flags") or 0) & EPHEMERAL:
        return str(data.get("content") or data.get("embeds") or "ephemeral reply")[:200]
    content = str(data.get("content") or "")
    if any(hint in content.lower() for hint in APOLOGY_HINTS):
        return content[:200]
    return None


# ------------------------------------------------------------------------------------------ measuring


@dataclass
class Sample:
    latencies_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0
    refused: list[str] = field(default_factory=list)
    cpu_seconds: float = 0.0  # the bot (or floor) process's CPU time during the run
    deferred: list[bool] = field(default_factory=list)  # answered with a deferral (type 5 or 6)
    unanswered: int = 0  # no callback within REPLY_WITHIN

    @property
    def cpu_ms_each(self) -> float:
        return self.cpu_seconds * 1000 / self.count if self.count else float("nan")

    @property
    def count(self) -> int:
        return len(self.latencies_ms)

    def p(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return float("nan")
        if q == 50:
            return statistics.median(ordered)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q / 100))]

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds else float("nan")

    @classmethod
    def merged(cls, parts: list[Sample]) -> Sample:
        """One sample of several runs (their windows of one measurement)."""
        return added_up(cls(), parts)


async def settle(fake: FakeDiscord, pid: int, quiet: float = 0.3, within: float = 60.0) -> None:
    """Until the bot has made no REST request and used almost no CPU for `quiet` seconds: its background
    work (tracker refreshes queued behind the replies) is done, and the next run starts from an idle bot."""
    deadline = time.perf_counter() + within
    while time.perf_counter() < deadline:
        seen, cpu = len(fake.requests), cpu_seconds(pid)
        await asyncio.sleep(quiet)
        if len(fake.requests) == seen and cpu_seconds(pid) - cpu < quiet * 0.05:
            return


async def closed_loop(
    fake: FakeDiscord,
    pid: int,
    send: Sender,
    channels: list[tuple[FakeGuild, FakeChannel]],
    *,
    seconds: float,
    gap: float = 0.0,
    per_channel_max: int | None = None,
) -> Sample:
    """Every channel sends, waits for the callback, sends again, for `seconds`; then the bot settles. The rate
    is over the load; the CPU also counts the settling (the tracker refreshes the run left queued)."""
    sample = Sample()
    stop_at = time.perf_counter() + seconds

    async def worker(guild: FakeGuild, channel: FakeChannel) -> None:
        done = 0
        while time.perf_counter() < stop_at and (per_channel_max is None or done < per_channel_max):
            try:
                interaction_id = await send(guild, channel)
            except Exhausted:
                return
            try:
                await fake.wait_for_callback(interaction_id, within=REPLY_WITHIN)
            except TimeoutError:
                sample.unanswered += 1
                continue
            latency = fake.interactions[interaction_id].latency_ms
            assert latency is not None
            sample.latencies_ms.append(latency)
            sample.deferred.append(fake.interactions[interaction_id].response_type in (5, 6))
            problem = refusal(fake, interaction_id)
            if problem is not None:
                sample.refused.append(problem)
            done += 1
            if gap:
                await asyncio.sleep(gap)

    # The fake keeps every request and message it saw: keep them out of this process's garbage collector, and
    # the collector off during the run, so its full passes never stop the load generator inside somebody's
    # measured latency.
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        began, cpu = time.perf_counter(), cpu_seconds(pid)
        await asyncio.gather(*(worker(g, c) for g, c in channels))
        sample.seconds = time.perf_counter() - began
        await settle(fake, pid)  # the work the run left queued is charged to its CPU
    finally:
        gc.enable()
    sample.cpu_seconds = cpu_seconds(pid) - cpu
    return sample


@dataclass
class Row:
    scenario: str
    mode: str
    sample: Sample | None
    note: str = ""
    floor: Sample | None = None  # the floor's, measured in the windows around the bot's (`measure_scenario`)
    floor_kind: str = SLASH


async def window(
    fake: FakeDiscord,
    pid: int,
    send: Sender,
    channels: list[tuple[FakeGuild, FakeChannel]],
    mode: str,
    seconds: float,
) -> Sample:
    """One window of a measurement in `mode` (`MODES`): `seconds` closed-loop with N channels in flight; or,
    sequentially, one channel with a 10 ms idle gap before each interaction, until its share of `SEQUENTIAL`
    interactions is in. A count, not a time: a short (quick) window would leave the p99 of a few dozen
    interactions, which is their slowest one."""
    if mode == SEQUENTIAL_MODE:
        most = SEQUENTIAL // WINDOWS.count(BOT)
        return await closed_loop(
            fake, pid, send, channels[:1], seconds=SEQUENTIAL_WITHIN, gap=0.01, per_channel_max=most
        )
    return await closed_loop(fake, pid, send, mode_channels(channels, mode), seconds=seconds)


def mode_channels(
    channels: list[tuple[FakeGuild, FakeChannel]], mode: str
) -> list[tuple[FakeGuild, FakeChannel]]:
    """The channels a mode's windows send in (`window`)."""
    return channels[:1] if mode == SEQUENTIAL_MODE else channels[: int(mode.split()[0])]


async def warm_up(
    fake: FakeDiscord, pid: int, send: Sender, channels: list[tuple[FakeGuild, FakeChannel]], mode: str
) -> Sample:
    """The first interaction of a mode in each of its channels, all at once, then the bot settles: not part
    of the mode's figures. The first interaction of a scenario in a channel the bot has not served it in is
    a cold one (the channel's encounter read and decoded, its tracker posted and pinned: several times a
    warm one's work), a start-up burst the floor, which keeps nothing per channel, has no counterpart for;
    so they are measured here, on their own (`Results.cold`)."""
    return await closed_loop(
        fake, pid, send, mode_channels(channels, mode), seconds=REPLY_WITHIN, per_channel_max=1
    )


async def measure_scenario(
    world: World, pid: int, send: Sender, seconds: float, floor: Floor, kind: str
) -> dict[str, tuple[Sample, Sample, Sample]]:
    """Every mode, each after its warm-up (`warm_up`, the bot's and the floor's) as `WINDOWS`: the bot's
    windows (`seconds` in all) alternate with the floor's (as long, the floor's `kind` of interaction);
    mode -> (the bot's sample, the floor's, the bot's warm-up)."""
    out: dict[str, tuple[Sample, Sample, Sample]] = {}
    each = seconds / WINDOWS.count(BOT)
    for mode in MODES:
        first = await warm_up(world.fake, pid, send, world.channels, mode)
        await floor.warm_up(kind, mode)
        bot: list[Sample] = []
        paired: list[Sample] = []
        for who in WINDOWS:
            if who == BOT:
                bot.append(await window(world.fake, pid, send, world.channels, mode, each))
            else:
                paired.append(await floor.window(kind, mode, each))
        out[mode] = (Sample.merged(bot), Sample.merged(paired), first)
    return out


def button_ids(components: list[Json]) -> list[str]:
    """The custom ids of the buttons in a message's component rows."""
    return [
        str(item["custom_id"])
        for row in components
        for item in row.get("components", [])
        if item.get("type") == 2 and item.get("custom_id")
    ]


async def stored_tracker(world: World, url: str) -> tuple[FakeGuild, FakeChannel, Json, str] | None:
    """A tracker message for a stored encounter nobody has touched since the bot started (its controls built
    by `exts.tracker._controls.tracker_view`, as the bot posted it before a restart) and the custom id of its
    first button; None while the tracker has no buttons."""
    from exts.tracker._controls import tracker_view

    guild, channel = world.channels[TRACKER_CHANNEL]
    store = await Store.open(url, migrate=False)
    try:
        table = await store.view(ChannelKey(guild.id, channel.id))
    finally:
        await store.close()
    if table.encounter is None or table.encounter.id is None:
        return None
    view = tracker_view(table.encounter.id, table.version, codec.load(Encounter, table.encounter.state))
    components: list[Json] = view.to_components()
    buttons = button_ids(components)
    if not buttons:
        return None
    return guild, channel, {"components": components, "embeds": []}, buttons[0]


async def start_process(
    world: World,
    argv: tuple[str, ...],
    workdir: Path,
    url: str,
    *,
    floor: bool = False,
    tracker: tuple[FakeGuild, FakeChannel, Json, str] | None = None,
) -> tuple[BotProcess, dict[str, float]]:
    """Spawn, wait for commands (bot) and every gateway session ready, answer one /dice, and (with
    `tracker`) a click on a stored encounter's tracker button; timings from the spawn."""
    fake = world.fake
    seen = len(fake.requests)
    proc = await BotProcess.spawn(argv, bot_env(fake, url), workdir)
    marks: dict[str, float] = {}
    loop = asyncio.get_running_loop()
    try:
        if not floor:
            synced = fake.wait_for_request(
                lambda r: r.method == "PUT" and r.path.endswith("/commands"), within=START_WITHIN, after=seen
            )
            await proc.unless_it_exits(synced)
            marks["commands synced"] = loop.time() - proc.started_at
        await proc.unless_it_exits(fake.wait_until_ready(within=START_WITHIN))
        marks["gateway ready"] = loop.time() - proc.started_at
        guild, channel = world.channels[0]
        first = await fake.slash("dice", {"expression": "1d6"}, guild=guild, channel=channel)
        await proc.unless_it_exits(fake.wait_for_callback(first, within=START_WITHIN))
        marks["first interaction answered"] = loop.time() - proc.started_at
        if tracker is not None:
            guild, channel, data, custom_id = tracker
            message = fake.add_message(channel, data)
            clicked = await fake.click(message, custom_id, guild=guild, user=world.director(guild))
            await proc.unless_it_exits(fake.wait_for_callback(clicked, within=START_WITHIN))
            marks["stored encounter's tracker button answered"] = loop.time() - proc.started_at
    except BaseException:
        await proc.stop()
        raise
    return proc, marks


# ------------------------------------------------------------------------------------------------ runs


@dataclass
class Results:
    floor_rss_kib: dict[str, int] = field(default_factory=dict)
    floor_start: dict[str, float] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)
    cold: list[Row] = field(default_factory=list)  # each mode's warm-up (`warm_up`)
    growth: list[tuple[int, str, dict[str, Sample]]] = field(default_factory=list)
    memory: dict[str, int] = field(default_factory=dict)
    start: dict[str, float] = field(default_factory=dict)
    seed_seconds: dict[int, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


@dataclass
class Floor:
    """The floor, running for the whole benchmark beside the bot in a fake Discord of its own (a world like
    the bot's), measured in windows that alternate with the bot's (`measure_scenario`): the machine's speed
    drifts by a third within minutes here, and a ratio means something only when both sides saw the same
    moments. It answers any interaction; `/dice` is registered in its fake only so that `slash` can send it.
    Its clicks are on a tracker message as the bot renders it (`tracker_view` of a seeded encounter)."""

    world: World
    proc: BotProcess
    sends: dict[str, Sender]

    @classmethod
    async def start(cls, workdir: Path, out: Results) -> Floor:
        from exts.tracker._controls import tracker_view

        world = World.build()
        fake = world.fake
        await fake.start()
        try:
            fake.preload_commands([{"id": str(fake.snowflake()), "name": "dice", "type": 1, "options": []}])
            proc, marks = await start_process(world, FLOOR_ARGV, workdir / "floor", "unused", floor=True)
        except BaseException:
            await fake.stop()
            raise
        out.floor_start = marks
        out.floor_rss_kib["idle"] = proc.rss_kib()
        player = world.player(world.channels[0][0])
        view = tracker_view(1, 1, codec.load(Encounter, encounter_state(player.user.id)))
        data = {"components": view.to_components(), "embeds": []}
        end_button = next(b for b in button_ids(data["components"]) if b.startswith("enc:end:"))

        async def slash(guild: FakeGuild, channel: FakeChannel) -> int:
            return await fake.slash("dice", {"expression": "2d6"}, guild=guild, channel=channel)

        async def click(guild: FakeGuild, channel: FakeChannel) -> int:
            message = fake.add_message(channel, data)  # as the turn driver's clicks do
            return await fake.click(message, end_button, guild=guild, user=world.player(guild))

        return cls(world, proc, {SLASH: slash, CLICK: click})

    async def window(self, kind: str, mode: str, seconds: float) -> Sample:
        return await window(
            self.world.fake, self.proc.pid, self.sends[kind], self.world.channels, mode, seconds
        )

    async def warm_up(self, kind: str, mode: str) -> Sample:
        return await warm_up(self.world.fake, self.proc.pid, self.sends[kind], self.world.channels, mode)

    async def stop(self, out: Results) -> None:
        out.floor_rss_kib["after the load"] = self.proc.rss_kib()
        try:
            await self.proc.stop()
        finally:
            await self.world.fake.stop()


async def run_bot(
    world: World,
    url: str,
    size: int,
    workdir: Path,
    seconds: float,
    out: Results,
    floor: Floor,
    *,
    full: bool,
) -> None:
    """Start the bot on a store with `size` encounters; measure every available scenario (every mode, paired
    with the floor, when `full`; else 1 and 10 in flight for the growth table)."""
    fake = world.fake
    fake.global_commands = []
    tracker = await stored_tracker(world, url) if size > TRACKER_CHANNEL else None
    if tracker is None and full:
        seeded = size > TRACKER_CHANNEL
        reason = "not yet (the tracker has none)" if seeded else "not run (too few encounters)"
        out.notes.append(f"a stored encounter's tracker button after start-up: {reason}")
    proc, marks = await start_process(world, BOT_ARGV, workdir / f"bot-{size}", url, tracker=tracker)
    await world.open_store(url)
    try:
        out.start[f"{size:,} stored encounters"] = marks["first interaction answered"]
        if full:
            out.start.update({f"{k} ({size:,} stored)": v for k, v in marks.items()})
            out.memory[f"bot idle, {size:,} stored encounters"] = proc.rss_kib()
        for scenario in scenarios(world):
            why = availability(fake, scenario)
            if why is not None:
                if full:
                    out.rows.append(Row(scenario.name, "", None, why))
                continue
            guild, channel = world.channels[0]
            try:
                probe = await scenario.send(guild, channel)
            except Exhausted as exhausted:
                out.rows.append(Row(scenario.name, "", None, f"not run: {exhausted}"))
                continue
            try:
                await fake.wait_for_callback(probe, within=REPLY_WITHIN)
            except TimeoutError:
                out.rows.append(Row(scenario.name, "", None, f"no answer within {REPLY_WITHIN:.0f} s"))
                continue
            problem = refusal(fake, probe)
            if problem is not None:
                if full:
                    out.rows.append(Row(scenario.name, "", None, f"refused: {problem}"))
                continue
            if full:
                measured = await measure_scenario(
                    world, proc.pid, scenario.send, seconds, floor, scenario.floor
                )
                for mode, (sample, paired, first) in measured.items():
                    out.rows.append(Row(scenario.name, mode, sample, floor=paired, floor_kind=scenario.floor))
                    out.cold.append(Row(scenario.name, mode, first))
                samples = {mode: sample for mode, (sample, _paired, _first) in measured.items()}
            else:
                samples = {}
                for mode in GROWTH_MODES:
                    await warm_up(fake, proc.pid, scenario.send, world.channels, mode)
                    samples[mode] = await window(fake, proc.pid, scenario.send, world.channels, mode, seconds)
            out.growth.append((size, scenario.name, samples))
        if full:
            await activate(world, out, proc)
    finally:
        await world.close_store()
        await proc.stop()


async def activate(world: World, out: Results, proc: BotProcess) -> None:
    """Part 2: one store-touching interaction in each of the 1,000 channels, then resident memory."""
    fake = world.fake
    store_scenarios = [  # /strike reads and writes the channel's encounter; /roll only reads the roster
        s for s in scenarios(world) if s.command in ("strike", "roll") and availability(fake, s) is None
    ]
    store_scenarios.sort(key=lambda s: s.command != "strike")
    if not store_scenarios:
        out.notes.append("1,000 active channels: not yet (no command that reads the encounter has landed)")
        return
    scenario = store_scenarios[0]
    began = time.perf_counter()
    for start in range(0, len(world.channels), 10):  # 10 at a time: no refusals for a busy database
        batch = world.channels[start : start + 10]
        ids = await asyncio.gather(*(scenario.send(g, c) for g, c in batch))
        for interaction_id in ids:
            await fake.wait_for_callback(interaction_id, within=REPLY_WITHIN)
    await settle(fake, proc.pid)
    out.memory[f"bot after {len(world.channels):,} channels active ({scenario.name})"] = proc.rss_kib()
    out.notes.append(f"1,000 channels activated with {scenario.name} in {time.perf_counter() - began:.1f} s")


async def main_async(args: argparse.Namespace) -> Results:
    sizes = sorted(int(s) for s in args.sizes.split(","))
    out = Results()
    with tempfile.TemporaryDirectory(prefix="wire-bench-") as tmp:
        workdir = Path(tmp)
        world = World.build()
        world.only = tuple(part for part in args.only.split(",") if part)
        fake = world.fake
        await fake.start()
        try:
            databases = await seed_databases(args, world, workdir, out)
            floor = await Floor.start(workdir, out)
            try:
                for size in sizes:
                    await run_bot(
                        world,
                        databases[size],
                        size,
                        workdir,
                        args.seconds,
                        out,
                        floor,
                        full=size == sizes[-1],
                    )
            finally:
                await floor.stop(out)
        finally:
            await fake.stop()
            if args.postgres:
                await drop_postgres_databases(args.postgres, sizes)
    return out


async def seed_databases(
    args: argparse.Namespace, world: World, workdir: Path, out: Results
) -> dict[int, str]:
    """A database per size, each with the 1,000 channels the bot knows first, then filler channels it never
    sees (so even "10 stored" lets the 1- and 10-channel runs play). SQLite: grown in one template file and
    copied. PostgreSQL (`--postgres`): a fresh database per size on that server, seeded from scratch."""
    sizes = sorted(int(s) for s in args.sizes.split(","))
    director = world.director(world.channels[0][0])
    player = world.player(world.channels[0][0])
    known = world.keys()

    def wanted(size: int) -> list[ChannelKey]:
        return known[: min(size, len(known))] + filler_keys(max(0, size - len(known)))

    databases: dict[int, str] = {}
    if args.postgres:
        for size in sizes:
            url = await fresh_postgres_database(args.postgres, size)
            keys = wanted(size)
            out.seed_seconds[size] = await seed_encounters(url, keys, director.user.id, player.user.id)
            databases[size] = url
        return databases
    template = workdir / "template.db"
    template_url = f"sqlite+aiosqlite:///{template}"
    seeded: list[ChannelKey] = []
    for size in sizes:
        new = wanted(size)[len(seeded) :]
        out.seed_seconds[size] = await seed_encounters(template_url, new, director.user.id, player.user.id)
        seeded = wanted(size)
        copy_database(template, workdir / f"store-{size}.db")
        databases[size] = f"sqlite+aiosqlite:///{workdir / f'store-{size}.db'}"
    return databases


def _postgres_name(size: int) -> str:
    return f"wire_bench_{size}"


async def _postgres_admin(url: str) -> Any:
    import asyncpg  # only with --postgres

    plain = sa.engine.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    return await asyncpg.connect(plain, timeout=10)


async def fresh_postgres_database(url: str, size: int) -> str:
    """Create (after dropping any left over) the benchmark's database for `size`; its async URL."""
    admin = await _postgres_admin(url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{_postgres_name(size)}" WITH (FORCE)')
        await admin.execute(f'CREATE DATABASE "{_postgres_name(size)}"')
    finally:
        await admin.close()
    parsed = sa.engine.make_url(url).set(drivername="postgresql+asyncpg", database=_postgres_name(size))
    return parsed.render_as_string(hide_password=False)


async def drop_postgres_databases(url: str, sizes: list[int]) -> None:
    admin = await _postgres_admin(url)
    try:
        for size in sizes:
            await admin.execute(f'DROP DATABASE IF EXISTS "{_postgres_name(size)}" WITH (FORCE)')
    finally:
        await admin.close()


# ------------------------------------------------------------------------------------------------ report


def _ratio(value: float, floor: float) -> str:
    if floor != floor or value != value or floor == 0:  # NaN
        return "–"
    return f"{value / floor:.1f}×"


def report(out: Results) -> str:
    lines: list[str] = []
    lines.append(
        "| Scenario | Mode | n | p50 ms | p99 ms | /s | CPU ms each | floor: kind, n | floor p50 | floor p99 "
        "| floor CPU | p50 ÷ floor | p99 ÷ floor | /s ÷ floor | CPU ÷ floor |"
    )
    lines.append("|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in out.rows:
        if row.sample is None:
            lines.append(f"| {row.scenario} | | | | | | | | | | | | | | {row.note} |")
            continue
        s, f = row.sample, row.floor
        nan = float("nan")
        fp50, fp99 = (f.p(50), f.p(99)) if f else (nan, nan)
        frate, fcpu = (f.rate, f.cpu_ms_each) if f else (nan, nan)
        paired = (
            f"{row.floor_kind.split()[0]}, {f.count:,} | {fp50:.2f} | {fp99:.2f} | {fcpu:.2f}"
            if f
            else " | | | "
        )
        deferred = sum(1 for i in s.deferred if i)
        refused = f" ({len(s.refused)} refused)" if s.refused else ""
        refused += f" ({deferred} deferred)" if deferred else ""
        refused += f" ({s.unanswered} unanswered)" if s.unanswered else ""
        lines.append(
            f"| {row.scenario} | {row.mode} | {s.count:,}{refused} | {s.p(50):.2f} | {s.p(99):.2f} "
            f"| {s.rate:,.0f} | {s.cpu_ms_each:.2f} | {paired} "
            f"| {_ratio(s.p(50), fp50)} | {_ratio(s.p(99), fp99)} "
            f"| {_ratio(s.rate, frate)} | {_ratio(s.cpu_ms_each, fcpu)} |"
        )
    for row in out.rows:
        late = [x for x in row.sample.latencies_ms if x > 3000] if row.sample is not None else []
        if late:
            lines.append(f"\n{row.scenario}, {row.mode}: {len(late)} acknowledged after Discord's 3 s")
        if row.sample is not None and row.sample.refused:
            first = row.sample.refused[0].replace("\n", " ")
            lines.append(f"\n{row.scenario}, {row.mode}: {len(row.sample.refused)} refused, e.g. “{first}”")
    lines.append("")
    lines.append("First interactions (each mode's warm-up: one in each of its channels at once; not above):")
    lines.append("")
    lines.append("| Scenario | Mode | n | p50 ms | p99 ms | max ms |")
    lines.append("|---|---|---:|---:|---:|---:|")
    for row in out.cold:
        if row.sample is not None and row.sample.count:
            s = row.sample
            missed = f" ({s.unanswered} unanswered)" if s.unanswered else ""
            lines.append(
                f"| {row.scenario} | {row.mode} | {s.count:,}{missed} | {s.p(50):.2f} | {s.p(99):.2f} "
                f"| {max(s.latencies_ms):.2f} |"
            )
    lines.append("")
    lines.append("Growth with stored encounters:")
    lines.append("")
    lines.append("| Stored encounters | Scenario | Mode | n | p50 ms | p99 ms | /s | CPU ms each |")
    lines.append("|---:|---|---|---:|---:|---:|---:|---:|")
    for size, name, samples in sorted(out.growth, key=lambda g: (g[1], g[0])):
        for mode, s in samples.items():
            if mode in GROWTH_MODES:
                lines.append(
                    f"| {size:,} | {name} | {mode} | {s.count:,} | {s.p(50):.2f} | {s.p(99):.2f} "
                    f"| {s.rate:,.0f} | {s.cpu_ms_each:.2f} |"
                )
    lines += ["", "Memory (resident, VmRSS):", ""]
    lines += [f"- floor, {name}: {kib / 1024:.1f} MiB" for name, kib in out.floor_rss_kib.items()]
    lines += [f"- {name}: {kib / 1024:.1f} MiB" for name, kib in out.memory.items()]
    lines += ["", "Start-up (seconds from spawn):", ""]
    lines += [f"- floor, {name}: {value:.2f}" for name, value in out.floor_start.items()]
    lines += [f"- bot, {name}: {value:.2f}" for name, value in out.start.items()]
    seeded = out.seed_seconds.items()
    lines += [f"- (seeding the store up to {size:,} encounters took {value:.1f} s)" for size, value in seeded]
    lines.extend(f"- {note}" for note in out.notes)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="short runs, 10 and 1,000 stored encounters")
    parser.add_argument("--sizes", default=None, help="stored encounters, comma-separated (default 10,10000)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per closed-loop run")
    parser.add_argument(
        "--only",
        default="",
        metavar="NAMES",
        help="run only the scenarios whose names contain one of these, comma-separated (e.g. /dice,/roll)",
    )
    parser.add_argument(
        "--postgres",
        default=None,
        metavar="URL",
        help="run the bot on PostgreSQL: a server URL (e.g. postgresql://postgres@127.0.0.1:5432/test); "
        "the benchmark creates and drops a database per size there",
    )
    args = parser.parse_args()
    if args.sizes is None:
        args.sizes = "10,1000" if args.quick else "10,10000"
    if args.seconds is None:
        args.seconds = 2.0 if args.quick else 8.0
    results = asyncio.run(main_async(args))
    print(report(results))


if __name__ == "__main__":
    main()
