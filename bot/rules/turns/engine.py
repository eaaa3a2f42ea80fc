"""The transition core: pure functions `f(state, ...) -> Transition(new_state, events)` shared by every mode.

A refused request raises a typed `TurnError` and changes nothing: states are immutable values, so the caller's
old state is untouched (which is also what makes undo exact: keep the old state).

Design decisions (see the module docstrings of `policy` and `queries` for the rule texts):
- The round ends automatically (RoundEnded) as soon as no turn is in progress and nobody can act any more
  (after end_turn, skip_side, remove_entry, set_flags); the next round starts only with `next_round`, so
  end-of-round effects and between-round choices (Agility swaps) have a place.
- An out-of-order turn (`override=True`) uses up the entry's turn but isn't its side's pick: the side that
  would have picked next still picks next.
- Conditions end, and saves are prompted, at the end of the AFFECTED creature's turn, never the source's.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import replace

from bot.rules.conditions import (
    Condition,
    ConditionInstance,
    Duration,
    apply_condition,
    roll_save_die,
    save_succeeds,
)
from bot.rules.dice import Dice
from bot.rules.turns import errors as err
from bot.rules.turns.events import (
    AgilityRecorded,
    AgilitySwapped,
    ConditionAdded,
    ConditionExpired,
    EncounterEnded,
    EntryAdded,
    EntryChanged,
    EntryRemoved,
    Event,
    FirstSideChosen,
    FirstTurnRolled,
    RoundEnded,
    RoundStarted,
    SaveDue,
    SaveRolled,
    SideSkipped,
    SpeedChosen,
    Transition,
    TurnEnded,
    TurnStarted,
)
from bot.rules.turns.model import (
    Controller,
    Entry,
    FirstTurn,
    Initiative,
    Mode,
    Phase,
    Speed,
    TurnRecord,
    TurnState,
)
from bot.rules.turns.policy import policy
from bot.rules.turns.queries import (
    acted,
    controller_of,
    current,
    picking,
    remaining_turns,
    round_over,
    slow_part_started,
    surprise_blocks,
    turns_taken,
)

DEFAULT_FIRST_THRESHOLD = 6


# --- helpers ---------------------------------------------------------------------------------------------


def _entry(state: TurnState, entry_id: str) -> Entry:
    entry = state.entry(entry_id)
    if entry is None:
        raise err.UnknownEntry(entry_id)
    return entry


def _side_name(state: TurnState, side_id: str) -> str:
    side = state.side(side_id)
    assert side is not None
    if side.controller is Controller.DIRECTOR and state.mode is not Mode.TEAMS:
        return "Director's side"
    return f"{side.name or side.id} side" if state.mode is not Mode.TEAMS else f"team {side.name or side.id}"


def _not_ended(state: TurnState) -> None:
    if state.phase is Phase.ENDED:
        raise err.WrongPhase("This encounter is over: start a new one.")


def _in_round(state: TurnState) -> None:
    if state.phase is not Phase.IN_ROUND:
        raise err.NotInRound(between_rounds=state.phase is Phase.BETWEEN_ROUNDS)


def _no_turn(state: TurnState) -> None:
    cur = current(state)
    if cur is not None:
        raise err.TurnInProgress(cur.entry)


def _expire(
    state: TurnState, gone: Iterable[ConditionInstance], reason: str
) -> tuple[TurnState, list[Event]]:
    gone_t = tuple(gone)
    if not gone_t:
        return state, []
    kept = tuple(c for c in state.conditions if c not in gone_t)
    events: list[Event] = [
        ConditionExpired(c.creature_id, c.condition, c.custom_text, reason) for c in gone_t
    ]
    return replace(state, conditions=kept), events


def _surprise_round(state: TurnState) -> int:
    return 0 if policy(state.mode).surprise_round else 1


def _end_round(state: TurnState, early: bool) -> tuple[TurnState, list[Event]]:
    """End the round; end-of-round effects resolve players' creatures first, then the Director's
    (fast-slow-turns-combat.md "End of the Round"): here, surprise ending after the first round."""
    events: list[Event] = [RoundEnded(state.round, early)]
    new = replace(state, phase=Phase.BETWEEN_ROUNDS)
    if state.round == _surprise_round(state):
        owner = {cid: controller_of(state, e) for e in state.entries for cid in e.creature_ids}
        surprised = [c for c in state.conditions if c.condition is Condition.SURPRISED]
        surprised.sort(key=lambda c: owner.get(c.creature_id) is not Controller.PLAYERS)
        new, more = _expire(new, surprised, Duration.END_OF_FIRST_ROUND.value)
        events += more
    return new, events


def _settle(state: TurnState, events: list[Event]) -> Transition:
    """Finish a transition: end the round when nobody can act any more."""
    if round_over(state):
        state, more = _end_round(state, early=False)
        events = events + more
    return Transition(state, tuple(events))


# --- roster ----------------------------------------------------------------------------------------------


def add_entry(state: TurnState, entry: Entry) -> Transition:
    """Add a creature or squad (in any phase but ended). One added mid-round may act this round."""
    _not_ended(state)
    if state.side(entry.side) is None:
        raise err.UnknownSide(entry.side)
    if state.entry(entry.id) is not None:
        raise err.DuplicateEntry(entry.id)
    if entry.turns_per_round < 1:
        raise err.BadSetup("Turns per round must be at least 1.")
    groups = {e.group for e in state.entries if e.group is not None}
    if entry.id in groups or entry.group in {e.id for e in state.entries} or entry.group == entry.id:
        raise err.BadSetup("A group's name can't be a combatant's id: rename one of them.")
    if entry.group is not None and any(
        e.group == entry.group and e.side != entry.side for e in state.entries
    ):
        raise err.BadSetup(f"Group {entry.group} belongs to another side: use another group name.")
    return Transition(replace(state, entries=(*state.entries, entry)), (EntryAdded(entry),))


def remove_entry(state: TurnState, entry_id: str) -> Transition:
    """Remove an entry (fled, destroyed). Its conditions go with it; it never blocks the round."""
    entry = _entry(state, entry_id)
    cur = current(state)
    if cur is not None and cur.entry == entry_id:
        raise err.TurnInProgress(entry_id)
    entries = tuple(e for e in state.entries if e.id != entry_id)
    units = {e.unit for e in entries}
    new = replace(state, entries=entries, initiative=tuple(i for i in state.initiative if i.unit in units))
    new, events = _expire(
        new, [c for c in state.conditions if c.creature_id in entry.creature_ids], "removed"
    )
    return _settle(new, [EntryRemoved(entry_id), *events])


def set_flags(
    state: TurnState,
    entry_id: str,
    *,
    unconscious: bool | None = None,
    dead: bool | None = None,
    cannot_be_surprised: bool | None = None,
    turns_per_round: int | None = None,
) -> Transition:
    """Knock out, revive, kill or change an entry. A revived creature acts at the next opportunity."""
    _not_ended(state)
    entry = _entry(state, entry_id)
    changes: dict[str, object] = {}
    if unconscious is not None:
        changes["unconscious"] = unconscious
    if dead is not None:
        changes["dead"] = dead
    if cannot_be_surprised is not None:
        changes["cannot_be_surprised"] = cannot_be_surprised
    if turns_per_round is not None:
        if turns_per_round < 1:
            raise err.BadSetup("Turns per round must be at least 1.")
        changes["turns_per_round"] = turns_per_round
    new_entry = replace(entry, **changes)  # type: ignore[arg-type]
    if new_entry == entry:
        return Transition(state)
    new = state.with_entry(new_entry)
    events: list[Event] = [EntryChanged(new_entry)]
    if new_entry.cannot_be_surprised and new.is_surprised(entry_id):
        new, more = _expire(
            new, [c for c in new.conditions_of(entry_id) if c.condition is Condition.SURPRISED], "removed"
        )
        events += more
    return _settle(new, events)


# --- surprise and who goes first -------------------------------------------------------------------------


def mark_surprised(state: TurnState, entry_id: str) -> Transition:
    """draw-steel-turn-order.txt "Determine Surprise": at the start, a creature not ready for combat is
    surprised until the end of the first round (teams: the surprise round, round 0)."""
    if state.phase is not Phase.SETUP or (state.first is not None and policy(state.mode).rolls_first):
        raise err.WrongPhase("Mark surprise at the start of combat, before deciding who goes first.")
    entry = _entry(state, entry_id)
    if entry.cannot_be_surprised:
        raise err.CannotBeSurprised(entry_id)
    inst = ConditionInstance(entry_id, Condition.SURPRISED, Duration.END_OF_FIRST_ROUND)
    conditions, kept = apply_condition(state.conditions, inst)
    return Transition(replace(state, conditions=conditions), (ConditionAdded(kept),))


def first_turn_threshold(lowered_to: Iterable[int] = ()) -> int:
    """The d10 result the players need to choose who goes first: 6, or the party's lowest feature value."""
    return min((DEFAULT_FIRST_THRESHOLD, *lowered_to))


