"""Faults against the real `python -m bot` process and the loopback fake Discord.

- the gateway drops (abruptly, mid-command, or Discord asks for a reconnect): the bot RESUMEs the same
  session, answers what was in flight, and handles what Discord replays on the resume exactly once;
- an INTERACTION_CREATE delivered twice (a resumed session replaying it): the command runs once;
- the SQLite database is locked by another process, or PostgreSQL is unreachable or hung (a proxy the test
  cuts or stalls; with `TEST_DATABASE_URL`): the user gets the one-line ephemeral "busy" reply within
  Discord's 3 seconds, nothing is written, and the next command works;
- Discord answers 429 (with `retry_after`), 502 or 503 to the live tracker's edits: the command is answered at
  once and the tracker ends up showing the newest state;
- the bot is killed with SIGKILL between commands and restarted on the same database file: what was
  stored — state, the log, the versions — is intact and nothing is applied twice.

Every wait is bounded and waits on a condition (a request, a callback, a log line), never a bare sleep.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from bot.store import ChannelKey, Store
from bot.store.models import events
from tests.wire.fake_discord import EPHEMERAL, FakeDiscord, Fault, Recorded
from tests.wire.faults import (
    TOKEN,
    BotRun,
    FaultyDiscord,
    SqliteLock,
    TcpProxy,
    bot_env,
    postgres_behind_proxy,
)

START_WITHIN = 20.0
REPLY_WITHIN = 3.0  # Discord's deadline for acknowledging an interaction
BUSY = "The database is busy — try again in a moment."


@dataclass
class Running:
    fake: FaultyDiscord
    bot: BotRun
    db: Path
    workdir: Path
    database_url: str | None = None  # default: SQLite at `db`

    @property
    def url(self) -> str:
        return self.database_url or f"sqlite+aiosqlite:///{self.db}"

    async def start(self) -> None:
        """(Re)start `python -m bot` on the same database file and wait until it is ready."""
        self.bot = await BotRun.spawn(bot_env(self.fake, self.url), self.workdir)
        sessions = len([s for s in self.fake.sessions if s.ready.is_set()]) + 1
        await self.bot.unless_it_exits(self.fake.wait_until_ready(within=START_WITHIN, sessions=sessions))

    async def command(
        self, name: str, sub: str | None = None, /, *, user: str = "owner", **options: Any
    ) -> Recorded:
        """Send `/name [sub] options…` as `user` and return the bot's callback (within 3 seconds)."""
        typed = [{"name": k, "type": _type(v), "value": v} for k, v in options.items()]
        raw = [{"name": sub, "type": 1, "options": typed}] if sub is not None else typed
        sent = await self.fake.slash(name, raw_options=raw, user=self.fake.member(user))
        return await self.bot.unless_it_exits(self.fake.wait_for_callback(sent, within=REPLY_WITHIN))

    async def logged(self, text: str) -> None:
        """Until the bot's output contains `text` (checked now, then on each request the bot makes)."""
        await self.bot.unless_it_exits(self.fake.wait_until(lambda: text in self.bot.output(), within=10))


async def _seen_only_by_the_caller(fake: FaultyDiscord, callback: Recorded, text: str) -> None:
    """The command's answer is `text`, seen only by its caller: the first answer, or, when the bot deferred
    first (a database that never answers is given up on after Discord's "thinking…" is due), an ephemeral
    followup with the public "thinking…" message deleted."""
    if (callback.json or {}).get("type") != 5:
        assert ephemeral(callback) and content(callback).strip() == text
        return
    interaction = fake.interactions[int(callback.path.split("/")[2])]
    (followup,) = await fake.wait_for_followup(interaction.id, within=REPLY_WITHIN)
    assert int(followup["flags"]) & EPHEMERAL and followup["content"].strip() == text
    assert interaction.response_message_id not in fake.messages


def _type(value: Any) -> int:
    return {str: 3, bool: 5, int: 4, float: 10}[type(value)]


def content(callback: Recorded) -> str:
    data = (callback.json or {}).get("data") or {}
    text = str(data.get("content") or "")
    for embed in data.get("embeds") or []:
        text += " " + str(embed.get("title") or "") + " " + str(embed.get("description") or "")
        text += "".join(f" {f.get('name')} {f.get('value')}" for f in embed.get("fields") or [])
    return text


