"""Renderers for the roster and the party's resources: a hero's sheet, the roster, hero tokens, Victories.
Pure functions from state to `discord.Embed` (always within Discord's limits through
`make_embed`); every user-supplied name goes through `inert`.

Contract label: a hero's Stamina is written `Stamina: 12/30` (`bot.ui.format.stamina_text`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.embeds import Colour, Field, make_embed
from bot.replies import inert
from bot.rules.hero import HeroSheet
from bot.ui.format import stamina_numbers, stamina_text, state_label


@dataclass(frozen=True, slots=True)
class HeroView:
    """What a renderer needs about one roster hero."""

    name: str
    owner_id: int
    sheet: HeroSheet
    in_encounter: bool = False  # the sheet shows the Stamina and Recoveries the hero has in the encounter now


def owner_text(hero: HeroView) -> str:
    """`played by <@1>`, or `open to claim (held by <@1>)` for a claimable hero (embeds never ping)."""
    if hero.sheet.claimable:
        return f"open to claim with /hero claim (held by <@{hero.owner_id}>)"
    return f"played by <@{hero.owner_id}>"


def recoveries_numbers(sheet: HeroSheet) -> str:
    v = sheet.vitals
    return f"{v.recoveries}/{v.max_recoveries} (recovery value {v.recovery_value})"


def recoveries_text(sheet: HeroSheet) -> str:
    return f"Recoveries: {recoveries_numbers(sheet)}"


def progress_text(sheet: HeroSheet) -> str:
    return f"Victories: {sheet.progress.victories} · XP: {sheet.progress.xp}"


def modifiers_text(sheet: HeroSheet) -> str:
    imm = ", ".join(m.format() for m in sheet.modifiers.immunities) or "none"
    weak = ", ".join(m.format() for m in sheet.modifiers.weaknesses) or "none"
    return f"Immunity: {imm} · Weakness: {weak}"


def summary_line(sheet: HeroSheet) -> str:
    """One line of the roster: Stamina, state, Recoveries, characteristics, Victories and XP."""
    state = state_label(sheet.vitals)
    state_part = "" if state == "healthy" else f" ({state})"
    return (
        f"{stamina_text(sheet.vitals)}{state_part} · {recoveries_text(sheet)}\n"
        f"{sheet.characteristics.format()} · {progress_text(sheet)}"
    )


def hero_fields(hero: HeroView) -> list[Field]:
    """A hero's sheet as embed fields: Stamina, Recoveries, characteristics, damage, progress, resource."""
    sheet = hero.sheet
    state = state_label(sheet.vitals)
    return [
        Field(
            "Stamina (in the encounter)" if hero.in_encounter else "Stamina",
            f"{stamina_numbers(sheet.vitals)} ({state})",  # the field's name says Stamina already
            inline=True,
        ),
        Field("Recoveries", recoveries_numbers(sheet), inline=True),  # the field's name says Recoveries
        Field("Characteristics", sheet.characteristics.format(), inline=True),
        Field("Damage", modifiers_text(sheet)),
        Field("Progress", progress_text(sheet), inline=True),
        Field(
            "Heroic resource",
            f"{inert(sheet.resource_name)} (+{sheet.resource_gain} a turn)",
            inline=True,
        ),
    ]


def hero_header(hero: HeroView) -> str:
    """`Level 3 · played by <@1>`."""
    return f"Level {hero.sheet.level} · {owner_text(hero)}"


def hero_embed(hero: HeroView) -> discord.Embed:
    """One hero's sheet (with how many abilities of their own it has, when it has some)."""
    fields = hero_fields(hero)
    if hero.sheet.abilities:
        fields.append(Field("Abilities", f"{len(hero.sheet.abilities)}: see /ability list", inline=True))
    return make_embed(inert(hero.name), hero_header(hero), colour=Colour.HEROES, fields=fields)


def roster_embed(heroes: Sequence[HeroView]) -> discord.Embed:
    """The channel's roster: one field per hero (make_embed counts the ones past 25 in the footer)."""
    if not heroes:
        return make_embed(
            "Heroes",
            "No heroes in this channel yet: /hero create name:Ash stamina:30 recoveries:8",
            colour=Colour.HEROES,
        )
    fields = [
        Field(
            f"{inert(h.name)} (level {h.sheet.level}{', in the encounter' if h.in_encounter else ''})",
            f"{summary_line(h.sheet)}\n{owner_text(h)}",
        )
        for h in heroes
    ]
    return make_embed("Heroes", None, colour=Colour.HEROES, fields=fields)


def tokens_embed(pool: int, used_by: Sequence[str], in_encounter: bool) -> discord.Embed:
    """The party's hero tokens and who already used a benefit this turn."""
    if in_encounter:
        used = ", ".join(inert(name) for name in used_by) or "nobody"
        detail = f"Used a benefit this turn: {used}"
    else:
        detail = "No encounter running: each hero may still use only one benefit per test."
    return make_embed(
        f"Hero tokens: {pool}",
        f"{detail}\nSpend one with /tokens spend use:surges (or save, reroll, regain).",
        colour=Colour.HEROES,
    )


def victories_embed(heroes: Sequence[HeroView]) -> discord.Embed:
    """Every roster hero's Victories and XP."""
    if not heroes:
        return make_embed("Victories", "No heroes in this channel yet: /hero create.", colour=Colour.HEROES)
    lines = [f"**{inert(h.name)}** — {progress_text(h.sheet)}" for h in heroes]
    return make_embed("Victories", "\n".join(lines), colour=Colour.HEROES)
