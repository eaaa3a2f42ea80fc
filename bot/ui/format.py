"""Small text pieces every renderer shares: Stamina as `Stamina: 12/30`, a bar, a creature's state.

Contract labels: `Stamina: 12/30` is how a creature's Stamina is always written.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from typing import Any

from bot.replies import inert
from bot.rules.encounter import Encounter
from bot.rules.encounter.heroic import Gained
from bot.rules.resources import GainTrigger
from bot.rules.stamina import Vitals
from bot.rules.turns import Controller
from bot.store import Event

BAR_WIDTH = 10


def stamina_numbers(vitals: Vitals) -> str:
    """`12/30`, with temporary Stamina as `12/30 (+5 temp)`."""
    text = f"{vitals.stamina}/{vitals.max_stamina}"
    return f"{text} (+{vitals.temporary} temp)" if vitals.temporary else text


def stamina_text(vitals: Vitals) -> str:
    """`Stamina: 12/30` (the contract label)."""
    return f"Stamina: {stamina_numbers(vitals)}"


def bar(current: int, maximum: int, width: int = BAR_WIDTH) -> str:
    """A bar of `width` cells, full for each share of `maximum` left (empty at or below 0)."""
    if maximum <= 0:
        return "░" * width
    filled = max(0, min(width, round(width * current / maximum)))
    if current > 0 and filled == 0:
        filled = 1
    return "█" * filled + "░" * (width - filled)


def state_label(vitals: Vitals) -> str:
    """`dead`, `knocked out`, `dying`, `winded`, or `healthy` (Draw Steel, Combat, "Stamina")."""
    if vitals.dead:
        return "dead"
    if vitals.knocked_out:
        return "knocked out"
    if vitals.dying:
        return "dying"
    if vitals.winded:
        return "winded"
    return "healthy"


#: The states every view names a hero in, and a hero's player is pinged about (`state_label`).
GRAVE = ("dying", "dead", "knocked out")


def grave_state(vitals: Vitals) -> tuple[str, ...]:
    """(`dying`,), (`dead`,) or (`knocked out`,) when a creature is, else nothing (to splice into a list of
    details: `Stamina: -6/33, dying`)."""
    state = state_label(vitals)
    return (state,) if state in GRAVE else ()


def hidden_stamina(encounter: Encounter, show_monster_stamina: bool) -> frozenset[str]:
    """The creatures (and squads) whose exact Stamina players don't see: with the guild's
    `show_monster_stamina` setting off, every one on a side the Director controls that isn't a hero; they
    show only their state (`state_label`). With it on (the default), nobody's is hidden."""
    if show_monster_stamina:
        return frozenset()
    director_sides = {s.id for s in encounter.turns.sides if s.controller is Controller.DIRECTOR}
    ids: set[str] = set()
    for entry in encounter.turns.entries:
        if entry.side in director_sides:
            ids.add(entry.id)
            ids.update(entry.creature_ids)
    return frozenset(ids - {c.id for c in encounter.creatures if c.is_hero})


#: An event's details: whose exact Stamina its summary shows, and whether players saw it (the players' log).
STAMINA_OF = "stamina_of"
PLAYERS_SEE = "players_see"


def stamina_details(encounter: Encounter, creature_id: str) -> dict[str, Any]:
    """The details of an event whose summary shows `creature_id`'s exact Stamina in `encounter` (the state
    after the change): players see it unless the creature is one whose Stamina the setting may hide."""
    hidden = hidden_stamina(encounter, show_monster_stamina=False)
    return {STAMINA_OF: creature_id, PLAYERS_SEE: creature_id not in hidden}


# What players see of the log while Director creatures' Stamina is hidden (exts/encounter/_views.py says why)
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


#: Why a gain came, as a reply says it (`bot.rules.resources.GainTrigger`).
_GAIN_WHY = {
    GainTrigger.TAKE_DAMAGE: "took damage",
    GainTrigger.FIRST_DAMAGE_EACH_ROUND: "took damage, the first time this round",
    GainTrigger.WINDED_OR_DYING: "became winded or dying",
    GainTrigger.FIRST_WINDED_OR_DYING: "became winded or dying, the first time this encounter",
    GainTrigger.MALICE_ABILITY_EACH_ROUND: "the Director used an ability that costs Malice, the first time "
    "this round",
    GainTrigger.FIRST_HERO_WINDED: "a hero became winded, the first time this encounter",
    GainTrigger.NATURAL_19_OR_20: "a natural 19 or 20",
    GainTrigger.HERO_DIES: "a hero died",
}


def gain_line(gained: Gained, resource: str, *, bold: bool = True) -> str:
    """A heroic resource gain that came by itself: `**Quill** gains 1 Discipline (why): now 3.`"""
    why = _GAIN_WHY.get(gained.trigger, "a class trigger")
    if not bold:  # an event's summary: plain words
        return f"{gained.hero} gains {gained.amount} {resource} ({why}): now {gained.value}"
    return f"**{inert(gained.hero)}** gains {gained.amount} {inert(resource)} ({why}): now {gained.value}."
