"""What happens when a command, view or button fails: one registry, one reply, one log line.

`REGISTRY` (an `ErrorRegistry`) turns a known exception into a one-line ephemeral reply (extend it with
`REGISTRY.register(MyError)(handler)`); anything else is logged with its traceback and the user gets
`APOLOGY`. `report` sends that reply, `BotTree` logs one line per command and runs each interaction once
(`first_delivery`), and `BotView` and `guarded` route view and `DynamicItem` errors the same way. Design:
docs/architecture.md, *The framework*.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

import discord
from discord import app_commands
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from bot.in_time import RECEIVED_AT, settled, stamp, unwatch, watch
from bot.quoted import names_for
from bot.replies import UserError, inert_names, one_line, send
from bot.rules.errors import RuleError
from bot.store.errors import AlreadyApplied, StoreError, StoreUnavailable
from bot.store.faults import cannot_save, is_unavailable

log = logging.getLogger("bot.errors")
command_log = logging.getLogger("bot.commands")

APOLOGY = "Sorry, something went wrong on my side; it has been logged. Please try again."

Outcome = Literal["ok", "refused", "error"]
E = TypeVar("E", bound=BaseException)
Handler = Callable[[Any], str | None]


def unwrap(error: BaseException) -> BaseException:
    """The exception the command actually raised (inside `CommandInvokeError` / a transformer's cause)."""
    while True:
        if isinstance(error, app_commands.CommandInvokeError):
            error = error.original
        elif isinstance(error, app_commands.TransformerError) and isinstance(
            error.__cause__, RuleError | UserError
        ):
            error = error.__cause__
        else:
            return error


class ErrorRegistry:
    """Exception type → handler returning the one-line message (or None to fall through to the next)."""

    def __init__(self) -> None:
        self._handlers: dict[type[BaseException], Handler] = {}

    def register(self, *types: type[BaseException]) -> Callable[[Handler], Handler]:
        def add(handler: Handler) -> Handler:
            for cls in types:
                self._handlers[cls] = handler
            return handler

        return add

    def message_for(self, error: BaseException) -> str | None:
        """The user-facing line for `error`, or None when it is unexpected (a bug)."""
        error = unwrap(error)
        for cls in type(error).__mro__:
            handler = self._handlers.get(cls)
            if handler is not None:
                message = handler(error)
                if message:
                    return one_line(message)
        return None


REGISTRY = ErrorRegistry()


@REGISTRY.register(RuleError, StoreError, UserError)
def _plain(error: Exception) -> str:
    return str(error)


@REGISTRY.register(DBAPIError, PoolTimeout)
def _database(error: Exception) -> str | None:
    """A driver error that escaped the store: "busy" when the database is not answering, "can't save" when
    it refuses every write (a full disk, read-only), else a bug."""
    refused = cannot_save(error)
    if refused is not None:
        return refused.default_message
    return StoreUnavailable.default_message if is_unavailable(error) else None


@REGISTRY.register(app_commands.CheckFailure)
def _check_failure(error: app_commands.CheckFailure) -> str:
    return str(error) or "You can't use that command here."


_OPTION_WORDS = {
    discord.AppCommandOptionType.string: "text",
    discord.AppCommandOptionType.integer: "a whole number",
    discord.AppCommandOptionType.number: "a number",
    discord.AppCommandOptionType.boolean: "yes or no",
    discord.AppCommandOptionType.user: "a member",
    discord.AppCommandOptionType.channel: "a channel",
    discord.AppCommandOptionType.role: "a role",
    discord.AppCommandOptionType.mentionable: "a member or role",
    discord.AppCommandOptionType.attachment: "a file",
}


@REGISTRY.register(app_commands.TransformerError)
def _transformer(error: app_commands.TransformerError) -> str:
    value = str(error.value)[:80]
    kind = _OPTION_WORDS.get(error.type, error.type.name.lower())
    return f"I couldn't read {value!r} as {kind}: check that option and try again."


@REGISTRY.register(app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)
def _stale_command(error: app_commands.AppCommandError) -> str:
    return "That command has changed since Discord last loaded it: wait a minute and try again."


async def reply_safely(interaction: discord.Interaction[Any], message: str) -> None:
    """Send an ephemeral line; if Discord refuses (expired token, deleted channel), log instead of raising.

    After a public "thinking…" deferral (a slow command, or the auto-defer) that nothing filled yet, the
    line would otherwise fill that public message: delete it and send the line as an ephemeral followup."""
    try:
        await settled(interaction)
        if await _drop_public_thinking(interaction):
            await send(interaction, content=message, ephemeral=True)  # a followup: the response is done
            return
        await send(interaction, content=message, ephemeral=True)
    except discord.HTTPException as failure:
        log.warning(
            "could not send error reply for interaction %s: %s %s",
            interaction.id,
            failure.status,
            failure.text,
        )


async def _drop_public_thinking(interaction: discord.Interaction[Any]) -> bool:
    """True when the interaction's response was a public deferral still showing "thinking…", now deleted."""
    if interaction.response.type is not discord.InteractionResponseType.deferred_channel_message:
        return False
    try:
        original = await interaction.original_response()
        if not original.flags.loading or original.flags.ephemeral:
            return False
        await interaction.delete_original_response()
    except discord.HTTPException:
        return False
    return True


async def report(
    interaction: discord.Interaction[Any], error: BaseException, *, registry: ErrorRegistry = REGISTRY
) -> Outcome:
    """Tell the user what went wrong (ephemerally, once) and log bugs with a traceback. An interaction
    another process already applied (`AlreadyApplied`) gets no answer here: that process gives it."""
    if isinstance(unwrap(error), AlreadyApplied):
        log.warning(
            "ignored interaction %s (%s): another process already applied it",
            interaction.id,
            describe(interaction),
        )
        return "refused"
    message = registry.message_for(error)
    if message is None:
        original = unwrap(error)
        log.error(
            "unexpected error in interaction %s (%s, guild %s, channel %s)",
            interaction.id,
            describe(interaction),
            interaction.guild_id,
            interaction.channel_id,
            exc_info=(type(original), original, original.__traceback__),
        )
        await reply_safely(interaction, APOLOGY)
        return "error"
    await reply_safely(interaction, await _quoting(interaction, message))
    return "refused"


async def _quoting(interaction: discord.Interaction[Any], message: str) -> str:
    """`message` with the names it quotes shown literally (`bot.quoted`): a refusal built by the rules core
    quotes names as they are."""
    try:
        return inert_names(message, await names_for(interaction))
    except Exception:  # a refusal is still answered, as it is
        log.debug("could not read the names a refusal may quote", exc_info=True)
        return message


def describe(interaction: discord.Interaction[Any]) -> str:
    """`/qualified name` for commands, `component:<custom_id>` for buttons and selects."""
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    if custom_id is not None:
        return f"component:{str(custom_id)[:60]}"
    if isinstance(data.get("name"), str):
        return f"/{data['name'][:60]}"
    return f"interaction-type:{interaction.type.name}"


def log_outcome(interaction: discord.Interaction[Any], outcome: Outcome) -> None:
    """The one log line per handled command (no user content, no secrets)."""
    unwatch(interaction)
    started = interaction.extras.get(RECEIVED_AT)
    elapsed = (time.perf_counter() - started) * 1000 if isinstance(started, float) else float("nan")
    command_log.info(
        "command=%s guild=%s channel=%s ms=%.1f outcome=%s",
        describe(interaction),
        interaction.guild_id,
        interaction.channel_id,
        elapsed,
        outcome,
    )


_FIRST = "first_delivery"
RECENT_INTERACTIONS = 20_000


class _RecentIds:
    """The ids of the last `size` interactions this process handled (bounded, oldest forgotten first)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._ids: OrderedDict[int, None] = OrderedDict()

    def add(self, interaction_id: int) -> bool:
        """Remember the id; False when it was already there."""
        if interaction_id in self._ids:
            return False
        self._ids[interaction_id] = None
        if len(self._ids) > self.size:
            self._ids.popitem(last=False)
        return True


def _recent(client: Any) -> _RecentIds:
    """The client's memory of handled interaction ids (one per bot: ids are unique per Discord)."""
    recent = getattr(client, "_recent_interactions", None)
    if not isinstance(recent, _RecentIds):
        recent = _RecentIds(RECENT_INTERACTIONS)
        with contextlib.suppress(AttributeError):  # a client with __slots__: no memory, no deduplication
            client._recent_interactions = recent
    return recent


def first_delivery(interaction: discord.Interaction[Any]) -> bool:
    """False when this interaction id was already handled: Discord (or a resumed gateway session) delivered
    it again, and running it twice would apply its change twice. The same interaction object passes again
    (a view's check and its item's callback both ask)."""
    if _FIRST in interaction.extras:
        return bool(interaction.extras[_FIRST])
    first = _recent(interaction.client).add(interaction.id)
    interaction.extras[_FIRST] = first
    if not first:
        log.warning(
            "ignored a repeated delivery of interaction %s (%s)", interaction.id, describe(interaction)
        )
    return first


class BotTree(app_commands.CommandTree[Any]):
    """The command tree: stamps each interaction on receipt and reports every failure through `report`.

    Successful commands are logged by the bot's `on_app_command_completion` (see `bot.client`).
    """

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        stamp(interaction)
        if interaction.type is discord.InteractionType.autocomplete:
            return True
        if not first_delivery(interaction):
            return False
        watch(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        stamp(interaction)
        outcome = await report(interaction, error)
        log_outcome(interaction, outcome)


class BotView(discord.ui.View):
    """Base for every view of ordinary items (persistent ones travel in `bot.ui.persistent.PersistentView`):
    item callback errors get the same ephemeral line / apology as commands."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        stamp(interaction)
        if not first_delivery(interaction):
            return False
        watch(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        log_outcome(interaction, await report(interaction, error))


S = TypeVar("S")


def guarded(
    callback: Callable[[S, discord.Interaction[Any]], Coroutine[Any, Any, None]],
) -> Callable[[S, discord.Interaction[Any]], Coroutine[Any, Any, None]]:
    """Decorate a `DynamicItem.callback` (or any item callback) so its errors are reported and logged.

    discord.py only logs exceptions from `DynamicItem` callbacks; this gives them the command path instead.
    """

    @functools.wraps(callback)
    async def wrapper(self: S, interaction: discord.Interaction[Any]) -> None:
        stamp(interaction)
        if not first_delivery(interaction):
            return
        watch(interaction)
        try:
            await callback(self, interaction)
        except Exception as error:
            log_outcome(interaction, await report(interaction, error))
        else:
            log_outcome(interaction, "ok")

    return wrapper
