"""Harm and help on the encounter aggregate: damage, healing, temporary Stamina, a Director's Stamina
correction, Catch Breath, strikes, conditions, saving throws and Malice.

Every function is pure over `Encounter` (returns a new one, or raises a `RuleError` and changes nothing) and
keeps the turn engine's entry flags in step with Stamina: a creature that dies gets `dead`, one knocked out
`unconscious`, a minion squad whose minions all died `dead` (`bot.rules.turns.set_flags`); healing or a
correction that brings one back clears them.

Rules (texts in ../shared/rules/):
- draw-steel-combat.txt "Damage", "DAMAGE IMMUNITY", "DAMAGE WEAKNESS", "Temporary Stamina", "Stamina",
  "Winded", "Dying and Death", "Knocking Creatures Out" — through `bot.rules.creature.take_damage` /
  `bot.rules.damage.apply_damage` (the one pipeline) and `bot.rules.stamina`.
- draw-steel-combat.txt "Catch Breath", draw-steel-basics.md "Recoveries" — `bot.rules.stamina.catch_breath`.
- draw-steel-basics.md "Power Rolls" (one roll, each target its own edges and banes: `PowerRoll.with_target`),
  "Natural Roll" (a critical on a main action); draw-steel-turn-order.txt "Determine Surprise" (an ability
  roll against a surprised creature gains an edge) and the conditions' edges and banes — through
  `bot.rules.turns.power_roll_modifiers`.
- Surges (Heroes ch. 7 as the project brief gives them): each surge spent adds the striker's highest
  characteristic to ONE target's damage (`bot.rules.damage.surge_damage`); a strike spends them on its first
  target that takes damage.
- Minions (Monsters, "Minions"; `bot.rules.squads`): damage to one minion goes to the squad's pool and can
  kill several; when one strike hits several minions of the same squad, each counts at most its own Stamina
  and only those hit die (the squads module's area rule); minions never regain Stamina nor gain temporary
  Stamina.
- Conditions and saving throws — `bot.rules.turns.add_condition`, `remove_condition`, `roll_save` (d10, 6 or
  higher).
- Malice (Monsters, "Malice"; `bot.rules.resources.spend_malice`); gaining Malice outside the start of a round
  (a Director's adjustment, a feature) is `gain_malice` here.

Public API: `Hit`, `StrikeTarget`, `StrikeResult`, `Healing`, `SaveResult`, `target`, `damage`, `heal`,
`wake`, `give_temporary`, `set_stamina`, `catch_breath`, `strike`, `add_condition`, `remove_condition`,
`save`, `gain_surges`, `gain_malice`, `spend_malice`, `HarmError`; `TOKEN_SURGES`; limits
`STRIKE_TARGETS_MAX`, `AMOUNT_MAX`, `MALICE_MAX`, `SURGES_MAX`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules import stamina as st
from bot.rules.conditions import Condition, ConditionInstance, Duration
from bot.rules.creature import Creature, take_damage
from bot.rules.damage import DAMAGE_MAX, DamageType, Step, TieredDamage, surge_damage
from bot.rules.dice import Dice
from bot.rules.encounter import baseline
from bot.rules.encounter.model import Encounter, UnknownCreature, fold
from bot.rules.encounter.rounds import carry_on
from bot.rules.errors import RuleError
from bot.rules.names import clean_name
from bot.rules.power import PowerRoll, RollAction
from bot.rules.resources import Malice
from bot.rules.resources import spend_malice as _spend_malice
from bot.rules.situations import RollUse, Situation, situation_modifiers
from bot.rules.squads import Squad, damage_squad, refuse_healing
from bot.rules.stamina import Vitals
from bot.rules.turns import (
    ActionKind,
    Phase,
    current,
    main_kind,
    maneuver_kind,
    power_roll_modifiers,
    roll_save,
    set_flags,
    use_action,
)
from bot.rules.turns import add_condition as _add_condition
from bot.rules.turns import remove_condition as _remove_condition
from bot.rules.turns.events import ConditionAdded, SaveRolled

STRIKE_TARGETS_MAX = 10
"""Most targets one strike names (a reply stays readable)."""
AMOUNT_MAX = DAMAGE_MAX
"""Largest amount of damage, healing or Stamina one command gives."""
MALICE_MAX = 999
"""Most Malice the Director can hold (a bound, not a rule)."""
TOKEN_SURGES = 2
"""Surges one hero token buys (draw-steel-basics.md "Spending Hero Tokens": "spend a hero token to gain 2
surges")."""
SURGES_MAX = 99
"""Most surges one `gain_surges` call gives (a bound, not a rule)."""
CONDITIONS_MAX = 20
"""Most conditions one creature holds at once (a bound, not a rule: the encounter's saved state must stay
small enough that every later change to it can still be saved)."""


class HarmError(RuleError):
    """A damage, healing, strike or Malice request the rules refuse."""


# --- results ---------------------------------------------------------------------------------------------
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


@dataclass(frozen=True, slots=True)
class StrikeTarget:
    """One target of a strike: its own roll (the same dice with its edges and banes), its tier, the damage
    the tier gives (plus surges), and the hit (None when the strike deals no damage). A minion's `pool` is
    its squad: the damage of all the squad's minions a strike hits is one hit on the first of them."""

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


@dataclass(frozen=True, slots=True)
class Healing:
    """A Stamina change that isn't damage: the creature and its vitals before and after."""

    target: str
    before: Vitals
    after: Vitals


@dataclass(frozen=True, slots=True)
class SaveResult:
    """A saving throw: the creature, the condition's label, the d10 and whether the condition ended."""

    target: str
    label: str
    roll: int
    success: bool


# --- lookups and flags -----------------------------------------------------------------------------------
def target(encounter: Encounter, name: str) -> Creature:
    """The creature named `name` (case-insensitive); a minion squad's name means its first living minion."""
    try:
        return encounter.find(name)
    except UnknownCreature:
        key = fold(name)
        squad = next((s for s in encounter.squads if fold(s.id) == key), None)
        if squad is None:
            raise
        if not squad.alive:
            raise HarmError(f"Every minion of {squad.id} is dead already.") from None
        return encounter.creature(squad.alive[0])


def _living_minion(encounter: Encounter, creature: Creature) -> Squad:
    assert creature.squad_id is not None
    squad = encounter.squad(creature.squad_id)
    if squad is None:  # pragma: no cover - the roster keeps squads and minions together
        raise HarmError(f"{creature.id}'s squad is missing: remove and add the squad again.")
    if creature.id not in squad.alive:
        raise HarmError(f"{creature.id} is dead already: pick a living creature.")
    return squad


def _sync(encounter: Encounter, creature_id: str) -> Encounter:
    """Keep the turn entry's dead / unconscious flags in step with the creature (or its squad); a round that
    ends because of it (nobody left to act) gives way to the next (`rounds.carry_on`)."""
    if encounter.turns.phase is Phase.ENDED:
        return encounter
    creature = encounter.creature(creature_id)
    entry = encounter.entry_of(creature_id)
    if creature.squad_id is not None:
        squad = encounter.squad(creature.squad_id)
        dead = squad is not None and squad.defeated
        unconscious = False
    elif entry.id == creature_id:
        dead, unconscious = creature.vitals.dead, creature.vitals.knocked_out
    else:  # pragma: no cover - only minions share an entry
        return encounter
    if entry.dead == dead and entry.unconscious == unconscious:
        return encounter
    flagged = set_flags(encounter.turns, entry.id, dead=dead, unconscious=unconscious).state
    return carry_on(encounter.with_turns(flagged)).encounter  # the last to act gone: the next round


def _check_amount(amount: int, what: str) -> None:
    if amount < 0:
        raise HarmError(f"The {what} can't be negative: type a number from 0 to {AMOUNT_MAX}.")
    if amount > AMOUNT_MAX:
        raise HarmError(f"The {what} can be at most {AMOUNT_MAX}: type a smaller number.")


# --- damage and healing ----------------------------------------------------------------------------------
def _damage_squad(
    encounter: Encounter,
    squad: Squad,
    hits: Sequence[tuple[str, int]],
    dtype: DamageType,
    area: bool,
    halved: bool = False,
) -> tuple[Encounter, Hit]:
    """One effect's damage to minions of one squad (`bot.rules.squads.damage_squad`: weakness and immunity
    once for the whole squad, the cap per minion only for area damage)."""
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
    updated = _sync(encounter.with_squad(record.after), ids[0])
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


def _damage(
    encounter: Encounter,
    creature: Creature,
    amount: int,
    dtype: DamageType,
    knock_out: bool = False,
    halved: bool = False,
) -> tuple[Encounter, Hit]:
    if creature.squad_id is not None:
        squad = _living_minion(encounter, creature)
        return _damage_squad(encounter, squad, [(creature.id, amount)], dtype, area=False, halved=halved)
    if creature.vitals.dead:
        raise HarmError(f"{creature.id} is dead already: pick a living creature.")
    changed, taken = take_damage(creature, amount, dtype, halved=halved, knock_out_instead=knock_out)
    updated = _sync(encounter.with_creature(changed), creature.id)
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
    Stamina: draw-steel-combat.txt "DAMAGE IMMUNITY": "if an ally first halved the damage ... immunity then
    reducing the damage"; a minion's damage goes to its squad's pool and may kill several minions). With
    `knock_out`, damage that would kill knocks the creature out instead (draw-steel-combat.txt "Knocking
    Creatures Out"; minions have no such choice: their squad's pool decides)."""
    _check_amount(amount, "damage")
    return _damage(encounter, target(encounter, name), amount, dtype, knock_out=knock_out, halved=halved)


def _not_minion(encounter: Encounter, creature: Creature) -> None:
    if creature.squad_id is not None:
        squad = encounter.squad(creature.squad_id)
        assert squad is not None
        refuse_healing(squad)


def _change_vitals(encounter: Encounter, creature: Creature, after: Vitals) -> tuple[Encounter, Healing]:
    updated = _sync(encounter.with_creature(dataclasses.replace(creature, vitals=after)), creature.id)
    return updated, Healing(creature.id, creature.vitals, after)


def heal(encounter: Encounter, name: str, amount: int) -> tuple[Encounter, Healing]:
    """Regain `amount` Stamina, never above the maximum (`bot.rules.stamina.heal`); minions can't."""
    _check_amount(amount, "Stamina to regain")
    creature = target(encounter, name)
    _not_minion(encounter, creature)
    return _change_vitals(encounter, creature, st.heal(creature.vitals, amount))


def wake(encounter: Encounter, name: str) -> tuple[Encounter, Healing]:
    """A knocked-out creature wakes after an hour nobody woke it (draw-steel-combat.txt "Knocking Creatures
    Out": a Director creature gains 1 Stamina; a hero spends a Recovery, and can't without one:
    `bot.rules.stamina.wake`)."""
    creature = target(encounter, name)
    _not_minion(encounter, creature)
    return _change_vitals(encounter, creature, st.wake(creature.vitals))


def give_temporary(encounter: Encounter, name: str, amount: int) -> tuple[Encounter, Healing]:
    """Gain temporary Stamina: the greater of old and new, never the sum
    (`bot.rules.stamina.gain_temporary`)."""
    _check_amount(amount, "temporary Stamina")
    creature = target(encounter, name)
    _not_minion(encounter, creature)
    if creature.vitals.dead:
        raise HarmError(f"{creature.id} is dead: a dead creature can't gain temporary Stamina.")
    return _change_vitals(encounter, creature, st.gain_temporary(creature.vitals, amount))


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
    return _change_vitals(encounter, creature, after)


def catch_breath(encounter: Encounter, name: str) -> tuple[Encounter, Healing]:
    """Catch Breath: a hero spends a Recovery to regain their recovery value
    (`bot.rules.stamina.catch_breath`: not while dying, not for Director creatures, nor without
    Recoveries). It is a maneuver (draw-steel-combat.txt "Maneuvers"): on the hero's own turn it uses one, and
    with the action economy enforced it is refused off their turn in a round."""
    creature = target(encounter, name)
    if creature.vitals.dead:
        raise HarmError(f"{creature.id} is dead: a dead hero can't Catch Breath.")
    if creature.vitals.knocked_out:
        raise HarmError(
            f"{creature.id} is unconscious and can't use maneuvers: an ally can help them spend a Recovery."
        )
    kind = maneuver_kind(encounter.turns.mode)  # "Catch Breath"; an action in games without maneuvers
    encounter = _use_on_turn(encounter, creature.id, kind, needs_turn=True)
    return _change_vitals(encounter, creature, st.catch_breath(creature.vitals))


# --- strikes ---------------------------------------------------------------------------------------------
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
            _living_minion(encounter, creature)
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
) -> tuple[Encounter, StrikeResult]:
    """An ability roll against `targets` (draw-steel-basics.md "Power Rolls"): one `roll` (its edges and banes
    are the ability's own), each target evaluated with its own extra edges and banes from the encounter
    (surprised, conditions: `power_roll_modifiers`) and dealt its tier's damage, letters read from the
    attacker's characteristics; `surges` are spent from the attacker's surges on the first target; `melee`
    counts for the conditions that care (a melee strike against a prone target gains an edge); `knock_out`
    knocks out instead of killing ("Knocking Creatures Out"); `area`: area damage, capped per minion hit
    (otherwise the damage to several minions of one squad goes to its pool in full); `halved`: each target's
    damage is halved, before weakness and immunity. `action` is what the strike is made as (a
    critical needs a main action; see `_strike_cost`); `situations` are named by the table and add their
    edges and banes to the roll (`bot.rules.situations`); Defend and Aid Attack add theirs per target
    (`bot.rules.encounter.baseline`), and the aids used are spent."""
    striker = target(encounter, attacker)
    squad = encounter.squad(striker.squad_id) if striker.squad_id is not None else None
    if (striker.vitals.dead and squad is None) or (squad is not None and striker.id not in squad.alive):
        raise HarmError(f"{striker.id} is dead and can't strike.")
    if striker.vitals.knocked_out:
        raise HarmError(f"{striker.id} is unconscious and can't take main actions: wake them first.")
    creatures = _strike_targets(encounter, targets)
    # power rolls: what the strike is made as, the situations named, then Defend and Aid Attack per target
    roll = dataclasses.replace(roll, main_action=action.main_action)
    use = RollUse(strike=True, melee=melee, damaging=tiered is not None)
    situation_edges, situation_banes = situation_modifiers(situations, use)
    roll = roll.with_target(roll.edges + situation_edges, roll.banes + situation_banes)
    cost = _strike_cost(encounter, action)
    if cost is not None:
        # a critical hit gives an extra main action (draw-steel-basics.md "Critical Hit"): it is given back
        encounter = _use_on_turn(encounter, striker.id, cost, given_back=roll.critical)
    kind = dtype if dtype is not None else (tiered.dtype if tiered is not None else DamageType.UNTYPED)
    if tiered is not None and dtype is not None and tiered.dtype not in (DamageType.UNTYPED, dtype):
        raise HarmError(
            f"The damage says {tiered.dtype.value} but the type says {dtype.value}: give the type once."
        )
    bonus = surge_damage(surges, striker.characteristics)  # refuses fewer than 0 or more than 3
    if surges:
        if tiered is None:
            raise HarmError("Surges add damage: give the damage too, e.g. damage: 3/6/9.")
        have = encounter.surges.get(striker.id, 0)
        if surges > have:
            raise HarmError(f"{striker.id} has {have} surge(s): spend at most {have}.")
    ids = tuple(c.id for c in creatures)
    results: list[StrikeTarget] = []
    for index, creature in enumerate(creatures):
        edges, banes = power_roll_modifiers(
            encounter.turns,
            striker.id,
            creature.id,
            is_ability_roll=True,
            is_strike=True,
            is_melee=melee,
            ability_targets=ids,
        )
        aided = baseline.roll_modifiers(encounter, striker.id, creature.id)
        edges += sum(m.edges for m in aided)
        banes += sum(m.banes for m in aided)
        reasons = tuple(m.reason for m in aided)
        own = roll.with_target(roll.edges + edges, roll.banes + banes)
        if tiered is None:
            results.append(StrikeTarget(creature.id, own, own.edges, own.banes, reasons=reasons))
            continue
        extra = bonus if index == 0 else 0
        amount = tiered.amount(own.tier, striker.characteristics) + extra
        results.append(
            StrikeTarget(
                creature.id, own, own.edges, own.banes, amount, extra, reasons=reasons, pool=creature.squad_id
            )
        )
    updated = encounter
    if tiered is not None:
        updated, results = _apply_strike_damage(encounter, results, kind, area, halved, knock_out)
    if surges:
        left = encounter.surges.get(striker.id, 0) - surges
        rest = {k: v for k, v in updated.surges.items() if k != striker.id}
        updated = dataclasses.replace(updated, surges={**rest, striker.id: left} if left else rest)
    updated = baseline.rolled(updated, striker.id, ids)
    return updated, StrikeResult(striker.id, roll, tuple(results), tiered, surges, tuple(situations))


def _strike_cost(encounter: Encounter, action: RollAction) -> ActionKind | None:
    """What a strike uses of the striker's own turn (draw-steel-combat.txt "Taking a Turn"): a main action
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
    on the squad's pool (weakness and immunity once: `_damage_squad`), reported on the first of them."""
    updated = encounter
    done: list[StrikeTarget] = []
    pooled: set[str] = set()
    for result in results:
        if result.pool is None:
            creature = updated.creature(result.target)
            updated, hit = _damage(updated, creature, result.amount, dtype, knock_out, halved)
            done.append(dataclasses.replace(result, hit=hit))
        elif result.pool in pooled:
            done.append(result)
        else:
            pooled.add(result.pool)
            squad = updated.squad(result.pool)
            assert squad is not None  # `_strike_targets` checked every minion is alive in its squad
            hits = [(r.target, r.amount) for r in results if r.pool == result.pool]
            updated, hit = _damage_squad(updated, squad, hits, dtype, area, halved)
            done.append(dataclasses.replace(result, hit=hit))
    return updated, done


def _use_on_turn(
    encounter: Encounter,
    creature_id: str,
    kind: ActionKind,
    *,
    given_back: bool = False,
    needs_turn: bool = False,
) -> Encounter:
    """Record `kind` used by the creature when it is its own turn (`bot.rules.turns.use_action`: refused
    when none is left and the table enforces the action economy); `given_back` checks it but records
    nothing. Off its turn (a free strike, a triggered action, an ally's help) nothing is used, unless
    `needs_turn` (a maneuver) and the table enforces the action economy in a round: then it is refused."""
    entry = encounter.entry_of(creature_id)
    now = current(encounter.turns)
    if now is None or now.entry != entry.id:
        if needs_turn and encounter.turns.enforce_actions and encounter.turns.phase is Phase.IN_ROUND:
            use_action(encounter.turns, entry.id, kind)  # refuses: an on-turn action off the turn
        return encounter
    spent = use_action(encounter.turns, entry.id, kind).state
    return encounter if given_back else encounter.with_turns(spent)


# --- conditions and saves --------------------------------------------------------------------------------
def add_condition(
    encounter: Encounter,
    name: str,
    condition: Condition,
    duration: Duration,
    *,
    custom_text: str = "",
    source: str | None = None,
) -> tuple[Encounter, ConditionInstance | None]:
    """Impose a condition (no stacking; `bot.rules.turns.add_condition`); returns the instance now in force,
    or None when an existing one already covers it. A `source` is looked up as a creature of the encounter.
    A custom condition's text is a name (`clean_name`: invisible characters dropped, compared by
    `name_key`); a creature holds at most `CONDITIONS_MAX` conditions."""
    creature = target(encounter, name)
    source_id = target(encounter, source).id if source is not None else None
    if condition is Condition.CUSTOM and custom_text.strip():
        custom_text = clean_name(custom_text)
    transition = _add_condition(
        encounter.turns, creature.id, condition, duration, source_id=source_id, custom_text=custom_text
    )
    added = next((e.instance for e in transition.events if isinstance(e, ConditionAdded)), None)
    held = len(transition.state.conditions_of(creature.id))
    if held > CONDITIONS_MAX and held > len(encounter.turns.conditions_of(creature.id)):
        raise HarmError(
            f"{creature.id} already has {CONDITIONS_MAX} conditions, the most a creature can hold: "
            "remove one with /condition remove first."
        )
    return encounter.with_turns(transition.state), added


def remove_condition(
    encounter: Encounter, name: str, condition: Condition, custom_text: str = ""
) -> tuple[Encounter, str]:
    """End a condition now (`bot.rules.turns.remove_condition`); returns the creature id."""
    creature = target(encounter, name)
    stored = any(c.condition is Condition.BLEEDING for c in encounter.turns.conditions_of(creature.id))
    if condition is Condition.BLEEDING and not stored and creature.vitals.dying:
        # draw-steel-combat.txt "Dying and Death": "this instance of the condition can't be negated or removed
        # in any way until you are no longer dying" (`bot.rules.encounter.bleeding`)
        raise HarmError(
            f"{creature.id} bleeds because they are dying: it ends when their Stamina is above 0."
        )
    transition = _remove_condition(encounter.turns, creature.id, condition, custom_text.strip())
    return encounter.with_turns(transition.state), creature.id


def save(
    encounter: Encounter,
    dice: Dice,
    name: str,
    condition: Condition | None = None,
    custom_text: str = "",
) -> tuple[Encounter, SaveResult]:
    """A saving throw (d10, 6 or higher ends it; `bot.rules.turns.roll_save`) against one of the creature's
    "save ends" conditions: the one named, or the only one it has."""
    creature = target(encounter, name)
    saves = [c for c in encounter.turns.conditions_of(creature.id) if c.duration is Duration.SAVE]
    if condition is None:
        if not saves:
            raise HarmError(f"{creature.id} has no condition a save ends: nothing to save against.")
        if len(saves) > 1:
            labels = ", ".join(c.label for c in saves)
            raise HarmError(f"{creature.id} can save against {labels}: pick the condition.")
        chosen = saves[0]
        condition, custom_text = chosen.condition, chosen.custom_text
    transition = roll_save(encounter.turns, dice, creature.id, condition, custom_text.strip())
    rolled = next(e for e in transition.events if isinstance(e, SaveRolled))
    label = rolled.custom_text if rolled.condition is Condition.CUSTOM else rolled.condition.value
    result = SaveResult(creature.id, label, rolled.roll, rolled.success)
    return encounter.with_turns(transition.state), result


# --- surges ----------------------------------------------------------------------------------------------
def gain_surges(encounter: Encounter, name: str, count: int = TOKEN_SURGES) -> tuple[Encounter, int]:
    """A creature gains `count` surges (a hero token buys `TOKEN_SURGES`: draw-steel-basics.md "Spending Hero
    Tokens"); returns the new encounter and the creature's surges now. Surges end with the encounter
    (`flow.finish`)."""
    if not 1 <= count <= SURGES_MAX:
        raise HarmError(f"Gain from 1 to {SURGES_MAX} surges at a time.")
    creature = target(encounter, name)
    if creature.vitals.dead:
        raise HarmError(f"{creature.id} is dead: a dead creature can't gain surges.")
    total = encounter.surges.get(creature.id, 0) + count
    return dataclasses.replace(encounter, surges={**encounter.surges, creature.id: total}), total


# --- Malice ----------------------------------------------------------------------------------------------
def gain_malice(encounter: Encounter, amount: int) -> Encounter:
    """The Director gains Malice (a feature, or a correction), at most `MALICE_MAX` in all."""
    if amount < 1:
        raise HarmError("Gain at least 1 Malice: type a positive number.")
    if encounter.malice.value + amount > MALICE_MAX:
        raise HarmError(
            f"Malice can be at most {MALICE_MAX}: gain {MALICE_MAX - encounter.malice.value} at most."
        )
    return dataclasses.replace(encounter, malice=Malice(encounter.malice.value + amount))


def spend_malice(encounter: Encounter, amount: int) -> Encounter:
    """The Director spends Malice (`bot.rules.resources.spend_malice`: never below 0)."""
    if amount < 1:
        raise HarmError("Spend at least 1 Malice: type a positive number.")
    return dataclasses.replace(encounter, malice=_spend_malice(encounter.malice, amount))
