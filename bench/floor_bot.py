"""The floor: a bare discord.py bot that only acknowledges interactions — what discord.py itself costs.

    DISCORD_TOKEN=... DISCORD_API_BASE=... DISCORD_GATEWAY_URL=... [SHARD_COUNT=N] python bench/floor_bot.py

Same endpoints and intents as the real bot (`python -m bot`), none of its work: no command tree, no store, no
rules. A slash command is answered with a small embed and one button (about what a real reply carries), a
component click by editing its message, an autocomplete with an empty list. Everything goes through
discord.py's own gateway parsing, `Interaction` objects and HTTP client, so the gap between this and the bot
is the bot's own cost. Stops cleanly on SIGTERM/SIGINT.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from typing import Any

import discord
import yarl


def endpoints() -> None:
    """Point REST and the gateway at `DISCORD_API_BASE` / `DISCORD_GATEWAY_URL` (as `bot.client` does)."""
    api = os.environ.get("DISCORD_API_BASE", "").strip()
    gateway = os.environ.get("DISCORD_GATEWAY_URL", "").strip()
    if api:
        discord.http.Route.BASE = api.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway.rstrip("/"))


async def acknowledge(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge every interaction and do nothing else."""
    if interaction.type is discord.InteractionType.application_command:
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Next", custom_id="floor:next"))
        embed = discord.Embed(title="Floor", description="acknowledged")
        await interaction.response.send_message(embed=embed, view=view)
        view.stop()  # the floor listens for nothing: discord.py would keep a view without a timeout forever
    elif interaction.type is discord.InteractionType.component:
        await interaction.response.edit_message(content="clicked")
    elif interaction.type is discord.InteractionType.autocomplete:
        await interaction.response.autocomplete([])


def build() -> discord.Client:
    """A plain `Client`, or an `AutoShardedClient` with `SHARD_COUNT` / `SHARD_IDS` (as the bot chooses)."""
    intents = discord.Intents.none()
    intents.guilds = True
    mentions = discord.AllowedMentions.none()
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    count = os.environ.get("SHARD_COUNT", "").strip()
    client: discord.Client
    if count:
        ids = os.environ.get("SHARD_IDS", "").strip()
        shard_ids = [int(i) for i in ids.split(",")] if ids else list(range(int(count)))
        client = discord.AutoShardedClient(
            intents=intents, allowed_mentions=mentions, shard_count=int(count), shard_ids=shard_ids
        )
    else:
        client = discord.Client(intents=intents, allowed_mentions=mentions)

    async def on_interaction(interaction: discord.Interaction[Any]) -> None:
        await acknowledge(interaction)

    client.event(on_interaction)
    return client


async def run() -> None:
    endpoints()
    client = build()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with client:
        runner = asyncio.create_task(client.start(os.environ["DISCORD_TOKEN"]))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            stopper.cancel()
            runner.result()
            return
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await runner


if __name__ == "__main__":
    asyncio.run(run())
