"""The working copy a command edits (`Table`) and what `Store.mutate` takes and returns.

The store never knows the rules' shapes: hero `data` and encounter `state` are the rules core's codec data
(JSON-compatible dicts), kept and diffed as they are.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Literal, TypeVar

from bot.store import validate
from bot.store.errors import EncounterExists, InvalidValue, NoEncounter

T = TypeVar("T")

#: The key of an encounter row's state data that names what runs in the channel (a montage, a
#: negotiation); absent for a combat encounter, so the rows written before it stay valid.
SCENE_KIND = "kind"
#: The kind of a state without `SCENE_KIND`.
COMBAT = "encounter"


def scene_kind(state: dict[str, Any]) -> str:
    """What an encounter row's state is: `COMBAT`, or the kind its data names."""
    kind = state.get(SCENE_KIND, COMBAT)
    return kind if isinstance(kind, str) else COMBAT


MaliceRounding = Literal["down", "nearest", "up"]

#: A check a change asks the store to make in its write transaction (`Table.check_campaign`): given the
#: campaign's running encounters in other channels, as (channel id, state data), it raises to refuse.
CampaignJudge = Callable[[Sequence[tuple[int, dict[str, Any]]]], None]


@dataclass(frozen=True, slots=True)
class ChannelKey:
    """Where a command plays: a guild's channel or thread. Its encounter is the channel's own; its roster,
    hero-token pool and Victories are its campaign's (docs/store.md, *Campaigns*): a thread plays in its
    parent channel's campaign, a channel in its own or the one it joined.

    `parent_id` (a thread's parent channel, when the caller knows it) and `name` (the thread's name, for a
    hero kept apart when a thread's old roster is merged into its parent's campaign) are not part of the
    key's identity."""

    guild_id: int
    channel_id: int
    parent_id: int | None = field(default=None, compare=False)
    name: str | None = field(default=None, compare=False)


@dataclass(slots=True)
class Hero:
    """A hero of the channel's roster; `id` is stable (a hex string), `data` the rules core's codec data."""

    id: str
    owner_id: int
    name: str
    data: dict[str, Any]


@dataclass(slots=True)
class EncounterDoc:
    """The channel's encounter as a command sees it; `id` is None until the start is committed."""

    id: int | None
    name: str
    director_id: int
    state: dict[str, Any]
    active: bool = True

    @property
    def kind(self) -> str:
        """What runs here (`scene_kind`): a combat encounter, a montage..."""
        return scene_kind(self.state)


@dataclass(frozen=True, slots=True)
class Change(Generic[T]):
    """What a `change` function returns: the event's one-line summary, a value for the caller, details."""

    summary: str
    value: T
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Committed(Generic[T]):
    """The result of `mutate`/`undo`: the change's value, the channel's version, the event's seq (None when
    nothing changed) and the encounter the event belongs to."""

    value: T
    version: int
    seq: int | None
    encounter_id: int | None


