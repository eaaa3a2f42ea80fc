"""The rows one change writes, inside its open write transaction: the channel's compare-and-set, the
changed heroes, the encounter row and the event.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection

from bot.store import validate
from bot.store.campaigns import running_in
from bot.store.errors import StaleState
from bot.store.models import channels, encounters, events, heroes
from bot.store.patch import diff
from bot.store.prepared import Prepared, execute
from bot.store.snapshot import Away, Loaded
from bot.store.table import CampaignJudge, ChannelKey

_TEMP_NAME_KEY = "\x01"


class _EncodedJSON(sa.types.TypeDecorator[str]):
    """A JSON column's value passed already encoded (by `validate.dumps`): the store encodes an encounter's
    state once, to check its size, and writes that text instead of letting SQLAlchemy encode it again."""

    impl = sa.JSON
    cache_ok = True

    def bind_processor(self, dialect: sa.Dialect) -> None:
        return None


# The statements every command writes with, prepared once (`bot.store.prepared`: on SQLite they run on
# `sqlite3` itself, see docs/performance.md, *Speed-only code kept*); public for their test.
CAS_VERSION = Prepared(
    sa.update(channels)
    .where(
        channels.c.id == sa.bindparam("b_id"),
        channels.c.guild_id == sa.bindparam("b_guild"),  # another server's row is never written
        channels.c.version == sa.bindparam("b_version"),
    )
    .values(version=sa.bindparam("b_new"), tokens=sa.bindparam("b_tokens"), updated_at=sa.bindparam("b_now"))
)
UPDATE_ENCOUNTER = Prepared(
    sa.update(encounters)
    .where(encounters.c.id == sa.bindparam("b_id"), encounters.c.last_seq == sa.bindparam("b_last"))
    .values(
        name=sa.bindparam("b_name"),
        director_id=sa.bindparam("b_director"),
        state=sa.bindparam("b_state", type_=_EncodedJSON()),
        active=sa.bindparam("b_active"),
        last_seq=sa.bindparam("b_seq"),
        ended_at=sa.bindparam("b_ended", type_=encounters.c.ended_at.type),
    )
)
#: The common case of `UPDATE_ENCOUNTER`: an active encounter's state changed, nothing else. Assigning only
#: these columns leaves the rows of the indexes on the others alone (`active`, `ended_at`): SQLite rewrites
#: an index entry whenever its column is assigned, even to the same value (two pages fewer in each commit).
UPDATE_ENCOUNTER_STATE = Prepared(
    sa.update(encounters)
    .where(encounters.c.id == sa.bindparam("b_id"), encounters.c.last_seq == sa.bindparam("b_last"))
    .values(state=sa.bindparam("b_state", type_=_EncodedJSON()), last_seq=sa.bindparam("b_seq"))
)
INSERT_EVENT = Prepared(
    sa.insert(events),
    (
        "encounter_id",
        "channel_id",
        "at",
        "seq",
        "user_id",
        "kind",
        "summary",
        "details",
        "patch",
        "undoes",
        "interaction_id",
        "once_key",
    ),
)


@dataclass(frozen=True, slots=True)
class Written:
    """What one change writes besides its rows: who made it and how, the event's time, seq, summary, details
    and patch, and the interaction and once-key that keep it from being applied twice."""

    at: datetime
    seq: int
    user_id: int
    kind: str
    summary: str
    details: dict[str, Any]
    patch: Any
    undoes: int | None
    state_text: str | None  # the encounter state, encoded
    away: Away | None = None  # the channel plays in another channel's campaign
    home_changed: bool = False  # ... and this change writes that campaign's roster or pool
    interaction_id: int | None = None
    once_key: str | None = None
    judges: tuple[CampaignJudge, ...] = ()  # `Table.check_campaign`, run once the rows are claimed


def write_change(
    connection: Connection, key: ChannelKey, loaded: Loaded, after: dict[str, Any], written: Written
) -> int | None:
    """The rows of one change, in the open write transaction; returns the encounter id."""
    home_id = _claim(connection, key, loaded, after, written)
    _write_heroes(connection, home_id, loaded.snap["heroes"], after["heroes"], written.at)
    encounter_id = _write_encounter(connection, key, loaded, after["encounter"], written)
    params = {name: getattr(written, name) for name in _EVENT_FIELDS}
    execute(
        connection,
        INSERT_EVENT,
        {**params, "encounter_id": encounter_id, "channel_id": key.channel_id, "at": written.at},
    )
    return encounter_id


#: The event's columns `Written` holds under the same names (all but the encounter, channel and time).
_EVENT_FIELDS = INSERT_EVENT.keys[3:]


def _claim(
    connection: Connection, key: ChannelKey, loaded: Loaded, after: dict[str, Any], written: Written
) -> int:
    """Compare-and-set the channel's version (which also takes PostgreSQL's row lock), and its campaign
    home's when the change writes the home's roster or pool, then run the campaign-wide checks; the home's
    id. A channel playing in another's campaign keeps its own pool (set aside)."""
    away, now = written.away, written.at
    own_tokens = after["tokens"] if away is None else away.channel.snap["tokens"]
    parent_id = key.parent_id if loaded.parent_id is None else loaded.parent_id
    if not claim_row(connection, key, loaded.version, own_tokens, now, parent_id):
        raise StaleState()
    home_id = key.channel_id if away is None else away.home_id
    if away is not None and written.home_changed:
        home_key = ChannelKey(key.guild_id, home_id)
        if not claim_row(connection, home_key, away.home.version, after["tokens"], now, None):
            raise StaleState()
    # the campaign-wide checks, after the claims: on PostgreSQL the home's row lock makes a concurrent
    # change that relies on the roster (`Table.rely_on_roster`) wait, so what they read is what commits
    if written.judges:
        others = running_in(connection, key.guild_id, home_id, besides=key.channel_id)
        for judge in written.judges:
            judge(others)
    return home_id


