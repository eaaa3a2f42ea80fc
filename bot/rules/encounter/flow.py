"""Running an encounter: beginning combat, taking turns, the rounds that follow, and ending it.

The turn engine (`bot.rules.turns`) decides who may act; this module hangs the resources on its transitions.
Every function is pure: `Encounter` in, `Flow` out; a refusal raises a `RuleError`.
Rules, each cited where it is applied: Draw Steel, Combat, "Determine Who Goes First"; The Basics, "Heroic
Resources", "Victories For Combat"; Teams Combat; Shadow of the Demon Lord, Combat; Monsters, "Malice".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.rules import resources, stamina, turns
from bot.rules.dice import Dice
from bot.rules.encounter import baseline, objectives, rescue, rounds, saves
from bot.rules.encounter.model import Encounter, EncounterError, fold
from bot.rules.encounter.roster import written_back
from bot.rules.hero import HeroSheet, award_sheet_victories
from bot.rules.resources import HeroicResource, Progress, Rounding
from bot.rules.turns import Controller, FirstTurn, Mode, Phase, Side, Speed
from bot.rules.turns.events import Event, TurnStarted


@dataclass(frozen=True, slots=True)
class Flow:
    """A step of the encounter's flow: the new encounter, the turn engine's events in order, the heroic
    resource gained at a turn's start (creature id -> amount), the Malice gained, the objectives whose
    round counter hit 0 as a round started (`rounds.Rounds.due`), whether the Director is reminded a
    villain action is still unused this round (`objectives.remind_villain`), and the Malice a montage
    carried into the fight as it began."""

    encounter: Encounter
    events: tuple[Event, ...] = ()
    gains: tuple[tuple[str, int], ...] = ()
    malice_gained: int = 0
    due: tuple[str, ...] = ()
    villain_reminder: bool = False
    malice_carried: int = 0


def side_named(encounter: Encounter, name: str) -> Side:
    """The side (or team) called `name` (its id or its name, ignoring case)."""
    key = fold(name)
    for side in encounter.turns.sides:
        if fold(side.id) == key or fold(side.name) == key:
            return side
    names = ", ".join(s.name or s.id for s in encounter.turns.sides)
    raise EncounterError(f"No side '{' '.join(name.split())[:40]}' in this encounter: use {names}.")


def _start_round(encounter: Encounter, prior: Sequence[Event] = ()) -> Flow:
    started = rounds.start_round(encounter, prior)
    return Flow(started.encounter, started.events, malice_gained=started.malice_gained, due=started.due)


def _start_of_combat(encounter: Encounter, victories: Mapping[str, int], rounding: Rounding) -> Encounter:
    """Starting Malice (the heroes' average Victories, plus any a montage carried into this fight, then
    spent) and each hero's heroic resource (their Victories)."""
    heroes = encounter.heroes()
    counts = [victories.get(h.id, 0) for h in heroes]
    malice = resources.starting_malice(counts, rounding)
    malice = dataclasses.replace(malice, value=malice.value + encounter.carried_malice)
    res = {
        h.id: resources.resource_start_of_combat(HeroicResource(h.id), victories.get(h.id, 0)).value
        for h in heroes
    }
    return dataclasses.replace(encounter, malice=malice, resources=res, carried_malice=0)


def _agility_modifiers(encounter: Encounter) -> dict[str, int]:
    """Each unit's Agility (a squad or group: its first member's)."""
    mods: dict[str, int] = {}
    for entry in encounter.turns.entries:
        if entry.unit in mods:
            continue
        creature = encounter.creature(encounter.creatures_in(entry)[0])
        mods[entry.unit] = creature.characteristics.agility
    return mods


def begin(
    encounter: Encounter,
    dice: Dice,
    *,
    first: str | None = None,
    team_order: Sequence[str] = (),
    victories: Mapping[str, int] | None = None,
    rounding: Rounding = Rounding.DOWN,
) -> Flow:
    """Begin combat (`_begin`); the flow says the Malice a montage carried into it (`malice_carried`)."""
    flow = _begin(encounter, dice, first=first, team_order=team_order, victories=victories, rounding=rounding)
    return dataclasses.replace(flow, malice_carried=encounter.carried_malice)


