"""A hero's heroic resource in the encounter (/resource gain | spend | set).

Rules: `bot.rules.encounter.heroic` (Draw Steel, The Basics, "Heroic Resources"): the value lives in the
encounter; a roster hero's resource name (wrath, focus, ...) comes from their sheet. The gains the bot sees
happen (start of turn, taking damage, becoming winded or dying) come by themselves; these commands are for
the rest (a class trigger the bot can't see) and for corrections. Who may: the hero's player or the Director.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot import autocomplete
from bot.autocomplete import named_or_own
from bot.client import BotCog, DrawSteelBot
from bot.help import guild_group
from bot.options import SuggestedRange
from bot.permissions import require_controls
from bot.play import Caller, play, sheet_of
from bot.replies import inert, send
from bot.rules.encounter import Encounter, harm, heroic
from bot.store import Table

NAME_TEXT_MAX = 100
AMOUNT_MAX = heroic.RESOURCE_MAX
#: A hero of the encounter named in an option (default: the caller's), suggested as it is typed.
HeroInPlay = app_commands.Transform[
    str, SuggestedRange("hero's name", 0, NAME_TEXT_MAX, autocomplete.creatures)
]


def resource_name(table: Table, encounter: Encounter, creature_id: str) -> str:
    """The hero's resource's name: their roster sheet's, else "heroic resource"."""
    hero = table.heroes.get(encounter.roster.get(creature_id, ""))
    return sheet_of(hero).resource_name if hero is not None else "heroic resource"


@dataclass(frozen=True, slots=True)
class ResourceChanged:
    """A `/resource` change, for its reply: the hero, what happened ("gains 2 wrath"), the resource's name
    and its value now."""

    hero: str
    said: str
    called: str
    value: int


class Resource(BotCog):
    """Heroic resources (/resource)."""

    resource = guild_group(
        "resource",
        "A hero's heroic resource in this encounter.",
        "/resource gain amount:2",
        "A hero's heroic resource in the encounter.",
    )

    async def _change(
        self,
        interaction: discord.Interaction[Any],
        kind: str,
        hero: str | None,
        fn: Callable[[Encounter, str, str], tuple[Encounter, str, int]],
        verb: str,
    ) -> None:
        def step(who: Caller, encounter: Encounter, table: Table) -> tuple[Encounter, ResourceChanged]:
            name = named_or_own(encounter, hero, who.actor.user_id, option="hero", heroes_only=True)
            creature = harm.target(encounter, name)
            require_controls(
                who.actor,
                creature.owner_id,
                who.director,
                creature=creature.id,
                action=f"change {creature.id}'s heroic resource",
            )
            called = resource_name(table, encounter, creature.id)
            updated, hero_id, value = fn(encounter, creature.id, called)
            return updated, ResourceChanged(hero_id, verb.format(name=called), called, value)

        played = await play(
            interaction, kind, step, lambda done: f"{done.hero} {done.said}: {done.value} now"
        )
        done = played.result
        text = f"⚡ **{inert(done.hero)}** {inert(done.said)} · {inert(done.called)}: **{done.value}**"
        await send(interaction, content=text)

    @resource.command(name="gain", description="A hero gains heroic resource.")
    async def gain(
        self,
        interaction: discord.Interaction[Any],
        amount: app_commands.Range[int, 1, AMOUNT_MAX],
        hero: HeroInPlay | None = None,
    ) -> None:
        """Gain heroic resource (a class trigger).

        Example: /resource gain amount:2 hero:Ash

        Args:
            amount: How much
            hero: The hero (default: yours)
        """
        await self._change(
            interaction,
            "resource.gain",
            hero,
            lambda enc, cid, _name: heroic.gain(enc, cid, amount),
            f"gains {amount} {{name}}",
        )

    @resource.command(name="spend", description="A hero spends heroic resource.")
    async def spend(
        self,
        interaction: discord.Interaction[Any],
        amount: app_commands.Range[int, 1, AMOUNT_MAX],
        hero: HeroInPlay | None = None,
    ) -> None:
        """Spend heroic resource (never below 0).

        Example: /resource spend amount:3

        Args:
            amount: How much
            hero: The hero (default: yours)
        """
        await self._change(
            interaction,
            "resource.spend",
            hero,
            lambda enc, cid, name: heroic.spend(enc, cid, amount, resource_name=name),
            f"spends {amount} {{name}}",
        )

    @resource.command(name="set", description="Correct a hero's heroic resource.")
    async def set(
        self,
        interaction: discord.Interaction[Any],
        amount: app_commands.Range[int, 0, AMOUNT_MAX],
        hero: HeroInPlay | None = None,
    ) -> None:
        """Correct a hero's heroic resource.

        Example: /resource set amount:4 hero:Ash

        Args:
            amount: The new value
            hero: The hero (default: yours)
        """
        await self._change(
            interaction,
            "resource.set",
            hero,
            lambda enc, cid, _name: heroic.set_value(enc, cid, amount),
            "has {name} set",
        )


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Resource(bot))
