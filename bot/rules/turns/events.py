"""Events the turn transitions emit. The encounter layer hangs Malice and heroic-resource gains on
`RoundStarted` (round number) and `TurnStarted` (entry id); renderers show the rest."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.conditions import Condition, ConditionInstance
from bot.rules.turns.model import ActionKind, Controller, Entry, Speed, TurnState


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every turn-engine event."""


@dataclass(frozen=True, slots=True)
class EntryAdded(Event):
    entry: Entry


@dataclass(frozen=True, slots=True)
class EntryRemoved(Event):
    entry_id: str


@dataclass(frozen=True, slots=True)
class EntryChanged(Event):
    """Flags changed (unconscious, dead, revived, can't be surprised, turns per round)."""

    entry: Entry


@dataclass(frozen=True, slots=True)
class FirstTurnRolled(Event):
    roll: int
    threshold: int
    chooser: Controller


@dataclass(frozen=True, slots=True)
class FirstSideChosen(Event):
    side: str
    automatic: bool


@dataclass(frozen=True, slots=True)
class AgilityRecorded(Event):
    unit: str
    total: int
    tiebreaks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AgilitySwapped(Event):
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    round: int
    early: bool = False


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    entry: str
    side: str
    round: int
    override: bool = False
    speed: Speed | None = None


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    entry: str
    round: int


@dataclass(frozen=True, slots=True)
class SideSkipped(Event):
    side: str
    entries: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SpeedChosen(Event):
    entry: str
    speed: Speed


@dataclass(frozen=True, slots=True)
class ConditionAdded(Event):
    instance: ConditionInstance


@dataclass(frozen=True, slots=True)
class ConditionExpired(Event):
    """A condition ended: `reason` is "eot", "save", "token", "end-of-first-round", "encounter", "removed"."""

    creature: str
    condition: Condition
    custom_text: str
    reason: str


@dataclass(frozen=True, slots=True)
class SaveDue(Event):
    """The affected creature rolls a saving throw now (d10, 6+): call `roll_save`."""

    creature: str
    condition: Condition
    custom_text: str


@dataclass(frozen=True, slots=True)
class SaveRolled(Event):
    creature: str
    condition: Condition
    custom_text: str
    roll: int
    success: bool


@dataclass(frozen=True, slots=True)
class ActionUsed(Event):
    entry: str
    kind: ActionKind
    over_budget: bool = False


@dataclass(frozen=True, slots=True)
class EncounterEnded(Event):
    round: int


@dataclass(frozen=True, slots=True)
class Transition:
    """A transition's result: the new state and what happened, in order."""

    state: TurnState
    events: tuple[Event, ...] = ()
