"""SimCord harness: the real bot (`create_bot`) on a simulated Discord, with a temp store and seeded dice.

Fixtures
- `settings`     — `Settings` with a fake, well-formed token and a temp SQLite URL.
- `dice`         — `SeededDice(SEED)`; override in a test module for other seeds or `FixedDice`.
- `store`        — the real `bot.store.Store` on a temp SQLite file (migrated: a copy of `migrated_sqlite`).
- `migrated_sqlite` — a SQLite file the migrations ran on once per test process (session-scoped, never
                   opened again): each test's store starts from a copy instead of running them again.
- `simcord_bot`  — `build_bot(settings, store, dice)`: what SimCord's `simcord_env` fixture runs.
- `simcord_env`  — SimCord's env (overridden so user-facing refusals — `RuleError`, `StoreError`,
                   `UserError`/`Refused`, check and transformer failures — do not count as bot errors at
                   teardown; anything else still fails the test unless the test reads `env.errors`).
- `cdn_server`   — SimCord's uploads served over HTTP on 127.0.0.1, so the bot downloads attachments from
                   their URLs (`tests/bot/files_kit.py`).
- `table`        — a guild with a Director role, a `#combat` channel, a thread in it, a Director and two
                   players (`Table`; `await table.configure_director_role()` stores the role in the guild
                   settings).
- `party`        — `table` with the Director role configured and two heroes on the roster made by
                   /hero create: Ash (alice, 30 Stamina, 8 Recoveries) and Bo (bob, 24 Stamina, 6).

Helpers
- `slow_commits(env, monkeypatch, cog, seconds)` — a cog's store commits take `seconds` of SimCord's virtual
                   time and commands defer at once: a store slower than Discord's patience.

To register a throwaway command for one test module, override `simcord_bot` in that module:

    @pytest.fixture
    def simcord_bot(settings, store, dice):
        bot = build_bot(settings, store, dice)
        bot.tree.add_command(my_test_command)
        return bot
"""

from __future__ import annotations

import asyncio
import math
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
from simcord import ChannelHandle, GuildHandle, MemberActor, RoleHandle
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType
from simcord.env import Env

from bot import in_time
from bot import play as play_module
from bot.client import DrawSteelBot, create_bot
from bot.error_hook import REGISTRY
from bot.rules.dice import Dice, SeededDice
from bot.settings import Settings
from bot.store import Store
from exts.tracker import _service as tracker
from tests.bot.files_kit import cdn_server  # noqa: F401  (a fixture: uploads served on 127.0.0.1)

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.fake-token-for-tests_only"
SEED = 20261122
#: The store's wait limit here. These tests check behaviour, not the answer-time budget (`WAIT_LIMIT`, which
#: the fault tests check with their own limit): a CI machine that stalls for a second and a half must not
#: turn a correct command into "the database is busy".
TEST_WAIT_LIMIT = 10.0


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(token=TOKEN, database_url=f"sqlite+aiosqlite:///{tmp_path}/bot.db")


@pytest.fixture(autouse=True)
def tracker_without_edit_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    """SimCord waits for the bot's tasks after every interaction, the tracker's pause between two refreshes
    (`exts.tracker._service.EDIT_GAP`) included: these tests run without it (doubling the suite's time
    otherwise).
    The test of the gap sets its own value; the wire tests run the bot with the real one. Likewise the
    pacing of the tracker's requests (`TRACKER_RATE`): SimCord's clock stands still while the bot sleeps."""
    monkeypatch.setattr(tracker, "EDIT_GAP", 0.0)
    monkeypatch.setattr(tracker, "TRACKER_RATE", math.inf)


@pytest.fixture
def dice() -> Dice:
    return SeededDice(SEED)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    file = tmp_path_factory.mktemp("migrated") / "bot.db"

    async def migrate() -> None:
        store = await Store.open(f"sqlite+aiosqlite:///{file}", migrate=True)
        await store.close()

    asyncio.run(migrate())
    # closed cleanly, SQLite folded its write-ahead log into the file: the one file is the whole database
    assert not file.with_name("bot.db-wal").exists()
    return file


@pytest_asyncio.fixture
async def store(settings: Settings, migrated_sqlite: Path) -> AsyncIterator[Store]:
    """The store as the bot opens it (migrating to head, here a no-op on the copy of a migrated file)."""
    shutil.copyfile(migrated_sqlite, settings.database_url.removeprefix("sqlite+aiosqlite:///"))
    opened = await Store.open(settings.database_url, migrate=True, wait_limit=TEST_WAIT_LIMIT)
    try:
        yield opened
    finally:
        await opened.close()


def build_bot(settings: Settings, store: Store, dice: Dice) -> DrawSteelBot:
    """The production bot, with the test's store and dice injected."""
    return create_bot(settings, store=store, dice=dice)


@pytest.fixture
def simcord_bot(settings: Settings, store: Store, dice: Dice) -> DrawSteelBot:
    return build_bot(settings, store, dice)


def is_user_facing(error: BaseException) -> bool:
    """True for the refusals the error hook answers with a one-line message (not bugs)."""
    return REGISTRY.message_for(error) is not None


@pytest_asyncio.fixture
async def simcord_env(simcord_bot: DrawSteelBot, request: pytest.FixtureRequest) -> AsyncIterator[Env]:
    marker = request.node.get_closest_marker("simcord")
    options = dict(marker.kwargs) if marker else {}
    env = Env(simcord_bot, **options)
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            # Same contract as SimCord's own fixture, minus the errors users are meant to see.
            unexpected = [
                error
                for error in env.errors_since(getattr(env, "_errors_acknowledged", 0))
                if not is_user_facing(error)
            ]
            if unexpected:
                raise BaseExceptionGroup(f"bot raised {len(unexpected)} unexpected error(s)", unexpected)