def _write_encounter(
    connection: Connection,
    key: ChannelKey,
    loaded: Loaded,
    enc_after: dict[str, Any] | None,
    written: Written,
) -> int | None:
    """Insert the encounter a change begins, or update the one it changes (guarded by its `last_seq`); the
    encounter's id (None: the channel has none)."""
    enc_before = loaded.snap["encounter"]
    if enc_after is None:
        return loaded.encounter_id
    if enc_before is None:
        insert = sa.insert(encounters).values(
            guild_id=key.guild_id,
            channel_id=key.channel_id,
            name=enc_after["name"],
            director_id=enc_after["director_id"],
            state=enc_after["state"],
            active=True,
            last_seq=1,
            created_at=written.at,
        )
        return int(connection.execute(insert.returning(encounters.c.id)).scalar_one())
    params: dict[str, Any] = {
        "b_id": loaded.encounter_id,
        "b_last": loaded.last_seq,
        "b_seq": written.seq,
        "b_state": written.state_text,
    }
    same = enc_after["name"] == enc_before["name"] and enc_after["director_id"] == enc_before["director_id"]
    if enc_after["active"] and same:
        matched = execute(connection, UPDATE_ENCOUNTER_STATE, params)
    else:
        params["b_name"], params["b_director"] = enc_after["name"], enc_after["director_id"]
        params["b_active"] = enc_after["active"]
        params["b_ended"] = None if enc_after["active"] else written.at
        matched = execute(connection, UPDATE_ENCOUNTER, params)
    if matched != 1:
        raise StaleState()
    return loaded.encounter_id


def claim_row(
    connection: Connection, key: ChannelKey, version: int, tokens: int, now: datetime, parent_id: int | None
) -> bool:
    """Compare-and-set a channel row's version (inserting the row on a channel's first write, with its
    parent when it is a thread), setting its pool; False when another write got there first."""
    if version == 0:
        values = {"id": key.channel_id, "guild_id": key.guild_id, "tokens": tokens, "version": 1}
        insert = dialect_insert(connection, channels).values(**values, parent_id=parent_id, updated_at=now)
        return int(connection.execute(insert.on_conflict_do_nothing(index_elements=["id"])).rowcount) == 1
    params = {
        "b_id": key.channel_id,
        "b_guild": key.guild_id,
        "b_version": version,
        "b_new": version + 1,
        "b_tokens": tokens,
        "b_now": now,
    }
    return execute(connection, CAS_VERSION, params) == 1


def dialect_insert(connection: Connection, table: sa.Table) -> Any:
    """An INSERT in `connection`'s dialect (for `on_conflict_do_nothing`)."""
    return (sqlite_dialect.insert if connection.dialect.name == "sqlite" else pg_dialect.insert)(table)


def _write_heroes(
    connection: Connection,
    channel_id: int,
    before: dict[str, Any],
    after: dict[str, Any],
    now: datetime,
) -> None:
    removed = [hero_id for hero_id in before if hero_id not in after]
    added = [hero_id for hero_id in after if hero_id not in before]
    changed = [
        hero_id
        for hero_id in after
        if hero_id in before and diff(before[hero_id], after[hero_id]) is not None
    ]
    if removed:
        connection.execute(sa.delete(heroes).where(heroes.c.id.in_(removed)))
    renamed = [
        hero_id
        for hero_id in changed
        if validate.name_key(before[hero_id]["name"]) != validate.name_key(after[hero_id]["name"])
    ]
    if len(renamed) > 1:  # names may be swapped: park them on unique temporary keys first
        for hero_id in renamed:
            connection.execute(
                sa.update(heroes).where(heroes.c.id == hero_id).values(name_key=_TEMP_NAME_KEY + hero_id)
            )
    for hero_id in changed:
        row = after[hero_id]
        connection.execute(
            sa.update(heroes)
            .where(heroes.c.id == hero_id, heroes.c.channel_id == channel_id)
            .values(
                owner_id=row["owner_id"],
                name=row["name"],
                name_key=validate.name_key(row["name"]),
                data=row["data"],
                updated_at=now,
            )
        )
    if added:
        connection.execute(
            sa.insert(heroes),
            [
                {
                    "id": hero_id,
                    "channel_id": channel_id,
                    "owner_id": after[hero_id]["owner_id"],
                    "name": after[hero_id]["name"],
                    "name_key": validate.name_key(after[hero_id]["name"]),
                    "data": after[hero_id]["data"],
                    "created_at": now,
                    "updated_at": now,
                }
                for hero_id in added
            ],
        )