def ephemeral(callback: Recorded) -> bool:
    return bool(int(((callback.json or {}).get("data") or {}).get("flags") or 0) & EPHEMERAL)


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[Running]:
    async with FaultyDiscord() as fake:
        db = tmp_path / "db" / "bot.db"
        run = Running(fake, None, db, tmp_path / "bot")  # type: ignore[arg-type]
        await run.start()
        try:
            yield run
        finally:
            await run.bot.stop()
            output = run.bot.output()
            assert TOKEN not in output
            assert fake.unknown_routes == [], fake.unknown_routes


async def channel_log(url: str, key: ChannelKey) -> tuple[int, int, list[tuple[int, str]]]:
    """(version, hero-token pool, [(seq, kind)] of the channel's events) read straight from the database."""
    store = await Store.open(url, migrate=False)
    try:
        table = await store.view(key)
        async with store.engine.connect() as connection:
            rows = (
                await connection.execute(
                    sa.select(events.c.seq, events.c.kind)
                    .where(events.c.channel_id == key.channel_id)
                    .order_by(events.c.id)
                )
            ).all()
        return table.version, table.tokens, [(r.seq, r.kind) for r in rows]
    finally:
        await store.close()


def key_of(run: Running) -> ChannelKey:
    return ChannelKey(run.fake.guild.id, run.fake.guild.channel.id)


# -------------------------------------------------------------------------------------------- gateway


async def test_the_bot_resumes_after_the_gateway_drops(running: Running) -> None:
    fake = running.fake

    async def resumed(count: int) -> None:
        await running.bot.unless_it_exits(
            fake.wait_until(
                lambda: len(fake.resumes) >= count and fake.ready_shards() == {0}, within=START_WITHIN
            )
        )

    assert "**" in content(await running.command("dice", expression="2d6"))
    # 1. Discord asks for a reconnect (op 7): the bot resumes the same session.
    await fake.reconnect()
    await resumed(1)
    assert "**" in content(await running.command("dice", expression="2d6"))

    # 2. The connection drops mid-command (no close frame): the reply goes over REST regardless.
    in_flight = await fake.slash(
        "tokens",
        raw_options=[{"name": "award", "type": 1, "options": [{"name": "count", "type": 4, "value": 2}]}],
        user=fake.member("owner"),
    )
    assert await fake.drop_gateway() == 1
    answered = await running.bot.unless_it_exits(fake.wait_for_callback(in_flight, within=REPLY_WITHIN))
    assert "Hero tokens: 2" in content(answered)
    await resumed(2)

    # 3. A command sent while the bot is disconnected is delivered when it resumes, and handled once.
    fake.gateway_down = True  # reconnecting fails until the test lets it
    assert await fake.drop_gateway() == 1
    await running.bot.unless_it_exits(fake.wait_until(lambda: not fake.ready_shards(), within=5))
    missed = await fake.slash(
        "tokens",
        raw_options=[{"name": "award", "type": 1, "options": [{"name": "count", "type": 4, "value": 3}]}],
        user=fake.member("owner"),
    )
    assert [e for _, e, _ in fake.missed] == ["INTERACTION_CREATE"]
    fake.gateway_down = False
    await resumed(3)
    late = await running.bot.unless_it_exits(fake.wait_for_callback(missed, within=START_WITHIN))
    assert "Hero tokens: 5" in content(late)
    assert [e for _, e, _ in fake.replayed] == ["INTERACTION_CREATE"]

    assert len(fake.identify_payloads) == 1  # every time the same session resumed; never a new IDENTIFY
    assert {r["session_id"] for r in fake.resumes} == {"fake-session-1"}
    assert len(fake.callbacks_of(in_flight)) == len(fake.callbacks_of(missed)) == 1
    version, tokens, log = await channel_log(running.url, key_of(running))
    assert (version, tokens) == (2, 5)
    assert log == [(1, "tokens.award"), (2, "tokens.award")]


