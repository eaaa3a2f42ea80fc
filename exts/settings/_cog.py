"""Per-server settings (/settings): the Director role, turn pings, whether hero tokens reset each session,
Malice rounding, whether players see monsters' exact Stamina, action-economy enforcement, and the timed
reminders (`nudge_after`, `argument_timer`: `exts.reminders._service`).

Only a server Director changes or reads them: the current Director role, or Manage Server at the server
level (`bot.permissions`, rule `/settings`; Discord also hides the command from members without Manage
Server until the server's admins allow it to others). Stored with `Store.update_settings`; read back with
`Store.get_settings`.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.client import BotCog, DrawSteelBot
from bot.durations import parse_duration
from bot.permissions import require, server_standing
from bot.replies import fail, send
from bot.store.table import ARGUMENT_RANGE, NUDGE_RANGE
from exts.settings._views import settings_embed

Rounding = Literal["down", "nearest", "up"]


class GuildSettingsCog(BotCog):
    """Per-server settings (/settings)."""

    @app_commands.command(name="settings", description="Director: show or change this server's settings.")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        director_role: discord.Role | None = None,
        clear_director_role: bool | None = None,
        turn_pings: bool | None = None,
        tokens_reset_per_session: bool | None = None,
        malice_rounding: Rounding | None = None,
        show_monster_stamina: bool | None = None,
        enforce_action_economy: bool | None = None,
        auto_saves: bool | None = None,
        nudge_after: str | None = None,
        argument_timer: str | None = None,
        negotiation_numbers: bool | None = None,
    ) -> None:
        """Server Director: this server's settings.

        Example: /settings turn_pings:False

        Args:
            director_role: Members of this role are server Directors (besides Manage Server)
            clear_director_role: True: no Director role (Manage Server only; anyone may start encounters)
            turn_pings: Ping the members whose side picks next
            tokens_reset_per_session: True: /tokens reset sets one token per hero; False: the pool carries
                over
            malice_rounding: How the heroes' average Victories rounds into starting Malice
            show_monster_stamina: True: players see monsters' exact Stamina; False: only winded, dying, dead
            enforce_action_economy: Refuse a second main action, maneuver or move in a turn
            auto_saves: The Director's creatures roll their saving throws when their turn ends
            nudge_after: Ping a side again when it hasn't picked for this long, e.g. 12h (15m to 7d; off)
            argument_timer: Live table: the Director picks when players haven't within this, e.g. 30s (off)
            negotiation_numbers: True: players see a negotiation's Interest and Patience; False: as words
        """
        guild_id = interaction.guild_id
        if guild_id is None:
            fail("Use /settings in a server.")
        _, at, role = await server_standing(interaction, self.bot.store)
        require("/settings", at, director_role_id=role)
        changes: dict[str, Any] = {}
        if director_role is not None and clear_director_role:
            fail("Give director_role or clear_director_role, not both.")
        if director_role is not None:
            if director_role.is_default():
                fail("Pick a role other than @everyone for the Director role.")
            changes["director_role_id"] = director_role.id
        if clear_director_role:
            changes["director_role_id"] = None
        for name, value in (
            ("turn_pings", turn_pings),
            ("tokens_reset_per_session", tokens_reset_per_session),
            ("malice_rounding", malice_rounding),
            ("show_monster_stamina", show_monster_stamina),
            ("enforce_action_economy", enforce_action_economy),
            ("auto_saves", auto_saves),
            ("negotiation_numbers", negotiation_numbers),
        ):
            if value is not None:
                changes[name] = value
        if nudge_after is not None:
            low, high = NUDGE_RANGE
            changes["nudge_after"] = parse_duration(nudge_after[:40], low=low, high=high, what="nudge_after")
        if argument_timer is not None:
            low, high = ARGUMENT_RANGE
            changes["argument_timer"] = parse_duration(
                argument_timer[:40], low=low, high=high, what="argument_timer"
            )
        if not changes:
            await send(
                interaction, embed=settings_embed(await self.bot.store.get_settings(guild_id)), ephemeral=True
            )
            return
        updated = await self.bot.store.update_settings(guild_id, **changes)
        await send(interaction, content="Settings updated.", embed=settings_embed(updated))


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(GuildSettingsCog(bot))
