"""The turn engine's state: one small, immutable, serialisable model for every turn structure.

Everything that can be derived (who picks next, who may act, how many turns an entry has taken, the part of a
fast/slow round) is derived in `queries.py` from this state and never stored twice.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from bot.rules.conditions import Condition, ConditionInstance
from bot.rules.turns.errors import BadSetup


class Mode(enum.StrEnum):
    """The four turn structures (Draw Steel, Combat, "Combat Round" / "Alternative Turn Order",
    Teams Combat, "Initiative and Rounds", Shadow of the Demon Lord, Combat, "Anatomy of a Round")."""

    DRAW_STEEL = "draw-steel"
    AGILITY = "agility"
    TEAMS = "teams"
    FAST_SLOW = "fast-slow"


class Controller(enum.StrEnum):
    """Who commands a side: the players or the Director (the GM in the other texts)."""

    PLAYERS = "players"
    DIRECTOR = "director"


class EntryKind(enum.StrEnum):
    CREATURE = "creature"
    SQUAD = "squad"


class Speed(enum.StrEnum):
    """Shadow of the Demon Lord, Combat: a fast turn is an action OR a move; a slow turn an action AND a
    move."""

    FAST = "fast"
    SLOW = "slow"


class Phase(enum.StrEnum):
    SETUP = "setup"
    IN_ROUND = "in-round"
    BETWEEN_ROUNDS = "between-rounds"
    ENDED = "ended"


class ActionKind(enum.StrEnum):
    """Action economy units (Draw Steel, Combat, "Taking a Turn"; Teams Combat, "Actions in Combat";
    Shadow of the Demon Lord, Combat, "Fast Turns" / "Slow Turns")."""

    MAIN = "main"
    MANEUVER = "maneuver"
    MOVE = "move"
    FREE_MANEUVER = "free-maneuver"
    TRIGGERED = "triggered"
    FREE_TRIGGERED = "free-triggered"
    ACTION = "action"
    REACTION = "reaction"


@dataclass(frozen=True, slots=True)
class Side:
    """A side (Draw Steel, fast/slow) or team (teams); the order of `TurnState.sides` is teams' initiative."""

    id: str
    controller: Controller
    name: str = ""


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing that takes turns: a creature or a minion squad (`members` are its minions' ids).

    `group` names the enemy group it belongs to (Draw Steel, Combat, "Enemies Act In Groups"): a group is
    one pick and its members act one after another. `turns_per_round` is 2 for solo creatures (and, in
    fast/slow, a creature that gets both a fast and a slow turn)."""

    id: str
    side: str
    kind: EntryKind = EntryKind.CREATURE
    name: str = ""
    group: str | None = None
    members: tuple[str, ...] = ()
    turns_per_round: int = 1
    cannot_be_surprised: bool = False
    unconscious: bool = False
    dead: bool = False
    speed: Speed | None = None

    @property
    def unit(self) -> str:
        """The id of what is picked: the group, or the entry itself."""
        return self.group if self.group is not None else self.id

    @property
    def creature_ids(self) -> tuple[str, ...]:
        """Every creature whose conditions end at this entry's turn end (the entry and its minions)."""
        return (self.id, *self.members)


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn taken (or in progress) this round. `override` marks an out-of-order turn (it uses up the
    entry's turn but doesn't count as its side's pick); `speed` is the part of a fast/slow round."""

    entry: str
    side: str
    group: str | None = None
    override: bool = False
    speed: Speed | None = None
    ended: bool = False
    used: tuple[ActionKind, ...] = ()


@dataclass(frozen=True, slots=True)
class FirstTurn:
    """Draw Steel, Combat, "Determine Who Goes First": the d10 roll (None when one side was all
    surprised), the threshold it had to meet, who chooses, and the chosen side."""

    roll: int | None = None
    threshold: int = 6
    chooser: Controller | None = None
    side: str | None = None


@dataclass(frozen=True, slots=True)
class Initiative:
    """An Agility test total for a unit (a hero, an enemy, or an enemy group) plus tie-break rerolls."""

    unit: str
    total: int
    tiebreaks: tuple[int, ...] = ()

    @property
    def sort_key(self) -> tuple[int, ...]:
        return (-self.total, *(-t for t in self.tiebreaks))


@dataclass(frozen=True, slots=True)
class TurnState:
    """The whole turn engine state. `turns` are this round's turns; `skipped` the entries whose remaining
    turns this round the Director skipped; `reacted` the creatures that used their triggered action
    (reaction) this round; `conditions` every condition in force, keyed by creature id."""

    mode: Mode = Mode.DRAW_STEEL
    sides: tuple[Side, ...] = ()
    entries: tuple[Entry, ...] = ()
    phase: Phase = Phase.SETUP
    round: int = 0
    first: FirstTurn | None = None
    initiative: tuple[Initiative, ...] = ()
    turns: tuple[TurnRecord, ...] = ()
    skipped: tuple[str, ...] = ()
    reacted: tuple[str, ...] = ()
    conditions: tuple[ConditionInstance, ...] = ()
    enforce_actions: bool = False

    def entry(self, entry_id: str) -> Entry | None:
        return next((e for e in self.entries if e.id == entry_id), None)

    def side(self, side_id: str) -> Side | None:
        return next((s for s in self.sides if s.id == side_id), None)

    def with_entry(self, new: Entry) -> TurnState:
        return replace(self, entries=tuple(new if e.id == new.id else e for e in self.entries))

    def conditions_of(self, creature_id: str) -> tuple[ConditionInstance, ...]:
        return tuple(c for c in self.conditions if c.creature_id == creature_id)

    def is_surprised(self, creature_id: str) -> bool:
        return any(c.condition is Condition.SURPRISED for c in self.conditions_of(creature_id))


DEFAULT_SIDES = (
    Side("heroes", Controller.PLAYERS, "Heroes"),
    Side("director", Controller.DIRECTOR, "Director"),
)


def new_encounter(
    mode: Mode = Mode.DRAW_STEEL, sides: tuple[Side, ...] = DEFAULT_SIDES, *, enforce_actions: bool = False
) -> TurnState:
    """An empty encounter in setup. Draw Steel and Agility need exactly one players' side and one Director's
    side; teams need at least two teams, in initiative order; fast/slow needs at least one side."""
    ids = [s.id for s in sides]
    if len(set(ids)) != len(ids) or not sides:
        raise BadSetup("Give each side a different id.")
    if mode in (Mode.DRAW_STEEL, Mode.AGILITY) and sorted(s.controller for s in sides) != [
        Controller.DIRECTOR,
        Controller.PLAYERS,
    ]:
        raise BadSetup("Draw Steel has two sides: the heroes' (players) and the Director's.")
    if mode is Mode.TEAMS and len(sides) < 2:
        raise BadSetup("Teams combat needs at least two teams.")
    return TurnState(mode=mode, sides=sides, enforce_actions=enforce_actions)
