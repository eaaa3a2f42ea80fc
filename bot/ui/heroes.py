"""Renderers for the roster and the party's resources: a hero's sheet, the roster, hero tokens, Victories,
the guild's settings. Pure functions from state to `discord.Embed` (always within Discord's limits through
`make_embed`); every user-supplied name goes through `inert`.

Contract label: a hero's Stamina is written `Stamina: 12/30` (`bot.ui.format.stamina_text`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.durations import duration_text
from bot.replies import inert
from bot.rules.hero import HeroSheet
from bot.store import GuildSettings
from bot.ui.embeds import Colour, Field, make_embed
from bot.ui.format import stamina_text, state_label


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


def recoveries_text(sheet: HeroSheet) -> str:
    v = sheet.vitals
    return f"Recoveries: {v.recoveries}/{v.max_recoveries} (recovery value {v.recovery_value})"


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


def hero_embed(hero: HeroView) -> discord.Embed:
    """One hero's sheet."""
    sheet = hero.sheet
    state = state_label(sheet.vitals)
    fields = [
        Field(
            "Stamina (in the encounter)" if hero.in_encounter else "Stamina",
            f"{stamina_text(sheet.vitals)} ({state})",
            inline=True,
        ),
        Field("Recoveries", recoveries_text(sheet), inline=True),
        Field("Characteristics", sheet.characteristics.format(), inline=True),
        Field("Damage", modifiers_text(sheet)),
        Field("Progress", progress_text(sheet), inline=True),
        Field(
            "Heroic resource",
            f"{inert(sheet.resource_name)} (+{sheet.resource_gain} a turn)",
            inline=True,
        ),
    ]
    return make_embed(
        inert(hero.name),
        f"Level {sheet.level} · {owner_text(hero)}",
        colour=Colour.HEROES,
        fields=fields,
    )


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


def on_off(value: bool) -> str:
    return "on" if value else "off"


def settings_embed(settings: GuildSettings) -> discord.Embed:
    """The guild's settings, one per line, with the option that changes each and its default."""
    role = f"<@&{settings.director_role_id}>" if settings.director_role_id else "none (Manage Channels only)"
    lines = [
        f"Director role: {role} — `director_role` (default: none)",
        f"Turn pings: {on_off(settings.turn_pings)} — `turn_pings` (default: on)",
        f"Hero tokens reset each session: {on_off(settings.tokens_reset_per_session)} — "
        "`tokens_reset_per_session` (default: on)",
        f"Malice rounding: {settings.malice_rounding} — `malice_rounding` (default: down)",
        f"Players see monsters' exact Stamina: {on_off(settings.show_monster_stamina)} — "
        "`show_monster_stamina` (default: on)",
        f"Action economy enforced: {on_off(settings.enforce_action_economy)} — `enforce_action_economy` "
        "(default: on)",
        f"The Director's creatures roll their saves: {on_off(settings.auto_saves)} — `auto_saves` "
        "(default: on)",
        f"Nudge a side that hasn't picked after: {duration_text(settings.nudge_after)} — `nudge_after` "
        "(default: off)",
        f"Argument timer: {duration_text(settings.argument_timer)} — `argument_timer` (default: off)",
    ]
    return make_embed("Settings", "\n".join(lines), colour=Colour.INFO)
