"""The fake itself, driven by the production bot in-process: buttons, message updates, deferrals, followups.

(The subprocess tests in test_wire.py cover start-up, shutdown and `/dice`; this covers the fake's other
routes so a benchmark can rely on them.)
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.error_hook import BotView
from bot.replies import send
from tests.wire import in_process_kit
from tests.wire.fake_discord import EPHEMERAL, FakeDiscord
from tests.wire.in_process_kit import WITHIN


class Panel(BotView):
    @discord.ui.button(label="Next", custom_id="panel:next")
    async def next(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="page 2")


@app_commands.command(name="panel", description="test: a message with a button")
async def panel(interaction: discord.Interaction[Any]) -> None:
    await send(interaction, content="page 1", view=Panel())


@app_commands.command(name="slow", description="test: defer, then two followups")
async def slow(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    await send(interaction, content="first")
    await send(interaction, content="second", ephemeral=True)


@app_commands.command(name="drop", description="test: defer publicly, delete the thinking message, follow up")
async def drop(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.defer(thinking=True)
    await interaction.delete_original_response()
    await interaction.followup.send("instead", ephemeral=True)


@contextlib.asynccontextmanager
async def running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """The bot with the three test commands above."""
    async with in_process_kit.running(tmp_path, monkeypatch, panel, slow, drop) as fake:
        yield fake


async def test_button_click_updates_the_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(tmp_path, monkeypatch) as fake:
        panel_id = await fake.slash("panel")
        await fake.wait_for_callback(panel_id, within=WITHIN)
        message_id = fake.interactions[panel_id].response_message_id
        assert message_id is not None
        message = fake.messages[message_id]
        assert message["content"] == "page 1"
        assert message["components"][0]["components"][0]["custom_id"] == "panel:next"

        clicked = await fake.click(message, "panel:next")
        update = await fake.wait_for_callback(clicked, within=WITHIN)
        assert update.json["type"] == 7
        assert fake.messages[message_id]["content"] == "page 2"


async def test_a_followup_after_the_thinking_message_was_deleted_is_a_new_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running(tmp_path, monkeypatch) as fake:
        interaction_id = await fake.slash("drop", user=fake.member("dana"))
        (followup,) = await fake.wait_for_followup(interaction_id, within=WITHIN, count=1)
        record = fake.interactions[interaction_id]
        assert record.response_message_id not in fake.messages  # deleted
        assert int(followup["id"]) != record.response_message_id
        assert followup["content"] == "instead" and int(followup["flags"]) & EPHEMERAL
        assert fake.unknown_routes == []


async def test_deferral_then_followups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(tmp_path, monkeypatch) as fake:
        interaction_id = await fake.slash("slow", user=fake.member("dana"))
        deferred = await fake.wait_for_callback(interaction_id, within=WITHIN)
        assert deferred.json == {"type": 5, "data": {"flags": EPHEMERAL}}
        first, second = await fake.wait_for_followup(interaction_id, within=WITHIN, count=2)
        record = fake.interactions[interaction_id]
        assert int(first["id"]) == record.response_message_id  # the first followup fills "thinking…"
        assert (first["content"], second["content"]) == ("first", "second")
        assert int(second["flags"]) & EPHEMERAL
