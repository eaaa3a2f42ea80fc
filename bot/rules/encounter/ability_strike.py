"""A strike by ability (`/strike ability:`): the ability card read for its striker, the strike made, and each
target's tier effects applied. The abilities a creature may use are `bot.rules.encounter.abilities`'.

Rules, each cited where it is applied: Draw Steel, The Basics and Combat, "Power Rolls", "Natural Roll",
"Heroic Resources", "Forced Movement", "Charge", "Downgrade a Power Roll"; Heroes ch. 5 "Bleeding", ch. 7
"Critical Hit", "Potency"; Monsters, "Malice", "Villain Actions".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.ability import Ability, ActionType
from bot.rules.characteristics import Characteristic, Characteristics
from bot.rules.conditions import BleedingTrigger, ConditionInstance, Duration, roll_trigger
from bot.rules.creature import Creature
from bot.rules.damage import (
    POTENCY_SURGES,
    DamageType,
    PotencyCheck,
    TierDamage,
    TieredDamage,
    potency_lands,
    raised_potency,
)
from bot.rules.dice import Dice
from bot.rules.encounter import harm, heroic
from bot.rules.encounter.abilities import charge_strike, find_ability
from bot.rules.encounter.bleeding import strike_trigger
from bot.rules.encounter.model import Encounter
from bot.rules.encounter.objectives import use_villain_action
from bot.rules.errors import RuleError
from bot.rules.forced import ForcedMovement, forced_distance, size_bonus
from bot.rules.kit import KitDamageBonus
from bot.rules.power import PowerRoll, RollAction
from bot.rules.resources import spend_malice
from bot.rules.situations import Situation
from bot.rules.standard import is_charge, is_free_strike
from bot.rules.tiers import ConditionEffect, TierEffect, parse_tier


class AbilityStrikeError(harm.HarmError):
    """A strike by ability the rules refuse."""


# --- the card read for its striker -----------------------------------------------------------------------
_ACTIONS = {
    ActionType.MAIN: RollAction.MAIN,
    ActionType.MANEUVER: RollAction.MANEUVER,
    ActionType.TRIGGERED: RollAction.TRIGGERED,
    ActionType.FREE_TRIGGERED: RollAction.TRIGGERED,
}


def action_of(ability: Ability) -> RollAction:
    """What the ability's roll is made as: main -> main, maneuver -> maneuver, triggered and free triggered ->
    triggered, the free strike -> free strike; any other action type costs no action of the turn and is made
    as triggered. Only a main action's natural 19 or 20 is a critical (Draw Steel, The Basics, "Natural
    Roll"; Heroes ch. 7 "Critical Hit")."""
    if is_free_strike(ability):
        return RollAction.FREE_STRIKE
    return _ACTIONS.get(ability.action, RollAction.TRIGGERED)


def _kit_tiers(ability: Ability, bonuses: Sequence[KitDamageBonus]) -> tuple[int, int, int] | None:
    """The kit damage bonus per tier for this ability: the best that applies on each tier, or None."""
    applying = [b.tiers for b in bonuses if b.applies_to(ability.keywords)]
    if not applying:
        return None
    best = tuple(max(t[i] for t in applying) for i in range(3))
    return (best[0], best[1], best[2])


@dataclass(frozen=True, slots=True)
class AbilityPlan:
    """An ability read for one striker: the characteristic the roll adds (None: none listed) and the roll's
    bonus (that score plus the stated bonus), what the roll is made as, each tier read, the damage per tier
    (kit and card bonuses included; None when no tier deals damage), the kit bonus added (None: none
    applies), whether the damage is area damage and the strike a melee one, and the card's own damage bonus
    added to each damaging tier (`Ability.damage_bonus`)."""

    ability: Ability
    characteristic: Characteristic | None
    roll_bonus: int
    action: RollAction
    tiers: tuple[TierEffect, TierEffect, TierEffect]
    damage: TieredDamage | None
    kit: tuple[int, int, int] | None
    area: bool
    melee: bool
    bonus: int = 0


