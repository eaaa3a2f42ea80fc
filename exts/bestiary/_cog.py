"""The server bestiary (/monster import | add | list | show | remove).

The bestiary belongs to the server: only a server Director changes it
(`exts.bestiary._service.require_server_director`); anyone may list it or read a stat block (the replies are
only theirs to see). Monsters from a Forge Steel group keep their group's name; storing a name the server
already has updates it in place. Stat blocks are `bot.content.monster.Monster`s (read by
`bot.content.forgesteel`, or entered here), kept by `Store`'s bestiary (`bot/store/bestiary.py`);
`/encounter add monster:` and `/encounter import` bring them into play.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.client import BotCog, DrawSteelBot
from bot.content.monster import Monster, Organization
from bot.help import guild_group
from bot.options import Bounded, SuggestedText, Text
from bot.play import InTime
from bot.replies import fail, inert, send
from bot.rules.characteristics import Characteristics
from bot.rules.creature import LEVEL_MAX
from bot.rules.damage import DamageModifiers
from bot.rules.forced import Size
from exts.bestiary._service import (
    monster_choices,
    read_monster_file,
    require_server_director,
    stat_block_of,
    to_new,
)
from exts.bestiary._views import bestiary_embed, monster_embed, stocked_text

ORGANIZATIONS = [
    app_commands.Choice(name=o.value, value=o.value) for o in Organization if o is not Organization.NONE
]
NAME_MAX = 64
TEXT_MAX = 100
STAMINA_MAX = 999
NUMBER_MAX = 99
#: The refusal when the monster named is not in the server's bestiary (/monster show, /monster remove).
NO_SUCH_MONSTER = (
    "This server's bestiary has no monster by that name: pick one from the list (/monster list)."
)
#: A monster of the server's bestiary, suggested as it is typed.
MonsterName = app_commands.Transform[str, SuggestedText("monster's name", TEXT_MAX, monster_choices)]


def _guild(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        fail("The bestiary belongs to a server: use this in one of its channels.")
    return interaction.guild_id


class BestiaryCog(BotCog):
    """The server bestiary (/monster)."""

    monster = guild_group("monster", "This server's bestiary of monster stat blocks.", "/monster list")

    @monster.command(name="import", description="Store a Forge Steel monster or monster group file.")
    async def import_cmd(self, interaction: discord.Interaction[Any], file: discord.Attachment) -> None:
        """Server Director: store a Forge Steel .ds-monster or .ds-monster-group (again: update it).

        Example: /monster import file: Goblin.ds-monster-group

        Args:
            file: A .ds-monster or .ds-monster-group file exported from Forge Steel
        """
        guild = _guild(interaction)
        await InTime(interaction).run(require_server_director(interaction, self.bot, "/monster import"))
        monsters = await read_monster_file(interaction, file)
        if not monsters:
            fail("That group has no monsters: export one that has, or use /monster add.")
        stocked = await self.bot.store.put_monsters(guild, interaction.user.id, [to_new(m) for m in monsters])
        groups = {m.group for m in monsters}
        await send(interaction, content=stocked_text(stocked, groups.pop() if len(groups) == 1 else ""))

    @monster.command(name="add", description="Enter a monster's stat block by hand.")
    @app_commands.choices(organization=ORGANIZATIONS)
    async def add(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Transform[str, Text("name", NAME_MAX)],
        stamina: app_commands.Transform[int, Bounded("Stamina", 1, STAMINA_MAX)],
        level: app_commands.Transform[int, Bounded("Level", 0, LEVEL_MAX)] = 1,
        organization: str = Organization.PLATOON.value,
        role: app_commands.Transform[str, Text("role", NAME_MAX)] = "",
        characteristics: app_commands.Transform[str, Text("characteristics", TEXT_MAX)] | None = None,
        free_strike: app_commands.Transform[int, Bounded("Free strike damage", 0, NUMBER_MAX)] = 0,
        immunity: app_commands.Transform[str, Text("immunity", TEXT_MAX)] | None = None,
        weakness: app_commands.Transform[str, Text("weakness", TEXT_MAX)] | None = None,
        stability: app_commands.Transform[int, Bounded("Stability", 0, NUMBER_MAX)] = 0,
        speed: app_commands.Transform[int, Bounded("Speed", 0, NUMBER_MAX)] = 5,
        size: app_commands.Transform[str, Text("size", 8)] = "1M",
        group: app_commands.Transform[str, Text("group name", NAME_MAX)] = "",
        keywords: app_commands.Transform[str, Text("keywords", TEXT_MAX)] = "",
        ev: app_commands.Transform[int, Bounded("Encounter value", 0, STAMINA_MAX)] = 0,
    ) -> None:
        """Server Director: enter a stat block by hand (same name again: update it).

        Example: /monster add name: Bandit stamina: 20 level: 1 organization: platoon free_strike: 3

        Args:
            name: The monster's name (an existing one is updated)
            stamina: Stamina maximum
            level: Level (default 1)
            organization: minion, horde, platoon, elite, leader, solo...
            role: Role, e.g. Brute, Artillery
            characteristics: e.g. "M2 A1 R0 I-1 P1"
            free_strike: Free strike damage
            immunity: e.g. "fire 5, all 2"
            weakness: e.g. "cold 3"
            stability: Stability
            speed: Speed
            size: Size, e.g. "1M", "2"
            group: Its monster group's name
            keywords: Keywords, e.g. Goblin, Humanoid
            ev: Encounter value
        """
        guild = _guild(interaction)
        try:
            org = Organization(organization)
        except ValueError:
            fail("Pick an organization: minion, horde, platoon, elite, leader or solo.")
        block = Monster(
            id="",
            name=" ".join(name.split()),
            level=level,
            organization=org,
            stamina=stamina,
            group=" ".join(group.split()),
            role=" ".join(role.split()).title(),
            keywords=tuple(k.strip() for k in keywords.split(",") if k.strip()),
            encounter_value=ev,
            size=Size.parse(size.strip() or "1M").format(),
            speed=speed,
            stability=stability,
            free_strike=free_strike,
            characteristics=Characteristics.parse(characteristics) if characteristics else Characteristics(),
            modifiers=DamageModifiers.parse(immunity or "", weakness or ""),
        )
        in_time = InTime(interaction)
        await in_time.run(require_server_director(interaction, self.bot, "/monster add"))
        stocked = await in_time.run(self.bot.store.put_monsters(guild, interaction.user.id, [to_new(block)]))
        await send(interaction, content=stocked_text(stocked, block.group), embed=monster_embed(block))

    @monster.command(name="list", description="This server's monsters, by group.")
    async def list_cmd(self, interaction: discord.Interaction[Any]) -> None:
        """The server's monsters by group.

        Example: /monster list
        """
        entries = await InTime(interaction).run(self.bot.store.monster_index(_guild(interaction)))
        await send(interaction, embed=bestiary_embed(entries), ephemeral=True)

    @monster.command(name="show", description="A monster's stat block with its abilities.")
    async def show(self, interaction: discord.Interaction[Any], monster: MonsterName) -> None:
        """A stat block with its abilities.

        Example: /monster show monster: Goblin Sniper

        Args:
            monster: The monster (from this server's bestiary)
        """
        stored = await InTime(interaction).run(self.bot.store.find_monster(_guild(interaction), monster))
        if stored is None:
            fail(NO_SUCH_MONSTER)
        await send(interaction, embed=monster_embed(stat_block_of(stored)), ephemeral=True)

    @monster.command(name="remove", description="Remove a monster from this server's bestiary.")
    async def remove(self, interaction: discord.Interaction[Any], monster: MonsterName) -> None:
        """Server Director: remove a monster.

        Example: /monster remove monster: Goblin Sniper

        Args:
            monster: The monster (from this server's bestiary)
        """
        guild = _guild(interaction)
        in_time = InTime(interaction)
        await in_time.run(require_server_director(interaction, self.bot, "/monster remove"))
        removed = await in_time.run(self.bot.store.remove_monster(guild, monster))
        if removed is None:
            fail(NO_SUCH_MONSTER)
        await send(interaction, content=f"🗑️ {inert(removed)} left the bestiary.")


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(BestiaryCog(bot))
