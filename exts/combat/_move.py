"""Forced movement (/move slam): the Director reports a collision and the bot deals the slam damage.

`/move slam target: Goblin 1 squares_left: 3 into: creature other: Goblin 2` — both take 1 damage per square
left; `into: object` — 2 + 1 per square left; with `material:` (glass, wood, stone, metal) the target may be
hurled through the object (the table in Draw Steel, Combat, "HURLING THROUGH OBJECTS"). The rules are
`bot.rules.forced` (distances, stability, sizes and slams, for abilities' tier effects too) and
`bot.rules.encounter.slam`; the reply is `exts.combat._move_views`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.client import BotCog, DrawSteelBot
from bot.help import guild_group
from bot.play import Caller, play
from bot.replies import fail
from bot.rules.encounter import Encounter, harm
from bot.rules.encounter.heroic import Observed
from bot.rules.encounter.rescue import offer_rescues
from bot.rules.encounter.slam import SlamResult, slam_into
from bot.rules.forced import DISTANCE_MAX, Into, Material
from bot.store import Table
from exts.combat._move_views import slam_reply, slam_summary
from exts.combat._stamina import Name
from exts.tracker._controls import rescue_view
from exts.turn._replies import reply_played


@dataclass(frozen=True, slots=True)
class Slammed:
    """A slam: who was moved, the creature they hit (if any) and the damage."""

    moved: str
    second: str | None
    result: SlamResult


THICKNESS_MAX = 20
INTO_CHOICES = [app_commands.Choice(name=i.value, value=i.value) for i in Into]
MATERIAL_CHOICES = [app_commands.Choice(name=m.value, value=m.value) for m in Material]


class Move(BotCog):
    """Forced movement (/move)."""

    move = guild_group("move", "Forced movement.", "/move slam target: Goblin 1 squares_left: 3 into: object")

    @move.command(name="slam", description="Director: a force-moved creature collided; deal the slam damage.")
    @app_commands.choices(into=INTO_CHOICES, material=MATERIAL_CHOICES)
    async def slam(
        self,
        interaction: discord.Interaction[Any],
        target: Name,
        squares_left: app_commands.Range[int, 1, DISTANCE_MAX],
        into: str,
        other: Name | None = None,
        material: str | None = None,
        thickness: app_commands.Range[int, 1, THICKNESS_MAX] = 1,
    ) -> None:
        """Director: a force-moved creature hit something; deal the slam damage.

        Example: /move slam target: Goblin 1 squares_left: 3 into: creature other: Goblin 2

        Args:
            target: The creature force moved
            squares_left: Squares of forced movement left when it collided
            into: What it hit: a creature or an object
            other: The creature it slammed into (takes the same damage)
            material: The object's material, if it can break: glass, wood, stone or metal
            thickness: How many squares thick the object is (with material)
        """
        if into not in {i.value for i in Into}:
            fail("into is creature or object: e.g. into:object.")
        if material is not None and material not in {m.value for m in Material}:
            fail("material is glass, wood, stone or metal (leave it out for an object that won't break).")
        what = Into(into)
        stuff = Material(material) if material is not None else None

        def step(_who: Caller, encounter: Encounter, table: Table) -> tuple[Encounter, Slammed]:
            moved = harm.target(encounter, target).id
            second = harm.target(encounter, other).id if other is not None else None
            updated, result = slam_into(encounter, moved, squares_left, what, second, stuff, thickness)
            updated = offer_rescues(updated, result.hits, table.tokens, table.version + 1)
            return updated, Slammed(moved, second, result)

        played = await play(
            interaction,
            "move.slam",
            step,
            lambda s: slam_summary(s.moved, s.result),
            rule="/move slam",
            observed=lambda _: Observed(force_moved=1),  # a slam ends a creature's forced movement
        )
        slammed = played.result
        view = rescue_view(played.encounter_id, played.version, played.after)
        text = slam_reply(slammed.moved, slammed.result, slammed.second, played.hidden)
        await reply_played(interaction, played, text, view=view)


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Move(bot))
