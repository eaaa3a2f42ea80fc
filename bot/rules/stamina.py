"""Stamina: vitals, winded, dying, death, knocked out, temporary Stamina, recoveries, healing, respite.

Rules: Draw Steel, Combat, "Stamina", "Recoveries and Recovery Value", "Winded", "Dying and Death",
"Director-Controlled Creatures", "No Recoveries", "Knocking Creatures Out", "Temporary Stamina" and "Catch
Breath"; Draw Steel, The Basics, "Recoveries" and "Respite".
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.rules.errors import RuleError


class StaminaError(RuleError):
    """A Stamina change the rules refuse."""


@dataclass(frozen=True, slots=True)
class Vitals:
    """A creature's Stamina and Recoveries. Stamina is not floored: it records the damage taken.

    `death_threshold` overrides the Stamina at or below which the creature dies (None: the rule's default).
    `slain` is set when a knocked-out creature takes damage ("Knocking Creatures Out").
    `recovery_bonus` is added to the recovery value (a hero's features that raise it, e.g. from a Forge Steel
    import).
    """

    max_stamina: int
    stamina: int
    temporary: int = 0
    recoveries: int = 0
    max_recoveries: int = 0
    is_hero: bool = False
    death_threshold: int | None = None
    knocked_out: bool = False
    slain: bool = False
    recovery_bonus: int = 0

    def __post_init__(self) -> None:
        if self.max_stamina < 1:
            raise StaminaError("Stamina maximum must be at least 1.")
        if self.stamina > self.max_stamina:
            raise StaminaError("Stamina can't exceed the Stamina maximum.")
        if self.temporary < 0 or self.recoveries < 0 or self.max_recoveries < 0:
            raise StaminaError("Temporary Stamina and Recoveries can't be negative.")

    @classmethod
    def fresh(cls, max_stamina: int, recoveries: int = 0, is_hero: bool = False) -> Vitals:
        """Full Stamina and Recoveries."""
        return cls(max_stamina, max_stamina, 0, recoveries, recoveries, is_hero)

    @property
    def winded_value(self) -> int:
        """Half the Stamina maximum, rounded down ("Winded"; Draw Steel, The Basics, "Round Down")."""
        return self.max_stamina // 2

    @property
    def recovery_value(self) -> int:
        """One third of the Stamina maximum, rounded down ("Recoveries and Recovery Value"), plus any
        `recovery_bonus` the hero's features give."""
        return max(0, self.max_stamina // 3 + self.recovery_bonus)

    @property
    def winded(self) -> bool:
        """Stamina (temporary Stamina excluded) at or below the winded value, and still alive."""
        return self.stamina <= self.winded_value and not self.dead

    @property
    def death_at(self) -> int:
        """Stamina at or below which the creature dies: a hero when Stamina below 0 reaches the negative of
        their winded value (Draw Steel, Combat, "Dying and Death"); a Director creature at 0
        ("Director-Controlled Creatures"), or at `death_threshold` if its stat block gives its own."""
        if self.death_threshold is not None:
            return self.death_threshold
        return -self.winded_value if self.is_hero else 0

    @property
    def dead(self) -> bool:
        """Dead: slain while knocked out, or Stamina at the death threshold unless knocked out instead.

        A hero only dies while Stamina is below 0 ("While your Stamina is lower than 0, if it reaches the
        negative of your winded value, you die").
        """
        if self.slain:
            return True
        if self.knocked_out:
            return False
        if self.is_hero and self.death_threshold is None and self.stamina >= 0:
            return False
        return self.stamina <= self.death_at

    @property
    def dying(self) -> bool:
        """A hero at 0 Stamina or lower who isn't dead ("Dying and Death")."""
        return self.is_hero and self.stamina <= 0 and not self.dead


def lose_stamina(vitals: Vitals, damage: int, knock_out_instead: bool = False) -> Vitals:
    """Apply damage that got through immunity: temporary Stamina first, then Stamina ("Temporary Stamina").
    This is the last step of the damage pipeline (`bot.rules.damage.apply_damage`); undo a damage record
    with `bot.rules.damage.undo` (the record keeps the vitals from before).

    A knocked-out creature is not dead, but any damage while knocked out kills it (`slain`). With
    `knock_out_instead`, damage that would kill knocks the creature out instead ("Knocking Creatures Out").
    """
    if damage < 0:
        raise StaminaError("Damage can't be negative.")
    if damage == 0:
        return vitals
    from_temp = min(vitals.temporary, damage)
    after = dataclasses.replace(
        vitals,
        temporary=vitals.temporary - from_temp,
        stamina=vitals.stamina - (damage - from_temp),
        slain=vitals.slain or vitals.knocked_out,
    )
    if knock_out_instead and after.dead and not vitals.dead and not vitals.knocked_out:
        after = dataclasses.replace(after, knocked_out=True)
    return after


def lose_stamina_outright(vitals: Vitals, amount: int) -> Vitals:
    """Lose Stamina that isn't damage (bleeding: "it loses Stamina equal to 1d6 + its level ... Nothing
    prevents this loss"): neither immunity nor temporary Stamina ("Whenever you take damage while you have
    temporary Stamina, the temporary Stamina decreases first": this is no damage) stands in its way."""
    if amount < 0:
        raise StaminaError("Stamina lost can't be negative.")
    return dataclasses.replace(vitals, stamina=vitals.stamina - amount) if amount else vitals


def gain_temporary(vitals: Vitals, amount: int) -> Vitals:
    """Gain temporary Stamina: keep whichever is greater, never the sum ("Temporary Stamina")."""
    if amount < 0:
        raise StaminaError("Temporary Stamina to gain can't be negative.")
    return dataclasses.replace(vitals, temporary=max(vitals.temporary, amount))


def end_of_encounter(vitals: Vitals) -> Vitals:
    """Temporary Stamina disappears at the end of an encounter ("Temporary Stamina")."""
    return dataclasses.replace(vitals, temporary=0)


def heal(vitals: Vitals, amount: int) -> Vitals:
    """Regain Stamina, never above the maximum; never restores temporary Stamina.

    A knocked-out creature that regains Stamina has had something done to wake it ("Knocking Creatures Out":
    they stay unconscious "if no one does anything to wake them"): once its Stamina is above the point where
    it would die, it wakes. A Director creature's Stamina counts from 0 then, as when it wakes by itself
    ("They then gain 1 Stamina").
    """
    if amount < 0:
        raise StaminaError("Stamina to regain can't be negative: use damage instead.")
    if vitals.dead:
        raise StaminaError("A dead creature can't regain Stamina.")
    if vitals.knocked_out and not vitals.is_hero:
        vitals = dataclasses.replace(vitals, stamina=max(vitals.stamina, 0))
    healed = dataclasses.replace(
        vitals, stamina=max(vitals.stamina, min(vitals.max_stamina, vitals.stamina + amount))
    )
    if healed.knocked_out and healed.stamina > healed.death_at:
        healed = dataclasses.replace(healed, knocked_out=False)
    return healed


def regain_recovery_value(vitals: Vitals) -> Vitals:
    """Regain Stamina equal to the recovery value without spending a Recovery (Draw Steel, The Basics,
    "Spending Hero Tokens": "spend 2 hero tokens ... to regain Stamina equal to your Recovery value")."""
    return heal(vitals, vitals.recovery_value)


def spend_recovery(vitals: Vitals, extra: int = 0) -> Vitals:
    """Spend a Recovery to regain the recovery value (+ `extra`), e.g. through the Heal main action.

    A Director creature has no Recoveries: an effect that would have it spend one makes it regain a third of
    its Stamina maximum instead ("No Recoveries").
    """
    if not vitals.is_hero:
        return heal(vitals, vitals.recovery_value + extra)
    if vitals.recoveries < 1:
        raise StaminaError("No Recoveries left: finish a respite to regain them.")
    healed = heal(vitals, vitals.recovery_value + extra)
    return dataclasses.replace(healed, recoveries=vitals.recoveries - 1)


def catch_breath(vitals: Vitals) -> Vitals:
    """The Catch Breath maneuver: spend a Recovery, regain the recovery value; not while dying."""
    if not vitals.is_hero:
        raise StaminaError("Director creatures have no Recoveries, so they can't Catch Breath.")
    if vitals.dying:
        raise StaminaError("A dying hero can't Catch Breath: an ally can help them spend a Recovery instead.")
    return spend_recovery(vitals)


def knock_out(vitals: Vitals) -> Vitals:
    """Knock out a creature the damage just killed, instead of killing it ("Knocking Creatures Out")."""
    if vitals.slain or not vitals.dead:
        raise StaminaError("You can only knock out a creature whose damage would have killed it.")
    return dataclasses.replace(vitals, knocked_out=True)


def wake(vitals: Vitals) -> Vitals:
    """Wake after an hour ("Knocking Creatures Out").

    A Director creature gains 1 Stamina (from at least 0). A hero spends a Recovery; the rules don't say
    where from, so Stamina is first raised to just above the death threshold (the brink they were knocked
    out at), then the recovery value is added.
    """
    if not vitals.knocked_out or vitals.slain:
        raise StaminaError("Only a knocked-out creature can wake up.")
    if vitals.is_hero:
        if vitals.recoveries < 1:
            raise StaminaError("A hero with no Recoveries can't wake until they finish a respite.")
        up = dataclasses.replace(vitals, knocked_out=False, stamina=max(vitals.stamina, vitals.death_at + 1))
        return spend_recovery(up)
    return dataclasses.replace(vitals, knocked_out=False, stamina=max(vitals.stamina, 0) + 1)


def set_max_stamina(vitals: Vitals, max_stamina: int) -> Vitals:
    """Change the Stamina maximum (an effect or a corrected stat block); Stamina above it drops to it
    ("Stamina": some effects reduce your Stamina maximum, limiting the Stamina you can regain)."""
    if max_stamina < 1:
        raise StaminaError("Stamina maximum must be at least 1.")
    return dataclasses.replace(vitals, max_stamina=max_stamina, stamina=min(vitals.stamina, max_stamina))


def respite(vitals: Vitals) -> Vitals:
    """Finish a respite: regain all Recoveries and Stamina (Draw Steel, The Basics, "Respite")."""
    if vitals.dead:
        raise StaminaError("A dead creature doesn't recover with a respite.")
    return dataclasses.replace(
        vitals, stamina=vitals.max_stamina, recoveries=vitals.max_recoveries, temporary=0, knocked_out=False
    )