def plan_ability(
    ability: Ability, scores: Characteristics, kit_bonuses: Sequence[KitDamageBonus] = ()
) -> AbilityPlan:
    """Read `ability` for a striker with `scores` and these kit bonuses (Draw Steel, The Basics and Combat,
    "Power Rolls"); refuses one with no power roll. The roll is 2d10 plus the highest of the card's
    characteristics plus its stated bonus (a monster's card writes `2d10 + 2`). Each tier's damage is its
    text's (`bot.rules.tiers.parse_tier`), letters read from `scores` ("3 + M or A damage": the highest of
    them), plus the kit damage bonus for Melee or Ranged Weapon abilities (the best one per tier when several
    apply: "the better one always applies") and the card's own damage bonuses; the Area keyword makes damage
    to minions area damage (capped per minion). The damage type is the first damaging tier's (a card names one
    type for its damage)."""
    spec = ability.power_roll
    if spec is None:
        raise AbilityStrikeError(
            f"{ability.name} has no power roll: apply its effect by hand (/condition, /stamina, /move)."
        )
    characteristic = max(spec.characteristics, key=scores.get, default=None)
    score = scores.get(characteristic) if characteristic is not None else 0
    tiers = (parse_tier(spec.tiers[0]), parse_tier(spec.tiers[1]), parse_tier(spec.tiers[2]))
    damages = [t.damage for t in tiers]
    kit = _kit_tiers(ability, kit_bonuses) if any(damages) else None
    damage: TieredDamage | None = None
    if any(damages):
        parts = [
            TierDamage(0)
            if d is None
            else TierDamage(
                d.amount(scores) + (kit[i] if kit is not None else 0) + ability.damage_bonus, dice=d.dice
            )
            for i, d in enumerate(damages)
        ]
        dtype = next(d.dtype for d in damages if d is not None)
        damage = TieredDamage((parts[0], parts[1], parts[2]), dtype)
    return AbilityPlan(
        ability=ability,
        characteristic=characteristic,
        roll_bonus=score + spec.bonus,
        action=action_of(ability),
        tiers=tiers,
        damage=damage,
        kit=kit,
        area=ability.has_keyword("area"),
        melee=ability.has_keyword("melee") and not ability.has_keyword("ranged"),
        bonus=ability.damage_bonus if damage is not None else 0,
    )


def bleeding_trigger(
    ability: Ability, characteristic: Characteristic | None, made_as: RollAction | None = None
) -> BleedingTrigger | None:
    """What makes a bleeding striker lose Stamina after this ability (Heroes ch. 5 "Bleeding"): a main action
    (the free strike is one) or a triggered action (`made_as`, else the card's action type), else an ability
    roll using Might or Agility. A card whose action costs none of these (a free maneuver, a villain action)
    counts only by its characteristic."""
    if made_as is None and (ability.action in _ACTIONS or is_free_strike(ability)):
        made_as = action_of(ability)
    found = strike_trigger(made_as) if made_as is not None else None
    return found or roll_trigger(characteristic.value if characteristic is not None else None, test=False)


# --- the cost --------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Paid:
    """An ability's cost spent: `what` ("Malice", or the hero's heroic resource: "Ferocity"), the cost, and
    the value left."""

    what: str
    cost: int
    left: int


def pay_cost(
    encounter: Encounter, striker: Creature, ability: Ability, resource_name: str = "heroic resource"
) -> tuple[Encounter, Paid | None]:
    """Spend the ability's cost (Draw Steel, The Basics, "Heroic Resources"; Monsters, "Malice"): a hero's
    heroic resource named `resource_name` (`bot.rules.encounter.heroic.spend`, the one way a hero spends it),
    a Director creature's Malice (`spend_malice`); refused in one line when there isn't enough. A cost of 0
    is free."""
    cost = ability.cost
    if cost <= 0:
        return encounter, None
    try:
        if striker.is_hero:
            updated, _, left = heroic.spend(encounter, striker.id, cost, resource_name=resource_name)
            return updated, Paid(resource_name, cost, left)
        malice = spend_malice(encounter.malice, cost)
    except RuleError:
        what = resource_name if striker.is_hero else "Malice"
        have = encounter.resources.get(striker.id, 0) if striker.is_hero else encounter.malice.value
        raise AbilityStrikeError(
            f"{ability.name} costs {cost} {what} and {'the Director' if not striker.is_hero else striker.id} "
            f"has {have}: gain more first, or pick another ability."
        ) from None
    return dataclasses.replace(encounter, malice=malice), Paid("Malice", cost, malice.value)


# --- per-target effects ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Landed:
    """One condition effect on one target: its potency check (None: no potency, it always lands) and the
    conditions now in force from it (empty when resisted, or already held for as long)."""

    effect: ConditionEffect
    check: PotencyCheck | None
    added: tuple[ConditionInstance, ...] = ()

    @property
    def lands(self) -> bool:
        return self.check is None or self.check.lands


