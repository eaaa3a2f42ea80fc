"""`/hero import`'s glue (exts/heroes/_cog.py calls in here): a Forge Steel hero export read into the
campaign's roster, as a new hero or updating the one an earlier import of it made.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import discord

from bot.attachments import defer_for_file, download
from bot.client import DrawSteelBot
from bot.content.forgesteel.files import BadValue
from bot.content.forgesteel.hero import ImportedHero
from bot.hero_reader import READER
from bot.permissions import actor_from_interaction, require_controls
from bot.play import Member, active_encounter, apply, channel_key, idle_elsewhere, put_sheet, sheet_of
from bot.replies import fail, inert
from bot.rules import codec
from bot.rules.encounter import creature_of_hero
from bot.rules.errors import RuleError
from bot.rules.hero import keep_play_state
from bot.rules.names import NAME_MAX, clean_name, name_key
from bot.store import Change, Hero, Table
from exts.heroes._views import HeroView

HERO_FILE = "a `.ds-hero` file exported from Forge Steel"

#: Where a roster hero is fighting (`exts.heroes._cog.fighting_in`): the channel of a running encounter, or
#: None.
FightingIn = Callable[[str], Coroutine[Any, Any, int | None]]


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import stored: the hero as now on the roster, whether it updated one, what it couldn't use."""

    hero: HeroView
    updated: bool
    warnings: tuple[str, ...]


def _name(hero: ImportedHero) -> str:
    try:
        return clean_name(hero.name)
    except RuleError:
        raise BadValue(
            "That hero's name can't be used on the roster: rename the hero in Forge Steel (plain text, at "
            f"most {NAME_MAX} characters) and export it again."
        ) from None


def matching(table: Table, hero: ImportedHero, name: str, owner_id: int) -> Hero | None:
    """The roster hero a file updates: the one with its Forge Steel id, else `owner_id`'s of that name."""
    if hero.forge_steel_id:
        for stored in table.heroes.values():
            if sheet_of(stored).forge_steel_id == hero.forge_steel_id:
                return stored
    key = name_key(name)
    return next(
        (h for h in table.heroes.values() if h.owner_id == owner_id and name_key(h.name) == key), None
    )


async def import_hero(
    interaction: discord.Interaction[Any],
    bot: DrawSteelBot,
    file: discord.Attachment,
    *,
    use_state: bool,
    owner: int,
    director: bool,
    fighting_in: FightingIn,
) -> Imported:
    """Read the uploaded hero and store it on the campaign's roster (new, or updating its earlier import).

    The file is hostile until read: the command is deferred, the file downloaded with
    `bot.attachments.download` (2 MB, 10 s) and read by `bot.content.forgesteel.hero.read_hero` into the
    sheet (`to_sheet`); a bad file is refused in one line and nothing is stored. The reading runs off the
    event loop, in a process of its own (`bot.hero_reader`), within the reader's CPU budget: every other
    channel is answered meanwhile, and a file that costs more is refused.

    Re-importing a hero updates it in place: the roster hero whose sheet has the file's Forge Steel id, else
    the one of the same name held by the same member (`matching`). Without `use_state` it keeps the Stamina
    damage, Recoveries used, Victories and XP the bot has; with it, the file's play state replaces them. A
    hero in a running encounter is re-imported after the encounter (checked again as the change commits:
    `bot.play.idle_elsewhere`).

    Who may (as `/hero create` and `/hero edit`, `bot.permissions`): anyone imports a hero for themselves; a
    Director may import one for another member (`player`), or for nobody (then it is open to claim); only a
    hero's player or a Director updates it.
    """
    caller = interaction.user.id
    await defer_for_file(interaction)
    read = await READER.read(await download(file, what=HERO_FILE), use_state)
    found, fresh = read.hero, read.sheet
    name = _name(found)
    before = matching(await bot.store.view(channel_key(interaction), shared=True), found, name, owner)
    if before is not None:
        where = await fighting_in(before.id)
        if where is not None:
            fail(f"{inert(before.name)} is in the encounter in <#{where}>: import them again after it ends.")
    actor = actor_from_interaction(interaction)

    def change(_who: Member, table: Table) -> Change[Imported]:
        target = matching(table, found, name, owner)
        if target is None:
            other = table.hero_named(name)
            if other is not None:
                fail(
                    f"There is already a hero named {inert(other.name)} in this campaign, played by someone "
                    "else: rename yours in Forge Steel and import it again."
                )
            sheet = dataclasses.replace(fresh, claimable=director and owner == caller)
            hero = table.add_hero(owner, name, codec.to_data(sheet))
            view = HeroView(hero.name, hero.owner_id, sheet)
            return Change(f"Hero {hero.name} imported", Imported(view, False, found.warnings), {"hero": name})
        old = sheet_of(target)
        held_by = None if old.claimable else target.owner_id
        require_controls(actor, held_by, director, creature=target.name, action=f"import {target.name} again")
        encounter = active_encounter(table)
        if encounter is not None and creature_of_hero(encounter, target.id) is not None:
            fail(f"{inert(target.name)} is in this channel's encounter: import them again after it ends.")
        shown = inert(target.name)
        idle_elsewhere(
            table,
            target.id,
            lambda where: f"{shown} is in the encounter in <#{where}>: import them again after it ends.",
        )
        sheet = (
            dataclasses.replace(fresh, claimable=old.claimable) if use_state else keep_play_state(fresh, old)
        )
        put_sheet(target, sheet)
        view = HeroView(target.name, target.owner_id, sheet)
        summary = f"Hero {target.name} imported again"
        return Change(summary, Imported(view, True, found.warnings), {"hero": target.name})

    return await apply(interaction, "hero.import", change)
