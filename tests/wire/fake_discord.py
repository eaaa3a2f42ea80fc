"""A loopback fake Discord for driving the real `python -m bot` process over HTTP and a websocket.

Speaks just enough of Discord's REST API (v10) and gateway protocol for discord.py 2.7.1: login, command sync,
`GET /gateway/bot` for sharded bots, interaction callbacks, webhook followups and channel messages; on the
gateway HELLO → IDENTIFY → READY → GUILD_CREATE, heartbeats, RESUME and INTERACTION_CREATE. Every wait is
bounded (`within` seconds, then `TimeoutError`). Its API (guilds and shards, uploads, fault injection, the
recorded requests and the transcript): docs/dev/bot.md, *Wire*.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import socket
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from aiohttp import BodyPartReader, WSMsgType, web

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1_420_070_400_000
HEARTBEAT_INTERVAL_MS = 41_250
ALL_PERMISSIONS = str((1 << 50) - 1)
MEMBER_PERMISSIONS = str(0x0000_0000_0004_0C40 | (1 << 31) | (1 << 38))  # view, send, history, slash, threads
EPHEMERAL = 1 << 6
LOADING = 1 << 7
OPTION_TYPES = {str: 3, bool: 5, int: 4, float: 10}

Json = dict[str, Any]


class _Snowflakes:
    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class FakeUser:
    id: int
    username: str
    bot: bool = False

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": None,
            "avatar": None,
            "bot": self.bot,
            "flags": 0,
            "public_flags": 0,
        }


@dataclass
class FakeMember:
    user: FakeUser
    role_ids: list[int] = field(default_factory=list)
    permissions: str = MEMBER_PERMISSIONS

    def payload(self) -> Json:
        return {
            "user": self.user.payload(),
            "roles": [str(r) for r in self.role_ids],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
            "premium_since": None,
            "communication_disabled_until": None,
        }


@dataclass
class FakeChannel:
    id: int
    guild_id: int
    name: str
    type: int = 0  # 0 text, 11 public thread
    parent_id: int | None = None

    def payload(self) -> Json:
        data: Json = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(self.guild_id),
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": str(self.parent_id) if self.parent_id is not None else None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.type in (10, 11, 12):
            data["thread_metadata"] = {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": _now(),
                "locked": False,
            }
            data["owner_id"] = str(self.guild_id)
            data["member_count"] = 1
            data["message_count"] = 0
        return data


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: str = "0"
    position: int = 0

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": self.permissions,
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: list[FakeRole] = field(default_factory=list)
    channels: list[FakeChannel] = field(default_factory=list)
    members: list[FakeMember] = field(default_factory=list)

    @property
    def channel(self) -> FakeChannel:
        """The first text channel."""
        return next(c for c in self.channels if c.type == 0)

    def payload(self) -> Json:
        text = [c for c in self.channels if c.type not in (10, 11, 12)]
        threads = [c for c in self.channels if c.type in (10, 11, 12)]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "roles": [r.payload() for r in self.roles],
            "channels": [c.payload() for c in text],
            "threads": [c.payload() for c in threads],
            "members": [m.payload() for m in self.members],
            "member_count": len(self.members),
            "emojis": [],
            "stickers": [],
            "features": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "large": False,
            "unavailable": False,
            "joined_at": "2026-01-01T00:00:00+00:00",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "description": None,
            "banner": None,
            "splash": None,
            "discovery_splash": None,
            "vanity_url_code": None,
            "application_id": None,
            "max_members": 500000,
            "premium_progress_bar_enabled": False,
        }


@dataclass(frozen=True)
class Recorded:
    """One HTTP request the bot made."""

    index: int
    method: str
    path: str
    query: Mapping[str, str]
    json: Any
    files: tuple[str, ...]
    at: float


@dataclass
class FakeInteraction:
    id: int
    token: str
    channel_id: int
    guild_id: int
    sent_at: float
    acknowledged: bool = False
    response_type: int | None = None
    response_message_id: int | None = None
    loading: bool = False
    ephemeral: bool = False
    followup_ids: list[int] = field(default_factory=list)
    source_message_id: int | None = None  # the message whose component was used
    user: Json | None = None  # who sent it (a message it makes names it in its interaction metadata)
    callback: Recorded | None = None  # the bot's callback request, once it arrived
    arrived: asyncio.Future[Recorded] | None = field(default=None, repr=False)  # set with `callback`

    @property
    def latency_ms(self) -> float | None:
        """From sending INTERACTION_CREATE to receiving the callback (None until it arrived)."""
        return None if self.callback is None else (self.callback.at - self.sent_at) * 1000


class NoSession(RuntimeError):
    """No ready gateway session serves that guild (its bot process is down or still connecting)."""


@dataclass(frozen=True)
class Fault:
    """An injected REST failure: the next `times` requests matching `method` and `path_contains` answer
    `status` (429 with a `Via` header and JSON `retry_after`, so discord.py retries it; 5xx as Discord
    does)."""

    method: str
    path_contains: str
    status: int
    retry_after: float = 0.05
    global_: bool = False


class _Session:
    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.seq = 0
        self.shard: tuple[int, int] | None = None
        self.ready = asyncio.Event()

    async def send(self, payload: Json) -> None:
        if self.ws.closed:
            raise NoSession("the gateway session is closed")
        try:
            await self.ws.send_str(json.dumps(payload))
        except ConnectionError as error:
            raise NoSession(f"the gateway session dropped ({error})") from None

    async def dispatch(self, event: str, data: Any) -> None:
        self.seq += 1
        await self.send({"op": 0, "t": event, "s": self.seq, "d": data})


class FakeDiscord:
    """The fake: an aiohttp app serving REST under `/api/v10` and the gateway at `/gateway`."""

    def __init__(self, *, shard_count: int = 1) -> None:
        """One guild per shard (`shard_count` guilds, the i-th one served by shard i)."""
        self.snowflake = _Snowflakes()
        self.bot_user = FakeUser(self.snowflake(), "DrawSteelBot", bot=True)
        self.application_id = self.bot_user.id
        self.owner = FakeUser(self.snowflake(), "owner")
        self.shard_count = shard_count
        self.guilds: list[FakeGuild] = [
            self._default_guild(f"Wire Guild {i + 1}", shard=(i, shard_count)) for i in range(shard_count)
        ]
        self.requests: list[Recorded] = []
        self.unknown_routes: list[str] = []
        self.global_commands: list[Json] = []
        self.guild_commands: dict[int, list[Json]] = {}
        self.messages: dict[int, Json] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self.faults: list[list[Any]] = []  # [Fault, remaining]
        self.injected: list[Recorded] = []  # requests answered by an injected fault
        self.identify_payloads: list[Json] = []
        self.sessions: list[_Session] = []
        self.reject_login = False  # True: GET /users/@me answers 401, as for a revoked token
        self.uploads: dict[str, bytes] = {}  # attachment id -> bytes, served at /attachments/<id>/<filename>
        self.downloads: list[str] = []  # the attachment ids served, in order
        self.recording = False  # True: keep the transcript's events (off: benchmarks pay nothing for it)
        self.events: list[Json] = []  # the transcript's events, in order (see `transcript()`)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------------ world

    def _default_guild(self, name: str, *, shard: tuple[int, int] = (0, 1)) -> FakeGuild:
        guild_id = self.snowflake()
        while (guild_id >> 22) % shard[1] != shard[0]:
            guild_id += 1 << 22
        everyone = FakeRole(guild_id, "@everyone", permissions=MEMBER_PERMISSIONS)
        director_role = FakeRole(self.snowflake(), "Director", position=1)
        bot_role = FakeRole(self.snowflake(), "DrawSteelBot", permissions=MEMBER_PERMISSIONS, position=2)
        guild = FakeGuild(guild_id, name, owner_id=self.owner.id, roles=[everyone, director_role, bot_role])
        combat = FakeChannel(self.snowflake(), guild_id, "combat")
        guild.channels.append(combat)
        guild.channels.append(
            FakeChannel(self.snowflake(), guild_id, "Goblin ambush", type=11, parent_id=combat.id)
        )
        guild.members.append(FakeMember(self.owner, permissions=ALL_PERMISSIONS))
        guild.members.append(FakeMember(FakeUser(self.snowflake(), "dana"), [director_role.id]))
        guild.members.append(FakeMember(FakeUser(self.snowflake(), "alice")))
        guild.members.append(FakeMember(self.bot_user, [bot_role.id]))
        return guild

    @property
    def guild(self) -> FakeGuild:
        return self.guilds[0]

    def add_guild(self, name: str, *, shard_id: int = 0) -> FakeGuild:
        """Another guild (with the default roles, channels and members) on shard `shard_id` of
        `shard_count`; add it before the bot connects (READY lists the guilds)."""
        guild = self._default_guild(name, shard=(shard_id, self.shard_count))
        self.guilds.append(guild)
        return guild

    def add_channel(self, name: str, guild: FakeGuild | None = None) -> FakeChannel:
        """Another text channel (add it before the bot connects: GUILD_CREATE carries the channels)."""
        guild = guild or self.guild
        channel = FakeChannel(self.snowflake(), guild.id, name)
        guild.channels.append(channel)
        return channel

    def shard_of(self, guild: FakeGuild) -> int:
        """The shard that serves `guild` (Discord's rule: `(guild_id >> 22) % shard_count`)."""
        return (guild.id >> 22) % self.shard_count

    def preload_commands(self, commands: list[Json]) -> None:
        """Register global commands as if a bot had synced them (for a bot that syncs none: the floor)."""
        self.global_commands = [dict(c) for c in commands]

    def add_message(self, channel: FakeChannel, data: Json) -> Json:
        """A message the bot posted earlier (e.g. a tracker from before a restart), to click on."""
        return self._message(channel.id, data)

    def inject(self, fault: Fault, *, times: int = 1) -> None:
        """Answer the next `times` matching requests with `fault` instead of serving them."""
        self.faults.append([fault, times])

    def member(self, name: str, guild: FakeGuild | None = None) -> FakeMember:
        """A member by username: `owner` (all permissions), `dana` (Director role), `alice`, or the bot."""
        return next(m for m in (guild or self.guild).members if m.user.username == name)

    def add_member(
        self, name: str, guild: FakeGuild | None = None, *, role_ids: list[int] | None = None
    ) -> FakeMember:
        """A new member (add it before the bot connects: GUILD_CREATE carries the member list)."""
        member = FakeMember(FakeUser(self.snowflake(), name), list(role_ids or []))
        (guild or self.guild).members.append(member)
        return member

    # ------------------------------------------------------------- transcript

    def _record(self, kind: str, **data: Any) -> None:
        if self.recording:
            self.events.append({"kind": kind, "at": _now(), **json.loads(json.dumps(data))})  # a snapshot

    def mark(self, name: str) -> None:
        """A named point in the transcript (a renderer can show what happened between two marks)."""
        self._record("mark", name=name)

    def transcript(self) -> Json:
        """The users and channels, and every event so far in order (JSON-ready)."""
        guild = self.guild
        return {
            "bot": self.bot_user.payload(),
            "guild": {"id": str(guild.id), "name": guild.name},
            "channels": {str(c.id): c.name for g in self.guilds for c in g.channels},
            "users": {str(m.user.id): m.user.username for g in self.guilds for m in g.members},
            "roles": {str(r.id): r.name for g in self.guilds for r in g.roles},
            "events": list(self.events),
        }

    # -------------------------------------------------------------- lifecycle

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """The value for `DISCORD_API_BASE`."""
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """The value for `DISCORD_GATEWAY_URL`."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{id}/{filename}", self._attachment)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        for session in self.sessions:
            with contextlib.suppress(Exception):
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ waits

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_until(self, condition: Callable[[], Any], *, within: float) -> Any:
        """Wait until `condition()` is truthy (re-checked on each request and gateway event); return it."""
        async with asyncio.timeout(within), self._changed:
            while not (value := condition()):
                await self._changed.wait()
            return value

    async def wait_for_request(
        self, predicate: Callable[[Recorded], bool], *, within: float, after: int = 0
    ) -> Recorded:
        """The first recorded request from index `after` on that matches `predicate`."""

        def found() -> Recorded | None:
            return next((r for r in self.requests[after:] if predicate(r)), None)

        result: Recorded = await self.wait_until(found, within=within)
        return result

    async def wait_for_commands(self, *, within: float) -> Recorded:
        """The bot's first `PUT .../commands`."""
        return await self.wait_for_request(
            lambda r: r.method == "PUT" and r.path.endswith("/commands"), within=within
        )

    async def wait_until_ready(self, *, within: float, sessions: int = 1) -> None:
        """Until `sessions` gateway sessions (one per shard the bot runs) got READY and GUILD_CREATEs."""
        await self.wait_until(lambda: sum(s.ready.is_set() for s in self.sessions) >= sessions, within=within)

    async def wait_for_callback(self, interaction_id: int, *, within: float) -> Recorded:
        """The bot's `POST /interactions/{id}/{token}/callback` for that interaction (one future per
        interaction: thousands of concurrent waits cost nothing per request)."""
        interaction = self.interactions[interaction_id]
        if interaction.callback is not None:
            return interaction.callback
        assert interaction.arrived is not None
        return await asyncio.wait_for(asyncio.shield(interaction.arrived), within)

    async def wait_for_shards(self, shard_ids: set[int] | list[int], *, within: float) -> None:
        """Until a ready gateway session serves each of `shard_ids` (unsharded sessions serve shard 0)."""
        wanted = set(shard_ids)
        await self.wait_until(lambda: wanted <= self.ready_shards(), within=within)

    def ready_shards(self) -> set[int]:
        return {(s.shard or (0, 1))[0] for s in self.sessions if s.ready.is_set()}

    async def wait_for_followup(self, interaction_id: int, *, within: float, count: int = 1) -> list[Json]:
        """The first `count` followup messages of that interaction."""
        interaction = self.interactions[interaction_id]
        await self.wait_until(lambda: len(interaction.followup_ids) >= count, within=within)
        return [self.messages[i] for i in interaction.followup_ids[:count]]

    # -------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        session = _Session(ws)
        self.sessions.append(session)
        await session.send(
            {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None}
        )
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(message.data)
                await self._on_gateway(session, payload)
        finally:
            with contextlib.suppress(ValueError):
                self.sessions.remove(session)
            await self._notify()
        return ws

    async def _on_gateway(self, session: _Session, payload: Json) -> None:
        op = payload.get("op")
        if op == 1:
            await session.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            data = payload["d"]
            self.identify_payloads.append({k: v for k, v in data.items() if k != "token"})
            shard = data.get("shard")
            if shard is not None:
                session.shard = (int(shard[0]), int(shard[1]))
            guilds = self._guilds_for(session)
            ready: Json = {
                "v": 10,
                "user": self.bot_user.payload(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": f"fake-session-{len(self.identify_payloads)}",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
            }
            if session.shard is not None:
                ready["shard"] = list(session.shard)
            await session.dispatch("READY", ready)
            for guild in guilds:
                await session.dispatch("GUILD_CREATE", guild.payload())
            session.ready.set()
            await self._notify()
        elif op == 6:
            await session.dispatch("RESUMED", {})
            session.ready.set()
            await self._notify()

    def _guilds_for(self, session: _Session) -> list[FakeGuild]:
        if session.shard is None:
            return list(self.guilds)
        shard_id, count = session.shard
        return [g for g in self.guilds if (g.id >> 22) % count == shard_id]

    def _session_for(self, guild_id: int) -> _Session:
        for session in self.sessions:
            if (
                session.ready.is_set()
                and not session.ws.closed
                and (session.shard is None or (guild_id >> 22) % session.shard[1] == session.shard[0])
            ):
                return session
        raise NoSession(f"no ready gateway session serves guild {guild_id}")

    async def dispatch(self, guild_id: int, event: str, data: Any) -> None:
        """Send a dispatch event on the session that serves `guild_id`."""
        await self._session_for(guild_id).dispatch(event, data)

    async def reconnect(self) -> None:
        """Ask every session to reconnect (op 7); the client resumes on `resume_gateway_url`."""
        for session in list(self.sessions):
            await session.send({"op": 7, "d": None, "s": None, "t": None})

    # ------------------------------------------------------------ interactions

    def command(self, name: str, guild_id: int | None = None) -> Json:
        """A registered command by name (the guild's copy first when `guild_id` is given)."""
        pools = [self.guild_commands.get(guild_id, [])] if guild_id is not None else []
        for pool in [*pools, self.global_commands]:
            for cmd in pool:
                if cmd["name"] == name:
                    return cmd
        raise KeyError(f"the bot registered no command named {name!r}")

    def _base_interaction(
        self, type_: int, guild: FakeGuild, channel: FakeChannel, member: FakeMember
    ) -> tuple[FakeInteraction, Json]:
        interaction_id = self.snowflake()
        token = f"fake-interaction-token-{interaction_id}"
        record = FakeInteraction(interaction_id, token, channel.id, guild.id, time.perf_counter())
        record.user = member.payload().get("user")
        record.arrived = asyncio.get_running_loop().create_future()
        self.interactions[interaction_id] = record
        self._by_token[token] = record
        payload: Json = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": type_,
            "token": token,
            "version": 1,
            "guild_id": str(guild.id),
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "member": {**member.payload(), "permissions": member.permissions},
            "app_permissions": MEMBER_PERMISSIONS,
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        return record, payload

    async def slash(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        guild: FakeGuild | None = None,
        channel: FakeChannel | None = None,
        user: FakeMember | None = None,
        raw_options: list[Json] | None = None,
        resolved: Json | None = None,
    ) -> int:
        """Send INTERACTION_CREATE for `/name` with simple options; return the interaction id.
        `resolved` is the interaction's resolved data (`{"attachments": {id: upload(...)}}`).

        Defaults: the first guild, its `combat` channel, and `alice` as the user.

        Option types come from the value (`str` 3, `int` 4, `bool` 5, `float` 10); pass `raw_options` for
        subcommands or other shapes.
        """
        guild = guild or self.guild
        channel = channel or guild.channel
        user = user or guild.members[-2]
        command = self.command(name, guild.id)
        record, payload = self._base_interaction(2, guild, channel, user)
        data: Json = {
            "id": command["id"],
            "name": name,
            "type": 1,
            "options": raw_options
            if raw_options is not None
            else [{"name": k, "type": OPTION_TYPES[type(v)], "value": v} for k, v in (options or {}).items()],
        }
        if command.get("guild_id") is not None:
            data["guild_id"] = command["guild_id"]
        if resolved is not None:
            data["resolved"] = resolved
        payload["data"] = data
        return await self._invoke(
            record, payload, guild, channel, user, command=name, options=data["options"]
        )

    def upload(self, filename: str, data: bytes) -> Json:
        """Keep a file as Discord's CDN does and return its attachment object, for an attachment option's
        `resolved` data: its URL is served by this fake (`GET /attachments/<id>/<filename>`)."""
        attachment_id = str(self.snowflake())
        self.uploads[attachment_id] = data
        url = f"{self.base_url}/attachments/{attachment_id}/{quote(filename)}"
        return {
            "id": attachment_id,
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": url,
            "content_type": "application/octet-stream",
        }

    async def _attachment(self, request: web.Request) -> web.Response:
        data = self.uploads.get(request.match_info["id"])
        self.downloads.append(request.match_info["id"])
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data, content_type="application/octet-stream")

    async def click(
        self,
        message: Json,
        custom_id: str,
        *,
        guild: FakeGuild | None = None,
        user: FakeMember | None = None,
        component_type: int = 2,
        values: list[str] | None = None,
    ) -> int:
        """Send INTERACTION_CREATE for a button (or select, with `values`) on `message`; return its id."""
        guild = guild or self.guild
        channel = next(c for c in guild.channels if c.id == int(message["channel_id"]))
        user = user or guild.members[-2]
        record, payload = self._base_interaction(3, guild, channel, user)
        record.source_message_id = int(message["id"])
        data: Json = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        payload["data"] = data
        payload["message"] = message
        return await self._invoke(
            record, payload, guild, channel, user, click=custom_id, message_id=message["id"], values=values
        )

    async def _invoke(
        self,
        record: FakeInteraction,
        payload: Json,
        guild: FakeGuild,
        channel: FakeChannel,
        user: FakeMember,
        **what: Any,
    ) -> int:
        """Write the invocation (and `what` it used) to the transcript, then send it: the interaction id."""
        self._record(
            "invoke", interaction=str(record.id), channel_id=str(channel.id), user=user.user.username, **what
        )
        record.sent_at = time.perf_counter()
        await self.dispatch(guild.id, "INTERACTION_CREATE", payload)
        return record.id

    # ------------------------------------------------------------------- REST

    async def _unknown(self, request: web.Request) -> web.Response:
        self.unknown_routes.append(f"{request.method} {request.path}")
        await self._notify()
        return _error(404, 0, f"fake discord: unknown route {request.method} {request.path}")

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body, files = await _read_body(request)
        recorded = Recorded(
            len(self.requests), request.method, path, dict(request.query), body, files, time.perf_counter()
        )
        try:
            response = self._fault(request.method, path, recorded) or self._route(
                request.method, path.rstrip("/").split("/")[1:], recorded
            )
        except _Reply as reply:
            response = reply.response
        except Exception as bug:  # a fake bug must not look like a 5xx (discord.py retries those for 25 s)
            self.unknown_routes.append(f"{request.method} {path} (fake raised {bug!r})")
            response = _error(400, 0, f"fake discord raised {bug!r}")
        if response is None:
            self.unknown_routes.append(f"{request.method} {path}")
            response = _error(404, 0, f"fake discord: unknown route {request.method} {path}")
        self.requests.append(recorded)
        if request.method in ("PUT", "DELETE") and "/pins/" in path and response.status < 300:
            self._record(
                "pin", message_id=path.rstrip("/").rsplit("/", 1)[-1], pinned=request.method == "PUT"
            )
        await self._notify()
        return response

    def _fault(self, method: str, path: str, req: Recorded) -> web.Response | None:
        for pending in self.faults:
            fault, remaining = pending
            if remaining > 0 and fault.method == method and fault.path_contains in path:
                pending[1] -= 1
                self.injected.append(req)
                if fault.status == 429:
                    body = {"message": "You are being rate limited.", "retry_after": fault.retry_after}
                    body["global"] = fault.global_
                    response = _json(body, status=429)
                    response.headers["Via"] = "1.1 google"
                    response.headers["Retry-After"] = str(fault.retry_after)
                    return response
                return _error(fault.status, 0, f"injected {fault.status}")
        return None

    def _route(self, method: str, parts: list[str], req: Recorded) -> web.Response | None:
        match (method, parts):
            case ("GET", ["users", "@me"]):
                if self.reject_login:
                    return _error(401, 0, "401: Unauthorized")
                return _json(self.bot_user.payload())
            case ("GET", ["oauth2", "applications", "@me"]):
                return _json(self._application())
            case ("GET", ["applications", "@me"]):
                return _json(self._application())
            case ("GET", ["gateway"]):
                return _json({"url": self.gateway_url})
            case ("GET", ["gateway", "bot"]):
                return _json(
                    {
                        "url": self.gateway_url,
                        "shards": self.shard_count,
                        "session_start_limit": {
                            "total": 1000,
                            "remaining": 1000,
                            "reset_after": 0,
                            "max_concurrency": 16,
                        },
                    }
                )
            case ("PUT", ["applications", _app, "commands"]):
                self.global_commands = self._register(req.json or [], None)
                return _json(self.global_commands)
            case ("PUT", ["applications", _app, "guilds", guild_id, "commands"]):
                self.guild_commands[int(guild_id)] = self._register(req.json or [], int(guild_id))
                return _json(self.guild_commands[int(guild_id)])
            case ("GET", ["applications", _app, "commands"]):
                return _json(self.global_commands)
            case ("GET", ["applications", _app, "guilds", guild_id, "commands"]):
                return _json(self.guild_commands.get(int(guild_id), []))
            case ("POST", ["interactions", interaction_id, token, "callback"]):
                return self._callback(int(interaction_id), token, req)
            case ("POST", ["webhooks", _app, token]):
                return self._followup(token, req)
            case ("GET" | "PATCH" | "DELETE", ["webhooks", _app, token, "messages", message_id]):
                return self._webhook_message(method, token, message_id, req)
            case ("POST", ["channels", channel_id, "messages"]):
                message = self._message(int(channel_id), req.json or {})
                return _json(message)
            case ("GET", ["channels", channel_id, "messages"]):
                return _json(self._history(int(channel_id), req.query))
            case ("GET" | "PATCH" | "DELETE", ["channels", _channel, "messages", message_id]):
                return self._stored_message(method, int(message_id), req)
            case ("POST", ["channels", _channel, "typing"]):
                return web.Response(status=204)
            case ("PUT" | "DELETE", ["channels", _channel, "messages", "pins", message_id]):
                return self._pin(int(message_id), pinned=method == "PUT")
            case ("PUT" | "DELETE", ["channels", _channel, "pins", message_id]):  # the older path
                return self._pin(int(message_id), pinned=method == "PUT")
        return None

    def _application(self) -> Json:
        return {
            "id": str(self.application_id),
            "name": "Draw Steel Bot",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
            "summary": "",
            "rpc_origins": [],
        }

    def _register(self, commands: list[Json], guild_id: int | None) -> list[Json]:
        out = []
        for command in commands:
            entry = {
                **command,
                "id": str(self.snowflake()),
                "application_id": str(self.application_id),
                "version": str(self.snowflake()),
                "type": command.get("type", 1),
            }
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            out.append(entry)
        return out

    def _message(
        self,
        channel_id: int,
        data: Json,
        *,
        flags: int = 0,
        interaction: bool = False,
        via: int | None = None,
        system: tuple[int, Json] | None = None,
    ) -> Json:
        """A new message in the channel (`system`: a system message's type and the message it refers to)."""
        message_id = self.snowflake()
        message = {
            "id": str(message_id),
            "type": system[0] if system is not None else 20 if interaction else 0,
            "content": data.get("content") or "",
            "author": self.bot_user.payload(),
            "channel_id": str(channel_id),
            "embeds": data.get("embeds") or [],
            "components": data.get("components") or [],
            "attachments": data.get("attachments") or [],
            "flags": (data.get("flags") or 0) | flags,
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": False,
            "pinned": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "allowed_mentions": data.get("allowed_mentions"),
        }
        if interaction:
            message["webhook_id"] = str(self.application_id)
        if system is not None:
            message["message_reference"] = system[1]
        made_by = self.interactions.get(via) if via is not None else None
        if made_by is not None and made_by.user is not None:  # as Discord: the interaction that made it
            message["interaction_metadata"] = {"id": str(via), "type": 2, "user": made_by.user}
        self.messages[message_id] = message
        self._record("send", message=message, interaction=None if via is None else str(via))
        return message

    def _callback(self, interaction_id: int, token: str, req: Recorded) -> web.Response:
        interaction = self.interactions.get(interaction_id)
        if interaction is None or interaction.token != token:
            return _error(404, 10062, "Unknown interaction")
        if interaction.callback is None:
            interaction.callback = req
            if interaction.arrived is not None and not interaction.arrived.done():
                interaction.arrived.set_result(req)
        if interaction.acknowledged:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        body = req.json or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        interaction.acknowledged = True
        interaction.response_type = kind
        if kind in (1, 8):
            return web.Response(status=204)
        message: Json | None = None
        if kind == 4:
            message = self._message(interaction.channel_id, data, interaction=True, via=interaction.id)
        elif kind == 5:
            message = self._message(
                interaction.channel_id, {"flags": data.get("flags", 0)}, flags=LOADING, via=interaction.id
            )
            interaction.loading = True
        elif kind in (6, 7):
            source = self.messages.get(interaction.source_message_id or 0)
            if source is not None and kind == 7:
                source.update(
                    {k: v for k, v in data.items() if k in ("content", "embeds", "components", "flags")}
                )
                self._record("edit", message=source)
            message = source
        interaction.ephemeral = bool(message is not None and int(message.get("flags", 0)) & EPHEMERAL)
        if message is not None:
            interaction.response_message_id = int(message["id"])
        resource: Json = {"type": kind}
        if message is not None:
            resource["message"] = message
        return _json(
            {
                "interaction": {
                    "id": str(interaction_id),
                    "type": 2,
                    "response_message_id": message["id"] if message is not None else None,
                    "response_message_loading": interaction.loading,
                    "response_message_ephemeral": interaction.ephemeral,
                    "activity_instance_id": None,
                },
                "resource": resource,
            }
        )

    def _interaction_by_token(self, token: str) -> FakeInteraction:
        interaction = self._by_token.get(token)
        if interaction is None:
            raise _Reply(_error(404, 10015, "Unknown Webhook"))
        return interaction

    def _followup(self, token: str, req: Recorded) -> web.Response:
        interaction = self._interaction_by_token(token)
        if not interaction.acknowledged:
            return _error(404, 10015, "Unknown Webhook")
        data = req.json or {}
        if interaction.loading and interaction.response_message_id is not None:
            # The first followup after a deferral fills the "thinking…" message.
            interaction.loading = False
            original = self.messages[interaction.response_message_id]
            original.update({k: v for k, v in data.items() if k in ("content", "embeds", "components")})
            original["flags"] = int(original["flags"]) & ~LOADING
            self._record("edit", message=original)
            interaction.followup_ids.append(interaction.response_message_id)
            return _json(original)
        message = self._message(interaction.channel_id, data, interaction=True, via=interaction.id)
        interaction.followup_ids.append(int(message["id"]))
        return _json(message)

    def _webhook_message(self, method: str, token: str, message_id: str, req: Recorded) -> web.Response:
        interaction = self._interaction_by_token(token)
        if message_id == "@original":
            if interaction.response_message_id is None:
                return _error(404, 10008, "Unknown Message")
            target = interaction.response_message_id
        else:
            target = int(message_id)
        if method in ("PATCH", "DELETE") and target == interaction.response_message_id:
            interaction.loading = False  # edited: no longer "thinking"; deleted: a followup is a new message
        return self._stored_message(method, target, req)

    def _pin(self, message_id: int, *, pinned: bool) -> web.Response:
        """Pin or unpin a message (discord.py 2.7: `PUT/DELETE /channels/{c}/messages/pins/{m}`). A pin
        posts Discord's system message (type 6, CHANNEL_PINNED_MESSAGE: "… pinned a message to this
        channel."), its author the one who pinned (the bot), referring to the pinned message."""
        message = self.messages.get(message_id)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        newly = pinned and not message.get("pinned")
        message["pinned"] = pinned
        if newly:
            channel_id = int(message["channel_id"])
            reference = {
                "type": 0,
                "message_id": str(message_id),
                "channel_id": str(channel_id),
                "guild_id": str(self._guild_of(channel_id)),
            }
            self._message(channel_id, {}, system=(6, reference))
        return web.Response(status=204)

    def _guild_of(self, channel_id: int) -> int:
        return next(c.guild_id for g in self.guilds for c in g.channels if c.id == channel_id)

    def _history(self, channel_id: int, query: Mapping[str, str]) -> list[Json]:
        """`GET /channels/{c}/messages`: the channel's messages, newest first, or with `after` the oldest
        `limit` after that id (as Discord pages them: discord.py reverses them); ephemeral ones never."""
        limit = min(int(query.get("limit", 50)), 100)
        found = [
            m
            for m in self.messages.values()
            if m["channel_id"] == str(channel_id) and not int(m.get("flags") or 0) & EPHEMERAL
        ]
        found.sort(key=lambda m: int(m["id"]), reverse=True)
        if "before" in query:
            found = [m for m in found if int(m["id"]) < int(query["before"])]
        if "after" in query:
            found = [m for m in found if int(m["id"]) > int(query["after"])][-limit:]
        return found[:limit]

    def _stored_message(self, method: str, message_id: int, req: Recorded) -> web.Response:
        message = self.messages.get(message_id)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        if method == "DELETE":
            del self.messages[message_id]
            self._record("delete", message_id=str(message_id))
            return web.Response(status=204)
        if method == "PATCH":
            data = req.json or {}
            message.update(
                {k: v for k, v in data.items() if k in ("content", "embeds", "components", "flags")}
            )
            message["flags"] = int(message.get("flags") or 0) & ~LOADING
            message["edited_timestamp"] = _now()
            self._record("edit", message=message)
        return _json(message)


class _Reply(Exception):
    def __init__(self, response: web.Response) -> None:
        super().__init__(response.status)
        self.response = response


def _json(data: Any, status: int = 200) -> web.Response:
    # Exactly `application/json`: with `; charset=utf-8` discord.py reads the body as text (checklist).
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"message": message, "code": code}, status=status)


async def _read_body(request: web.Request) -> tuple[Any, tuple[str, ...]]:
    if not request.can_read_body:
        return None, ()
    content_type = request.headers.get("Content-Type", "")
    if content_type.startswith("multipart/"):
        body: Any = None
        files: list[str] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                body = json.loads(await part.text())
            else:
                files.append(part.filename or str(part.name))
                await part.read()
        return body, tuple(files)
    raw = await request.read()
    if not raw:
        return None, ()
    try:
        return json.loads(raw), ()
    except ValueError:
        return raw.decode(errors="replace"), ()
