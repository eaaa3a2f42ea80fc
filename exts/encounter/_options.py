"""Reading /encounter's options: their limits, the teams list, and the autocompletes of sides, turn entries
and roster heroes."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.autocomplete import never_fails
from bot.options import Text
from bot.play import channel_key, encounter_of
from bot.replies import fail
from bot.rules.encounter import fold
from bot.rules.names import clean_name
from bot.rules.turns import Controller, Mode, Side

MODE_CHOICES = [app_commands.Choice(name=m.value, value=m.value) for m in Mode]
TEXT_MAX = 100
LIST_MAX = 1000
STAMINA_MAX = 999
TURNS_MAX = 3
RECOVERIES_MAX = 99
TEAMS_MAX = 10
TEAM_NAME_MAX = 32
NAME_MAX = 64

#: A creature's, hero's or side's name as an option (Discord limits it; `Text` refuses a longer one).
Name = app_commands.Transform[str, Text("name", NAME_MAX)]
SideName = app_commands.Transform[str, Text("side", NAME_MAX)]


def teams_of(text: str | None, mode: Mode) -> tuple[Side, ...] | None:
    """ "Red, Blue, Green" -> the teams (initiative order as typed); None for the default sides."""
    if mode is not Mode.TEAMS:
        if text:
            fail("Only the teams mode takes teams: leave it out, or pick mode: teams.")
        return None
    names = [" ".join(t.split()) for t in (text or "").split(",") if t.strip()]
    if len(names) < 2 or len(names) > TEAMS_MAX:
        fail(f"Name 2 to {TEAMS_MAX} teams separated by commas, e.g. teams: Red, Blue, Green.")
    if any(len(n) > TEAM_NAME_MAX for n in names):
        fail(f"Team names are at most {TEAM_NAME_MAX} characters: type shorter ones.")
    ids = [fold(n) for n in names]
    if len(set(ids)) != len(ids):
        fail("Give each team a different name.")
    return tuple(Side(i, Controller.PLAYERS, clean_name(n)) for i, n in zip(ids, names, strict=True))


# --- autocomplete -----------------------------------------------------------------------------------------


@never_fails
async def sides(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    encounter = encounter_of(await interaction.client.store.view(channel_key(interaction), shared=True))
    key = fold(current)
    names = [s.name or s.id for s in encounter.turns.sides]
    return [app_commands.Choice(name=n, value=n) for n in names if key in fold(n)][:25]


@never_fails
async def entries(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    encounter = encounter_of(await interaction.client.store.view(channel_key(interaction), shared=True))
    key = fold(current)
    names = [e.id for e in encounter.turns.entries if key in fold(e.id)]
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names][:25]


@never_fails
async def roster(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    table = await interaction.client.store.view(channel_key(interaction))
    key = fold(current)
    names = [h.name for h in table.heroes.values() if key in fold(h.name)]
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names][:25]