def determine_first(state: TurnState, dice: Dice, threshold: int = DEFAULT_FIRST_THRESHOLD) -> Transition:
    """draw-steel-turn-order.txt "Determine Who Goes First": if every creature on one side is surprised, the
    other side goes first with no roll; otherwise roll a d10: `threshold` (6) or higher, the players choose
    the side that goes first, otherwise the Director does (then call `choose_first`)."""
    if not policy(state.mode).rolls_first:
        raise err.WrongPhase("In this turn structure nobody rolls for who goes first: start the round.")
    if state.phase is not Phase.SETUP:
        raise err.WrongPhase("Who goes first is decided at the start of combat.")
    if state.first is not None:
        raise err.FirstAlreadyDetermined()
    all_surprised = []
    for side in state.sides:
        living = [e for e in state.entries if e.side == side.id and not e.dead]
        if living and all(state.is_surprised(e.id) for e in living):
            all_surprised.append(side.id)
    if len(all_surprised) == 1:
        other = next(s.id for s in state.sides if s.id != all_surprised[0])
        first = FirstTurn(None, threshold, None, other)
        return Transition(replace(state, first=first), (FirstSideChosen(other, automatic=True),))
    roll = dice.randint(1, 10)
    chooser = Controller.PLAYERS if roll >= threshold else Controller.DIRECTOR
    first = FirstTurn(roll, threshold, chooser, None)
    return Transition(replace(state, first=first), (FirstTurnRolled(roll, threshold, chooser),))


