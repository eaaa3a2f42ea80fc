"""What happens when a command, view or button fails: one registry, one reply, one log line.

- `ErrorRegistry` maps exception types to handlers that turn an error into a one-line, user-facing message
  (the python-discord / RoboDanny pattern). `REGISTRY` knows `RuleError`, `StoreError`, `UserError` (and so
  `Refused`), `app_commands.TransformerError` and `app_commands.CheckFailure`; extend it with
  `REGISTRY.register(MyError)(handler)`.
- `report(interaction, error)` answers with that line as an EPHEMERAL reply (the response if the interaction
  is still open, a followup otherwise — never a second acknowledgement); anything the registry does not
  know is logged with the interaction id and traceback, and the user gets `APOLOGY`.
- `BotTree` (the bot's command tree) times every command from receipt and writes one log line per command:
  `command=/name guild=… channel=… ms=… outcome=ok|refused|error`.
- `BotView` and `guarded` route view and `DynamicItem` callback errors through the same path.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

import discord
from discord import app_commands

from bot.replies import UserError, one_line, send
from bot.rules.errors import RuleError
from bot.store.errors import StoreError

log = logging.getLogger("bot.errors")
command_log = logging.getLogger("bot.commands")

APOLOGY = "Sorry, something went wrong on my side; it has been logged. Please try again."
RECEIVED_AT = "received_at"

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
    """Send an ephemeral line; if Discord refuses (expired token, deleted channel), log instead of raising."""
    try:
        await send(interaction, content=message, ephemeral=True)
    except discord.HTTPException as failure:
        log.warning(
            "could not send error reply for interaction %s: %s %s",
            interaction.id,
            failure.status,
            failure.text,
        )


async def report(
    interaction: discord.Interaction[Any], error: BaseException, *, registry: ErrorRegistry = REGISTRY
) -> Outcome:
    """Tell the user what went wrong (ephemerally, once) and log bugs with a traceback."""
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
    await reply_safely(interaction, message)
    return "refused"


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


def stamp(interaction: discord.Interaction[Any]) -> None:
    """Remember when the interaction arrived (first stamp wins)."""
    interaction.extras.setdefault(RECEIVED_AT, time.perf_counter())


class BotTree(app_commands.CommandTree[Any]):
    """The command tree: stamps each interaction on receipt and reports every failure through `report`.

    Successful commands are logged by the bot's `on_app_command_completion` (see `bot.client`).
    """

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        stamp(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        stamp(interaction)
        outcome = await report(interaction, error)
        log_outcome(interaction, outcome)


class BotView(discord.ui.View):
    """Base for every view: item callback errors get the same ephemeral line / apology as commands."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        stamp(interaction)
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
        try:
            await callback(self, interaction)
        except Exception as error:
            log_outcome(interaction, await report(interaction, error))
        else:
            log_outcome(interaction, "ok")

    return wrapper