@dataclass
class Table:
    """A ready-made play space: one guild, a channel and a thread, a Director and two players."""

    env: Env
    guild: GuildHandle
    director_role: RoleHandle
    channel: ChannelHandle
    thread: ChannelHandle
    director: MemberActor
    alice: MemberActor
    bob: MemberActor
    store: Store

    async def configure_director_role(self) -> None:
        """Store `director_role` as the guild's Director role (`/settings`-style), so its members are server
        Directors; and let the role see /settings, as a server's admins do in Integrations (Discord shows it
        only to Manage Server by default)."""
        await self.store.update_settings(self.guild.id, director_role_id=self.director_role.id)
        self.allow_command("settings", self.director_role)

    def allow_command(self, name: str, role: RoleHandle) -> None:
        """Let `role` see and run the slash command `name` whatever its default member permissions."""
        command = self.env.backend.find_command(name, self.guild.id)
        assert command is not None, f"no command /{name}"
        self.guild.set_command_permissions(int(command["id"]), {role: True})

    def add_player(self, name: str) -> MemberActor:
        return self.guild.add_member(self.env.create_user(name))

    def add_channel_manager(self, name: str) -> MemberActor:
        """A member whose role has Manage Channels across the server (no Director by that alone)."""
        role = self.guild.create_role(f"{name}-mods", permissions=discord.Permissions(manage_channels=True))
        return self.guild.add_member(self.env.create_user(name), roles=[role])

    def add_server_manager(self, name: str) -> MemberActor:
        """A member whose role has Manage Server: a server Director by permission."""
        role = self.guild.create_role(f"{name}-admins", permissions=discord.Permissions(manage_guild=True))
        return self.guild.add_member(self.env.create_user(name), roles=[role])

    def add_channel_only_manager(self, name: str) -> MemberActor:
        """A member granted Manage Channels by an overwrite on `channel` only (as temporary-voice bots do)."""
        member = self.guild.add_member(self.env.create_user(name))
        allow = discord.Permissions(manage_channels=True).value
        overwrite = Overwrite(member.id, OverwriteType.MEMBER, allow=allow)
        self.env.backend.set_overwrite(self.channel.id, overwrite)
        return member


def make_thread(
    env: Env, guild: GuildHandle, parent: ChannelHandle, name: str, owner: MemberActor
) -> ChannelHandle:
    """A public thread under `parent` (SimCord has no builder verb for threads yet)."""
    thread = env.backend.create_thread(parent.id, name, owner.id)
    return ChannelHandle(env, guild, thread)


def make_table(env: Env, store: Store) -> Table:
    guild = env.create_guild("Draw Steel Table")
    director_role = guild.create_role("Director")
    channel = guild.create_text_channel("combat")
    director = guild.add_member(env.create_user("dana"), roles=[director_role])
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    thread = make_thread(env, guild, channel, "Goblin ambush", director)
    return Table(env, guild, director_role, channel, thread, director, alice, bob, store)


@pytest_asyncio.fixture
async def table(simcord_env: Env, store: Store) -> Table:
    """The table of a server that played before hidden monster Stamina became the default (revision
    0009_keep_shown_stamina kept it on for them): players see exact numbers unless a test turns it off."""
    made = make_table(simcord_env, store)
    await store.update_settings(made.guild.id, show_monster_stamina=True)
    return made


@pytest_asyncio.fixture
async def party(table: Table) -> Table:
    await table.configure_director_role()
    await table.alice.slash(table.channel, "hero create", name="Ash", stamina=30, recoveries=8)
    await table.bob.slash(table.channel, "hero create", name="Bo", stamina=24, recoveries=6)
    return table


@pytest.fixture
def new_table(simcord_env: Env, store: Store) -> Table:
    """The table of a server the bot has never seen: every setting at its default."""
    return make_table(simcord_env, store)


def slow_commits(env: Env, monkeypatch: pytest.MonkeyPatch, cog: str, seconds: float) -> None:
    """Make the store commits of the bot's cog module `cog` (e.g. "exts.turn._cog") take `seconds` of
    SimCord's virtual time, and commands defer at once (`bot.in_time.DEFER_AFTER`): a store slower than
    Discord's patience, without slowing the test."""
    bot = env.bot
    assert isinstance(bot, DrawSteelBot)
    package, _, part = cog.rpartition(".")
    assert package in bot.extensions  # its feature's package is loaded
    # the module that package's extension loaded (read from the package: unloading an extension drops its
    # submodules from sys.modules, and the tests' extensions are executed once, so an earlier test's bot
    # may have dropped it)
    loaded = getattr(bot.extensions[package], part)
    # its own `commit` calls, and those of `bot.play.play` when it changes the encounter through that
    modules = [m for m in (loaded, play_module) if hasattr(loaded, "play" if m is play_module else "commit")]
    assert modules, f"{cog} commits nothing"
    for module in modules:
        monkeypatch.setattr(module, "commit", _slowed(module.commit, seconds))
    monkeypatch.setattr(in_time, "DEFER_AFTER", 0.01)


def _slowed(real_commit: Any, seconds: float) -> Any:
    async def slow_commit(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        return await real_commit(*args, **kwargs)

    return slow_commit