def choose_first(state: TurnState, side_id: str, by: Controller) -> Transition:
    """The chooser named by the roll picks the side that goes first (in round 1 and every later round)."""
    if state.first is None or state.first.chooser is None:
        if state.first is not None:
            raise err.FirstAlreadyDetermined()
        raise err.FirstNotDetermined()
    if state.first.side is not None:
        raise err.FirstAlreadyDetermined()
    if by is not state.first.chooser:
        raise err.NotYourChoice(state.first.chooser.value)
    if state.side(side_id) is None:
        raise err.UnknownSide(side_id)
    new = replace(state, first=replace(state.first, side=side_id))
    return Transition(new, (FirstSideChosen(side_id, automatic=False),))


def set_team_order(state: TurnState, side_ids: Iterable[str]) -> Transition:
    """teams-combat.md "Initiative and Rounds": the team that started combat first, the attacked team next,
    the rest in the order the GM sets. Only before combat starts."""
    if state.phase is not Phase.SETUP:
        raise err.WrongPhase("Set the team order before the first round.")
    order = tuple(side_ids)
    if sorted(order) != sorted(s.id for s in state.sides):
        raise err.BadSetup("Name every team exactly once, in initiative order.")
    sides = tuple(next(s for s in state.sides if s.id == sid) for sid in order)
    return Transition(replace(state, sides=sides))


# --- Agility variant -------------------------------------------------------------------------------------


