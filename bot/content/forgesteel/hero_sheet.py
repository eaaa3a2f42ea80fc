"""An imported Forge Steel hero as the roster sheet the bot keeps (`bot.rules.hero.HeroSheet`).

The sheet takes the computed maximum Stamina and Recoveries (and the recovery value's bonus over a third of
the maximum), characteristics, immunities and weaknesses, level, the heroic resource with its start-of-turn
gain and every other gain, the abilities (cards), the kits' damage and distance bonuses, stability, speed and
size, the Forge Steel id (a re-import finds the sheet by it), ancestry, class and subclass.

The file's play state (Stamina damage, temporary Stamina, Recoveries used, Victories, XP) is taken only when
the player asks for it (`use_state`, issue 20 §4), each value brought within what the rules allow (Stamina
no lower than the hero's death at the negative winded value, Recoveries from 0 to the maximum).

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
    sheet = dataclasses.replace(
        sheet,
        vitals=dataclasses.replace(
            sheet.vitals, recovery_bonus=hero.recovery_value - sheet.vitals.max_stamina // 3
        ),
        abilities=tuple(a.card for a in hero.abilities),
        kit_bonuses=hero.kit_damage_bonuses,
        melee_distance_bonus=hero.melee_distance_bonus,
        ranged_distance_bonus=hero.ranged_distance_bonus,
        stability=max(0, hero.stability),
        speed=max(0, hero.speed),
        size=hero.size.format(),
        resource_gains=resource.gains if resource is not None else (),
        forge_steel_id=hero.forge_steel_id,
        ancestry=hero.ancestry,
        class_name=hero.class_name,
        subclass=hero.subclass,
    )
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
