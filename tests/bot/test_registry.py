"""The error registry: which errors users see (one line) and which are bugs."""

from __future__ import annotations

from typing import Any

import pytest
from discord import AppCommandOptionType, app_commands

from bot.error_hook import REGISTRY, ErrorRegistry, unwrap
from bot.permissions import Refused
from bot.replies import UserError, fail, one_line
from bot.rules.errors import RuleError
from bot.store.errors import NoEncounter, StaleState


class _Transformer(app_commands.Transformer):
    async def transform(self, interaction: Any, value: Any) -> Any:
        return value


def _invoke_error(original: Exception) -> app_commands.CommandInvokeError:
    @app_commands.command(name="x", description="x")
    async def x(interaction: Any) -> None: ...

    return app_commands.CommandInvokeError(x, original)


def _transformer_error(cause: Exception | None) -> app_commands.TransformerError:
    error = app_commands.TransformerError("ten", AppCommandOptionType.integer, _Transformer())
    error.__cause__ = cause
    return error


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (RuleError("Pick a target first."), "Pick a target first."),
        (_invoke_error(RuleError("Pick a target first.")), "Pick a target first."),
        (_invoke_error(NoEncounter()), "No encounter in this channel — start one with /encounter start."),
        (StaleState(), "This encounter changed while you were acting — try again."),
        (UserError("Line one.\nLine two."), "Line one."),
        (Refused("Only the Director can do that."), "Only the Director can do that."),
        (app_commands.NoPrivateMessage(), "This command cannot be used in direct messages."),
        (_transformer_error(RuleError("Amounts are whole numbers.")), "Amounts are whole numbers."),
        (
            _transformer_error(ValueError("nope")),
            "I couldn't read 'ten' as a whole number: check that option and try again.",
        ),
        (
            app_commands.CommandNotFound("gone", []),
            "That command has changed since Discord last loaded it: wait a minute and try again.",
        ),
    ],
)
def test_user_facing_errors(error: Exception, message: str) -> None:
    assert REGISTRY.message_for(error) == message


@pytest.mark.parametrize("error", [RuntimeError("bug"), _invoke_error(KeyError("k")), ValueError("v")])
def test_everything_else_is_a_bug(error: Exception) -> None:
    assert REGISTRY.message_for(error) is None


def test_unwrap_reaches_the_original() -> None:
    original = KeyError("k")
    assert unwrap(_invoke_error(original)) is original


def test_fail_raises_a_one_line_user_error() -> None:
    with pytest.raises(UserError, match=r"^Say which hero\.$"):
        fail("Say which hero.\n(details)")
    assert one_line("x" * 400).endswith("…") and len(one_line("x" * 400)) == 300


def test_a_new_family_plugs_in() -> None:
    class Custom(Exception):
        pass

    registry = ErrorRegistry()
    assert registry.message_for(Custom("a")) is None
    registry.register(Custom)(lambda error: f"custom: {error}")
    assert registry.message_for(_invoke_error(Custom("a"))) == "custom: a"