def _begin(
    encounter: Encounter,
    dice: Dice,
    *,
    first: str | None,
    team_order: Sequence[str],
    victories: Mapping[str, int] | None,
    rounding: Rounding,
) -> Flow:
    """Begin combat (Draw Steel, Combat, "Determine Who Goes First", "Alternative Turn Order"; Teams Combat,
    "Initiative and Rounds"). Draw Steel and Agility roll the d10 (6 or higher: the players choose who goes
    first, with `choose_first_side`, unless one side is all surprised; `first`, a side's id or name, sets it
    outright); Agility also rolls each unit's Agility test (2d10 + Agility) for the order within a side; teams
    follow `team_order` (ids or names; default: as made); fast/slow rolls nothing. The Director's Malice
    starts at the heroes' average `victories` (Monsters "Malice"; `rounding` from the guild setting), plus
    what a montage carried into the fight, and each hero's heroic resource at their Victories (Draw Steel, The
    Basics, "Heroic Resources")."""
    state = encounter.turns
    if state.phase is not Phase.SETUP or (state.first is not None and state.first.side is not None):
        raise EncounterError("This encounter has already begun: carry on with /turn act.")
    if not state.entries:
        raise EncounterError("Add combatants first: /encounter add or /encounter hero.")
    if state.first is not None:
        raise EncounterError(
            f"The {state.first.chooser} are choosing who goes first: use the buttons on the roll's message."
        )
    started = _start_of_combat(encounter, victories or {}, rounding)
    mode = state.mode
    if mode in (Mode.DRAW_STEEL, Mode.AGILITY):
        if mode is Mode.AGILITY:
            rolled = turns.roll_agility(state, dice, _agility_modifiers(started))
            started, prior = started.with_turns(rolled.state), rolled.events
        else:
            prior = ()
        if first is not None:
            side = side_named(started, first)
            _refuse_surprised_first(started, side)
            chosen = dataclasses.replace(
                started.turns, first=FirstTurn(None, turns.first_turn_threshold(), None, side.id)
            )
            return _start_round(started.with_turns(chosen), prior)
        rolled_first = turns.determine_first(started.turns, dice)
        started = started.with_turns(rolled_first.state)
        events = (*prior, *rolled_first.events)
        if rolled_first.state.first is not None and rolled_first.state.first.side is not None:
            return _start_round(started, events)
        return Flow(started, events)
    if first is not None and mode is not Mode.TEAMS:
        raise EncounterError("In fast/slow turns nobody goes first: leave out first.")
    if mode is Mode.TEAMS:
        order = [side_named(started, t).id for t in team_order]
        if first is not None:
            lead = side_named(started, first).id
            order = [lead, *[o for o in order if o != lead]]
        if order:
            rest = [s.id for s in started.turns.sides if s.id not in order]
            ordered = turns.set_team_order(started.turns, (*order, *rest))
            started = started.with_turns(ordered.state)
    return _start_round(started)


def _refuse_surprised_first(encounter: Encounter, side: Side) -> None:
    """Draw Steel, Combat, "Determine Who Goes First": "If all the creatures on one side are surprised,
    then a creature on the other side gets to act first" -- so a Director naming the first side can't name a
    side whose every living creature is surprised while the other side isn't."""
    state = encounter.turns

    def all_surprised(side_id: str) -> bool:
        living = [e for e in state.entries if e.side == side_id and not e.dead]
        return bool(living) and all(state.is_surprised(e.id) for e in living)

    others = [s.id for s in state.sides if s.id != side.id]
    if all_surprised(side.id) and not all(all_surprised(o) for o in others):
        raise EncounterError(
            f"Every creature of {side.name or side.id} is surprised, so the other side goes first: "
            "leave out first (or name the other side)."
        )


def choose_first_side(encounter: Encounter, side: str, by: Controller) -> Flow:
    """The side that won the d10 roll (`by`) chooses the side that goes first; the first round starts."""
    chosen = turns.choose_first(encounter.turns, side_named(encounter, side).id, by)
    return _start_round(encounter.with_turns(chosen.state), chosen.events)


