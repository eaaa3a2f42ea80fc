"""An imported Forge Steel hero as the roster sheet the bot keeps (`bot.rules.hero.HeroSheet`).

The file's play state is taken only with `use_state`, brought within what the rules allow; a hero over
`ABILITIES_MAX` cards or `SHEET_BYTES_MAX` as data is refused in one line. `read_upload(data, use_state,
cpu_seconds)` is an import's whole CPU work as one picklable call, for `bot.hero_reader`'s worker.

Public API: `to_sheet(hero, use_state=False, claimable=False) -> HeroSheet`, `SHEET_BYTES_MAX`, `HeroUpload`,
`read_upload`.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from bot.content.ability_entry import ABILITIES_MAX
from bot.content.forgesteel.files import BadValue, ReadBudget
from bot.content.forgesteel.hero import ImportedHero, read_hero
from bot.content.forgesteel.hero_resources import HeroResource
from bot.rules import codec
from bot.rules.errors import RuleError
from bot.rules.hero import RESOURCE_NAME_MAX, HeroSheet, new_sheet, with_play_state
from bot.rules.resources import HeroicResource, Progress, ResourceGain, read_gain_trigger

SHEET_BYTES_MAX = 256 * 1024
"""The largest roster sheet an import keeps, as JSON data (a level-10 hero's is about 20 KB)."""


def _gain(text: str) -> str:
    """The per-turn gain as the sheet rolls it (`1d3 + 1` -> `1d3+1`); one it can't roll counts 0."""
    clean = "".join(text.split()).lower()
    try:
        HeroicResource("check", gain=clean)
    except RuleError:
        return "0"
    return clean if len(clean) <= 16 else "0"


def _gains(resource: HeroResource) -> tuple[ResourceGain, ...]:
    """The resource's gains as the sheet keeps them (`bot.rules.resources.ResourceGain`: the trigger read
    from the class's words, which are kept); a gain whose amount isn't a number or dice is left out."""
    out = []
    for gain in resource.gains:
        value = _gain(gain.value)
        if value != "0":
            out.append(ResourceGain(read_gain_trigger(gain.trigger), value, gain.trigger))
    return tuple(out)


def to_sheet(hero: ImportedHero, use_state: bool = False, claimable: bool = False) -> HeroSheet:
    """The roster sheet for `hero`, fresh, or as the file's state has it (`use_state`)."""
    resource = hero.heroic_resource
    if len(hero.abilities) > ABILITIES_MAX:
        raise BadValue(
            f"That hero has {len(hero.abilities)} abilities; a roster hero keeps at most {ABILITIES_MAX}: "
            "remove some in Forge Steel and export it again."
        )
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
        resource_gains=_gains(resource) if resource is not None else (),
        forge_steel_id=hero.forge_steel_id,
        ancestry=hero.ancestry,
        class_name=hero.class_name,
        subclass=hero.subclass,
    )
    if len(json.dumps(codec.to_data(sheet))) > SHEET_BYTES_MAX:
        raise BadValue(
            f"That hero's texts come to over {SHEET_BYTES_MAX // 1024} KB, more than a roster sheet keeps: "
            "shorten its abilities' notes in Forge Steel and export it again."
        )
    if not use_state:
        return sheet
    state = hero.state
    return with_play_state(
        sheet,
        stamina_damage=state.stamina_damage,
        recoveries_used=state.recoveries_used,
        temporary=state.temporary_stamina,
        progress=Progress(state.victories, state.xp),
    )


@dataclass(frozen=True, slots=True)
class HeroUpload:
    """An uploaded hero as read (`read_hero`) and the roster sheet made of it (`to_sheet`)."""

    hero: ImportedHero
    sheet: HeroSheet


def read_upload(data: bytes, use_state: bool = False, cpu_seconds: float | None = None) -> HeroUpload:
    """Read an uploaded hero file into its sheet, the reading within `cpu_seconds` of this thread's CPU
    (`files.READ_CPU_SECONDS` unless given)."""
    found = read_hero(data, ReadBudget(cpu_seconds))
    return HeroUpload(found, to_sheet(found, use_state=use_state))
