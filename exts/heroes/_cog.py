"""The channel's hero roster (/hero create | import | edit | show | claim).

Rules live in `bot.rules.hero` (the sheet, its limits, edits and who may claim a hero); names through
`bot.rules.names.clean_name` (via `Table.add_hero`, which refuses duplicates ignoring case); who may do what
through `bot.permissions` (who owns a hero: `Heroes`). Every change is one `bot.play.apply`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
from discord import app_commands

from bot import autocomplete
from bot.client import BotCog, DrawSteelBot
from bot.help import guild_group
from bot.options import SuggestedRange
from bot.permissions import hero_player, server_standing
from bot.play import (
    Member,
    active_encounter,
    apply,
    channel_key,
    fighting_where,
    hero_of_member,
    idle_elsewhere,
    put_encounter,
    put_sheet,
    sheet_of,
)
from bot.replies import fail, inert, send
from bot.rules import codec
from bot.rules.characteristics import Characteristics
from bot.rules.damage import DamageModifiers
from bot.rules.encounter import Encounter, creature_of_hero, in_play, into_play, rename_hero
from bot.rules.hero import (
    LEVEL_MAX,
    LEVEL_MIN,
    RECOVERIES_LIMIT,
    STAMINA_LIMIT,
    SheetEdit,
    claim,
    edit_sheet,
    new_sheet,
    read_immunity,
    read_weakness,
)
from bot.rules.names import clean_name
from bot.store import Change, Hero, Table
from bot.ui.confirm import ConfirmView
from bot.ui.format import stamina_text
from exts.heroes._abilities_views import import_embed
from exts.heroes._import import import_hero
from exts.heroes._me import show_my_hero
from exts.heroes._views import HeroView, hero_embed, roster_embed
from exts.tracker._controls import set_handler

TEXT_MAX = 100
#: A hero of the channel's roster named in an option, its names suggested as they are typed.
HeroName = app_commands.Transform[str, SuggestedRange("hero's name", 1, TEXT_MAX, autocomplete.heroes)]
"""Longest text option Discord sends us here (names are checked to 64 by `clean_name`)."""


def require_hero(table: Table, name: str) -> Hero:
    """The roster hero named `name` (case-insensitive), or a one-line refusal."""
    hero = table.hero_named(" ".join(name.split()))
    if hero is None:
        fail(f"No hero named {inert(' '.join(name.split())[:64])} in this channel: see /hero show.")
    return hero


def hero_or_mine(table: Table, name: str | None, user_id: int) -> Hero:
    """The hero `name` names, or the caller's own hero when `name` is left out."""
    if name is not None:
        return require_hero(table, name)
    mine = hero_of_member(table, user_id)
    if mine is None:
        fail("You have no hero in this channel: add hero:<name>, or create one with /hero create.")
    return mine


def require_player(who: Member, key: str, hero: Hero, action: str) -> None:
    """`Member.require` for a change of the roster hero `hero` (`RULES[key]`: its player, or a server
    Director); a hero the Directors hold (`claimable`) has no player who counts."""
    owner = None if sheet_of(hero).claimable else hero.owner_id
    who.require(key, owner_id=owner, action=action, whose=None if owner is None else hero.name)


def follow_in_encounter(table: Table, hero: Hero) -> None:
    """When the hero is in the channel's active encounter, its creature changes hands too."""
    encounter = active_encounter(table)
    creature_id = None if encounter is None else creature_of_hero(encounter, hero.id)
    if encounter is None or creature_id is None:
        return
    creature = encounter.creature(creature_id)
    put_encounter(table, encounter.with_creature(dataclasses.replace(creature, owner_id=hero.owner_id)))


async def fighting_in(bot: DrawSteelBot, interaction: discord.Interaction[Any], hero_id: str) -> int | None:
    """The channel or thread of the campaign whose running encounter has this roster hero, if any: a quick
    answer before asking anything (the change itself checks again as it commits: `idle_elsewhere`)."""
    return fighting_where(await bot.store.running_encounters(channel_key(interaction)), hero_id)


