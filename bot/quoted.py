"""The names a refusal may quote, so the error hook can show them literally (`bot.replies.inert_names`).

The rules core's refusals quote names as they are; the names they can quote are the user's own text (the
interaction's options) and the names of the channel's state. `names_for(interaction)` collects both
(`option_texts`, `table_names`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import discord

from bot.channel import channel_key
from bot.rules import codec
from bot.rules.encounter import Encounter
from bot.rules.names import NAME_MAX
from bot.store import COMBAT, Table

#: How much of a typed text a refusal may quote (a name's length; a side's 40).
_QUOTED_LENGTHS = (NAME_MAX, 40)


def _typed(value: str) -> Iterator[str]:
    """A text option and the forms a refusal quotes it in: spacing collapsed, cut, each part of a list."""
    for text in (value, *value.split(",")):
        clean = " ".join(text.split())
        yield text
        yield clean
        for length in _QUOTED_LENGTHS:
            yield clean[:length]


def option_texts(data: Mapping[str, Any] | None) -> list[str]:
    """Every string option value of an interaction's data (subcommands included), as it may be quoted."""
    out: list[str] = []
    stack = list((data or {}).get("options") or [])
    while stack:
        option = stack.pop()
        if not isinstance(option, Mapping):
            continue
        value = option.get("value")
        if isinstance(value, str):
            out.extend(_typed(value))
        stack.extend(option.get("options") or [])
    return out


def table_names(table: Table) -> list[str]:
    """The names of a channel's state: its heroes, and its active encounter's creatures, squads, groups,
    sides and custom conditions."""
    names = [hero.name for hero in table.heroes.values()]
    if table.encounter is not None:
        names.append(table.encounter.name)
    if table.encounter is None or not table.encounter.active or table.encounter.kind != COMBAT:
        return names
    # decoded here, not through `bot.play`'s glue: the error path sits below the commands
    encounter = codec.load(Encounter, table.encounter.state)
    turns = encounter.turns
    names.extend(c.id for c in encounter.creatures)
    names.extend(s.id for s in encounter.squads)
    names.extend(e.group for e in turns.entries if e.group is not None)
    names.extend(s.name for s in turns.sides if s.name)
    names.extend(c.label for c in turns.conditions)
    return names


async def names_for(interaction: discord.Interaction[Any]) -> list[str]:
    """The names a refusal to `interaction` may quote (see the module docstring)."""
    names = option_texts(interaction.data)
    if interaction.guild_id is not None and interaction.channel_id is not None:
        store = getattr(interaction.client, "store", None)
        if store is not None:
            names.extend(table_names(await store.view(channel_key(interaction), shared=True, fresh=False)))
    return names