def _turn_started(
    encounter: Encounter, events: Sequence[Event], dice: Dice, gains: Mapping[str, str]
) -> Flow:
    """The acting hero gains their heroic resource (Draw Steel, The Basics, "Heroic Resources"), and their
    hero-token rescue still open ends (`rescue.turn_started`); every hero may use a hero-token benefit again
    (Draw Steel, The Basics, "Hero Tokens": "only one hero token benefit per turn" — each turn, anyone's, is a
    new window, so a hero who spent one on their own turn can still spend one when hit on an enemy's)."""
    updated = encounter
    gained: list[tuple[str, int]] = []
    for event in events:
        if not isinstance(event, TurnStarted):
            continue
        # Defend and Aid Attack end at the start of this turn
        updated = baseline.turn_started(updated, event.entry)
        entry = updated.turns.entry(event.entry)
        ids = updated.creatures_in(entry) if entry is not None else ()
        updated = rescue.turn_started(updated, ids)  # a hero-token rescue is open until the hero's next turn
        heroes = [cid for cid in ids if updated.creature(cid).is_hero]
        res = dict(updated.resources)
        for hero in heroes:
            resource = HeroicResource(hero, value=res.get(hero, 0), gain=gains.get(hero, "0"))
            resource, amount = resources.resource_start_of_turn(dice, resource)
            res[hero] = resource.value
            if amount:
                gained.append((hero, amount))
        used = resources.new_turn(resources.HeroTokens(0, updated.tokens_used)).used_by
        updated = dataclasses.replace(updated, resources=res, tokens_used=used)
    return Flow(updated, tuple(events), tuple(gained))


def _settle(encounter: Encounter, events: tuple[Event, ...]) -> Flow:
    """After a transition: a round that ended starts the next one at once (`rounds.carry_on`)."""
    carried = rounds.carry_on(encounter, events)
    return Flow(carried.encounter, carried.events, malice_gained=carried.malice_gained, due=carried.due)


def act(
    encounter: Encounter,
    entry_id: str,
    by: Controller,
    dice: Dice,
    *,
    override: bool = False,
    gains: Mapping[str, str] | None = None,
) -> Flow:
    """`entry_id` starts its turn (a normal pick, or out of order with `override`); `gains` are the heroes'
    per-turn heroic resource gains ("2", "1d3"; creature id -> text)."""
    transition = turns.start_turn(encounter.turns, entry_id, by, override=override)
    return _turn_started(encounter.with_turns(transition.state), transition.events, dice, gains or {})


def end_turn(encounter: Encounter) -> Flow:
    """End the turn in progress (Draw Steel, Combat, "Conditions": end-of-turn conditions end, "save ends"
    conditions prompt a saving throw, owed until rolled: `bot.rules.encounter.saves`); a finished round starts
    the next one at once (`rounds.carry_on`: the bot has nothing to choose between rounds). Another
    creature's villain action may come now (Monsters, "Villain Actions"): the Director is reminded once a
    round (`objectives.remind_villain`)."""
    record = turns.current(encounter.turns)
    entry = encounter.turns.entry(record.entry) if record is not None else None
    transition = turns.end_turn(encounter.turns)
    ended = saves.owe_turn_end_saves(encounter.with_turns(transition.state), transition.events)
    took = entry.creature_ids if entry is not None else ()
    ended, remind = objectives.remind_villain(ended, took, encounter.turns.round)
    return dataclasses.replace(_settle(ended, transition.events), villain_reminder=remind)


def skip(encounter: Encounter, side: str) -> Flow:
    """The Director skips a side's remaining turns this round; a finished round starts the next one."""
    transition = turns.skip_side(encounter.turns, side_named(encounter, side).id)
    return _settle(encounter.with_turns(transition.state), transition.events)


def pass_part(encounter: Encounter, controller: Controller, entries: Collection[str] | None = None) -> Flow:
    """Fast/slow (Shadow of the Demon Lord, Combat, "Anatomy of a Round"): the controller's creatures that
    haven't chosen (only `entries` when given: one player's) wait for the slow turns ("we're done with fast
    turns"); a finished round starts the next one."""
    transition = turns.pass_part(encounter.turns, controller, entries)
    return _settle(encounter.with_turns(transition.state), transition.events)


