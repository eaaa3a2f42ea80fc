"""A hero's ability cards (/ability add | edit | remove | show | list).

A hero without Forge Steel types their cards by hand (`bot.content.ability_entry` reads the options and keeps
the limits); a Forge Steel import brings them (`/hero import`). Each command works on the caller's hero, or
on `hero:`; anyone may show or list a hero's cards, and only their player or a Director changes them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.autocomplete import never_fails
from bot.client import BotCog, DrawSteelBot
from bot.content.ability_entry import (
    BONUS_MAX,
    COST_MAX,
    EFFECT_MAX,
    KEYWORD_MAX,
    KEYWORDS_MAX,
    SHORT_MAX,
    TIER_MAX,
    TRIGGER_MAX,
    AbilityForm,
    ability_index,
    add_ability,
    edit_ability,
    new_ability,
    replace_ability,
)
from bot.help import guild_group
from bot.options import SuggestedRange
from bot.play import (
    Member,
    active_encounter,
    apply,
    channel_key,
    hero_of_member,
    put_encounter,
    put_sheet,
    sheet_of,
)
from bot.replies import fail, inert, send
from bot.rules.ability import Ability, ActionType
from bot.rules.encounter import in_play, into_play
from bot.rules.hero import HeroSheet
from bot.rules.names import NAME_MAX, name_key
from bot.rules.standard import hero_standard_abilities
from bot.store import Change, Hero, Table
from exts.heroes._abilities_views import ACTION_LABELS, abilities_embed, ability_embed
from exts.heroes._cog import TEXT_MAX, HeroName, hero_or_mine, require_player

TIERS_MAX = 3 * TIER_MAX + 10
"""Longest `tiers` option (three tier results and their separators)."""
KEYWORDS_TEXT_MAX = KEYWORDS_MAX * (KEYWORD_MAX + 2)
AUTOCOMPLETE_MAX = 25
ACTIONS = [
    app_commands.Choice(name=label, value=action.value)
    for action, label in ACTION_LABELS.items()
    if action is not ActionType.MOVE
]


def _standard(sheet: HeroSheet) -> tuple[Ability, ...]:
    return hero_standard_abilities(
        melee_distance_bonus=sheet.melee_distance_bonus, ranged_distance_bonus=sheet.ranged_distance_bonus
    )


def _card(hero: Hero, sheet: HeroSheet, name: str, *, standard: bool = False) -> tuple[int, Ability]:
    """The hero's card named `name` (index, card); with `standard`, the standard abilities too (index -1)."""
    index = ability_index(sheet.abilities, name)
    if index is not None:
        return index, sheet.abilities[index]
    if standard:
        found = ability_index(_standard(sheet), name)
        if found is not None:
            return -1, _standard(sheet)[found]
    fail(f"{inert(hero.name)} has no ability named {inert(' '.join(name.split())[:64])}: see /ability list.")


async def _ability_names(
    interaction: discord.Interaction[Any], current: str, *, standard: bool
) -> list[app_commands.Choice[str]]:
    """The names of the abilities of the hero the command names (or the caller's) matching what was typed."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return []
    table = await interaction.client.store.view(channel_key(interaction), shared=True)
    named = getattr(interaction.namespace, "hero", None)
    hero = table.hero_named(named) if named else hero_of_member(table, interaction.user.id)
    if hero is None:
        return []
    sheet = sheet_of(hero)
    cards = (*sheet.abilities, *(_standard(sheet) if standard else ()))
    typed = name_key(current)
    names = [c.name for c in cards if typed in name_key(c.name)]
    return [app_commands.Choice(name=n, value=n) for n in names[:AUTOCOMPLETE_MAX]]


@never_fails
async def own_abilities(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return await _ability_names(interaction, current, standard=False)


@never_fails
async def any_abilities(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return await _ability_names(interaction, current, standard=True)


#: One of the hero's ability cards, suggested as it is typed.
OwnAbility = app_commands.Transform[str, SuggestedRange("ability's name", 1, TEXT_MAX, own_abilities)]
#: One of the hero's cards or the standard abilities, suggested as it is typed.
AnyAbility = app_commands.Transform[str, SuggestedRange("ability's name", 1, TEXT_MAX, any_abilities)]


@dataclass(frozen=True, slots=True)
class CardEdit:
    """What an `/ability` change does to a hero's cards: all of them after, the event's summary, and the card
    the reply shows."""

    cards: tuple[Ability, ...]
    summary: str
    card: Ability


@dataclass(frozen=True, slots=True)
class CardsChanged:
    """An `/ability` change, for its reply: the hero's name, their sheet after, and the card shown."""

    hero: str
    sheet: HeroSheet
    card: Ability