def view_of(hero: Hero) -> HeroView:
    return HeroView(hero.name, hero.owner_id, sheet_of(hero))


def live_view(hero: Hero, encounter: Encounter | None) -> HeroView:
    """A roster hero as they are now: during an encounter they are in, with the encounter's Stamina."""
    view = view_of(hero)
    live = None if encounter is None else in_play(encounter, hero.id, view.sheet)
    return view if live is None else HeroView(view.name, view.owner_id, live, in_encounter=True)


def _optional(text: str | None, read: Any) -> Any:
    return None if text is None else read(text)


def _edit_hero(
    who: Member, table: Table, name: str | None, rename: str | None, edit: SheetEdit
) -> Change[HeroView]:
    """`/hero edit`: its owner or a server Director changes a roster hero (in the running encounter, the hero
    as they are there, and both)."""
    target = hero_or_mine(table, name, who.actor.user_id)
    require_player(who, "/hero edit", target, f"edit {inert(target.name)}")
    sheet = sheet_of(target)
    old_name = target.name
    encounter = active_encounter(table)
    live = None if encounter is None else in_play(encounter, target.id, sheet)
    if rename is not None and rename != target.name:
        _rename(table, target, rename, in_encounter=live is not None)
        encounter = active_encounter(table)
    if not edit.empty:
        edited = edit_sheet(sheet if live is None else live, edit)
        put_sheet(target, edited)
        if encounter is not None and live is not None:
            put_encounter(table, into_play(encounter, target.id, edited))
    return Change(f"Hero {old_name} edited", view_of(target), {"hero": target.name})


def _rename_there(name: str, where: int) -> str:
    return f"{inert(name)} is in the encounter in <#{where}>: rename them there (their creature too)."


def _rename(table: Table, target: Hero, rename: str, *, in_encounter: bool) -> None:
    """Rename a roster hero, and their creature when they are in the running encounter."""
    other = table.hero_named(rename)
    if other is not None and other.id != target.id:
        fail(f"There is already a hero named {inert(rename)} in this campaign: pick another name.")
    old_name = target.name
    idle_elsewhere(table, target.id, lambda where: _rename_there(old_name, where))
    target.name = rename
    encounter = active_encounter(table)
    if in_encounter and encounter is not None:
        put_encounter(table, rename_hero(encounter, target.id, rename))