async def test_an_interaction_delivered_twice_runs_once(running: Running) -> None:
    fake = running.fake
    first = await running.command("tokens", "award", count=2)
    assert "Hero tokens: 2" in content(first)
    (interaction_id,) = [i for i, r in fake.interactions.items() if r.callback is first]
    await fake.replay(interaction_id)  # the same INTERACTION_CREATE again (a resumed session's replay)
    later = await running.command("tokens", "show")  # sent after the replay on the same connection
    assert "2" in content(later)
    await running.logged(f"ignored a repeated delivery of interaction {interaction_id}")
    assert len(fake.callbacks_of(interaction_id)) == 1  # answered once, no "already acknowledged"
    version, tokens, log = await channel_log(running.url, key_of(running))
    assert (version, tokens) == (1, 2)  # awarded once, not twice
    assert log == [(1, "tokens.award")]


# ------------------------------------------------------------------------------------------- database


async def test_a_locked_database_answers_busy_in_time_and_writes_nothing(running: Running) -> None:
    assert "Hero tokens: 1" in content(await running.command("tokens", "award", count=1))
    with SqliteLock(running.db):  # another process holds the write lock for longer than the bot waits
        refused = await running.command("tokens", "award", count=5)  # within 3 s, or this fails
        assert ephemeral(refused)
        assert content(refused).strip() == BUSY
    assert "Hero tokens: 3" in content(await running.command("tokens", "award", count=2))
    version, tokens, log = await channel_log(running.url, key_of(running))
    assert (version, tokens) == (2, 3)
    assert log == [(1, "tokens.award"), (2, "tokens.award")]


# --------------------------------------------------------------------------------------------- SIGKILL


async def test_sigkill_between_commands_loses_nothing_and_repeats_nothing(running: Running) -> None:
    fake = running.fake
    key = key_of(running)
    created = await running.command("hero", "create", user="alice", name="Vex", stamina=30, recoveries=8)
    assert not ephemeral(created), content(created)
    for count in (1, 2):
        assert "Hero tokens:" in content(await running.command("tokens", "award", count=count))
    before = await channel_log(running.url, key)
    assert before[0] == 3 and before[1] == 3

    assert await running.bot.kill() == -9  # SIGKILL: no shutdown, no last checkpoint, no store.close()
    with contextlib.suppress(Exception):
        await fake.wait_until(lambda: not fake.sessions, within=5)
    assert await channel_log(running.url, key) == before  # everything committed is there, once

    await running.start()  # the same database file
    shown = await running.command("hero", "show", user="alice")
    assert "Vex" in content(shown)
    assert "Hero tokens: 7" in content(await running.command("tokens", "award", count=4))
    version, tokens, log = await channel_log(running.url, key)
    assert (version, tokens) == (4, 7)
    assert [seq for seq, _ in log] == [1, 2, 3, 4]  # versions carry on; no event twice
    assert [kind for _, kind in log][1:] == ["tokens.award"] * 3
    assert len(fake.identify_payloads) == 2


async def test_nothing_in_flight_is_half_applied_by_a_sigkill(running: Running) -> None:
    """Killed while commands are arriving: each one was either fully applied (state, version and log
    together) or not at all."""
    fake = running.fake
    key = key_of(running)
    sent = [
        await fake.slash(
            "tokens",
            raw_options=[{"name": "award", "type": 1, "options": [{"name": "count", "type": 4, "value": 1}]}],
            user=fake.member("owner"),
        )
        for _ in range(20)
    ]
    await running.bot.unless_it_exits(fake.wait_for_callback(sent[0], within=REPLY_WITHIN))
    await running.bot.kill()
    version, tokens, log = await channel_log(running.url, key)
    assert 1 <= version <= 20
    assert tokens == version  # each award of 1 moved the pool and the version together
    assert [seq for seq, _ in log] == list(range(1, version + 1))
    await running.start()
    after = await running.command("tokens", "award", count=1)
    assert f"Hero tokens: {version + 1}" in content(after)


# ------------------------------------------------------------------------------- tracker edits: 429, 5xx


