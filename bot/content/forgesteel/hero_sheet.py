"""An imported Forge Steel hero as the roster sheet the bot keeps (`bot.rules.hero.HeroSheet`).

The sheet takes the computed maximum Stamina and Recoveries, characteristics, immunities and weaknesses,
level, and the heroic resource with its start-of-turn gain. The file's play state (Stamina damage,
temporary Stamina, Recoveries used, Victories, XP) is taken only when the player asks for it (`use_state`,
issue 20 §4), each value brought within what the rules allow (Stamina no lower than the hero's death at the
negative winded value, Recoveries from 0 to the maximum).

Public API: `to_sheet(hero, use_state=False, claimable=False) -> HeroSheet`.
"""

from __future__ import annotations

import dataclasses

from bot.content.forgesteel.files import BadValue
from bot.content.forgesteel.hero import ImportedHero
from bot.rules.errors import RuleError
from bot.rules.hero import RESOURCE_NAME_MAX, VICTORIES_LIMIT, HeroSheet, new_sheet
from bot.rules.resources import HeroicResource, Progress


def _gain(text: str) -> str:
    """The per-turn gain as the sheet rolls it (`1d3 + 1` -> `1d3+1`); one it can't roll counts 0."""
    clean = "".join(text.split()).lower()
    try:
        HeroicResource("check", gain=clean)
    except RuleError:
        return "0"
    return clean if len(clean) <= 16 else "0"


def to_sheet(hero: ImportedHero, use_state: bool = False, claimable: bool = False) -> HeroSheet:
    """The roster sheet for `hero`, fresh, or as the file's state has it (`use_state`)."""
    resource = hero.heroic_resource
    try:
        sheet = new_sheet(
            hero.stamina,
            hero.recoveries,
            characteristics=hero.characteristics,
            modifiers=hero.modifiers,
            level=hero.level,
            resource_name=resource.name[:RESOURCE_NAME_MAX] if resource is not None else "heroic resource",
            resource_gain=_gain(resource.turn_gain) if resource is not None else "0",
            claimable=claimable,
        )
    except RuleError as error:
        raise BadValue(f"That hero doesn't fit a roster sheet: {error}") from None
    if not use_state:
        return sheet
    state, vitals = hero.state, sheet.vitals
    stamina = min(vitals.max_stamina, max(-vitals.winded_value, vitals.max_stamina - state.stamina_damage))
    recoveries = min(vitals.max_recoveries, max(0, vitals.max_recoveries - state.recoveries_used))
    return dataclasses.replace(
        sheet,
        vitals=dataclasses.replace(
            vitals, stamina=stamina, temporary=max(0, state.temporary_stamina), recoveries=recoveries
        ),
        progress=Progress(min(VICTORIES_LIMIT, max(0, state.victories)), max(0, state.xp)),
    )