@dataclass(slots=True)
class Table:
    """A mutable working copy of one channel: hero tokens, the hero roster, the active encounter; and what
    the change asks the store to check as it writes (`check_campaign`, `rely_on_roster`)."""

    key: ChannelKey
    version: int
    tokens: int = 0
    heroes: dict[str, Hero] = field(default_factory=dict)
    encounter: EncounterDoc | None = None
    judges: list[CampaignJudge] = field(default_factory=list)
    relies_on_roster: bool = False

    # -- what the write checks ----------------------------------------------------------------------------
    def check_campaign(self, judge: CampaignJudge) -> None:
        """Have the store call `judge` inside this change's write transaction, after it has claimed the
        channel's (and the campaign home's) row, with the campaign's running encounters in other channels:
        a check about the whole campaign (is this hero fighting elsewhere?) then holds when the change
        commits, not only when the command looked. This table's own encounter is the change's to check."""
        self.judges.append(judge)

    def rely_on_roster(self) -> None:
        """This change relies on the roster as it read it (it brings a roster hero into the encounter): its
        write compares-and-sets the campaign home's version too, so a roster change committed meanwhile (the
        hero deleted, in any process) makes it run again on the new roster, and the home's checks
        (`check_campaign`) wait for it."""
        self.relies_on_roster = True

    # -- encounters -------------------------------------------------------------------------------------
    def begin_encounter(self, name: str, director_id: int, state: dict[str, Any]) -> EncounterDoc:
        """Start an encounter here; `EncounterExists` when one is running."""
        if self.encounter is not None:
            if self.encounter.active and self.encounter.kind != COMBAT:
                kind = self.encounter.kind
                raise EncounterExists(
                    f"A {kind} is already running in this channel — end it with /{kind} end, or use a thread."
                )
            if self.encounter.active:
                raise EncounterExists()
            raise InvalidValue("End the encounter and start the next one in two separate commands.")
        self.encounter = EncounterDoc(None, name, director_id, state)
        return self.encounter

    def require_encounter(self) -> EncounterDoc:
        """The active encounter, or `NoEncounter`."""
        if self.encounter is None or not self.encounter.active:
            raise NoEncounter()
        return self.encounter

    def end_encounter(self) -> EncounterDoc:
        """End the active encounter (its log is kept); `NoEncounter` when there is none."""
        encounter = self.require_encounter()
        encounter.active = False
        return encounter

    # -- heroes -----------------------------------------------------------------------------------------
    def hero_named(self, name: str) -> Hero | None:
        """The hero with this name (case-insensitive), if any."""
        key = validate.name_key(name.strip())
        for hero in self.heroes.values():
            if validate.name_key(hero.name) == key:
                return hero
        return None

    def add_hero(self, owner_id: int, name: str, data: dict[str, Any]) -> Hero:
        """Add a hero to the roster; `InvalidValue` when the name is taken (case-insensitively), the
        campaign already has `validate.HERO_LIMIT` heroes, or `owner_id` already has
        `validate.HEROES_PER_MEMBER` of them."""
        clean = validate.name(name, "hero name")
        if self.hero_named(clean) is not None:
            raise InvalidValue(f"There is already a hero named {clean} in this campaign — pick another name.")
        if len(self.heroes) >= validate.HERO_LIMIT:
            raise InvalidValue(
                f"This campaign already has {validate.HERO_LIMIT} heroes, the most it can hold: "
                "delete one with /hero delete first."
            )
        if sum(1 for h in self.heroes.values() if h.owner_id == owner_id) >= validate.HEROES_PER_MEMBER:
            raise InvalidValue(
                f"That player already has {validate.HEROES_PER_MEMBER} heroes in this campaign, the most one "
                "member may have: delete one with /hero delete first."
            )
        hero = Hero(uuid.uuid4().hex, owner_id, clean, data)
        self.heroes[hero.id] = hero
        return hero

    def remove_hero(self, hero_id: str) -> Hero:
        """Remove a hero from the roster."""
        try:
            return self.heroes.pop(hero_id)
        except KeyError:
            raise InvalidValue("That hero is not in this campaign's roster.") from None

    # -- snapshots ----------------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The table as JSON data (what events' patches diff)."""
        encounter = self.encounter
        return {
            "tokens": self.tokens,
            "heroes": {
                hero_id: {"owner_id": hero.owner_id, "name": hero.name, "data": hero.data}
                for hero_id, hero in self.heroes.items()
            },
            "encounter": None
            if encounter is None
            else {
                "name": encounter.name,
                "director_id": encounter.director_id,
                "state": encounter.state,
                "active": encounter.active,
            },
        }

    @classmethod
    def from_snapshot(
        cls, key: ChannelKey, version: int, snap: dict[str, Any], encounter_id: int | None
    ) -> Table:
        """Build a table from `snapshot()` data (the data is used as is: pass a copy)."""
        encounter = snap["encounter"]
        return cls(
            key=key,
            version=version,
            tokens=snap["tokens"],
            heroes={
                hero_id: Hero(hero_id, row["owner_id"], row["name"], row["data"])
                for hero_id, row in snap["heroes"].items()
            },
            encounter=None
            if encounter is None
            else EncounterDoc(
                encounter_id,
                encounter["name"],
                encounter["director_id"],
                encounter["state"],
                encounter["active"],
            ),
        )


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A guild's settings (defaults when the guild never changed them)."""

    guild_id: int
    director_role_id: int | None = None
    turn_pings: bool = True
    tokens_reset_per_session: bool = True
    malice_rounding: MaliceRounding = "down"
    #: off by default: players see a Director creature's state, not its numbers (a server that played before
    #: hiding became the default keeps its row with it on, revision 0009_keep_shown_stamina)
    show_monster_stamina: bool = False
    enforce_action_economy: bool = True
    auto_saves: bool = True
    #: seconds a side may wait to pick before it is pinged again (None: off); `exts.reminders._service`
    nudge_after: int | None = None
    #: seconds the players may take to agree who goes next before the Director picks (None: off)
    argument_timer: int | None = None
    #: players see a negotiation's Interest and Patience as numbers (False: as words)
    negotiation_numbers: bool = True


#: The limits of the timed settings, in seconds (inclusive).
NUDGE_RANGE = (15 * 60, 7 * 24 * 3600)
ARGUMENT_RANGE = (10, 10 * 60)


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of an encounter's log."""

    encounter_id: int | None
    channel_id: int
    seq: int
    user_id: int
    at: datetime
    kind: str
    summary: str
    details: dict[str, Any]
    patch: dict[str, Any] | None
    undoes: int | None
    undone_by: int | None


@dataclass(frozen=True, slots=True)
class EncounterInfo:
    """An encounter row as `find_encounter` returns it (for persistent buttons and trackers)."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    director_id: int
    state: dict[str, Any]
    active: bool
    last_seq: int
    tracker_channel_id: int | None
    tracker_message_id: int | None
    created_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True, slots=True)
class CampaignInfo:
    """The campaign a channel plays in (`Store.campaign`): `home_id` is the channel whose campaign it is
    (the channel itself when it plays in its own), `members` the channels that joined it, `heroes` and
    `tokens` its roster's size and pool; `own_heroes` and `own_tokens` what the channel's own campaign holds
    while it plays in another (set aside until it leaves)."""

    channel_id: int
    home_id: int
    thread: bool
    members: tuple[int, ...]
    heroes: int
    tokens: int
    own_heroes: int = 0
    own_tokens: int = 0