async def show_monster_stamina(url: str, guild_id: int) -> None:
    """Let players see monsters' exact Stamina (the tracker then shows "7/10"); set before the bot starts."""
    store = await Store.open(url)
    try:
        await store.update_settings(guild_id, show_monster_stamina=True)
    finally:
        await store.close()


def tracker_text(message: dict[str, Any]) -> str:
    text = str(message.get("content") or "")
    for embed in message.get("embeds") or []:
        text += " " + str(embed.get("description") or "")
        text += "".join(f" {f.get('name')} {f.get('value')}" for f in embed.get("fields") or [])
    return text


@pytest.fixture
async def with_encounter(tmp_path: Path) -> AsyncIterator[Running]:
    """The bot with an encounter started by the Director (`owner`): two goblins of Stamina 10, tracker up."""
    async with FaultyDiscord() as fake:
        run = Running(fake, None, tmp_path / "db" / "bot.db", tmp_path / "bot")  # type: ignore[arg-type]
        await show_monster_stamina(run.url, fake.guild.id)
        await run.start()
        try:
            started = await run.command("encounter", "start", name="Goblin ambush")
            assert not ephemeral(started), content(started)
            added = await run.command("encounter", "add", name="Goblin", stamina=10, side="director", count=2)
            assert not ephemeral(added), content(added)
            await run.bot.unless_it_exits(
                fake.wait_until(lambda: any("Goblin 2" in tracker_text(m) for m in _trackers(fake)), within=5)
            )
            yield run
        finally:
            await run.bot.stop()
            assert fake.unknown_routes == [], fake.unknown_routes


@pytest.mark.parametrize(
    "faults",
    [
        pytest.param([Fault("PATCH", "/messages/", 429, retry_after=0.2)] * 2, id="429-retry-after"),
        pytest.param([Fault("PATCH", "/messages/", 502)], id="502"),
        # discord.py never retries a 503: the tracker's own bounded retry (exts/tracker/_service.py
        # RETRY_DELAYS) does
        pytest.param([Fault("PATCH", "/messages/", 503)], id="503"),
    ],
)
async def test_tracker_edits_survive_429_and_5xx(with_encounter: Running, faults: list[Fault]) -> None:
    run, fake = with_encounter, with_encounter.fake
    tracker_id = _tracker_id(fake)
    hit = await run.command("stamina", "damage", target="Goblin 1", amount=3)
    assert not ephemeral(hit) and "7/10" in content(hit), content(hit)
    await run.bot.unless_it_exits(
        fake.wait_until(lambda: "7/10" in tracker_text(fake.messages[tracker_id]), within=5)
    )

    for fault in faults:
        fake.inject(fault)
    mark = len(fake.requests)
    again = await run.command("stamina", "damage", target="Goblin 1", amount=2)  # answered at once, in time
    assert not ephemeral(again) and "5/10" in content(again), content(again)
    edited = await run.bot.unless_it_exits(
        fake.wait_for_request(
            lambda r: (
                r.method == "PATCH" and r.path.endswith(f"/messages/{tracker_id}") and r not in fake.injected
            ),
            within=5,  # discord.py (502) and the tracker (503) wait 1 s before trying again
            after=mark,
        )
    )
    assert len([r for r in fake.injected if r.index >= mark]) == len(faults)  # every fault was hit
    assert edited.index > max(r.index for r in fake.injected)  # the edit that landed came after them
    assert "5/10" in tracker_text(fake.messages[tracker_id])  # the tracker shows the newest state
    assert _tracker_id(fake) == tracker_id  # edited in place, not reposted

    version, _, log = await channel_log(run.url, key_of(run))
    assert version == 4
    assert [kind for _, kind in log] == [
        "encounter.start",
        "encounter.add",
        "stamina.damage",
        "stamina.damage",
    ]


# ------------------------------------------------------------------------------- PostgreSQL unreachable