def _units(state: TurnState) -> dict[str, str]:
    """unit id -> side id."""
    return {e.unit: e.side for e in state.entries}


def record_agility(
    state: TurnState, totals: Mapping[str, int], dice: Dice, modifiers: Mapping[str, int] | None = None
) -> Transition:
    """draw-steel-combat.txt "Alternative Turn Order": record each hero's, enemy's and enemy group's Agility
    test total; creatures on the same side with tied totals reroll (2d10 + their Agility modifier) among
    themselves until the tie is broken."""
    if state.mode is not Mode.AGILITY:
        raise err.WrongPhase("Agility totals are only used in the Agility turn order.")
    _not_ended(state)
    units = _units(state)
    for unit in totals:
        if unit not in units:
            raise err.UnknownEntry(unit)
    mods = modifiers or {}
    scores = {i.unit: i for i in state.initiative}
    for unit, total in totals.items():
        scores[unit] = Initiative(unit, total)
    changed = set(totals)
    while True:
        ties: dict[tuple[str, tuple[int, ...]], list[str]] = {}
        for unit in units:
            if unit in scores:
                ties.setdefault((units[unit], scores[unit].sort_key), []).append(unit)
        tied = [group for group in ties.values() if len(group) > 1]
        if not tied:
            break
        for group in tied:
            for unit in group:
                reroll = dice.randint(1, 10) + dice.randint(1, 10) + mods.get(unit, 0)
                scores[unit] = replace(scores[unit], tiebreaks=(*scores[unit].tiebreaks, reroll))
                changed.add(unit)
    ordered = tuple(scores[u] for u in units if u in scores)
    events = tuple(AgilityRecorded(i.unit, i.total, i.tiebreaks) for i in ordered if i.unit in changed)
    return Transition(replace(state, initiative=ordered), events)


def roll_agility(state: TurnState, dice: Dice, modifiers: Mapping[str, int]) -> Transition:
    """Roll the Agility test (2d10 + Agility) for each unit named in `modifiers`, then `record_agility`."""
    totals = {u: dice.randint(1, 10) + dice.randint(1, 10) + m for u, m in modifiers.items()}
    return record_agility(state, totals, dice, modifiers)


def swap_agility(state: TurnState, first: str, second: str) -> Transition:
    """At the start of a new round, at the Director's discretion, a hero swaps places in the order with a
    willing hero (draw-steel-combat.txt "Alternative Turn Order"). Only before anyone acts in the round."""
    if state.mode is not Mode.AGILITY:
        raise err.WrongPhase("Swapping places is part of the Agility turn order.")
    if state.phase is Phase.ENDED or (state.phase is Phase.IN_ROUND and state.turns):
        raise err.WrongPhase("Heroes swap places at the start of a new round, before anyone acts.")
    a, b = _entry(state, first), _entry(state, second)
    scores = {i.unit: i for i in state.initiative}
    for e in (a, b):
        if controller_of(state, e) is not Controller.PLAYERS or e.group is not None:
            raise err.NotAHero(f"{e.id} isn't a hero: only heroes swap places in the Agility order.")
        if e.id not in scores:
            raise err.NotAHero(f"{e.id} has no Agility total yet: record it first.")
    sa, sb = scores[a.id], scores[b.id]
    swapped = {
        a.id: Initiative(a.id, sb.total, sb.tiebreaks),
        b.id: Initiative(b.id, sa.total, sa.tiebreaks),
    }
    initiative = tuple(swapped.get(i.unit, i) for i in state.initiative)
    return Transition(replace(state, initiative=initiative), (AgilitySwapped(a.id, b.id),))


# --- rounds ----------------------------------------------------------------------------------------------


