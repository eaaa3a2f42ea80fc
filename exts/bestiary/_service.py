"""The server bestiary's glue, shared by `/monster` and by `/encounter add monster:` and `/encounter import`:
who may change the bestiary, reading uploaded Forge Steel files, stat blocks to and from the store, the
monster-name autocomplete, and bringing stored stat blocks into the channel's encounter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.attachments import defer_for_file, download
from bot.autocomplete import never_fails
from bot.client import DrawSteelBot
from bot.content.bestiary import Brought, add_encounter_file, add_monsters
from bot.content.forgesteel.encounter import read_encounter
from bot.content.forgesteel.files import Kind, load_export
from bot.content.forgesteel.monster import read_monster, read_monster_group
from bot.content.monster import Monster
from bot.permissions import require, server_standing
from bot.play import Caller, InTime, caller_of, channel_key, play
from bot.replies import fail, inert, send
from bot.rules import codec
from bot.rules.encounter import Encounter, fold
from bot.rules.encounter.flow import side_named
from bot.rules.turns import Controller, Mode, Side
from bot.store import Table
from bot.store.bestiary import NewMonster, StoredMonster
from exts.bestiary._views import brought_text
from exts.turn._views import side_label

MONSTER_FILES = "a `.ds-monster` or `.ds-monster-group` file"
ENCOUNTER_FILE = "a `.ds-encounter` file"


async def require_server_director(interaction: discord.Interaction[Any], bot: DrawSteelBot, key: str) -> None:
    """Refuse ("Only a server Director (the @Role role or Manage Server) can change the bestiary.") unless
    the member is a Director of this server (`bot.permissions.RULES[key]`: the Director role or Manage
    Server; an encounter's starter as such is not). The one place that decides who changes the bestiary;
    anyone may read it."""
    _, at, role = await server_standing(interaction, bot.store)
    require(key, at, director_role_id=role)


@never_fails
async def monster_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The server's monsters whose names contain what was typed (any case), at most 25; never fails."""
    if interaction.guild_id is None:
        return []
    entries = await interaction.client.store.monster_index(interaction.guild_id)
    key = fold(current)
    choices = []
    for entry in entries:
        if key in fold(entry.name):
            label = f"{entry.name} · {entry.group}" if entry.group else entry.name
            choices.append(app_commands.Choice(name=label[:100], value=entry.name[:100]))
    return choices[:25]


def stat_block_of(stored: StoredMonster) -> Monster:
    """The stat block a bestiary row holds."""
    monster: Monster = codec.load(Monster, stored.data)
    return monster


def to_new(monster: Monster) -> NewMonster:
    """A stat block as the store keeps it."""
    return NewMonster(monster.name, monster.group, monster.id, codec.to_data(monster))


async def read_monster_file(
    interaction: discord.Interaction[Any], attachment: discord.Attachment
) -> list[Monster]:
    """The stat blocks of an uploaded `.ds-monster` or `.ds-monster-group` (deferring the interaction first):
    one-line refusals for anything else.

    Files are hostile until read: the command is deferred, the file downloaded with
    `bot.attachments.download` (2 MB, 10 s) and read by `bot.content.forgesteel`; a bad file is refused in one
    line and nothing is stored."""
    await defer_for_file(interaction)
    data = await download(attachment, what=MONSTER_FILES)
    kind, _ = load_export(data, Kind.MONSTER, Kind.MONSTER_GROUP)
    if kind is Kind.MONSTER_GROUP:
        return list(read_monster_group(data).monsters)
    return [read_monster(data)]


def _director_side(encounter: Encounter, side: str | None) -> Side:
    if side:
        return side_named(encounter, side)
    return next(
        (s for s in encounter.turns.sides if s.controller is Controller.DIRECTOR), encounter.turns.sides[0]
    )


def side_words(encounter: Encounter, side: Side) -> str:
    """The reply's words for the side creatures joined ("the Director's side", a team's name)."""
    if side.controller is Controller.DIRECTOR and encounter.turns.mode is not Mode.TEAMS:
        return "the Director's side"
    return side_label(encounter, side.id)


def joined(names: Sequence[str], label: str) -> str:
    """The event's summary when creatures join a side: "Goblin 1..Goblin 8 joined the Director's side"."""
    shown = ", ".join(names) if len(names) <= 5 else f"{names[0]}..{names[-1]}"
    return f"{shown} joined {label}"[:300]


@dataclass(frozen=True, slots=True)
class Landed:
    """Monsters brought into the encounter, for the reply: the side's words and what each stat block
    brought."""

    label: str
    brought: tuple[Brought, ...]

    @property
    def summary(self) -> str:
        return joined([n for b in self.brought for n in b.names], self.label)


@dataclass(frozen=True, slots=True)
class Where:
    """Where `/encounter add monster:` puts the monsters: the side (default the Director's), the name they
    take instead of the monster's, the squad minions form, the enemy group they join."""

    side: str | None = None
    name: str | None = None
    squad: str | None = None
    group: str | None = None


async def add_from_bestiary(
    interaction: discord.Interaction[Any],
    bot: DrawSteelBot,
    monster: str,
    count: int,
    where: Where,
    replaced: Sequence[str] = (),
) -> None:
    """`/encounter add monster:`: `count` creatures of a stored stat block into this channel's encounter.
    `replaced` are the options given that a stat block decides itself: refused, rather than ignored.
    Bringing monsters into an encounter is its Director's, like adding any Director creature."""
    if replaced:
        fail(f"A stat block brings its own {', '.join(replaced)}: leave them out with monster:.")
    stored = await InTime(interaction).run(bot.store.find_monster(channel_key(interaction).guild_id, monster))
    if stored is None:
        fail(
            f"This server's bestiary has no monster called {inert(' '.join(monster.split())[:64])}: pick one "
            "from the list, or add it with /monster import."
        )
    block = stat_block_of(stored)

    def step(_who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Landed]:
        chosen = _director_side(encounter, where.side)
        updated, brought = add_monsters(
            encounter, block, count, chosen.id, name=where.name, squad=where.squad, group=where.group
        )
        return updated, Landed(side_words(updated, chosen), (brought,))

    played = await play(
        interaction, "encounter.add", step, lambda landed: landed.summary, rule="/encounter add monster:"
    )
    await send(interaction, content=brought_text(played.result.brought, played.result.label))


async def import_encounter(
    interaction: discord.Interaction[Any],
    bot: DrawSteelBot,
    file: discord.Attachment,
    group: discord.Attachment | None,
    side: str | None,
) -> None:
    """`/encounter import`: a Forge Steel encounter's monsters, resolved by id in the monsters uploaded with
    it (`group`) and then in the server's bestiary, into this channel's encounter. Bringing monsters
    into an encounter is its Director's, like adding any Director creature; the files are read as
    `read_monster_file` reads them."""
    who = await InTime(interaction).run(caller_of(interaction, bot))
    who.require("/encounter import")
    await defer_for_file(interaction)
    plan = read_encounter(await download(file, what=ENCOUNTER_FILE))
    monsters: dict[str, Monster] = {}
    if group is not None:
        monsters = {m.id: m for m in await read_monster_file(interaction, group) if m.id}
    wanted = plan.missing(monsters.keys())
    if wanted:
        stored = await bot.store.monsters_by_source(channel_key(interaction).guild_id, wanted)
        monsters.update({i: stat_block_of(s) for i, s in stored.items()})

    def step(_who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Landed]:
        chosen = _director_side(encounter, side)
        updated, brought = add_encounter_file(encounter, plan, monsters, chosen.id)
        if not brought:
            fail("That encounter brings no monsters: add some to it in Forge Steel, or use /encounter add.")
        return updated, Landed(side_words(updated, chosen), tuple(brought))

    played = await play(interaction, "encounter.import", step, lambda landed: landed.summary)
    label, brought = played.result.label, played.result.brought
    title = f"📥 **{inert(plan.name)}**\n" if plan.name else ""
    await send(interaction, content=title + brought_text(brought, label))