class Abilities(BotCog):
    """A hero's ability cards (/ability)."""

    ability = guild_group(
        "ability", "A hero's ability cards.", "/ability list", "Your hero's abilities (hero: for another's)."
    )

    async def _change(
        self,
        interaction: discord.Interaction[Any],
        hero: str | None,
        kind: str,
        edit: Callable[[Hero, HeroSheet], CardEdit],
        said: Callable[[CardsChanged], str],
        *,
        shown: bool = True,
    ) -> None:
        """Change the cards of `hero` (or the caller's) as `edit(hero, sheet)` says; the reply says
        `said(done)`, with the card `shown`.

        The cards live on the roster sheet (`HeroSheet.abilities`); when the hero is in this channel's running
        encounter, their creature takes the change too (`bot.rules.encounter.into_play`). Who may: the hero's
        player or a server Director (`require_player`, as for `/hero edit`). Every change is one
        `bot.play.apply`."""

        def change(who: Member, table: Table) -> Change[CardsChanged]:
            target = hero_or_mine(table, hero, who.actor.user_id)
            require_player(who, "/ability add", target, f"change {inert(target.name)}'s abilities")
            sheet = sheet_of(target)
            done = edit(target, sheet)
            changed = dataclasses.replace(sheet, abilities=done.cards)
            put_sheet(target, changed)
            encounter = active_encounter(table)
            live = None if encounter is None else in_play(encounter, target.id, sheet)
            if encounter is not None and live is not None:
                put_encounter(
                    table, into_play(encounter, target.id, dataclasses.replace(live, abilities=done.cards))
                )
            return Change(done.summary, CardsChanged(target.name, changed, done.card), {"hero": target.name})

        done = await apply(interaction, kind, change)
        embed = ability_embed(done.hero, done.card, done.sheet) if shown else None
        await send(interaction, content=said(done), embed=embed)

    # -- /ability add ------------------------------------------------------------------------------------
    @ability.command(name="add", description="Add an ability card to your hero (or hero:, for a Director).")
    @app_commands.choices(action=ACTIONS)
    async def add(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, NAME_MAX],
        action: str,
        characteristic: app_commands.Range[str, 1, TEXT_MAX] | None = None,
        keywords: app_commands.Range[str, 1, KEYWORDS_TEXT_MAX] | None = None,
        tiers: app_commands.Range[str, 1, TIERS_MAX] | None = None,
        hero: HeroName | None = None,
        distance: app_commands.Range[str, 1, SHORT_MAX] | None = None,
        target: app_commands.Range[str, 1, SHORT_MAX] | None = None,
        cost: app_commands.Range[int, 0, COST_MAX] | None = None,
        effect: app_commands.Range[str, 1, EFFECT_MAX] | None = None,
        trigger: app_commands.Range[str, 1, TRIGGER_MAX] | None = None,
        bonus: app_commands.Range[int, -BONUS_MAX, BONUS_MAX] | None = None,
    ) -> None:
        """Add an ability card to your hero (tiers split by ; or |).

        Example: /ability add name:Mind Spike action:main characteristic:reason keywords:Magic, Ranged, Strike
        tiers:2 + R damage; 4 + R damage; 6 + R damage

        Args:
            name: The ability's name, e.g. Mind Spike
            action: What using it takes: main action, maneuver, triggered action...
            characteristic: The power roll's characteristic(s), e.g. reason, or might or agility
            keywords: Keywords separated by commas, e.g. Magic, Psionic, Ranged, Strike
            tiers: The three tier results separated by ; (or | when a tier has its own ;)
            hero: The hero (default: yours)
            distance: e.g. Ranged 10, Melee 1, 3 cube within 10
            target: e.g. One creature
            cost: The heroic resource it costs (0: free)
            effect: The card's effect text
            trigger: A triggered action's trigger
            bonus: A bonus the card adds to its power roll
        """
        card = new_ability(
            AbilityForm(
                name, action, characteristic, keywords, tiers, distance, target, cost, effect, trigger, bonus
            )
        )

        def edit(target: Hero, sheet: HeroSheet) -> CardEdit:
            return CardEdit(
                add_ability(sheet.abilities, card), f"{target.name} gained the ability {card.name}", card
            )

        def said(done: CardsChanged) -> str:
            count = len(done.sheet.abilities)
            return f"{inert(card.name)} is now one of {inert(done.hero)}'s abilities ({count})."

        await self._change(interaction, hero, "ability.add", edit, said)

    # -- /ability edit -----------------------------------------------------------------------------------
    @ability.command(name="edit", description="Change one of your hero's ability cards.")
    @app_commands.choices(action=ACTIONS)
    async def edit(
        self,
        interaction: discord.Interaction[Any],
        ability: OwnAbility,
        hero: HeroName | None = None,
        new_name: app_commands.Range[str, 1, NAME_MAX] | None = None,
        action: str | None = None,
        characteristic: app_commands.Range[str, 1, TEXT_MAX] | None = None,
        keywords: app_commands.Range[str, 1, KEYWORDS_TEXT_MAX] | None = None,
        tiers: app_commands.Range[str, 1, TIERS_MAX] | None = None,
        distance: app_commands.Range[str, 1, SHORT_MAX] | None = None,
        target: app_commands.Range[str, 1, SHORT_MAX] | None = None,
        cost: app_commands.Range[int, 0, COST_MAX] | None = None,
        effect: app_commands.Range[str, 1, EFFECT_MAX] | None = None,
        trigger: app_commands.Range[str, 1, TRIGGER_MAX] | None = None,
        bonus: app_commands.Range[int, -BONUS_MAX, BONUS_MAX] | None = None,
    ) -> None:
        """Change a card (effect:none clears).

        Example: /ability edit ability:Mind Spike cost:3

        Args:
            ability: The ability to change
            hero: The hero (default: yours)
            new_name: A new name
            action: What using it takes
            characteristic: The power roll's characteristic(s)
            keywords: Keywords separated by commas (none clears them)
            tiers: The three tier results separated by ; or | (none: no power roll)
            distance: Distance (none clears it)
            target: Target (none clears it)
            cost: The heroic resource it costs (0: free)
            effect: Effect text (none clears it)
            trigger: Trigger (none clears it)
            bonus: A bonus the card adds to its power roll
        """
        form = AbilityForm(
            new_name, action, characteristic, keywords, tiers, distance, target, cost, effect, trigger, bonus
        )
        if form == AbilityForm():
            fail("Give at least one thing to change, e.g. /ability edit ability:Mind Spike cost:3.")

        def change(target: Hero, sheet: HeroSheet) -> CardEdit:
            index, card = _card(target, sheet, ability)
            edited = edit_ability(card, form)
            cards = replace_ability(sheet.abilities, index, edited)
            return CardEdit(cards, f"{target.name}'s ability {card.name} changed", edited)

        await self._change(
            interaction,
            hero,
            "ability.edit",
            change,
            lambda done: f"{inert(done.hero)}'s {inert(done.card.name)} is changed.",
        )

    # -- /ability remove ---------------------------------------------------------------------------------
    @ability.command(name="remove", description="Remove one of your hero's ability cards.")
    async def remove(
        self,
        interaction: discord.Interaction[Any],
        ability: OwnAbility,
        hero: HeroName | None = None,
    ) -> None:
        """Remove a card from your hero.

        Example: /ability remove ability:Mind Spike

        Args:
            ability: The ability to remove
            hero: The hero (default: yours)
        """

        def change(target: Hero, sheet: HeroSheet) -> CardEdit:
            index, card = _card(target, sheet, ability)
            cards = (*sheet.abilities[:index], *sheet.abilities[index + 1 :])
            return CardEdit(cards, f"{target.name} lost the ability {card.name}", card)

        def said(done: CardsChanged) -> str:
            left = len(done.sheet.abilities)
            return (
                f"{inert(done.card.name)} is no longer one of {inert(done.hero)}'s abilities ({left} left)."
            )

        await self._change(interaction, hero, "ability.remove", change, said, shown=False)

    # -- /ability show -----------------------------------------------------------------------------------
    @ability.command(name="show", description="An ability card with its tiers as written and as read.")
    async def show(
        self,
        interaction: discord.Interaction[Any],
        ability: AnyAbility,
        hero: HeroName | None = None,
    ) -> None:
        """A card with its tiers as written and as the bot reads them.

        Example: /ability show ability:Mind Spike

        Args:
            ability: The ability
            hero: The hero (default: yours)
        """
        table = await self.bot.store.view(channel_key(interaction), shared=True)
        target = hero_or_mine(table, hero, interaction.user.id)
        sheet = sheet_of(target)
        _, card = _card(target, sheet, ability, standard=True)
        await send(interaction, embed=ability_embed(target.name, card, sheet))

    # -- /ability list -----------------------------------------------------------------------------------
    @ability.command(name="list", description="A hero's abilities by action type.")
    async def list_cmd(self, interaction: discord.Interaction[Any], hero: HeroName | None = None) -> None:
        """A hero's abilities by action type.

        Example: /ability list hero:Ash

        Args:
            hero: The hero (default: yours)
        """
        table = await self.bot.store.view(channel_key(interaction), shared=True)
        target = hero_or_mine(table, hero, interaction.user.id)
        await send(interaction, embed=abilities_embed(target.name, sheet_of(target)))


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Abilities(bot))