@dataclass(frozen=True, slots=True)
class Moved:
    """Forced movement on one target: the card's movement, the target's stability, the squares left, and the
    squares added because a larger striker moved a smaller target with a melee weapon ability (1 or 0: the
    card's Melee and Weapon keywords, or Weapon with `melee:true`); the distance shown is after the target's
    stability (`bot.rules.forced.forced_distance`, `size_bonus`). Draw Steel, Combat, "Forced Movement",
    "BIG VERSUS LITTLE", "STABILITY"."""

    movement: ForcedMovement
    stability: int
    squares: int
    larger: int = 0


@dataclass(frozen=True, slots=True)
class TargetEffects:
    """A target's tier effects after the damage: conditions, forced movement, the text shown verbatim; none
    when the damage killed it (`dead`)."""

    target: str
    tier: int
    conditions: tuple[Landed, ...] = ()
    forced: tuple[Moved, ...] = ()
    rest: tuple[str, ...] = ()
    dead: bool = False


@dataclass(frozen=True, slots=True)
class AbilityStrike:
    """A strike by ability: the plan, the strike (`harm.StrikeResult`), each target's effects, the cost paid,
    the target whose potency 2 surges raised, what makes a bleeding striker lose Stamina, and whether it
    was a Charge (the plan is then the melee free strike's)."""

    plan: AbilityPlan
    strike: harm.StrikeResult
    effects: tuple[TargetEffects, ...]
    paid: Paid | None = None
    potency_raised: str | None = None
    bleeding: BleedingTrigger | None = None
    charged: bool = False

    @property
    def villain(self) -> bool:
        """A villain action (marked used by the strike)."""
        return self.plan.ability.action is ActionType.VILLAIN


@dataclass(frozen=True, slots=True)
class StrikeOptions:
    """The /strike options beside `ability`: `damage` and `dtype` replace the card's damage and type; `surges`
    add damage to the first target; `raise_potency` spends 2 surges to raise the potency against the first
    target; `action` replaces what the roll is made as; `melee` and `area` add to the card's keywords;
    `knock_out`, `halved` and `situations` as for any strike (`harm.strike`); `downgrade`: take at most that
    tier's outcome against each target (Draw Steel, The Basics, "Downgrade a Power Roll")."""

    damage: TieredDamage | None = None
    dtype: DamageType | None = None
    surges: int = 0
    raise_potency: bool = False
    action: RollAction | None = None
    melee: bool = False
    area: bool = False
    knock_out: bool = False
    halved: bool = False
    situations: tuple[Situation, ...] = ()
    downgrade: int | None = None


def _fallen(encounter: Encounter, creature_id: str) -> bool:
    creature = encounter.creature(creature_id)
    if creature.squad_id is not None:
        squad = encounter.squad(creature.squad_id)
        return squad is None or creature_id not in squad.alive
    return creature.vitals.dead


def _apply_effects(
    encounter: Encounter,
    striker: Creature,
    tier_effect: TierEffect,
    target_id: str,
    tier: int,
    potency_surges: int,
    melee_weapon: bool,
) -> tuple[Encounter, TargetEffects]:
    if _fallen(encounter, target_id):
        return encounter, TargetEffects(target_id, tier, dead=True)
    target = encounter.creature(target_id)
    landed: list[Landed] = []
    for effect in tier_effect.effects:
        check = None
        if effect.potency is not None:
            potency = raised_potency(effect.potency.potency(striker.characteristics), potency_surges)
            check = potency_lands(target.characteristics.get(effect.potency.characteristic), potency)
        added: list[ConditionInstance] = []
        if check is None or check.lands:
            for condition in effect.conditions:
                duration = effect.duration if effect.duration is not None else Duration.UNTIL_REMOVED
                encounter, instance = harm.add_condition(
                    encounter, target_id, condition, duration, source=striker.id
                )
                if instance is not None:
                    added.append(instance)
        landed.append(Landed(effect, check, tuple(added)))
    larger = size_bonus(striker.size, target.size, melee_weapon)
    moved = tuple(
        Moved(
            m,
            target.stability,
            forced_distance(
                m.distance,
                target.stability,
                mover_size=striker.size,
                target_size=target.size,
                melee_weapon=melee_weapon,
            ),
            larger,
        )
        for m in tier_effect.forced
    )
    return encounter, TargetEffects(target_id, tier, tuple(landed), moved, tier_effect.rest)


