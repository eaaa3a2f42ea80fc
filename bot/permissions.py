"""The one place the bot decides who may do what.

Who counts as the Director of an encounter (docs/architecture.md, "The bot"):
- whoever started the encounter (`encounter_director_id`);
- any member with Manage Channels in the encounter's channel;
- any member of the guild's configured Director role (`director_role_id` in the guild settings).

Everything here is a pure function over ids and permission flags (`Actor`), so it tests without Discord;
`actor_from_interaction` is the thin adapter from a `discord.Interaction`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.replies import UserError, fail, inert


class Refused(UserError, app_commands.CheckFailure):
    """The user may not do this; `str(error)` is a one-line reason (shown ephemerally)."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is acting, reduced to what permission decisions need."""

    user_id: int
    role_ids: frozenset[int] = frozenset()
    manage_channels: bool = False

    @classmethod
    def of(cls, user_id: int, role_ids: Iterable[int] = (), *, manage_channels: bool = False) -> Actor:
        return cls(user_id=user_id, role_ids=frozenset(role_ids), manage_channels=manage_channels)


def is_director(actor: Actor, *, encounter_director_id: int | None, director_role_id: int | None) -> bool:
    """True when `actor` is a Director: the encounter's starter, Manage Channels, or the Director role."""
    if encounter_director_id is not None and actor.user_id == encounter_director_id:
        return True
    if actor.manage_channels:
        return True
    return director_role_id is not None and director_role_id in actor.role_ids


def require_director(
    actor: Actor,
    *,
    encounter_director_id: int | None,
    director_role_id: int | None,
    action: str = "do that",
) -> None:
    """Raise `Refused("Only the Director can <action>.")` unless `actor` is a Director."""
    if not is_director(actor, encounter_director_id=encounter_director_id, director_role_id=director_role_id):
        raise Refused(f"Only the Director can {action}.")


def controls(actor: Actor, creature_owner_id: int | None, is_director: bool) -> bool:
    """True when `actor` may act for a creature: its owner (a hero's player), or any Director.

    Creatures without an owner (`None`: the Director's creatures) are controlled by Directors only.
    """
    return is_director or (creature_owner_id is not None and actor.user_id == creature_owner_id)


def require_controls(
    actor: Actor,
    creature_owner_id: int | None,
    is_director: bool,
    *,
    creature: str,
    action: str,
) -> None:
    """Raise `Refused` unless `actor` controls the creature.

    `creature` is its display name, `action` the verb phrase: `creature="Ash", action="end Ash's turn"` gives
    "Only Ash's player or the Director can end Ash's turn."; Director creatures (no owner) give
    "Only the Director can <action>.".
    """
    if controls(actor, creature_owner_id, is_director):
        return
    if creature_owner_id is None:
        raise Refused(f"Only the Director can {action}.")
    raise Refused(f"Only {inert(creature)}'s player or the Director can {action}.")


def require_self(actor: Actor, owner_id: int, *, what: str, action: str, instead: str) -> None:
    """Raise `Refused` unless `actor` is `owner_id`: things that belong to one member (a roll's buttons).

    `require_self(actor, roller_id, what="this roll", action="downgrade", instead="make your own with /roll")`
    gives "Only the member who made this roll can downgrade it: make your own with /roll."
    """
    if actor.user_id != owner_id:
        raise Refused(f"Only the member who made {what} can {action} it: {instead}.")


def hero_player(caller_id: int, player: discord.Member | None, is_director: bool, *, action: str) -> int:
    """Who plays a hero being `action`-ed ("create", "import"): the `player` named, or the caller.

    A bot can't play a hero, and only a Director names another member: "Only the Director can create a hero
    for another member: leave player out."
    """
    if player is not None and player.bot:
        fail("Bots can't play heroes: pick a member, or leave player out.")
    if player is not None and player.id != caller_id and not is_director:
        raise Refused(f"Only the Director can {action} a hero for another member: leave player out.")
    return player.id if player is not None else caller_id


def actor_from_interaction(interaction: discord.Interaction[Any]) -> Actor:
    """The `Actor` behind an interaction: user id, role ids, and Manage Channels in that channel.

    Uses `interaction.permissions` (the member's resolved permissions in the channel, overwrites included,
    as Discord sends them), so no member cache or privileged intent is needed.
    """
    user = interaction.user
    roles = getattr(user, "roles", ())
    role_ids = frozenset(role.id for role in roles if not role.is_default())
    return Actor(
        user_id=user.id,
        role_ids=role_ids,
        manage_channels=interaction.guild_id is not None and interaction.permissions.manage_channels,
    )


class SettingsSource(Protocol):
    """What the adapter needs from the store: `bot.store.Store.get_settings`."""

    async def get_settings(self, guild_id: int) -> Any: ...


async def interaction_is_director(
    interaction: discord.Interaction[Any], store: SettingsSource, *, encounter_director_id: int | None
) -> bool:
    """`is_director` for the user behind `interaction`, with the guild's configured Director role."""
    if interaction.guild_id is None:
        return False
    settings = await store.get_settings(interaction.guild_id)
    return is_director(
        actor_from_interaction(interaction),
        encounter_director_id=encounter_director_id,
        director_role_id=getattr(settings, "director_role_id", None),
    )
