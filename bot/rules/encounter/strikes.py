"""Strikes on the encounter aggregate: one power roll against several targets, each with its own edges and
banes and tier damage, what the strike uses of the striker's turn, and the surges that add to it.

Rules, each cited where it is applied: Draw Steel, The Basics, "Power Rolls", "Natural Roll", "Critical
Hit", "Spending Hero Tokens"; Draw Steel, Combat, "Determine Surprise", "Taking a Turn"; Heroes ch. 7
"Surges"; Monsters, "Minions".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.characteristics import Characteristics
from bot.rules.creature import Creature
from bot.rules.damage import DamageType, RolledDamage, TieredDamage, surge_damage
from bot.rules.dice import Dice
from bot.rules.encounter import baseline
from bot.rules.encounter.model import Encounter
from bot.rules.encounter.stamina_changes import Hit, hit_creature, hit_squad
from bot.rules.encounter.sync import HarmError, living_minion, target, use_on_turn
from bot.rules.power import PowerRoll, RollAction, capped
from bot.rules.situations import RollUse, Situation, situation_modifiers
from bot.rules.turns import ActionKind, main_kind, maneuver_kind, power_roll_modifiers

STRIKE_TARGETS_MAX = 10
"""Most targets one strike names (a reply stays readable)."""
TOKEN_SURGES = 2
"""Surges one hero token buys (Draw Steel, The Basics, "Spending Hero Tokens": "spend a hero token to gain 2
surges")."""
SURGES_MAX = 99
"""Most surges one `gain_surges` call gives (a bound, not a rule)."""


@dataclass(frozen=True, slots=True)
class StrikeTarget:
    """One target of a strike: its own roll (the same dice with its edges and banes), its tier, the damage
    the tier gives (plus surges), the tier's damage dice as rolled (None: flat damage) and the hit (None when
    the strike deals no damage). A minion's `pool` is its squad: the damage of all the squad's minions a
    strike hits is one hit on the first of them."""

    target: str
    roll: PowerRoll
    edges: int
    banes: int
    amount: int = 0
    surge_bonus: int = 0
    hit: Hit | None = None
    reasons: tuple[str, ...] = ()
    """Why this target's edges and banes differ from the roll's, when the baseline actions changed them
    (`bot.rules.encounter.baseline`: "Goblin 1 is defending", "aided by Bree")."""
    pool: str | None = None
    rolled: RolledDamage | None = None

    @property
    def tier(self) -> int:
        return self.roll.tier


@dataclass(frozen=True, slots=True)
class StrikeResult:
    """A strike: the attacker, the roll as made (the command's edges and banes, the named situations'
    included), each target, surges spent, and the situations named (`bot.rules.situations`)."""

    attacker: str
    roll: PowerRoll
    targets: tuple[StrikeTarget, ...]
    damage: TieredDamage | None
    surges: int = 0
    situations: tuple[Situation, ...] = ()


def _strike_targets(encounter: Encounter, names: Sequence[str]) -> tuple[Creature, ...]:
    cleaned = [" ".join(n.split()) for n in names if n.strip()]
    if not cleaned:
        raise HarmError("Name at least one target, e.g. targets: Goblin 1, Goblin 2.")
    if len(cleaned) > STRIKE_TARGETS_MAX:
        raise HarmError(f"A strike can name at most {STRIKE_TARGETS_MAX} targets: split it into several.")
    creatures = tuple(target(encounter, n) for n in cleaned)
    seen: set[str] = set()
    for creature in creatures:
        if creature.id in seen:
            raise HarmError(f"{creature.id} is named twice: name each target once.")
        seen.add(creature.id)
        if creature.squad_id is not None:
            living_minion(encounter, creature)
        elif creature.vitals.dead:
            raise HarmError(f"{creature.id} is dead already: pick living targets.")
    return creatures


def strike(
    encounter: Encounter,
    roll: PowerRoll,
    attacker: str,
    targets: Sequence[str],
    tiered: TieredDamage | None = None,
    dtype: DamageType | None = None,
    surges: int = 0,
    *,
    melee: bool = False,
    knock_out: bool = False,
    action: RollAction = RollAction.MAIN,
    situations: Sequence[Situation] = (),
    area: bool = False,
    halved: bool = False,
    dice: Dice | None = None,
    downgrade: int | None = None,
) -> tuple[Encounter, StrikeResult]:
    """An ability roll against `targets` (Draw Steel, The Basics, "Power Rolls"): one `roll` (its edges and
    banes are the ability's own), each target evaluated with its own extra edges and banes from the encounter
    (surprised, conditions: `power_roll_modifiers`) and dealt its tier's damage, letters read from the
    attacker's characteristics; `surges` are spent from the attacker's surges on the first target; `melee`
    counts for the conditions that care (a melee strike against a prone target gains an edge); `knock_out`
    knocks out instead of killing ("Knocking Creatures Out"); `area`: area damage, capped per minion hit
    (otherwise the damage to several minions of one squad goes to its pool in full); `halved`: each target's
    damage is halved, before weakness and immunity. `action` is what the strike is made as (a
    critical needs a main action; see `_strike_cost`); `situations` are named by the table and add their
    edges and banes to the roll (`bot.rules.situations`); Defend and Aid Attack add theirs per target
    (`bot.rules.encounter.baseline`), and the aids used are spent. A tier whose damage rolls dice ("2d6+3")
    rolls them with `dice` (`_tier_dice`). `downgrade`: the striker takes at most that tier's outcome against
    each target (Draw Steel, The Basics, "Downgrade a Power Roll"; a critical keeps its extra action)."""
    striker = _able_striker(encounter, attacker)
    creatures = _strike_targets(encounter, targets)
    roll = _roll_as_made(
        roll, action, situations, RollUse(strike=True, melee=melee, damaging=tiered is not None)
    )
    cost = _strike_cost(encounter, action)
    if cost is not None:
        # a critical hit gives an extra main action (Draw Steel, The Basics, "Critical Hit"): it is given back
        encounter = use_on_turn(encounter, striker.id, cost, given_back=roll.critical)
    kind = _damage_kind(tiered, dtype)
    bonus = _surge_bonus(encounter, striker, surges, tiered)
    ids = tuple(c.id for c in creatures)
    results = [_aimed(encounter, striker.id, creature, roll, melee, ids, downgrade) for creature in creatures]
    updated = encounter
    if tiered is not None:
        results = _with_damage(results, creatures, tiered, striker.characteristics, bonus, dice)
        updated, results = _apply_strike_damage(encounter, results, kind, area, halved, knock_out)
    if surges:
        updated = spend_surges(updated, striker.id, surges)
    updated = baseline.rolled(updated, striker.id, ids)
    return updated, StrikeResult(striker.id, roll, tuple(results), tiered, surges, tuple(situations))


def _able_striker(encounter: Encounter, attacker: str) -> Creature:
    """The striker, refused when dead (a minion: no longer alive in its squad) or unconscious."""
    striker = target(encounter, attacker)
    squad = encounter.squad(striker.squad_id) if striker.squad_id is not None else None
    if (striker.vitals.dead and squad is None) or (squad is not None and striker.id not in squad.alive):
        raise HarmError(f"{striker.id} is dead and can't strike.")
    if striker.vitals.knocked_out:
        raise HarmError(f"{striker.id} is unconscious and can't take main actions: wake them first.")
    return striker


def _roll_as_made(
    roll: PowerRoll, action: RollAction, situations: Sequence[Situation], use: RollUse
) -> PowerRoll:
    """The roll as made: what the strike is made as (a critical needs a main action: Draw Steel, The Basics,
    "Natural Roll"; a critical hit gives an extra main action, "Critical Hit") and the edges and banes of the
    situations named (`bot.rules.situations`)."""
    roll = dataclasses.replace(roll, main_action=action.main_action)
    situation_edges, situation_banes = situation_modifiers(situations, use)
    return roll.with_target(roll.edges + situation_edges, roll.banes + situation_banes)


def _damage_kind(tiered: TieredDamage | None, dtype: DamageType | None) -> DamageType:
    """The strike's damage type: the one given, else the damage's own; refused when they disagree."""
    if tiered is not None and dtype is not None and tiered.dtype not in (DamageType.UNTYPED, dtype):
        raise HarmError(
            f"The damage says {tiered.dtype.value} but the type says {dtype.value}: give the type once."
        )
    return dtype if dtype is not None else (tiered.dtype if tiered is not None else DamageType.UNTYPED)


def _surge_bonus(encounter: Encounter, striker: Creature, surges: int, tiered: TieredDamage | None) -> int:
    """The damage `surges` add to the first target (`surge_damage`); refused without damage to add to, or
    when the striker has fewer surges. Heroes ch. 7 "Surges": each surge spent adds the striker's highest
    characteristic to ONE target's damage; a strike spends them on its first target that takes damage."""
    bonus = surge_damage(surges, striker.characteristics)  # refuses fewer than 0 or more than 3
    if surges:
        if tiered is None:
            raise HarmError("Surges add damage: give the damage too, e.g. damage: 3/6/9.")
        have = encounter.surges.get(striker.id, 0)
        if surges > have:
            raise HarmError(f"{striker.id} has {have} surge(s): spend at most {have}.")
    return bonus


def _aimed(
    encounter: Encounter,
    striker: str,
    creature: Creature,
    roll: PowerRoll,
    melee: bool,
    ids: tuple[str, ...],
    downgrade: int | None = None,
) -> StrikeTarget:
    """One target's own roll, before damage: the roll with the edges and banes the conditions give against it
    (`power_roll_modifiers`) and those of Defend and Aid Attack (`baseline.roll_modifiers`), downgraded to
    at most `downgrade` (`capped`). Draw Steel, The Basics, "Power Rolls": one roll, each target its own edges
    and banes (`PowerRoll.with_target`); Draw Steel, Combat, "Determine Surprise": an ability roll against a
    surprised creature gains an edge."""
    edges, banes = power_roll_modifiers(
        encounter.turns,
        striker,
        creature.id,
        is_ability_roll=True,
        is_strike=True,
        is_melee=melee,
        ability_targets=ids,
    )
    aided = baseline.roll_modifiers(encounter, striker, creature.id)
    edges += sum(m.edges for m in aided)
    banes += sum(m.banes for m in aided)
    own = capped(roll.with_target(roll.edges + edges, roll.banes + banes), downgrade)
    return StrikeTarget(creature.id, own, own.edges, own.banes, reasons=tuple(m.reason for m in aided))


def _with_damage(
    aimed: Sequence[StrikeTarget],
    creatures: Sequence[Creature],
    tiered: TieredDamage,
    scores: Characteristics,
    bonus: int,
    dice: Dice | None,
) -> list[StrikeTarget]:
    """Each target's damage at its tier (its dice rolled once a strike: `_tier_dice`), the surges' `bonus`
    added to the first target's; a minion's `pool` is its squad."""
    rolls: dict[int, RolledDamage | None] = {}
    damaged: list[StrikeTarget] = []
    for index, (aim, creature) in enumerate(zip(aimed, creatures, strict=True)):
        extra = bonus if index == 0 else 0
        rolled = _tier_dice(tiered, aim.tier, scores, dice, rolls)
        amount = (tiered.amount(aim.tier, scores) if rolled is None else rolled.total) + extra
        damaged.append(
            dataclasses.replace(aim, amount=amount, surge_bonus=extra, pool=creature.squad_id, rolled=rolled)
        )
    return damaged


def _tier_dice(
    tiered: TieredDamage,
    tier: int,
    scores: Characteristics,
    dice: Dice | None,
    rolls: dict[int, RolledDamage | None],
) -> RolledDamage | None:
    """A tier's damage dice, rolled once a strike: like its one power roll (Draw Steel, The Basics, "Power
    Rolls"), every target the strike reaches at that tier takes the same roll. The dice are rolled with the
    injected `Dice`, the flat part added (`bot.rules.damage.RolledDamage`): the total is the damage before
    surges, halving, weakness and immunity. None for a tier of flat damage."""
    if tier not in rolls:
        if tiered.tiers[tier - 1].dice is not None and dice is None:
            raise ValueError("a strike whose damage rolls dice needs the dice to roll them")
        rolls[tier] = tiered.roll(tier, scores, dice) if dice is not None else None
    return rolls[tier]


def _strike_cost(encounter: Encounter, action: RollAction) -> ActionKind | None:
    """What a strike uses of the striker's own turn (Draw Steel, Combat, "Taking a Turn"): a main action
    (also a free strike on one's turn: "Every creature can use a free strike ability as a main action on
    their turn"), or a maneuver; a triggered action is the turn engine's once-a-round budget, not tracked
    here."""
    mode = encounter.turns.mode
    return {
        RollAction.MAIN: main_kind(mode),
        RollAction.FREE_STRIKE: main_kind(mode),
        RollAction.MANEUVER: maneuver_kind(mode),
        RollAction.TRIGGERED: None,
    }[action]


def _apply_strike_damage(
    encounter: Encounter,
    results: Sequence[StrikeTarget],
    dtype: DamageType,
    area: bool,
    halved: bool,
    knock_out: bool,
) -> tuple[Encounter, list[StrikeTarget]]:
    """Each target takes its damage in order; the minions of one squad take theirs together, as one effect
    on the squad's pool (weakness and immunity once: `hit_squad`; Monsters, "Minions"), reported on the first
    of them."""
    updated = encounter
    done: list[StrikeTarget] = []
    pooled: set[str] = set()
    for result in results:
        if result.pool is None:
            creature = updated.creature(result.target)
            updated, hit = hit_creature(updated, creature, result.amount, dtype, knock_out, halved)
            done.append(dataclasses.replace(result, hit=hit))
        elif result.pool in pooled:
            done.append(result)
        else:
            pooled.add(result.pool)
            squad = updated.squad(result.pool)
            assert squad is not None  # `_strike_targets` checked every minion is alive in its squad
            hits = [(r.target, r.amount) for r in results if r.pool == result.pool]
            updated, hit = hit_squad(updated, squad, hits, dtype, area, halved)
            done.append(dataclasses.replace(result, hit=hit))
    return updated, done


def gain_surges(encounter: Encounter, name: str, count: int = TOKEN_SURGES) -> tuple[Encounter, int]:
    """A creature gains `count` surges (a hero token buys `TOKEN_SURGES`: Draw Steel, The Basics, "Spending
    Hero Tokens"); returns the new encounter and the creature's surges now. Surges end with the encounter
    (`flow.finish`)."""
    if not 1 <= count <= SURGES_MAX:
        raise HarmError(f"Gain from 1 to {SURGES_MAX} surges at a time.")
    creature = target(encounter, name)
    if creature.vitals.dead:
        raise HarmError(f"{creature.id} is dead: a dead creature can't gain surges.")
    total = encounter.surges.get(creature.id, 0) + count
    return dataclasses.replace(encounter, surges={**encounter.surges, creature.id: total}), total


def spend_surges(encounter: Encounter, creature_id: str, count: int) -> Encounter:
    """The creature spends `count` of its surges (the caller checked it has them); none left drops its
    entry."""
    left = encounter.surges.get(creature_id, 0) - count
    rest = {k: v for k, v in encounter.surges.items() if k != creature_id}
    return dataclasses.replace(encounter, surges={**rest, creature_id: left} if left else rest)
