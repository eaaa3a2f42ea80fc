"""The baseline actions that change later power rolls: Defend (a main action) and Aid Attack (a maneuver).

Both are taken on the creature's own turn, recorded on the encounter (`Encounter.defending`,
`Encounter.aids`), applied by `roll_modifiers` and ended by `turn_started` and `rolled`.
Rules: Draw Steel, Combat, "Defend", "Aid Attack".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from bot.rules.conditions import Condition, Modifier
from bot.rules.encounter.model import AidAttack, Encounter
from bot.rules.errors import RuleError
from bot.rules.turns import ActionKind, current, main_kind, maneuver_kind, use_action


class BaselineError(RuleError):
    """A Defend or Aid Attack the rules refuse."""


def _on_own_turn(encounter: Encounter, creature_id: str, kind: ActionKind, what: str) -> Encounter:
    """Use `kind` of the creature's turn (the turn engine refuses it over budget when the table enforces the
    action economy); refused when it isn't that creature's turn."""
    creature = encounter.creature(creature_id)
    if creature.vitals.dead or creature.vitals.knocked_out:
        raise BaselineError(f"{creature.id} can't act now: pick a creature that can.")
    entry = encounter.entry_of(creature.id)
    now = current(encounter.turns)
    if now is None or now.entry != entry.id:
        raise BaselineError(f"{what} is taken on {entry.id}'s own turn: start it with /turn act first.")
    return encounter.with_turns(use_action(encounter.turns, entry.id, kind).state)


def defend(encounter: Encounter, name: str) -> Encounter:
    """`name` takes the Defend main action: ability rolls against its entry (a squad: every minion) have a
    double bane until the start of its next turn.

    Draw Steel, Combat, "Defend": "When a creature takes the Defend main action, ability rolls made against
    them have a double bane until the start of their next turn. [...] A creature gains no benefit from this
    action while another creature is taunted by them." (The double edge on tests to resist effects is left to
    the table; the taunt is checked by `roll_modifiers`.)
    """
    creature = encounter.find(name)
    updated = _on_own_turn(encounter, creature.id, main_kind(encounter.turns.mode), "Defend (a main action)")
    entry = encounter.entry_of(creature.id).id
    if entry in updated.defending:
        return updated
    return dataclasses.replace(updated, defending=(*updated.defending, entry))


def aid(encounter: Encounter, aider: str, enemy: str) -> Encounter:
    """`aider` takes the Aid Attack maneuver against `enemy` (a creature of another side): the next ability
    roll an ally of the aider makes against it, before the start of the aider's next turn, gains an edge.

    Draw Steel, Combat, "Aid Attack": "A creature who uses the Aid Attack maneuver chooses an enemy adjacent
    to them. The next ability roll an ally makes against that enemy before the start of the aiding creature's
    next turn gains an edge." (Adjacency is the table's to judge: the bot has no map.)
    """
    helper = encounter.find(aider)
    foe = encounter.find(enemy)
    if encounter.side_of(foe.id).id == encounter.side_of(helper.id).id:
        raise BaselineError(f"{foe.id} is on {helper.id}'s side: Aid Attack chooses an enemy.")
    if foe.vitals.dead:
        raise BaselineError(f"{foe.id} is dead: choose a living enemy.")
    updated = _on_own_turn(
        encounter, helper.id, maneuver_kind(encounter.turns.mode), "Aid Attack (a maneuver)"
    )
    aid_attack = AidAttack(helper.id, foe.id)
    if aid_attack in updated.aids:
        return updated
    return dataclasses.replace(updated, aids=(*updated.aids, aid_attack))


def _present(encounter: Encounter, *ids: str) -> bool:
    known = {c.id for c in encounter.creatures}
    return all(i in known for i in ids)


def _taunts_someone(encounter: Encounter, creature_ids: Iterable[str]) -> bool:
    ids = set(creature_ids)
    return any(c.condition is Condition.TAUNTED and c.source_id in ids for c in encounter.turns.conditions)


def _aids_for(encounter: Encounter, attacker: str, target: str) -> tuple[AidAttack, ...]:
    """The aids that give `attacker`'s ability roll against `target` an edge: aimed at the target, by a
    creature of the attacker's side other than the attacker."""
    if not encounter.aids or not _present(encounter, attacker, target):
        return ()
    side = encounter.side_of(attacker).id
    return tuple(
        a
        for a in encounter.aids
        if a.enemy == target
        and a.aider != attacker
        and _present(encounter, a.aider)
        and encounter.side_of(a.aider).id == side
    )


def roll_modifiers(encounter: Encounter, attacker: str, target: str) -> tuple[Modifier, ...]:
    """The edges and banes Defend and Aid Attack give `attacker`'s ability roll against `target`, each with
    its reason (raw counts: the power roll caps and cancels them). Applied to every ability roll the bot
    resolves against or by the right creatures; a defender taunting another creature gains no benefit
    (Draw Steel, Combat, "Defend")."""
    mods: list[Modifier] = []
    if encounter.defending and _present(encounter, target):
        entry = encounter.entry_of(target)
        if entry.id in encounter.defending and not _taunts_someone(encounter, entry.creature_ids):
            mods.append(Modifier(f"{target} is defending", banes=2))
    mods.extend(Modifier(f"aided by {a.aider}", edges=1) for a in _aids_for(encounter, attacker, target))
    return tuple(mods)


def rolled(encounter: Encounter, attacker: str, targets: Iterable[str]) -> Encounter:
    """After `attacker`'s ability roll against `targets`: the aids it used are spent (each helps the next
    roll an ally makes against its enemy)."""
    used = {a for t in targets for a in _aids_for(encounter, attacker, t)}
    if not used:
        return encounter
    return dataclasses.replace(encounter, aids=tuple(a for a in encounter.aids if a not in used))


def turn_started(encounter: Encounter, entry_id: str) -> Encounter:
    """A turn starts: the entry's Defend ends ("until the start of their next turn"), and so do its
    creatures' aids ("before the start of the aiding creature's next turn")."""
    entry = encounter.turns.entry(entry_id)
    ids = set(entry.creature_ids) if entry is not None else {entry_id}
    defending = tuple(d for d in encounter.defending if d != entry_id)
    aids = tuple(a for a in encounter.aids if a.aider not in ids)
    if defending == encounter.defending and aids == encounter.aids:
        return encounter
    return dataclasses.replace(encounter, defending=defending, aids=aids)