def choose_speed(encounter: Encounter, entry_id: str, speed: Speed) -> Flow:
    """Fast/slow (Shadow of the Demon Lord, Combat, "Anatomy of a Round", "Fast Turns", "Slow Turns"): a
    creature's player (or the GM) chooses its fast or slow turn this round; a finished part or round moves
    on."""
    transition = turns.set_speed(encounter.turns, entry_id, speed)
    return _settle(encounter.with_turns(transition.state), transition.events)


@dataclass(frozen=True, slots=True)
class Finish:
    """The end of an encounter: the ended encounter, the heroes who earned a Victory, and the roster sheets
    to write back (roster hero id -> sheet). The heroes whose Victory waits for a server Director's award
    are the ended encounter's `unawarded`."""

    encounter: Encounter
    victors: tuple[str, ...]
    sheets: dict[str, HeroSheet]
    events: tuple[Event, ...] = ()


def finish(
    encounter: Encounter, *, victory: bool, sheets: Mapping[str, HeroSheet], award: bool = True
) -> Finish:
    """End the encounter (Draw Steel, The Basics, "Victories For Combat"; Combat, "Temporary Stamina", "End of
    Combat"): 1 Victory to each surviving hero when the objective was achieved (in victory, an objective
    whose counter ran out is achieved: `objectives.achieve_due`); temporary Stamina, surges,
    Malice and heroic resources cleared; roster heroes' sheets get their Stamina, Recoveries and Victories
    back. `sheets` are the roster heroes' sheets (roster hero id ->
    sheet); the result's `sheets` are those of the heroes in this encounter, updated.

    Victories are the campaign's, awarded by a server Director ("The Director awards Victories"): without
    `award` (an encounter's Director who isn't one ended it) the surviving roster heroes' Victory is not
    written but kept as the ended encounter's `unawarded`, for `award_unawarded` once a server Director
    confirms it."""
    transition = turns.end_encounter(encounter.turns)
    survivors = tuple(h.id for h in encounter.heroes() if not h.vitals.dead)
    progress: dict[str, Progress] = {}
    for creature_id, hero_id in encounter.roster.items():
        if hero_id in sheets:
            progress[creature_id] = sheets[hero_id].progress
    earned = resources.encounter_victories(progress, survivors, victory and award)
    unawarded = () if award or not victory else tuple(c for c in survivors if c in encounter.roster)
    creatures = tuple(
        dataclasses.replace(c, vitals=stamina.end_of_encounter(c.vitals)) for c in encounter.creatures
    )
    ended = dataclasses.replace(
        objectives.achieve_due(encounter) if victory else encounter,
        turns=transition.state,
        creatures=creatures,
        surges={},
        malice=resources.end_of_combat_malice(encounter.malice),
        resources={
            k: resources.resource_end_of_combat(HeroicResource(k, value=v)).value
            for k, v in encounter.resources.items()
        },
        tokens_used=(),
        unawarded=unawarded,
    )
    written = written_back(ended, sheets)
    for creature_id, hero_id in encounter.roster.items():
        if hero_id in written:
            sheet = written[hero_id]
            written[hero_id] = dataclasses.replace(sheet, progress=earned.get(creature_id, sheet.progress))
    # a hero with no roster sheet keeps no Victories: theirs is said at once either way
    victors = tuple(c for c in survivors if c not in unawarded) if victory else ()
    return Finish(ended, victors, written, transition.events)


def award_unawarded(ended: Encounter, sheets: Mapping[str, HeroSheet]) -> dict[str, HeroSheet]:
    """A server Director confirms the Victories an ended encounter kept unawarded (`finish` without
    `award`): 1 Victory to each of those heroes still on the roster (`sheets`: roster hero id -> sheet);
    the updated sheets by roster hero id."""
    out: dict[str, HeroSheet] = {}
    for creature_id in ended.unawarded:
        hero_id = ended.roster.get(creature_id)
        if hero_id is not None and hero_id in sheets:
            out[hero_id] = award_sheet_victories(sheets[hero_id], 1)
    return out