def strike_with(
    encounter: Encounter,
    roll: PowerRoll,
    attacker: str,
    ability_name: str,
    targets: Sequence[str],
    options: StrikeOptions = StrikeOptions(),
    *,
    resource_name: str = "heroic resource",
    dice: Dice | None = None,
) -> tuple[Encounter, AbilityStrike]:
    """Strike `targets` with the attacker's ability named `ability_name` (their own or a standard one):
    `roll` is the dice with the options' bonus, edges and banes; the ability's bonus is added here. The cost
    is paid, the strike made (`harm.strike`), then each target living after the damage gets its tier's
    conditions, forced movement and text. A potency effect lands when the target's characteristic is lower
    than the potency (Heroes ch. 7 "Potency"); 2 surges raise it by 1 against one target (`raise_potency`);
    a condition the card gives no duration (grabbed, prone) lasts until removed. `resource_name` is what a
    hero's heroic resource is called (their sheet's: "Ferocity"); `dice` roll a tier's damage dice
    ("2d6 + 7 + A damage")."""
    striker = harm.target(encounter, attacker)
    encounter, ability, charged = _card(encounter, striker, ability_name)
    plan = plan_ability(ability, striker.characteristics, striker.kit_bonuses)
    potency_surges = _potency_surges(encounter, striker.id, plan, options)
    paid_encounter, paid = pay_cost(encounter, striker, ability, resource_name)
    updated, result = harm.strike(
        paid_encounter,
        dataclasses.replace(roll, bonus=roll.bonus + plan.roll_bonus),
        striker.id,
        targets,
        _strike_damage(plan, options),
        options.dtype if options.damage is not None else None,
        options.surges,
        melee=plan.melee or options.melee or charged,
        knock_out=options.knock_out,
        action=options.action if options.action is not None else plan.action,
        situations=options.situations,
        area=plan.area or options.area,
        halved=options.halved,
        dice=dice,
        downgrade=options.downgrade,
    )
    melee_weapon = (plan.melee or options.melee or charged) and ability.has_keyword("weapon")
    effects: list[TargetEffects] = []
    for index, hit in enumerate(result.targets):
        raised = potency_surges if index == 0 else 0
        tier = plan.tiers[hit.tier - 1]
        updated, one = _apply_effects(updated, striker, tier, hit.target, hit.tier, raised, melee_weapon)
        effects.append(one)
    if potency_surges:
        updated = harm.spend_surges(updated, striker.id, potency_surges)
    return updated, AbilityStrike(
        plan,
        result,
        tuple(effects),
        paid,
        result.targets[0].target if potency_surges else None,
        bleeding_trigger(ability, plan.characteristic, options.action),
        charged,
    )


def _card(encounter: Encounter, striker: Creature, name: str) -> tuple[Encounter, Ability, bool]:
    """The card the strike uses and whether it is a Charge: a Charge strikes with the striker's melee free
    strike (Draw Steel, Combat, "Charge": the move before it is the player's to narrate); a villain action is
    marked used (Monsters, "Villain Actions": each once per encounter, one a round;
    `bot.rules.encounter.objectives.use_villain_action`), refused when it was."""
    ability = find_ability(striker, name)
    if is_charge(ability):
        return encounter, charge_strike(striker), True
    if ability.action is ActionType.VILLAIN:
        if ability.power_roll is None:
            raise AbilityStrikeError(
                f"{ability.name} has no power roll: apply its effect by hand and mark it used with "
                "/encounter villain use."
            )
        encounter, _ = use_villain_action(encounter, striker, ability.name)
    return encounter, ability, False


def _potency_surges(encounter: Encounter, striker: str, plan: AbilityPlan, options: StrikeOptions) -> int:
    """The surges `raise_potency` spends (`POTENCY_SURGES`, or 0); refused when the striker hasn't them
    besides the surges for damage, or the card has no potency to raise."""
    if not options.raise_potency:
        return 0
    have = encounter.surges.get(striker, 0)
    if options.surges + POTENCY_SURGES > have:
        raise AbilityStrikeError(
            f"{striker} has {have} surge(s): raising potency takes {POTENCY_SURGES}"
            + (f" besides the {options.surges} for damage." if options.surges else ".")
        )
    if not any(e.potency is not None for t in plan.tiers for e in t.effects):
        raise AbilityStrikeError(f"{plan.ability.name} has no potency to raise: leave raise_potency out.")
    return POTENCY_SURGES


def _strike_damage(plan: AbilityPlan, options: StrikeOptions) -> TieredDamage | None:
    """The damage the strike deals: the options' damage, else the card's, typed by the options' type."""
    if options.damage is not None:
        return options.damage
    if plan.damage is not None and options.dtype is not None:
        return dataclasses.replace(plan.damage, dtype=options.dtype)
    return plan.damage
