"""Stamina changes on the encounter aggregate: damage, healing, waking, temporary Stamina, a Director's
Stamina correction and Catch Breath; each keeps the turn entry's flags in step (`sync.sync`).

Rules, each cited where it is applied: Draw Steel, Combat, "Damage", "Temporary Stamina", "Stamina", "Dying
and Death", "Knocking Creatures Out", "Catch Breath"; The Basics, "Recoveries"; Monsters, "Minions".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules import stamina as st
from bot.rules.creature import Creature, take_damage
from bot.rules.damage import DamageType, Step
from bot.rules.encounter.model import Encounter
from bot.rules.encounter.sync import (
    HarmError,
    Healing,
    change_vitals,
    check_amount,
    living_minion,
    sync,
    target,
    use_on_turn,
)
from bot.rules.squads import Squad, damage_squad, refuse_healing
from bot.rules.stamina import Vitals
from bot.rules.turns import maneuver_kind


@dataclass(frozen=True, slots=True)
class Hit:
    """What one creature took: the incoming damage, what got through, each step, and the creature's vitals
    (or, for a minion, its squad) before and after; `killed` every creature that died of it."""

    target: str
    incoming: int
    dealt: int
    dtype: DamageType
    steps: tuple[Step, ...]
    before: Vitals | None = None
    after: Vitals | None = None
    squad_before: Squad | None = None
    squad_after: Squad | None = None
    killed: tuple[str, ...] = ()

    @property
    def knocked_out(self) -> bool:
        return (
            self.after is not None
            and self.after.knocked_out
            and not (self.before is not None and self.before.knocked_out)
        )


def hit_squad(
    encounter: Encounter,
    squad: Squad,
    hits: Sequence[tuple[str, int]],
    dtype: DamageType,
    area: bool,
    halved: bool = False,
) -> tuple[Encounter, Hit]:
    """One effect's damage to minions of one squad (`bot.rules.squads.damage_squad`: weakness and immunity
    once for the whole squad, the cap per minion only for area damage).

    Monsters, "Minions": damage to one minion goes to the squad's pool and can kill several; when one effect
    hits several minions of the same squad, each counts at most its own Stamina and only those hit die (the
    squads module's area rule).
    """
    ids = [m for m, _ in hits]
    record = damage_squad(
        squad,
        [a for _, a in hits],
        ids,
        area=area,
        dtype=dtype,
        modifiers=encounter.creature(ids[0]).modifiers,
        halved=halved,
    )
    updated = sync(encounter.with_squad(record.after), ids[0])
    hit = Hit(
        ids[0] if len(ids) == 1 else squad.id,
        sum(a for _, a in hits),
        record.dealt,
        dtype,
        record.steps,
        squad_before=record.before,
        squad_after=record.after,
        killed=record.killed,
    )
    return updated, hit


def hit_creature(
    encounter: Encounter,
    creature: Creature,
    amount: int,
    dtype: DamageType,
    knock_out: bool = False,
    halved: bool = False,
) -> tuple[Encounter, Hit]:
    if creature.squad_id is not None:
        squad = living_minion(encounter, creature)
        return hit_squad(encounter, squad, [(creature.id, amount)], dtype, area=False, halved=halved)
    if creature.vitals.dead:
        raise HarmError(f"{creature.id} is dead already: pick a living creature.")
    changed, taken = take_damage(creature, amount, dtype, halved=halved, knock_out_instead=knock_out)
    updated = sync(encounter.with_creature(changed), creature.id)
    killed = (creature.id,) if taken.killed else ()
    hit = Hit(creature.id, amount, taken.dealt, dtype, taken.steps, taken.before, taken.after, killed=killed)
    return updated, hit


def damage(
    encounter: Encounter,
    name: str,
    amount: int,
    dtype: DamageType = DamageType.UNTYPED,
    *,
    knock_out: bool = False,
    halved: bool = False,
) -> tuple[Encounter, Hit]:
    """Deal `amount` damage of `dtype` to one creature (halving, weakness, immunity, temporary Stamina, then
    Stamina: Draw Steel, Combat, "DAMAGE IMMUNITY": "if an ally first halved the damage ... immunity then
    reducing the damage"; a minion's damage goes to its squad's pool and may kill several minions). With
    `knock_out`, damage that would kill knocks the creature out instead (Draw Steel, Combat, "Knocking
    Creatures Out"; minions have no such choice: their squad's pool decides).

    Draw Steel, Combat, "Damage", "DAMAGE IMMUNITY", "DAMAGE WEAKNESS", "Temporary Stamina", "Stamina",
    "Winded", "Dying and Death", "Knocking Creatures Out" — through `bot.rules.creature.take_damage` /
    `bot.rules.damage.apply_damage` (the one pipeline) and `bot.rules.stamina`.
    """
    check_amount(amount, "damage")
    return hit_creature(encounter, target(encounter, name), amount, dtype, knock_out=knock_out, halved=halved)


def not_minion(encounter: Encounter, creature: Creature) -> None:
    """Refuse a minion: minions never regain Stamina nor gain temporary Stamina (Monsters, "Minions")."""
    if creature.squad_id is not None:
        squad = encounter.squad(creature.squad_id)
        assert squad is not None
        refuse_healing(squad)


def heal(encounter: Encounter, name: str, amount: int) -> tuple[Encounter, Healing]:
    """Regain `amount` Stamina, never above the maximum (`bot.rules.stamina.heal`); minions can't."""
    check_amount(amount, "Stamina to regain")
    creature = target(encounter, name)
    not_minion(encounter, creature)
    return change_vitals(encounter, creature, st.heal(creature.vitals, amount))


def wake(encounter: Encounter, name: str) -> tuple[Encounter, Healing]:
    """A knocked-out creature wakes after an hour nobody woke it (Draw Steel, Combat, "Knocking Creatures
    Out": a Director creature gains 1 Stamina; a hero spends a Recovery, and can't without one:
    `bot.rules.stamina.wake`)."""
    creature = target(encounter, name)
    not_minion(encounter, creature)
    return change_vitals(encounter, creature, st.wake(creature.vitals))


def give_temporary(encounter: Encounter, name: str, amount: int) -> tuple[Encounter, Healing]:
    """Gain temporary Stamina: the greater of old and new, never the sum
    (`bot.rules.stamina.gain_temporary`)."""
    check_amount(amount, "temporary Stamina")
    creature = target(encounter, name)
    not_minion(encounter, creature)
    if creature.vitals.dead:
        raise HarmError(f"{creature.id} is dead: a dead creature can't gain temporary Stamina.")
    return change_vitals(encounter, creature, st.gain_temporary(creature.vitals, amount))


def set_stamina(encounter: Encounter, name: str, amount: int) -> tuple[Encounter, Healing]:
    """The Director's correction: set a creature's Stamina to `amount` (0 to its maximum).

    Not a rule but a fix for a mistake at the table: it clears `slain`, and a creature set above 0 is no
    longer knocked out, so setting a dead creature's Stamina brings it back. Minions' Stamina is their squad's
    pool: damage them instead.
    """
    creature = target(encounter, name)
    if creature.squad_id is not None:
        raise HarmError(
            f"{creature.id} is a minion: its squad shares one Stamina pool, so use /stamina damage instead."
        )
    vitals = creature.vitals
    if amount < 0:
        raise HarmError(f"Stamina to set can't be negative: type a number from 0 to {vitals.max_stamina}.")
    if amount > vitals.max_stamina:
        raise HarmError(
            f"{creature.id}'s Stamina maximum is {vitals.max_stamina}: type a number from 0 to "
            f"{vitals.max_stamina}."
        )
    after = dataclasses.replace(
        vitals, stamina=amount, slain=False, knocked_out=vitals.knocked_out and amount <= 0
    )
    return change_vitals(encounter, creature, after)


def catch_breath(encounter: Encounter, name: str) -> tuple[Encounter, Healing]:
    """Catch Breath: a hero spends a Recovery to regain their recovery value (Draw Steel, Combat, "Catch
    Breath"; The Basics, "Recoveries"; `bot.rules.stamina.catch_breath`: not while dying, not for Director
    creatures, nor without Recoveries). It is a maneuver (Draw Steel, Combat, "Maneuvers"): on the hero's own
    turn it uses one, and with the action economy enforced it is refused off their turn in a round."""
    creature = target(encounter, name)
    if creature.vitals.dead:
        raise HarmError(f"{creature.id} is dead: a dead hero can't Catch Breath.")
    if creature.vitals.knocked_out:
        raise HarmError(
            f"{creature.id} is unconscious and can't use maneuvers: an ally can help them spend a Recovery."
        )
    kind = maneuver_kind(encounter.turns.mode)  # "Catch Breath"; an action in games without maneuvers
    encounter = use_on_turn(encounter, creature.id, kind, needs_turn=True)
    return change_vitals(encounter, creature, st.catch_breath(creature.vitals))
