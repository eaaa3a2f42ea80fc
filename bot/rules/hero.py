"""A roster hero's sheet: what a hero keeps between encounters, and the rules for changing it.

Rules: Draw Steel, The Basics, "Characteristics", "Victories", "Experience", "Heroic Resources", "Respite";
Draw Steel, Combat, "Stamina", "Recoveries and Recovery Value", "DAMAGE IMMUNITY", "DAMAGE WEAKNESS".
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from bot.rules import resources, stamina
from bot.rules.ability import Ability
from bot.rules.characteristics import Characteristics
from bot.rules.damage import DamageModifier, DamageModifiers
from bot.rules.errors import RuleError
from bot.rules.kit import KitDamageBonus
from bot.rules.resources import GainTrigger, HeroicResource, Progress, ResourceGain
from bot.rules.stamina import Vitals

LEVEL_MIN = 1
LEVEL_MAX = 10
STAMINA_LIMIT = 999
RECOVERIES_LIMIT = 99
RESOURCE_NAME_MAX = 32
VICTORIES_LIMIT = 999


class HeroError(RuleError):
    """A change to a hero's sheet the rules refuse."""


@dataclass(frozen=True, slots=True)
class HeroSheet:
    """A hero's lasting numbers: Stamina and Recoveries (`vitals`, with any recovery-value bonus),
    characteristics M/A/R/I/P, immunities and weaknesses, Victories and XP, level, and the heroic resource's
    name and per-turn gain ("1d3", "2"). The store keeps a sheet as codec data in `Hero.data`
    (`bot.rules.codec.to_data` / `load(HeroSheet, data)`).

    `claimable`: a Director made this hero for nobody in particular (or holds it themselves), so any member
    may `claim` it; a hero made by or for a player is not claimable (only a Director reassigns it).

    `resource_gains` are the class's other gains by trigger (taking damage, becoming winded, ...: an import
    fills them; `bot.rules.encounter.heroic` applies those the bot sees happen).

    What the hero plays with (every field defaults, so older stored sheets still load):
    `abilities` (the hero's cards, the standard ones not included: `bot.rules.standard`), `kit_bonuses`
    (the kits' damage bonuses for Melee or Ranged Weapon abilities), `melee_distance_bonus` /
    `ranged_distance_bonus` (a kit's and an import's features', lengthening the free strikes), `stability`,
    `speed`, `size` (`1M`, `2`). `forge_steel_id` is the Forge Steel hero an import came from (re-importing it
    updates this sheet); `ancestry`, `class_name`, `subclass` describe the hero."""

    vitals: Vitals
    characteristics: Characteristics = field(default_factory=Characteristics)
    modifiers: DamageModifiers = field(default_factory=DamageModifiers)
    progress: Progress = field(default_factory=Progress)
    level: int = 1
    resource_name: str = "heroic resource"
    resource_gain: str = "0"
    claimable: bool = False
    resource_gains: tuple[ResourceGain, ...] = ()
    abilities: tuple[Ability, ...] = ()
    kit_bonuses: tuple[KitDamageBonus, ...] = ()
    melee_distance_bonus: int = 0
    ranged_distance_bonus: int = 0
    stability: int = 0
    speed: int = 5
    size: str = "1M"
    forge_steel_id: str = ""
    ancestry: str = ""
    class_name: str = ""
    subclass: str = ""

    @property
    def description(self) -> str:
        """`Dwarf Fury (Berserker)`: what the hero is, as far as the sheet knows (may be empty)."""
        what = " ".join(w for w in (self.ancestry, self.class_name) if w)
        return f"{what} ({self.subclass})" if self.subclass and what else what or self.subclass

    @property
    def turn_gain(self) -> str:
        """The gain at the start of each of the hero's turns: `resource_gain`, else a start-of-turn gain
        among `resource_gains`."""
        if self.resource_gain != "0":
            return self.resource_gain
        start = (g.value for g in self.resource_gains if g.trigger is GainTrigger.START_OF_TURN)
        return next(start, "0")


def _check_stamina(value: int, what: str = "Stamina maximum") -> None:
    if not 1 <= value <= STAMINA_LIMIT:
        raise HeroError(f"{what} must be a number from 1 to {STAMINA_LIMIT}.")


def _check_recoveries(value: int) -> None:
    if not 0 <= value <= RECOVERIES_LIMIT:
        raise HeroError(f"Recoveries must be a number from 0 to {RECOVERIES_LIMIT}.")


def _check_level(value: int) -> None:
    if not LEVEL_MIN <= value <= LEVEL_MAX:
        raise HeroError(f"Level must be from {LEVEL_MIN} to {LEVEL_MAX}.")


