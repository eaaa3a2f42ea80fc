"""The turn engine's roster: entries added, removed, knocked out, revived or killed (Draw Steel, Combat,
"Dying and Death", "Knocking Creatures Out": the dead and the unconscious take no turns). A removal or a
change that leaves nobody able to act ends the round (`steps.settle`; Draw Steel, Combat, "End of
Round").
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.conditions import Condition
from bot.rules.turns import errors as err
from bot.rules.turns.events import EntryAdded, EntryChanged, EntryRemoved, Event, Transition
from bot.rules.turns.model import Entry, TurnState
from bot.rules.turns.queries import current
from bot.rules.turns.steps import expire, find_entry, refuse_ended, settle


def add_entry(state: TurnState, entry: Entry) -> Transition:
    """Add a creature or squad (in any phase but ended). One added mid-round may act this round."""
    refuse_ended(state)
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
    entry = find_entry(state, entry_id)
    cur = current(state)
    if cur is not None and cur.entry == entry_id:
        raise err.TurnInProgress(entry_id)
    entries = tuple(e for e in state.entries if e.id != entry_id)
    units = {e.unit for e in entries}
    new = replace(state, entries=entries, initiative=tuple(i for i in state.initiative if i.unit in units))
    expired = expire(new, [c for c in state.conditions if c.creature_id in entry.creature_ids], "removed")
    return settle(expired.state, [EntryRemoved(entry_id), *expired.events])


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
    refuse_ended(state)
    entry = find_entry(state, entry_id)
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
        expired = expire(
            new, [c for c in new.conditions_of(entry_id) if c.condition is Condition.SURPRISED], "removed"
        )
        new = expired.state
        events += expired.events
    return settle(new, events)
