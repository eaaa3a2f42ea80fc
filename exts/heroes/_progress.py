"""Victories and respites (/victories, /respite) for the channel's roster.

Rules: Draw Steel, The Basics, "Victories", "Experience", "Respite" through `bot.rules.hero`
(`award_sheet_victories`, `sheet_respite`, built on `bot.rules.resources`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

from bot.client import BotCog, DrawSteelBot
from bot.play import Member, apply, channel_key, put_sheet, sheet_of
from bot.replies import fail, inert, send
from bot.rules.hero import award_sheet_victories, sheet_respite
from bot.store import Change, Hero, Table
from exts.heroes._cog import HeroName, require_hero, view_of
from exts.heroes._views import HeroView, victories_embed

AWARD_MAX = 10


def award_victories(heroes: Iterable[Hero], victories: int) -> tuple[str, ...]:
    """Give each roster hero `victories` Victories on their sheet (none for 0: nobody is awarded); the names
    of those awarded. After combat, a montage or a negotiation as by `/victories award:`."""
    awarded = []
    for hero in heroes if victories else ():
        put_sheet(hero, award_sheet_victories(sheet_of(hero), victories))
        awarded.append(hero.name)
    return tuple(awarded)


def _targets(table: Table, hero: str | None) -> list[Hero]:
    if hero is not None:
        return [require_hero(table, hero)]
    if not table.heroes:
        fail("No heroes in this channel yet: create one with /hero create.")
    return list(table.heroes.values())


class Progress(BotCog):
    """Victories and respites (/victories, /respite)."""

    @app_commands.command(name="victories", description="Show the heroes' Victories; a Director awards them.")
    @app_commands.guild_only()
    async def victories(
        self,
        interaction: discord.Interaction[Any],
        award: app_commands.Range[int, 1, AWARD_MAX] | None = None,
        hero: HeroName | None = None,
    ) -> None:
        """Victories and XP; a server Director awards.

        Example: /victories award:1

        Args:
            award: Director: Victories to award (leave out to show)
            hero: Only this hero (default: every hero of the roster)
        """
        if award is None:
            table = await self.bot.store.view(channel_key(interaction))
            shown = [
                view_of(h) for h in (_targets(table, hero) if hero is not None else table.heroes.values())
            ]
            await send(interaction, embed=victories_embed(shown))
            return

        def change(_who: Member, table: Table) -> Change[list[HeroView]]:
            heroes = _targets(table, hero)
            names = ", ".join(award_victories(heroes, award))
            return Change(
                f"{award} Victories to {names}"[:200], [view_of(h) for h in heroes], {"count": award}
            )

        awarded = await apply(interaction, "victories.award", change, rule="/victories award:")
        who = inert(awarded[0].name) if len(awarded) == 1 else "each hero"
        await send(
            interaction,
            content=f"The Director awards {award} Victor{'y' if award == 1 else 'ies'} to {who}.",
            embed=victories_embed(awarded),
        )

    @app_commands.command(name="respite", description="Director: a respite for every hero of the roster.")
    @app_commands.guild_only()
    async def respite(self, interaction: discord.Interaction[Any]) -> None:
        """Server Director: Victories to XP, full Stamina.

        Example: /respite
        """

        def change(_who: Member, table: Table) -> Change[list[HeroView]]:
            if table.encounter is not None and table.encounter.active:
                fail("A respite can't happen during combat: end the encounter first with /encounter end.")
            heroes = _targets(table, None)
            for target in heroes:
                put_sheet(target, sheet_respite(sheet_of(target)))
            return Change("Respite", [view_of(h) for h in heroes], {"heroes": len(heroes)})

        rested = await apply(interaction, "respite", change, rule="/respite")
        dead = [inert(h.name) for h in rested if h.sheet.vitals.dead]
        note = f" ({', '.join(dead)}: dead, not restored)" if dead else ""
        await send(
            interaction,
            content=("Respite: Victories become XP; Stamina and Recoveries are restored" + note + "."),
            embed=victories_embed(rested),
        )


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Progress(bot))