def _clean_resource_name(name: str) -> str:
    clean = " ".join(name.split())
    if not clean or len(clean) > RESOURCE_NAME_MAX or not clean.isprintable():
        raise HeroError(
            f"Name the heroic resource in 1 to {RESOURCE_NAME_MAX} plain characters, e.g. wrath or focus."
        )
    return clean


def _clean_gain(gain: str) -> str:
    clean = "".join(gain.split()).lower()
    if not clean or len(clean) > 16:
        raise HeroError("The per-turn gain must be a number like 2 or dice like 1d3.")
    HeroicResource("check", gain=clean)  # raises ResourceError with the same one-line hint
    return clean


def new_sheet(
    max_stamina: int,
    recoveries: int,
    characteristics: Characteristics | None = None,
    modifiers: DamageModifiers | None = None,
    level: int = 1,
    resource_name: str = "heroic resource",
    resource_gain: str = "0",
    claimable: bool = False,
) -> HeroSheet:
    """A fresh hero at full Stamina and Recoveries (limits checked, with a one-line hint)."""
    _check_stamina(max_stamina)
    _check_recoveries(recoveries)
    _check_level(level)
    return HeroSheet(
        vitals=Vitals.fresh(max_stamina, recoveries, is_hero=True),
        characteristics=characteristics or Characteristics(),
        modifiers=modifiers or DamageModifiers(),
        level=level,
        resource_name=_clean_resource_name(resource_name),
        resource_gain=_clean_gain(resource_gain),
        claimable=claimable,
    )


_NONE_WORDS = frozenset({"none", "no", "-", "0"})


def read_immunity(text: str) -> tuple[DamageModifier, ...]:
    """Immunities as typed ("fire 5, all 2", "poison all"); "none" means no immunity."""
    if text.strip().lower() in _NONE_WORDS:
        return ()
    return DamageModifiers.parse(text, "").immunities


def read_weakness(text: str) -> tuple[DamageModifier, ...]:
    """Weaknesses as typed ("fire 5"); "none" means no weakness."""
    if text.strip().lower() in _NONE_WORDS:
        return ()
    return DamageModifiers.parse("", text).weaknesses


@dataclass(frozen=True, slots=True)
class SheetEdit:
    """What `/hero edit` changes; None leaves a field as it is. `recoveries` is the maximum (Recoveries left
    drop to it); `recoveries_left` and `current_stamina` set what the hero has now."""

    max_stamina: int | None = None
    current_stamina: int | None = None
    recoveries: int | None = None
    recoveries_left: int | None = None
    characteristics: Characteristics | None = None
    immunities: tuple[DamageModifier, ...] | None = None
    weaknesses: tuple[DamageModifier, ...] | None = None
    level: int | None = None
    resource_name: str | None = None
    resource_gain: str | None = None

    @property
    def empty(self) -> bool:
        return all(getattr(self, f.name) is None for f in dataclasses.fields(self))


def edit_sheet(sheet: HeroSheet, edit: SheetEdit) -> HeroSheet:
    """Apply `edit` to `sheet`. A lower Stamina maximum caps current Stamina ("Stamina"); current Stamina may
    be set from the negative winded value (dying) up to the maximum."""
    if edit.empty:
        raise HeroError(
            "Give at least one field to change, e.g. stamina:30 or characteristics:M2 A1 R0 I-1 P1."
        )
    vitals = sheet.vitals
    if edit.max_stamina is not None:
        _check_stamina(edit.max_stamina)
        vitals = stamina.set_max_stamina(vitals, edit.max_stamina)
    if edit.current_stamina is not None:
        low = -vitals.winded_value
        if not low <= edit.current_stamina <= vitals.max_stamina:
            raise HeroError(f"Current Stamina must be from {low} to {vitals.max_stamina}.")
        vitals = dataclasses.replace(vitals, stamina=edit.current_stamina)
    if edit.recoveries is not None:
        _check_recoveries(edit.recoveries)
        vitals = dataclasses.replace(
            vitals, max_recoveries=edit.recoveries, recoveries=min(vitals.recoveries, edit.recoveries)
        )
    if edit.recoveries_left is not None:
        if not 0 <= edit.recoveries_left <= vitals.max_recoveries:
            raise HeroError(f"Recoveries left must be from 0 to {vitals.max_recoveries}.")
        vitals = dataclasses.replace(vitals, recoveries=edit.recoveries_left)
    if edit.level is not None:
        _check_level(edit.level)
    modifiers = DamageModifiers(
        edit.immunities if edit.immunities is not None else sheet.modifiers.immunities,
        edit.weaknesses if edit.weaknesses is not None else sheet.modifiers.weaknesses,
    )
    return dataclasses.replace(
        sheet,
        vitals=vitals,
        characteristics=edit.characteristics or sheet.characteristics,
        modifiers=modifiers,
        level=edit.level if edit.level is not None else sheet.level,
        resource_name=_clean_resource_name(edit.resource_name)
        if edit.resource_name is not None
        else sheet.resource_name,
        resource_gain=_clean_gain(edit.resource_gain)
        if edit.resource_gain is not None
        else sheet.resource_gain,
    )