@pytest.fixture
async def on_postgres(tmp_path: Path) -> AsyncIterator[tuple[Running, TcpProxy, str]]:
    """The bot on a throwaway PostgreSQL database, reached through a proxy the test can cut or stall."""
    async with postgres_behind_proxy("the PostgreSQL fault test") as (url, admin, proxy):
        name = f"t_faults_{uuid.uuid4().hex[:12]}"
        await admin.execute(f'CREATE DATABASE "{name}"')
        direct = url.set(database=name).render_as_string(hide_password=False)
        proxied = url.set(database=name, host="127.0.0.1", port=proxy.port).render_as_string(
            hide_password=False
        )
        try:
            async with FaultyDiscord() as fake:
                run = Running(fake, None, tmp_path / "unused.db", tmp_path / "bot")  # type: ignore[arg-type]
                run.database_url = proxied
                await run.start()
                try:
                    yield run, proxy, direct
                finally:
                    await proxy.restore()
                    await run.bot.stop()
                    assert fake.unknown_routes == [], fake.unknown_routes
        finally:
            await proxy.cut()  # the bot's connections gone before its database is
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.parametrize("fault", ["cut", "stall"])
async def test_unreachable_postgres_answers_busy_in_time_then_recovers(
    on_postgres: tuple[Running, TcpProxy, str], fault: str
) -> None:
    run, proxy, direct = on_postgres
    assert "Hero tokens: 1" in content(await run.command("tokens", "award", count=1))
    if fault == "cut":
        await proxy.cut()  # connections closed, new ones refused
    else:
        proxy.stall()  # connections open, nothing answers
    refused = await run.command("tokens", "award", count=5)  # within 3 s, or this fails
    await _seen_only_by_the_caller(run.fake, refused, BUSY)
    await proxy.restore()
    assert "Hero tokens: 3" in content(await run.command("tokens", "award", count=2))
    version, tokens, log = await channel_log(direct, key_of(run))
    assert (version, tokens) == (2, 3)  # the refused award left nothing behind
    assert log == [(1, "tokens.award"), (2, "tokens.award")]


async def test_sigkill_mid_encounter_keeps_its_state_log_and_tracker(with_encounter: Running) -> None:
    run, fake = with_encounter, with_encounter.fake
    key = key_of(run)
    tracker_id = _tracker_id(fake)
    assert "7/10" in content(await run.command("stamina", "damage", target="Goblin 1", amount=3))
    assert "6/10" in content(await run.command("stamina", "damage", target="Goblin 2", amount=4))
    await run.bot.unless_it_exits(
        fake.wait_until(lambda: "6/10" in tracker_text(fake.messages[tracker_id]), within=5)
    )
    posts = [r for r in fake.requests if r.method == "POST" and r.path.endswith("/messages")]

    assert await run.bot.kill() == -9
    await run.start()
    assert "5/10" in content(await run.command("stamina", "damage", target="Goblin 1", amount=2))
    await run.bot.unless_it_exits(
        fake.wait_until(lambda: "5/10" in tracker_text(fake.messages[tracker_id]), within=5)
    )
    # The restarted bot edited the same tracker message (its id was stored), and posted no second one.
    assert [r for r in fake.requests if r.method == "POST" and r.path.endswith("/messages")] == posts
    assert _tracker_id(fake) == tracker_id

    store = await Store.open(run.url, migrate=False)
    try:
        table = await store.view(key)
        assert table.encounter is not None and table.encounter.id is not None
        log = await store.events(table.encounter.id, guild_id=key.guild_id)
        transcript = await store.transcript_markdown(table.encounter.id, guild_id=key.guild_id)
    finally:
        await store.close()
    kinds = ["encounter.start", "encounter.add", "stamina.damage", "stamina.damage", "stamina.damage"]
    assert [(e.seq, e.kind) for e in log] == list(enumerate(kinds, start=1))  # none lost, none twice
    assert table.version == 5
    assert [line.split("`")[1] for line in transcript.splitlines() if line.startswith("- **#")] == kinds


def _trackers(fake: FakeDiscord) -> list[dict[str, Any]]:
    """The bot's messages in #combat posted with the bot token (not interaction replies): the tracker."""
    return [
        m
        for m in fake.messages.values()
        if m["channel_id"] == str(fake.guild.channel.id) and m.get("webhook_id") is None
    ]


def _tracker_id(fake: FakeDiscord) -> int:
    """The tracker's id: there is exactly one."""
    (tracker,) = _trackers(fake)
    return int(tracker["id"])