def next_round(state: TurnState) -> Transition:
    """Start the next round (round 1 from setup; teams with a surprise start with round 0, the surprise
    round). Emits RoundStarted(round) -- the hook for Malice and heroic-resource gains."""
    if state.phase is Phase.IN_ROUND:
        _no_turn(state)
        raise err.WrongPhase("This round is still running: finish it, or skip the rest with /turn skip.")
    _not_ended(state)
    if state.phase is Phase.SETUP:
        if policy(state.mode).rolls_first and (state.first is None or state.first.side is None):
            raise err.FirstNotDetermined()
        surprise = policy(state.mode).surprise_round and any(
            c.condition is Condition.SURPRISED for c in state.conditions
        )
        number = 0 if surprise else 1
    else:
        number = state.round + 1
    entries = tuple(replace(e, speed=None) for e in state.entries)
    new = replace(
        state, phase=Phase.IN_ROUND, round=number, turns=(), skipped=(), reacted=(), entries=entries
    )
    return _settle(new, [RoundStarted(number)])


def end_round(state: TurnState) -> Transition:
    """The Director ends the round early (remaining turns are lost)."""
    _in_round(state)
    _no_turn(state)
    new, events = _end_round(state, early=True)
    return Transition(new, tuple(events))


def skip_side(state: TurnState, side_id: str) -> Transition:
    """The Director skips a side's remaining turns this round (a turn in progress finishes normally; a solo
    creature in its first turn loses its second)."""
    _in_round(state)
    if state.side(side_id) is None:
        raise err.UnknownSide(side_id)
    skip = tuple(
        e.id
        for e in state.entries
        if e.side == side_id and e.id not in state.skipped and remaining_turns(state, e) > 0
    )
    new = replace(state, skipped=(*state.skipped, *skip))
    return _settle(new, [SideSkipped(side_id, skip)])


# --- turns -----------------------------------------------------------------------------------------------


def _refuse_pick(state: TurnState, entry: Entry, by: Controller) -> None:
    """Raise the most useful error for a normal pick of `entry`, or return if the pick is allowed."""
    pick = picking(state)
    assert pick is not None  # the entry is able, so somebody can pick
    if entry.id in pick.entries:
        if by is not Controller.DIRECTOR and by is not pick.controller:
            raise err.NotYourPick(_side_name(state, pick.sides[0]))
        return
    last = state.turns[-1] if state.turns else None
    if pick.group is not None:
        raise err.GroupInProgress(pick.group)
    if state.mode is Mode.FAST_SLOW:
        if pick.speed is not None and turns_taken(state, entry.id, pick.speed) > 0:
            raise err.WrongPart(f"{entry.id} has had their {pick.speed.value} turn: wait for the next part.")
        if entry.speed is not None and entry.speed is not pick.speed:
            raise err.WrongPart(
                f"{entry.id} chose a {entry.speed.value} turn: wait for the {entry.speed.value} turns."
            )
        if pick.controller is Controller.PLAYERS:
            raise err.WrongPart("The players' creatures act first in each part of the round: wait for them.")
        raise err.WrongPart("The players are done with this part: the GM's creatures act now.")
    if entry.side not in pick.sides:
        raise err.WrongSide(_side_name(state, pick.sides[0]))
    if last is not None and last.entry == entry.id:
        raise err.TwiceInARow(entry.id)
    raise err.OutOfOrder(_entry(state, pick.entries[0]).unit)


