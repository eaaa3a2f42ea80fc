"""A channel's snapshot: the JSON data the store keeps of it (hero-token pool, roster, active encounter),
as read, remembered and checked before it is written.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from bot.store import validate
from bot.store.errors import InvalidValue
from bot.store.table import Table


def clone(value: Any) -> Any:
    """A deep copy of saved (validated) JSON data: an orjson round trip, in C, twice as fast as `marshal`'s
    and ten times a copy in Python. JSON writes every occurrence out in full, so the copy shares no list or
    dict between two places even where the original did (`codec.Reuse` makes such places)."""
    return orjson.loads(orjson.dumps(value))


def empty_snapshot() -> dict[str, Any]:
    return {"tokens": 0, "heroes": {}, "encounter": None}


@dataclass(frozen=True, slots=True)
class Loaded:
    """A channel as read (or cached): version 0 means the channel has no row yet. `snap` holds the
    channel's own hero-token pool and roster (its campaign's when it is the campaign's home) and its active
    encounter; `parent_id` is a thread's parent as stored, `campaign_id` the campaign a channel joined,
    `guild_id` the server the row belongs to (None: no row yet)."""

    version: int
    snap: dict[str, Any]
    encounter_id: int | None
    last_seq: int
    parent_id: int | None = None
    campaign_id: int | None = None
    guild_id: int | None = None


@dataclass(frozen=True, slots=True)
class Away:
    """A channel that plays in another channel's campaign (a thread, a channel that joined one): its own row
    as read (`channel`, whose encounter a command plays) and the campaign's home row (`home`, whose roster
    and hero-token pool it uses)."""

    channel: Loaded
    home_id: int
    home: Loaded

    def combined(self) -> Loaded:
        """What a command sees: the home's pool and roster with the channel's own encounter and version."""
        snap = {
            "tokens": self.home.snap["tokens"],
            "heroes": self.home.snap["heroes"],
            "encounter": self.channel.snap["encounter"],
        }
        return dataclasses.replace(self.channel, snap=snap)


def campaign_changed(patch: Any) -> bool:
    """Whether an event's patch (`patch.diff` of two snapshots) touches the pool or the roster."""
    if patch is None:
        return False
    changed = patch.get("d", {})
    return "tokens" in changed or "heroes" in changed


def _as_is(value: Any) -> Any:
    return value


def loaded_from(
    row: Sequence[Any], hero_rows: Sequence[Sequence[Any]], *, decode: Callable[[Any], Any] = _as_is
) -> Loaded:
    """A channel's `Loaded` from its read (`_READ_CHANNEL`'s row and `_READ_HEROES`' rows); `decode` turns
    the JSON columns (state, hero data) into data where the driver gives them as text."""
    version, tokens, parent_id, campaign_id, encounter_id, name, director_id, state, last_seq, guild_id = row
    roster = {h: {"owner_id": o, "name": hero, "data": decode(data)} for h, o, hero, data in hero_rows}
    snap: dict[str, Any] = {"tokens": tokens, "heroes": roster, "encounter": None}
    if encounter_id is None:
        return Loaded(version, snap, None, 0, parent_id, campaign_id, guild_id)
    snap["encounter"] = {"name": name, "director_id": director_id, "state": decode(state), "active": True}
    return Loaded(version, snap, encounter_id, last_seq, parent_id, campaign_id, guild_id)


def checked_snapshot(table: Table, before: Loaded) -> tuple[dict[str, Any], str | None]:
    """Validate the edited table and return it as JSON data (clean values are the table's own objects, not
    copies: the caller keeps them as committed), with its encounter state encoded (None: no encounter);
    `InvalidValue` on anything unsavable."""
    tokens = validate.tokens(table.tokens)
    hero_rows: dict[str, Any] = {}
    keys: set[str] = set()
    if not isinstance(table.heroes, dict):
        raise InvalidValue("The hero roster must be a mapping.")
    for hero_id, hero in table.heroes.items():
        if not isinstance(hero_id, str) or hero_id != getattr(hero, "id", None):
            raise InvalidValue("Heroes must be added with Table.add_hero.")
        if not 1 <= len(hero_id) <= 32 or not hero_id.isascii() or not hero_id.isalnum():
            raise InvalidValue("A hero id must be 1–32 letters or digits.")
        # what the change kept of a hero (its name, the very data object saved before) was checked when it
        # was saved
        saved = before.snap["heroes"].get(hero_id)
        hero_name = _kept_name(hero.name, saved) or validate.name(hero.name, "hero name")
        key = validate.name_key(hero_name)
        if key in keys:
            raise InvalidValue(
                f"There is already a hero named {hero_name} in this campaign — pick another name."
            )
        keys.add(key)
        saved_data = None if saved is None else saved["data"]
        data = validate.json_object(hero.data, "hero data", like=saved_data)
        if data is not saved_data:
            validate.check_size(data, "hero data")
        hero_rows[hero_id] = {
            "owner_id": validate.snowflake(hero.owner_id, "hero's owner id"),
            "name": hero_name,
            "data": data,
        }
    encounter = table.encounter
    if encounter is None:
        if before.snap["encounter"] is not None:
            raise InvalidValue("End an encounter with Table.end_encounter.")
        encounter_data, state_text = None, None
    else:
        if before.snap["encounter"] is not None and encounter.id != before.encounter_id:
            raise InvalidValue("End the encounter and start the next one in two separate commands.")
        if not isinstance(encounter.active, bool):
            raise InvalidValue("An encounter is active or not.")
        if before.snap["encounter"] is None and not encounter.active:
            raise InvalidValue("Start and end an encounter in two separate commands.")
        # parts of the state the change kept (the same objects: see `codec.Reuse`) are not checked again
        saved = before.snap["encounter"]
        state = validate.json_object(
            encounter.state, "encounter state", like=None if saved is None else saved["state"]
        )
        state_text = validate.check_size(state, "encounter state")
        encounter_data = {
            "name": _kept_name(encounter.name, saved) or validate.name(encounter.name, "encounter name"),
            "director_id": validate.snowflake(encounter.director_id, "Director's user id"),
            "state": state,
            "active": encounter.active,
        }
    return {"tokens": tokens, "heroes": hero_rows, "encounter": encounter_data}, state_text


def _kept_name(name: object, saved: dict[str, Any] | None) -> str | None:
    """`name` when it is the name saved before (checked then), else None."""
    if saved is not None and type(name) is str and name == saved["name"]:
        return name
    return None
