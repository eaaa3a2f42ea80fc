"""The encounter aggregate the store keeps: creatures, minion squads, the turn state, Malice.

Rules: Draw Steel, Combat (the whole combat chapter) through the modules this builds on; Malice as the
Monsters book gives it (`bot.rules.resources`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from bot.rules.creature import Creature
from bot.rules.encounter.objective_state import Objective, VillainActions
from bot.rules.encounter.rescue_state import Rescue
from bot.rules.encounter.save_state import FailedSave, SaveOwed
from bot.rules.errors import RuleError
from bot.rules.names import name_key
from bot.rules.resources import Malice
from bot.rules.squads import Squad
from bot.rules.turns import DEFAULT_SIDES, Entry, Mode, Side, TurnState, new_encounter

CREATURES_MAX = 100
"""Most creatures (minions included) one encounter holds: a tracker must stay readable."""


fold = name_key
"""The one key names compare by (`bot.rules.names.name_key`), under the name the encounter modules use."""


class EncounterError(RuleError):
    """A request about the encounter's roster the rules refuse."""


class UnknownCreature(EncounterError):
    def __init__(self, name: str) -> None:
        super().__init__(
            f"No creature named '{name}' in this encounter: pick one from the list, or see /encounter status."
        )


class NameTaken(EncounterError):
    def __init__(self, name: str) -> None:
        super().__init__(f"'{name}' is already in this encounter (names ignore case): pick another name.")


@dataclass(frozen=True, slots=True)
class AidAttack:
    """An Aid Attack in force (Draw Steel, Combat, "Aid Attack"): `aider` chose `enemy` (creature ids)."""

    aider: str
    enemy: str