def start_turn(
    state: TurnState,
    entry_id: str,
    by: Controller,
    *,
    override: bool = False,
    speed: Speed | None = None,
) -> Transition:
    """Start `entry_id`'s turn. A normal pick must come from the picking side (the Director may pick for any
    side, e.g. after the argument timer). `override=True` lets a feature or the Director have the entry act
    right now, out of order: it uses up the entry's turn but doesn't change whose pick is next. In fast/slow,
    `speed` is the part for an override (a normal pick takes the running part)."""
    _in_round(state)
    _no_turn(state)
    entry = _entry(state, entry_id)
    if entry.dead:
        raise err.NotEligible(f"{entry_id} is dead and takes no turns.")
    if entry.unconscious:
        raise err.NotEligible(
            f"{entry_id} is unconscious: revive them first, then they act at the next chance."
        )
    if surprise_blocks(state, entry):
        raise err.NotEligible(f"{entry_id} is surprised and can't act in round {state.round}.")
    if remaining_turns(state, entry) == 0:
        raise err.AlreadyActed(entry_id)
    part: Speed | None = None
    if override:
        if by is not Controller.DIRECTOR and by is not controller_of(state, entry):
            raise err.NotYourCreature(entry_id)
        if state.mode is Mode.FAST_SLOW:
            pick = picking(state)
            part = speed or (pick.speed if pick is not None else None) or Speed.SLOW
    else:
        _refuse_pick(state, entry, by)
        pick = picking(state)
        assert pick is not None
        part = pick.speed
    record = TurnRecord(entry.id, entry.side, entry.group, override, part)
    reacted = state.reacted
    if state.mode is Mode.TEAMS:  # teams-combat.md: reactions are recovered at the start of each turn
        reacted = tuple(r for r in reacted if r not in entry.creature_ids)
    new_entry = replace(entry, speed=part) if part is not None else entry
    new = replace(state.with_entry(new_entry), turns=(*state.turns, record), reacted=reacted)
    return Transition(new, (TurnStarted(entry.id, entry.side, state.round, override, part),))


def end_turn(state: TurnState) -> Transition:
    """End the turn in progress. At the end of the affected creature's turn its EoT conditions end and each
    'save ends' condition prompts a saving throw (SaveDue). Ends the round when nobody can act any more."""
    _in_round(state)
    cur = current(state)
    if cur is None:
        raise err.NoTurnInProgress()
    new = replace(state, turns=(*state.turns[:-1], replace(cur, ended=True)))
    events: list[Event] = [TurnEnded(cur.entry, state.round)]
    entry = state.entry(cur.entry)
    creatures = entry.creature_ids if entry is not None else (cur.entry,)
    mine = [c for c in new.conditions if c.creature_id in creatures]
    new, expired = _expire(new, [c for c in mine if c.duration is Duration.EOT], Duration.EOT.value)
    events += expired
    events += [
        SaveDue(c.creature_id, c.condition, c.custom_text) for c in mine if c.duration is Duration.SAVE
    ]
    return _settle(new, events)


def set_speed(state: TurnState, entry_id: str, speed: Speed) -> Transition:
    """fast-slow-turns-combat.md "Anatomy of a Round": "players who want to take a turn (fast or slow) do so
    in that part of the round": choose a fast turn (action OR move) or a slow turn (action AND move) for this
    round; SLOW also means "wait for the slow turns". No fast turn once the slow turns have begun."""
    if state.mode is not Mode.FAST_SLOW:
        raise err.WrongPhase("Fast and slow turns are only used in the fast/slow turn structure.")
    _in_round(state)
    entry = _entry(state, entry_id)
    if acted(state, entry_id) and entry.turns_per_round < 2:
        raise err.AlreadyActed(entry_id)
    if speed is Speed.FAST and slow_part_started(state):
        raise err.WrongPart(f"The fast turns are over this round: {entry_id} takes a slow turn.")
    new_entry = replace(entry, speed=speed)
    return _settle(state.with_entry(new_entry), [SpeedChosen(entry_id, speed)])


def pass_part(state: TurnState, controller: Controller, entries: Collection[str] | None = None) -> Transition:
    """Fast/slow: the controller's creatures that haven't chosen wait for slow turns (players: "we're done
    with fast turns"; GM: "the rest of the rats wait"); only those of `entries` when given (one player's
    creatures: a player passes for their own creatures, not for everyone's)."""
    if state.mode is not Mode.FAST_SLOW:
        raise err.WrongPhase("Passing a part is only used in the fast/slow turn structure.")
    _in_round(state)
    cur = current(state)
    new = state
    events: list[Event] = []
    for e in state.entries:
        if (
            controller_of(state, e) is controller
            and (entries is None or e.id in entries)
            and e.speed is None
            and turns_taken(state, e.id, Speed.FAST) == 0
            and (cur is None or cur.entry != e.id)
        ):
            new = new.with_entry(replace(e, speed=Speed.SLOW))
            events.append(SpeedChosen(e.id, Speed.SLOW))
    return _settle(new, events)


