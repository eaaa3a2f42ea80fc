"""What players see of an encounter's log while Director creatures' Stamina is hidden (`show_monster_stamina`
off): no Director creature's exact Stamina, neither in an event's summary nor in its undo patch.

A summary shows Stamina numbers (`Goblin regains 5 Stamina: Stamina 3 → 8`, `has Stamina set to 20`) only when
its subject, the creature it starts with, is one whose Stamina players see (`bot.ui.format.hidden_stamina`);
any other subject (a Director creature, one removed before the end, a name the log no longer knows) has the
numbers taken out, so the log fails closed. Undo patches hold whole states, so players get none.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable

from bot.rules.encounter import Encounter
from bot.store import Event
from bot.ui.format import hidden_stamina

STAMINA_SET = re.compile(r"Stamina set to -?\d+")
STAMINA_CHANGE = re.compile(r"Stamina -?\d+ → -?\d+")
UNDO_PREFIX = re.compile(r"Undo #\d+: ")
REMOVED = " removed"


def log_names(encounter: Encounter, events: Iterable[Event]) -> tuple[frozenset[str], frozenset[str]]:
    """The names whose Stamina players see (the end state's creatures outside `hidden_stamina`), and every
    other creature name the log knows: the end state's hidden ones and those removed on the way."""
    hidden = hidden_stamina(encounter, show_monster_stamina=False)
    shown = frozenset(c.id for c in encounter.creatures if c.id not in hidden)
    removed = {
        name
        for event in events
        if event.kind == "encounter.remove" and event.summary.endswith(REMOVED)
        for name in event.summary.removesuffix(REMOVED).split(", ")
    }
    return shown, frozenset((hidden | removed) - shown)


def players_summary(summary: str, shown: frozenset[str], others: frozenset[str]) -> str:
    """`summary` without exact Stamina unless its subject (the longest known name it starts with) is shown."""
    undo = UNDO_PREFIX.match(summary)
    text = summary[undo.end() :] if undo else summary
    subject = max((n for n in shown | others if text.startswith(f"{n} ")), key=len, default=None)
    if subject is not None and subject in shown:
        return summary
    return STAMINA_CHANGE.sub("Stamina hidden", STAMINA_SET.sub("Stamina set", summary))


def players_view(encounter: Encounter, events: Iterable[Event]) -> Callable[[Event], Event]:
    """The players' copy of each event of this encounter's log: the summary through `players_summary`, no
    undo patch."""
    shown, others = log_names(encounter, events)

    def hide(event: Event) -> Event:
        return dataclasses.replace(event, summary=players_summary(event.summary, shown, others), patch=None)

    return hide