@dataclass(frozen=True, slots=True)
class RoundNews:
    """The rounds that started by themselves most recently (`rounds.carry_on`: a round over, however it
    ended): their numbers, the Malice they gave and the objectives whose counter hit 0. A change started
    rounds when the encounter's news differs from before it (`rounds.news_since`)."""

    rounds: tuple[int, ...]
    malice_gained: int = 0
    due: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Encounter:
    """One encounter.

    A frozen value: every operation returns a new one (`dataclasses.replace`), so a refused request changes
    nothing and the store's undo is exact.

    Identity: a creature's id is its (cleaned) name, unique in the encounter ignoring case, so every message
    the rules core writes names the creature as the table knows it. A minion squad's turn-engine entry has
    the squad's name as its id and its minions as `members`; a group is a name shared by entries of one side.

    `creatures` are every combatant (a squad's minions included) in the order they were added; `squads` the
    minion squads (their pools are the truth for minions' Stamina); `turns` the turn engine's state;
    `malice` the Director's Malice; `surges` each creature's unspent surges (creature id -> count, only
    non-zero); `resources` each hero's heroic resource value (creature id -> value); `roster` links a hero
    creature to the channel roster hero it came from (creature id -> roster hero id); `tokens_used` the heroes
    who used a hero-token benefit this turn; `defending` the entries whose Defend main action is in force,
    `aids` the Aid Attack maneuvers in force (`bot.rules.encounter.baseline`); `rescues` the open offers
    to spend 2 hero tokens to regain Stamina before a damage (`bot.rules.encounter.rescue`); `saves_due`
    the saving throws owed and `failed_saves` the heroes' failed saves still open to a hero token
    (`bot.rules.encounter.saves`); `resource_gained` the heroic resource gains already taken that come once
    a round (`bot.rules.encounter.heroic`); `objectives` the Director's objectives with their round counters,
    `villains` the villain actions named and used (creature id -> `VillainActions`;
    `bot.rules.encounter.objectives`), `villain_round` the round the last one was used in (one a round) and
    `villain_reminded` the round the Director was last reminded one is unused; `round_news` the rounds the
    newest round change started (`bot.rules.encounter.rounds`: so a reply to damage or a removal outside a
    turn can say so);
    `unawarded` the surviving roster heroes (creature ids) of an ended encounter whose Victory waits for a
    server Director to confirm it (`bot.rules.encounter.flow.finish` with `award` False);
    `carried_malice` the Malice a montage's close carried into this fight, added when combat begins.
    """

    turns: TurnState
    creatures: tuple[Creature, ...] = ()
    squads: tuple[Squad, ...] = ()
    malice: Malice = field(default_factory=Malice)
    surges: dict[str, int] = field(default_factory=dict)
    resources: dict[str, int] = field(default_factory=dict)
    roster: dict[str, str] = field(default_factory=dict)
    tokens_used: tuple[str, ...] = ()
    defending: tuple[str, ...] = ()
    aids: tuple[AidAttack, ...] = ()
    rescues: tuple[Rescue, ...] = ()
    saves_due: tuple[SaveOwed, ...] = ()
    failed_saves: tuple[FailedSave, ...] = ()
    resource_gained: tuple[str, ...] = ()
    objectives: tuple[Objective, ...] = ()
    villains: dict[str, VillainActions] = field(default_factory=dict)
    villain_round: int | None = None
    villain_reminded: int | None = None
    round_news: RoundNews | None = None
    unawarded: tuple[str, ...] = ()
    carried_malice: int = 0

    # -- lookups ----------------------------------------------------------------------------------------
    def creature(self, creature_id: str) -> Creature:
        """The creature with this exact id, or `UnknownCreature`."""
        for creature in self.creatures:
            if creature.id == creature_id:
                return creature
        raise UnknownCreature(creature_id)

    def find(self, name: str) -> Creature:
        """The creature named `name` (case-insensitive), or `UnknownCreature`."""
        for creature in self.creatures:  # ids are unique ignoring case: an exact one is the only match
            if creature.id == name:
                return creature
        key = fold(name)
        for creature in self.creatures:
            if fold(creature.id) == key:
                return creature
        raise UnknownCreature(" ".join(name.split())[:64])

    def has(self, name: str) -> bool:
        key = fold(name)
        return any(fold(c.id) == key for c in self.creatures) or any(
            fold(e.id) == key or (e.group is not None and fold(e.group) == key) for e in self.turns.entries
        )

    def squad(self, squad_id: str) -> Squad | None:
        return next((s for s in self.squads if s.id == squad_id), None)

    def entry_of(self, creature_id: str) -> Entry:
        """The turn-engine entry a creature is, or belongs to (a minion's squad)."""
        for entry in self.turns.entries:
            if creature_id in entry.creature_ids:
                return entry
        raise UnknownCreature(creature_id)

    def creatures_in(self, entry: Entry) -> tuple[str, ...]:
        """The creatures a turn entry is: itself, or a minion squad's minions (`Entry.creature_ids` also holds
        the squad's own id, which names no creature)."""
        return tuple(c for c in entry.creature_ids if any(x.id == c for x in self.creatures))

    def side_of(self, creature_id: str) -> Side:
        side = self.turns.side(self.entry_of(creature_id).side)
        assert side is not None  # the engine refuses entries of unknown sides
        return side

    def heroes(self) -> tuple[Creature, ...]:
        return tuple(c for c in self.creatures if c.is_hero)

    # -- edits --------------------------------------------------------------------------------------------
    def with_creature(self, new: Creature) -> Encounter:
        """This encounter with `new` replacing the creature of the same id."""
        return dataclasses.replace(
            self, creatures=tuple(new if c.id == new.id else c for c in self.creatures)
        )

    def with_squad(self, new: Squad) -> Encounter:
        return dataclasses.replace(self, squads=tuple(new if s.id == new.id else s for s in self.squads))

    def with_turns(self, turns: TurnState) -> Encounter:
        return dataclasses.replace(self, turns=turns)


def new_encounter_state(
    mode: Mode = Mode.DRAW_STEEL, sides: tuple[Side, ...] = DEFAULT_SIDES, *, enforce_actions: bool = False
) -> Encounter:
    """An empty encounter in setup (see `bot.rules.turns.new_encounter` for the sides each mode takes)."""
    return Encounter(turns=new_encounter(mode, sides, enforce_actions=enforce_actions))