def end_encounter(state: TurnState) -> Transition:
    """End combat: conditions that last until the end of the encounter (and shorter ones) end; conditions
    'until removed' stay (draw-steel-combat.txt "End of Combat")."""
    _not_ended(state)
    new, events = _expire(
        state, [c for c in state.conditions if c.duration is not Duration.UNTIL_REMOVED], "encounter"
    )
    new = replace(new, phase=Phase.ENDED)
    return Transition(new, (*events, EncounterEnded(state.round)))


# --- conditions ------------------------------------------------------------------------------------------


def _known_creature(state: TurnState, creature_id: str) -> None:
    if not any(creature_id in e.creature_ids for e in state.entries):
        raise err.UnknownEntry(creature_id)


def add_condition(
    state: TurnState,
    creature_id: str,
    condition: Condition,
    duration: Duration,
    *,
    source_id: str | None = None,
    custom_text: str = "",
) -> Transition:
    """Impose a condition (no stacking: see bot.rules.conditions). Surprise goes through `mark_surprised`."""
    _not_ended(state)
    if condition is Condition.SURPRISED:
        return mark_surprised(state, creature_id)
    _known_creature(state, creature_id)
    if condition is Condition.CUSTOM and not custom_text.strip():
        raise err.BadSetup("Give the custom condition a name, e.g. 'marked'.")
    if duration is Duration.END_OF_FIRST_ROUND:
        raise err.BadSetup("Only surprise lasts until the end of the first round: pick another duration.")
    inst = ConditionInstance(
        creature_id, condition, duration, source_id, custom_text.strip(), imposed_round=state.round
    )
    conditions, kept = apply_condition(state.conditions, inst)
    if conditions == state.conditions:
        return Transition(state)
    return Transition(replace(state, conditions=conditions), (ConditionAdded(kept),))


def _find(state: TurnState, creature_id: str, condition: Condition, custom_text: str) -> ConditionInstance:
    probe = ConditionInstance(creature_id, condition, Duration.EOT, custom_text=custom_text)
    found = next((c for c in state.conditions if c.key == probe.key), None)
    if found is None:
        raise err.ConditionNotFound(creature_id, custom_text or condition.value)
    return found


def remove_condition(
    state: TurnState, creature_id: str, condition: Condition, custom_text: str = ""
) -> Transition:
    """End a condition now (Stand Up ends prone, Escape Grab ends grabbed, the Director removes it)."""
    inst = _find(state, creature_id, condition, custom_text)
    new, events = _expire(state, [inst], "removed")
    return Transition(new, tuple(events))


def roll_save(
    state: TurnState, dice: Dice, creature_id: str, condition: Condition, custom_text: str = ""
) -> Transition:
    """A saving throw against a 'save ends' condition: d10, 6 or higher ends it. Usually prompted by SaveDue
    at the end of the creature's turn; some rules (the Heal main action) allow one at other times."""
    inst = _find(state, creature_id, condition, custom_text)
    if inst.duration is not Duration.SAVE:
        raise err.NoSave(creature_id, inst.label)
    roll = roll_save_die(dice)
    ok = save_succeeds(roll)
    rolled = SaveRolled(creature_id, condition, inst.custom_text, roll, ok)
    if not ok:
        return Transition(state, (rolled,))
    new, events = _expire(state, [inst], "save")
    return Transition(new, (rolled, *events))


def succeed_save(
    state: TurnState, creature_id: str, condition: Condition, custom_text: str = ""
) -> Transition:
    """A hero token turns a failed saving throw into a success (draw-steel-basics.md "Spending Hero Tokens"):
    the condition ends. Spending the token is the resources module's job."""
    inst = _find(state, creature_id, condition, custom_text)
    if inst.duration is not Duration.SAVE:
        raise err.NoSave(creature_id, inst.label)
    new, events = _expire(state, [inst], "token")
    return Transition(new, tuple(events))
