"""Build the bot: `create_bot(settings, *, store=None, dice=None)`.

The bot has minimal intents (guilds only, nothing privileged), pings nobody by default, and in `setup_hook`
opens the store (unless one was injected), loads every extension in `COGS`, and syncs the slash commands —
globally, and to `DEV_GUILD_ID` at once when set. New features plug in by adding their package to
`COGS` (docs/dev/bot.md).
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Generic, Protocol, TypeVar

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.error_hook import BotTree, log_outcome
from bot.in_time import stamp
from bot.rules.dice import Dice, SystemDice
from bot.settings import Settings
from bot.store import ChannelKey, Committed, Store

log = logging.getLogger("bot.client")

#: Every extension (one package a feature, `exts/`) the bot loads, in order. Add new features here.
COGS: tuple[str, ...] = (
    "exts.rolls",
    "exts.encounter",
    "exts.montage",
    "exts.negotiation",
    "exts.bestiary",
    "exts.turn",
    "exts.tracker",
    "exts.reminders",
    "exts.combat",
    "exts.heroes",
    "exts.settings",
    "exts.help",
)


def intents() -> discord.Intents:
    """Guilds only: slash commands and components need nothing else (no members, no message content)."""
    result = discord.Intents.none()
    result.guilds = True
    return result


CommitListener = Callable[[ChannelKey, Committed[Any]], Awaitable[None]]


class DrawSteelBot(commands.Bot):
    """The bot. Cogs reach `bot.settings`, `bot.store` and `bot.dice` through `interaction.client`."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        dice: Dice | None = None,
        exts: tuple[str, ...] = COGS,
        timers: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=BotTree,
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=False, private_channel=False
            ),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
            **options,
        )
        self.settings = settings
        self._store = store
        self._owns_store = store is None
        self.dice: Dice = dice if dice is not None else SystemDice()
        self.cog_modules = exts
        self.synced: list[app_commands.AppCommand] = []
        #: Called after every committed change of a channel (`bot.play.commit`); the tracker registers here.
        self.commit_listeners: list[CommitListener] = []
        #: Whether the bot runs the loop that fires due reminders (`exts.reminders._service`): `python -m
        #: bot` does;
        #: an embedded bot and the tests (which fire them themselves) don't.
        self.timers = timers

    @property
    def store(self) -> Store:
        """The open store (opened in `setup_hook` unless injected)."""
        if self._store is None:
            raise RuntimeError("the store is not open yet (it opens in setup_hook)")
        return self._store

    async def setup_hook(self) -> None:
        if self._store is None:
            self._store = await open_store(self.settings.database_url)
        for module in self.cog_modules:
            if module not in self.extensions:  # idempotent: a restarted bot logs in again
                await self.load_extension(module)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Sync globally; with `DEV_GUILD_ID`, also copy every command to that guild so it shows at once."""
        self.synced = await self.tree.sync()
        log.info("synced %d global commands", len(self.synced))
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to DEV_GUILD_ID %s", len(synced), guild_id)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: app_commands.Command[Any, ..., Any] | Any
    ) -> None:
        stamp(interaction)
        log_outcome(interaction, "ok")

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            store, self._store = self._store, None
            if store is not None and self._owns_store:
                await store.close()


class ShardedDrawSteelBot(DrawSteelBot, commands.AutoShardedBot):
    """The same bot as an `AutoShardedBot` (used when `SHARD_COUNT` is set)."""


async def open_store(database_url: str) -> Store:
    """Open (and migrate) the store at `database_url`."""
    return await Store.open(database_url, migrate=True)


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py's REST base and default gateway at `DISCORD_API_BASE` / `DISCORD_GATEWAY_URL`.

    `Route.BASE` is read whenever a route is built (interaction callbacks and webhooks included); a plain
    bot and an `AutoShardedBot` with a fixed `shard_count` both connect straight to
    `DiscordWebSocket.DEFAULT_GATEWAY`.
    """
    if settings.api_base is not None:
        discord.http.Route.BASE = settings.api_base
    if settings.gateway_url is not None:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def create_bot(
    settings: Settings,
    *,
    store: Store | None = None,
    dice: Dice | None = None,
    timers: bool = False,
) -> DrawSteelBot:
    """The bot for `settings`; an `AutoShardedBot` when `SHARD_COUNT` is set.

    Pass `store` to inject an open store (the caller closes it); `dice` defaults to `SystemDice()`; `timers`
    (`python -m bot`) runs the loop that fires due reminders.
    """
    # The bot never joins voice: skip discord.py's start-up warnings about voice libraries.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    if settings.sharded:
        bot: DrawSteelBot = ShardedDrawSteelBot(
            settings,
            store=store,
            dice=dice,
            timers=timers,
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids) if settings.shard_ids is not None else None,
        )
    else:
        bot = DrawSteelBot(settings, store=store, dice=dice, timers=timers)
    if settings.gateway_url is not None:
        _pin_gateway(bot, yarl.URL(settings.gateway_url))
    return bot


def _pin_gateway(bot: DrawSteelBot, gateway: yarl.URL) -> None:
    """Make `GET /gateway/bot`'s URL lose to the override too (a sharded bot without a count asks it)."""
    original = bot.http.get_bot_gateway

    async def get_bot_gateway() -> tuple[int, str, Any]:
        shards, _url, limits = await original()
        return shards, str(gateway), limits

    bot.http.get_bot_gateway = get_bot_gateway  # type: ignore[method-assign]


class _Service(Protocol):
    @property
    def closed(self) -> bool: ...


S = TypeVar("S", bound=_Service)


class PerBot(Generic[S]):
    """One service per bot (the tracker's, the reminders'), made on first use, and made again once closed."""

    def __init__(self, make: Callable[[DrawSteelBot], S]) -> None:
        self._make = make
        self._services: weakref.WeakKeyDictionary[DrawSteelBot, S] = weakref.WeakKeyDictionary()

    def __call__(self, bot: DrawSteelBot) -> S:
        service = self._services.get(bot)
        if service is None or service.closed:
            service = self._services[bot] = self._make(bot)
        return service

    def clear(self) -> None:
        """Forget every bot's service (a test's fresh start)."""
        self._services.clear()