def with_play_state(
    sheet: HeroSheet,
    *,
    stamina_damage: int = 0,
    recoveries_used: int = 0,
    temporary: int = 0,
    progress: Progress | None = None,
    knocked_out: bool = False,
) -> HeroSheet:
    """The fresh `sheet` with what play has done to the hero, each value within the rules: Stamina no lower
    than the hero's death at the negative winded value ("Dying and Death"), Recoveries from 0 to the
    maximum, temporary Stamina not negative, Victories within `VICTORIES_LIMIT`, XP not negative."""
    vitals = sheet.vitals
    low = -vitals.winded_value
    stamina_now = min(vitals.max_stamina, max(low, vitals.max_stamina - stamina_damage))
    recoveries = min(vitals.max_recoveries, max(0, vitals.max_recoveries - recoveries_used))
    held = progress or sheet.progress
    return dataclasses.replace(
        sheet,
        vitals=dataclasses.replace(
            vitals,
            stamina=stamina_now,
            temporary=max(0, temporary),
            recoveries=recoveries,
            knocked_out=knocked_out,
        ),
        progress=Progress(min(VICTORIES_LIMIT, max(0, held.victories)), max(0, held.xp)),
    )


def keep_play_state(new: HeroSheet, old: HeroSheet) -> HeroSheet:
    """A hero's sheet read again (a Forge Steel re-import): the new numbers, with the old sheet's Stamina
    damage, Recoveries used, temporary Stamina, knocked-out state, Victories and XP, and whether the hero
    is open to claim."""
    kept = with_play_state(
        new,
        stamina_damage=old.vitals.max_stamina - old.vitals.stamina,
        recoveries_used=old.vitals.max_recoveries - old.vitals.recoveries,
        temporary=old.vitals.temporary,
        progress=old.progress,
        knocked_out=old.vitals.knocked_out,
    )
    return dataclasses.replace(kept, claimable=old.claimable)


def award_sheet_victories(sheet: HeroSheet, count: int) -> HeroSheet:
    """The Director awards Victories ("Victories"), at most `VICTORIES_LIMIT` in all."""
    progress = resources.award_victories(sheet.progress, count)
    if progress.victories > VICTORIES_LIMIT:
        raise HeroError(f"A hero can hold at most {VICTORIES_LIMIT} Victories: award fewer.")
    return dataclasses.replace(sheet, progress=progress)


def sheet_respite(sheet: HeroSheet) -> HeroSheet:
    """Finish a respite ("Respite"): Victories convert to XP; Stamina and Recoveries are regained (a dead
    hero's Victories still convert, but a respite doesn't bring them back)."""
    if sheet.vitals.dead:
        return dataclasses.replace(sheet, progress=Progress(0, sheet.progress.xp + sheet.progress.victories))
    progress, vitals = resources.respite(sheet.progress, sheet.vitals)
    return dataclasses.replace(sheet, progress=progress, vitals=vitals)


def claim(
    sheet: HeroSheet, owner_id: int, claimant_id: int, new_owner_id: int | None, director: bool
) -> tuple[int, HeroSheet]:
    """Who may take over a hero, and who holds it after.

    - A player may claim only a `claimable` hero (a Director made it for nobody, or holds it), for
      themselves; it is theirs from then on (no longer claimable).
    - A Director may hand any hero to any member (`new_owner_id`), or take it back: a hero a Director holds
      is claimable again.
    Returns the new owner's id and the new sheet."""
    target = new_owner_id if new_owner_id is not None else claimant_id
    if not director:
        if target != claimant_id:
            raise HeroError("Only the Director can give a hero to someone else: claim it for yourself.")
        if owner_id == claimant_id and not sheet.claimable:
            raise HeroError("That hero is already yours.")
        if not sheet.claimable:
            raise HeroError("That hero belongs to another player: ask the Director to reassign it.")
        return claimant_id, dataclasses.replace(sheet, claimable=False)
    if target == owner_id and sheet.claimable == (target == claimant_id):
        raise HeroError("That hero is already held by that member.")
    return target, dataclasses.replace(sheet, claimable=target == claimant_id)


def sheet_spend_recovery(sheet: HeroSheet) -> HeroSheet:
    """Spend a Recovery outside combat: regain the recovery value (Draw Steel, The Basics, "Spending
    Recoveries": "Outside of combat and other dangerous situations, you can spend Recoveries freely";
    Draw Steel, Combat, "Dying and Death": a dying hero "can spend Recoveries out of combat as usual")."""
    return dataclasses.replace(sheet, vitals=stamina.spend_recovery(sheet.vitals))
