"""Creature-name (and situation, hero, ability) autocomplete every cog shares.

`creatures`, `targets` (a comma-separated list: the last name completed), `situations`, `heroes` and
`abilities` are the callbacks (`@app_commands.autocomplete(target=bot.autocomplete.creatures)`); the
`*_choices` / `creature_names` functions are their pure parts, and `controlled` the creatures a member
controls. Reads the channel through `Store.view` (no lock, nothing written); a callback never fails: with no
encounter, no guild or an unreadable state it offers nothing.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

from bot.play import channel_key, encounter_of
from bot.replies import fail
from bot.rules.creature import Creature
from bot.rules.encounter import Encounter, fold, harm
from bot.rules.encounter.abilities import ability_names
from bot.rules.errors import RuleError
from bot.rules.names import name_key
from bot.rules.situations import Situation

CHOICES_MAX = 25
"""Discord shows at most 25 choices."""
VALUE_MAX = 100
"""A choice's name and value are at most 100 characters."""

log = logging.getLogger("bot.autocomplete")


def _alive(encounter: Encounter, creature_id: str) -> bool:
    creature = encounter.creature(creature_id)
    if creature.squad_id is not None:
        squad = encounter.squad(creature.squad_id)
        return squad is not None and creature_id in squad.alive
    return not creature.vitals.dead


def creature_names(encounter: Encounter, current: str, exclude: frozenset[str] = frozenset()) -> list[str]:
    """Names containing `current` (ignoring case), living creatures first; names in `exclude` (folded) left
    out."""
    key = fold(current)
    found = [c.id for c in encounter.creatures if key in fold(c.id) and fold(c.id) not in exclude]
    living = [n for n in found if _alive(encounter, n)]
    dead = [n for n in found if n not in living]
    return living + dead


def controlled(encounter: Encounter, user_id: int, *, heroes_only: bool = False) -> list[Creature]:
    """The creatures (heroes, with `heroes_only`) this member controls: the living ones, or all of them when
    none is alive."""
    mine = [c for c in encounter.creatures if c.owner_id == user_id and (c.is_hero or not heroes_only)]
    return [c for c in mine if _alive(encounter, c.id)] or mine


def own_creature(encounter: Encounter, user_id: int, *, option: str, heroes_only: bool = False) -> str:
    """The one living creature (hero, with `heroes_only`) this member controls in the encounter; refuses with
    a hint naming `option` when they control none or several."""
    living = controlled(encounter, user_id, heroes_only=heroes_only)
    if len(living) == 1:
        return living[0].id
    if not living:
        what = "hero" if heroes_only else "creature"
        fail(f"You control no {what} in this encounter: name one with the {option} option.")
    fail(f"You control several creatures: name one with the {option} option.")


def named_or_own(
    encounter: Encounter, name: str | None, user_id: int, *, option: str, heroes_only: bool = False
) -> str:
    """The creature the option names, or when it is left out (or blank) the one this member controls
    (`own_creature`)."""
    if name is not None and name.strip():
        return name
    return own_creature(encounter, user_id, option=option, heroes_only=heroes_only)


def ability_choices(
    encounter: Encounter, attacker: str | None, user_id: int, current: str
) -> list[app_commands.Choice[str]]:
    """Up to 25 abilities of the striker whose names contain `current`: the creature named `attacker`, else
    the one creature this member controls (none offered when it is unclear who strikes)."""
    if attacker is not None and attacker.strip():
        try:
            striker = harm.target(encounter, attacker)  # a squad's name: its first living minion
        except RuleError:
            return []
    else:
        mine = controlled(encounter, user_id)
        if len(mine) != 1:
            return []
        striker = mine[0]
    names = [n for n in ability_names(striker, current) if len(n) <= VALUE_MAX]
    return [app_commands.Choice(name=n, value=n) for n in names[:CHOICES_MAX]]


def name_choices(encounter: Encounter, current: str) -> list[app_commands.Choice[str]]:
    """Up to 25 choices for one creature name."""
    return [app_commands.Choice(name=n, value=n) for n in creature_names(encounter, current)[:CHOICES_MAX]]


def target_choices(encounter: Encounter, current: str) -> list[app_commands.Choice[str]]:
    """Up to 25 choices completing the last name of a comma-separated list."""
    return list_choices(current, lambda typing, exclude: creature_names(encounter, typing, exclude))


def situation_choices(current: str) -> list[app_commands.Choice[str]]:
    """Up to 25 choices completing the last situation of a comma-separated list (`bot.rules.situations`)."""

    def names(typing: str, exclude: frozenset[str]) -> list[str]:
        key = fold(typing)
        return [s.value for s in Situation if key in s.value and s.value not in exclude]

    return list_choices(current, names)


def list_choices(
    current: str, candidates: Callable[[str, frozenset[str]], list[str]]
) -> list[app_commands.Choice[str]]:
    """Up to 25 choices completing the last item of a comma-separated list: the items typed are kept,
    `candidates(last, kept_folded)` offers the completions of the last one."""
    *done, typing = current.split(",")
    kept = [" ".join(part.split()) for part in done if part.strip()]
    prefix = ", ".join(kept) + (", " if kept else "")
    exclude = frozenset(fold(n) for n in kept)
    out: list[app_commands.Choice[str]] = []
    for name in candidates(typing, exclude):
        value = prefix + name
        if len(value) > VALUE_MAX:
            continue
        out.append(app_commands.Choice(name=value, value=value))
        if len(out) == CHOICES_MAX:
            break
    return out


Choices = list[app_commands.Choice[str]]


def never_fails(
    suggest: Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, Choices]],
) -> Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, Choices]]:
    """An autocomplete that never fails: on any error (no encounter, a store away) it offers nothing."""

    @functools.wraps(suggest)
    async def quiet(interaction: discord.Interaction[Any], current: str) -> Choices:
        try:
            return await suggest(interaction, current)
        except Exception:  # an autocomplete offers nothing rather than failing
            log.debug("nothing to complete from", exc_info=True)
            return []

    return quiet


async def _encounter(interaction: discord.Interaction[Any]) -> Encounter | None:
    try:
        table = await interaction.client.store.view(channel_key(interaction), shared=True)
        if table.encounter is None or not table.encounter.active:
            return None
        return encounter_of(table)
    except Exception:  # an autocomplete offers nothing rather than failing
        log.debug("no encounter to complete from", exc_info=True)
        return None


async def creatures(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete one creature name from this channel's encounter."""
    encounter = await _encounter(interaction)
    return [] if encounter is None else name_choices(encounter, current)


async def situations(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete a comma-separated list of situations (flanking, high ground, ...)."""
    return situation_choices(current)


async def targets(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete a comma-separated list of creature names from this channel's encounter."""
    encounter = await _encounter(interaction)
    return [] if encounter is None else target_choices(encounter, current)


async def heroes(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete a hero's name from the channel's roster (names containing what was typed)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return []
    table = await interaction.client.store.view(channel_key(interaction))
    typed = name_key(current)
    names = [h.name for h in table.heroes.values() if typed in name_key(h.name)]
    return [app_commands.Choice(name=n, value=n) for n in names[:CHOICES_MAX]]


async def abilities(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete an ability of the striker (the `attacker` option typed, else the member's creature)."""
    encounter = await _encounter(interaction)
    if encounter is None:
        return []
    attacker = getattr(interaction.namespace, "attacker", None)
    return ability_choices(
        encounter, attacker if isinstance(attacker, str) else None, interaction.user.id, current
    )
