"""The Director's Malice (/malice show | gain | spend).

Anyone at the table sees the Malice; only the Director gains or spends it (docs/permissions.md). The rules are
`bot.rules.encounter.harm.gain_malice` / `spend_malice` (never below 0). Malice gained at the start of each
round is the turn flow's job, not this command's.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.client import BotCog, DrawSteelBot
from bot.help import guild_group
from bot.play import Caller, channel_key, encounter_of, play
from bot.replies import send
from bot.rules.encounter import Encounter, harm
from bot.store import Table
from bot.ui.combat import malice_reply


class MaliceCog(BotCog):
    """The Director's Malice (/malice)."""

    malice = guild_group("malice", "The Director's Malice.", "/malice show")

    @malice.command(name="show", description="Show the Director's Malice in this encounter.")
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """Show the Director's Malice in this encounter.

        Example: /malice show
        """
        table = await self.bot.store.view(channel_key(interaction))
        await send(interaction, content=malice_reply(encounter_of(table).malice.value))

    async def _change(self, interaction: discord.Interaction[Any], amount: int, spend: bool) -> None:
        verb = "spends" if spend else "gains"

        def step(_who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, int]:
            updated = harm.spend_malice(encounter, amount) if spend else harm.gain_malice(encounter, amount)
            return updated, updated.malice.value

        played = await play(
            interaction,
            f"malice.{'spend' if spend else 'gain'}",
            step,
            lambda value: f"The Director {verb} {amount} Malice (now {value})",
            rule="/malice spend" if spend else "/malice gain",
        )
        text = malice_reply(played.result, -amount if spend else amount) + played.gains_said
        await send(interaction, content=text)

    @malice.command(name="gain", description="Director: gain Malice.")
    async def gain(self, interaction: discord.Interaction[Any], amount: int) -> None:
        """Director: gain Malice.

        Example: /malice gain amount: 2

        Args:
            amount: Malice gained
        """
        await self._change(interaction, amount, spend=False)

    @malice.command(name="spend", description="Director: spend Malice.")
    async def spend(self, interaction: discord.Interaction[Any], amount: int) -> None:
        """Director: spend Malice (never below 0).

        Example: /malice spend amount: 3

        Args:
            amount: Malice spent
        """
        await self._change(interaction, amount, spend=True)


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(MaliceCog(bot))