class Heroes(BotCog):
    """The channel's hero roster (/hero).

    Ownership: a hero belongs to one member (`Hero.owner_id`). A player creates heroes for themselves; a
    server Director (`bot.permissions`: the Director role or Manage Server; never an encounter's starter as
    such) may create one for a member (`player`), or for nobody in particular (then the Directors hold it and
    any member may `/hero claim` it). The owner or a server Director edits a hero; a server Director reassigns
    any hero. `/hero import` reads a Forge Steel hero (`exts.heroes._import`, the same permissions).
    """

    hero = guild_group("hero", "The channel's hero roster.", "/hero show")

    # -- /hero create -------------------------------------------------------------------------------------
    @hero.command(name="create", description="Add a hero to this channel's roster.")
    async def create(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, TEXT_MAX],
        stamina: app_commands.Range[int, 1, STAMINA_LIMIT],
        recoveries: app_commands.Range[int, 0, RECOVERIES_LIMIT],
        characteristics: app_commands.Range[str, 0, TEXT_MAX] | None = None,
        immunity: app_commands.Range[str, 0, TEXT_MAX] | None = None,
        weakness: app_commands.Range[str, 0, TEXT_MAX] | None = None,
        level: app_commands.Range[int, LEVEL_MIN, LEVEL_MAX] = 1,
        resource: app_commands.Range[str, 1, TEXT_MAX] = "heroic resource",
        resource_gain: app_commands.Range[str, 1, 16] = "0",
        player: discord.Member | None = None,
    ) -> None:
        """Add a hero (characteristics, immunity, level… optional).

        Example: /hero create name:Ash stamina:30 recoveries:8

        Args:
            name: The hero's name
            recoveries: Recoveries
            immunity: Damage immunities, e.g. fire 5, all 2
            weakness: Damage weaknesses, e.g. cold 3
            player: Director only: the member who plays this hero (leave out to let a player claim it)
            stamina: Stamina maximum
            characteristics: Characteristics, e.g. M2 A1 R0 I-1 P1
            level: Level (1–10)
            resource: The heroic resource's name, e.g. wrath
            resource_gain: Heroic resource gained each turn, e.g. 2 or 1d3
        """
        clean = clean_name(name)
        scores = Characteristics.parse(characteristics) if characteristics else None
        modifiers = DamageModifiers(read_immunity(immunity or "none"), read_weakness(weakness or "none"))

        def change(who: Member, table: Table) -> Change[HeroView]:
            caller = who.actor.user_id
            owner = hero_player(caller, player, who.at, director_role_id=who.role, key="/hero create player:")
            sheet = new_sheet(
                stamina,
                recoveries,
                scores,
                modifiers,
                level=level,
                resource_name=resource,
                resource_gain=resource_gain,
                claimable=who.server_director and owner == caller,
            )
            hero = table.add_hero(owner, clean, codec.to_data(sheet))
            return Change(f"Hero {hero.name} created", view_of(hero), {"hero": hero.name, "owner": owner})

        created = await apply(interaction, "hero.create", change)
        await send(
            interaction,
            content=f"{inert(created.name)} joins the roster. {stamina_text(created.sheet.vitals)}",
            embed=hero_embed(created),
        )

    # -- /hero import ---------------------------------------------------------------------------------------
    @hero.command(name="import", description="Add or update a hero from a Forge Steel export (.ds-hero).")
    async def import_cmd(
        self,
        interaction: discord.Interaction[Any],
        file: discord.Attachment,
        use_state: bool = False,
        player: discord.Member | None = None,
    ) -> None:
        """Bring in a Forge Steel hero (again: update it; use_state:true takes the file's Stamina, XP…).

        Example: /hero import file: Keth.ds-hero

        Args:
            file: A .ds-hero (or older .drawsteel-hero) file exported from Forge Steel
            use_state: Take the file's Stamina damage, Recoveries used, Victories and XP (default: no)
            player: Director only: the member who plays this hero (leave out to let a player claim it)
        """
        _, at, role = await server_standing(interaction, self.bot.store)
        director = at.server_director
        caller = interaction.user.id
        owner = hero_player(caller, player, at, director_role_id=role, key="/hero import player:")

        async def fighting(hero_id: str) -> int | None:
            return await fighting_in(self.bot, interaction, hero_id)

        done = await import_hero(
            interaction, self.bot, file, use_state=use_state, owner=owner, director=director,
            fighting_in=fighting,
        )  # fmt: skip
        hero = done.hero
        did = "is updated from Forge Steel" if done.updated else "joins the roster from Forge Steel"
        await send(
            interaction,
            content=f"{inert(hero.name)} {did}. {stamina_text(hero.sheet.vitals)}",
            embed=import_embed(hero, done.warnings, done.updated),
        )

    # -- /hero edit -----------------------------------------------------------------------------------------
    @hero.command(name="edit", description="Change a hero of this channel (its owner or a Director).")
    async def edit(
        self,
        interaction: discord.Interaction[Any],
        hero: HeroName | None = None,
        new_name: app_commands.Range[str, 1, TEXT_MAX] | None = None,
        stamina: app_commands.Range[int, 1, STAMINA_LIMIT] | None = None,
        current_stamina: app_commands.Range[int, -STAMINA_LIMIT, STAMINA_LIMIT] | None = None,
        recoveries: app_commands.Range[int, 0, RECOVERIES_LIMIT] | None = None,
        recoveries_left: app_commands.Range[int, 0, RECOVERIES_LIMIT] | None = None,
        characteristics: app_commands.Range[str, 1, TEXT_MAX] | None = None,
        immunity: app_commands.Range[str, 1, TEXT_MAX] | None = None,
        weakness: app_commands.Range[str, 1, TEXT_MAX] | None = None,
        level: app_commands.Range[int, LEVEL_MIN, LEVEL_MAX] | None = None,
        resource: app_commands.Range[str, 1, TEXT_MAX] | None = None,
        resource_gain: app_commands.Range[str, 1, 16] | None = None,
    ) -> None:
        """Change a hero (owner or server Director).

        Example: /hero edit hero:Ash stamina:33 level:2

        Args:
            hero: The hero to change (default: yours)
            new_name: A new name
            current_stamina: Stamina now
            recoveries: Recoveries maximum
            recoveries_left: Recoveries left now
            immunity: Damage immunities, e.g. fire 5, all 2 (none clears them)
            weakness: Damage weaknesses, e.g. cold 3 (none clears them)
            stamina: Stamina maximum
            characteristics: Characteristics, e.g. M2 A1 R0 I-1 P1
            level: Level (1–10)
            resource: The heroic resource's name, e.g. wrath
            resource_gain: Heroic resource gained each turn, e.g. 2 or 1d3
        """
        rename = clean_name(new_name) if new_name is not None else None
        edit = SheetEdit(
            max_stamina=stamina,
            current_stamina=current_stamina,
            recoveries=recoveries,
            recoveries_left=recoveries_left,
            characteristics=_optional(characteristics, Characteristics.parse),
            immunities=_optional(immunity, read_immunity),
            weaknesses=_optional(weakness, read_weakness),
            level=level,
            resource_name=resource,
            resource_gain=resource_gain,
        )
        if edit.empty and rename is None:
            fail("Give at least one field to change, e.g. /hero edit stamina:33 or new_name:Ash.")
        if rename is not None:
            await self._rename_here(interaction, hero)
        edited = await apply(
            interaction, "hero.edit", lambda who, table: _edit_hero(who, table, hero, rename, edit)
        )
        await send(
            interaction,
            content=f"{inert(edited.name)} updated. {stamina_text(edited.sheet.vitals)}",
            embed=hero_embed(edited),
        )

    async def _rename_here(self, interaction: discord.Interaction[Any], hero: str | None) -> None:
        """A hero in a running encounter of another channel is renamed there (their creature too): a quick
        answer before asking anything (the change checks again as it commits: `idle_elsewhere`)."""
        table = await self.bot.store.view(channel_key(interaction), shared=True)
        named = hero_or_mine(table, hero, interaction.user.id)
        where = await fighting_in(self.bot, interaction, named.id)
        if where is not None and where != interaction.channel_id:
            fail(_rename_there(named.name, where))

    # -- /hero show -----------------------------------------------------------------------------------------
    @hero.command(name="show", description="Show one hero's sheet, or this channel's whole roster.")
    async def show(self, interaction: discord.Interaction[Any], hero: HeroName | None = None) -> None:
        """A hero's sheet, or the roster.

        Example: /hero show hero:Ash

        Args:
            hero: The hero to show (leave out for the whole roster)
        """
        table = await self.bot.store.view(channel_key(interaction), shared=True)
        encounter = active_encounter(table)
        if hero is None:
            heroes = [live_view(h, encounter) for h in table.heroes.values()]
            await send(interaction, embed=roster_embed(heroes))
            return
        await send(interaction, embed=hero_embed(live_view(require_hero(table, hero), encounter)))

    # -- /hero me -------------------------------------------------------------------------------------------
    @hero.command(
        name="me", description="Your hero in this encounter: what happened since your turn, what you may do."
    )
    async def me(self, interaction: discord.Interaction[Any]) -> None:
        """Your hero in this encounter: what happened since your last turn, Stamina, what you may do now.

        Example: /hero me
        """
        await show_my_hero(interaction, self.bot)

    # -- /hero delete ---------------------------------------------------------------------------------------
    @hero.command(
        name="delete", description="Delete a hero from the roster (its owner or a server Director)."
    )
    async def delete(self, interaction: discord.Interaction[Any], hero: HeroName) -> None:
        """Delete a hero (owner or server Director).

        Example: /hero delete hero:Ash

        Args:
            hero: The hero to delete for good
        """
        table = await self.bot.store.view(channel_key(interaction), shared=True)
        target = require_hero(table, hero)
        await self._may_delete(interaction, table, target)
        hero_id, name = target.id, target.name

        async def confirmed(pressed: discord.Interaction[Any]) -> None:
            await self._delete(pressed, hero_id, name)

        view = ConfirmView(interaction.user.id, f"Delete {name}", confirmed)
        await send(
            interaction,
            content=f"Delete {inert(name)} from the roster for good? Their sheet, Victories and XP go too.",
            view=view,
            ephemeral=True,
        )

    async def _may_delete(self, interaction: discord.Interaction[Any], table: Table, target: Hero) -> None:
        """Its owner or a server Director deletes a hero, never while the hero is in the running encounter."""
        member = Member(*await server_standing(interaction, self.bot.store))
        require_player(member, "/hero delete", target, f"delete {inert(target.name)}")
        where = await fighting_in(self.bot, interaction, target.id)
        if where is not None:
            fail(f"{inert(target.name)} is in the encounter in <#{where}>: delete them after it ends.")

    async def _delete(self, interaction: discord.Interaction[Any], hero_id: str, name: str) -> None:
        table = await self.bot.store.view(channel_key(interaction), shared=True)
        target = table.heroes.get(hero_id)
        if target is None:
            fail(f"{inert(name)} is not on the roster any more.")
        await self._may_delete(interaction, table, target)

        def change(_who: Member, table: Table) -> Change[str]:
            hero = table.heroes.get(hero_id)
            if hero is None:
                fail(f"{inert(name)} is not on the roster any more.")
            encounter = active_encounter(table)
            if encounter is not None and creature_of_hero(encounter, hero_id) is not None:
                fail(f"{inert(hero.name)} is in this channel's encounter: delete them after /encounter end.")
            idle_elsewhere(
                table,
                hero_id,
                lambda where: f"{inert(name)} is in the encounter in <#{where}>: delete them after it ends.",
            )
            table.remove_hero(hero_id)
            return Change(f"Hero {hero.name} deleted", hero.name, {"hero": hero.name})

        deleted = await apply(interaction, "hero.delete", change)
        await send(interaction, content=f"{inert(deleted)} is deleted from the roster.")

    # -- /hero claim ----------------------------------------------------------------------------------------
    @hero.command(name="claim", description="Take over a hero the Director holds (a Director may reassign).")
    async def claim_hero(
        self,
        interaction: discord.Interaction[Any],
        hero: HeroName,
        player: discord.Member | None = None,
    ) -> None:
        """Take over a hero the Director holds.

        Example: /hero claim hero:Ash

        Args:
            hero: The hero to take over
            player: Director only: give the hero to this member (leave out to hold it, open to claim)
        """
        if player is not None and player.bot:
            fail("Bots can't play heroes: pick a member, or leave player out.")
        new_owner = player.id if player is not None else None
        rule = "/hero claim player:" if new_owner is not None and new_owner != interaction.user.id else None

        def change(who: Member, table: Table) -> Change[HeroView]:
            target = require_hero(table, hero)
            caller = who.actor.user_id
            owner, sheet = claim(sheet_of(target), target.owner_id, caller, new_owner, who.server_director)
            target.owner_id = owner
            put_sheet(target, sheet)
            follow_in_encounter(table, target)
            return Change(
                f"Hero {target.name} claimed", view_of(target), {"hero": target.name, "owner": owner}
            )

        claimed = await apply(interaction, "hero.claim", change, rule=rule)
        who = "is open to claim" if claimed.sheet.claimable else f"is now played by <@{claimed.owner_id}>"
        await send(interaction, content=f"{inert(claimed.name)} {who}.", embed=hero_embed(claimed))


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Heroes(bot))

    async def on_me(interaction: discord.Interaction[Any], _eid: int, _version: int, _arg: str) -> None:
        await show_my_hero(interaction, bot)

    set_handler("me", on_me)
