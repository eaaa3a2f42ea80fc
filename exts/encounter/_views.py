"""What players see of an encounter's log while Director creatures' Stamina is hidden (`show_monster_stamina`
off): no Director creature's exact Stamina, neither in an event's summary nor in its undo patch.

An event whose summary shows exact Stamina (`Goblin regains 5 Stamina: Stamina 3 → 8`, `has Stamina set to
20`) names in its details whose it is, by creature id, and whether players could see that creature's Stamina
then (`stamina_details`, written by the command that made the event). Its players' copy keeps the numbers
only when the details say so; an undo's copy follows the event it undoes. Any other event has the numbers
taken out, so the log fails closed: the summary's text never decides (a creature may be named "Goblin 1
regains"). Undo patches hold whole states, so players get none.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable

from bot.store import Event
from bot.ui.format import PLAYERS_SEE, STAMINA_OF

STAMINA_SET = re.compile(r"Stamina set to -?\d+")
STAMINA_CHANGE = re.compile(r"Stamina -?\d+ → -?\d+")


def players_see_numbers(event: Event, undone: Event | None = None) -> bool:
    """Whether players may see the exact Stamina in `event`'s summary: its details (an undo's: those of the
    event it undoes, `undone`) say whose it is and that players saw it."""
    details = (undone.details if undone is not None else {}) if event.undoes is not None else event.details
    return isinstance(details.get(STAMINA_OF), str) and details.get(PLAYERS_SEE) is True


def players_summary(summary: str, shown: bool) -> str:
    """`summary` without exact Stamina unless `shown` (`players_see_numbers`)."""
    if shown:
        return summary
    return STAMINA_CHANGE.sub("Stamina hidden", STAMINA_SET.sub("Stamina set", summary))


def players_view(events: Iterable[Event]) -> Callable[[Event], Event]:
    """The players' copy of each event of this encounter's log: the summary through `players_summary`, no
    undo patch."""
    by_seq = {event.seq: event for event in events}

    def hide(event: Event) -> Event:
        undone = by_seq.get(event.undoes) if event.undoes is not None else None
        summary = players_summary(event.summary, players_see_numbers(event, undone))
        return dataclasses.replace(event, summary=summary, patch=None)

    return hide
