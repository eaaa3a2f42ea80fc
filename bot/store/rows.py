"""The rows one change writes, inside its open write transaction: the channel's compare-and-set, the
changed heroes, the encounter row and the event.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from bot.store import validate
from bot.store.core import StoreCore
from bot.store.errors import StaleState
from bot.store.models import channels, encounters, events, heroes
from bot.store.patch import diff
from bot.store.prepared import Prepared, execute
from bot.store.snapshot import Away, Loaded
from bot.store.table import ChannelKey

_TEMP_NAME_KEY = "\x01"


class _EncodedJSON(sa.types.TypeDecorator[str]):
    """A JSON column's value passed already encoded (by `validate.dumps`): the store encodes an encounter's
    state once, to check its size, and writes that text instead of letting SQLAlchemy encode it again."""

    impl = sa.JSON
    cache_ok = True

    def bind_processor(self, dialect: sa.Dialect) -> None:
        return None


# Statements of the hot path, prepared once (`bot.store.prepared`).
_CAS_VERSION = Prepared(
    sa.update(channels)
    .where(channels.c.id == sa.bindparam("b_id"), channels.c.version == sa.bindparam("b_version"))
    .values(version=sa.bindparam("b_new"), tokens=sa.bindparam("b_tokens"), updated_at=sa.bindparam("b_now"))
)
_UPDATE_ENCOUNTER = Prepared(
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
#: The common case of `_UPDATE_ENCOUNTER`: an active encounter's state changed, nothing else. Assigning only
#: these columns leaves the rows of the indexes on the others alone (`active`, `ended_at`): SQLite rewrites
#: an index entry whenever its column is assigned, even to the same value (two pages fewer in each commit).
_UPDATE_ENCOUNTER_STATE = Prepared(
    sa.update(encounters)
    .where(encounters.c.id == sa.bindparam("b_id"), encounters.c.last_seq == sa.bindparam("b_last"))
    .values(state=sa.bindparam("b_state", type_=_EncodedJSON()), last_seq=sa.bindparam("b_seq"))
)
_INSERT_EVENT = Prepared(
    sa.insert(events),
    (
        "encounter_id",
        "channel_id",
        "seq",
        "user_id",
        "at",
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
    """What one change writes besides its rows: the event's time, seq, summary, details and patch, and the
    interaction and once-key that keep it from being applied twice."""

    at: datetime
    seq: int
    summary: str
    details: dict[str, Any]
    patch: Any
    undoes: int | None
    state_text: str | None  # the encounter state, encoded
    away: Away | None = None  # the channel plays in another channel's campaign
    home_changed: bool = False  # ... and this change writes that campaign's roster or pool
    interaction_id: int | None = None
    once_key: str | None = None


class Rows(StoreCore):
    """Writing one change's rows (`_write_change`), run by `Writes` as one transaction."""

    def _write_change(
        self,
        connection: Connection,
        key: ChannelKey,
        user_id: int,
        kind: str,
        loaded: Loaded,
        after: dict[str, Any],
        written: Written,
    ) -> int | None:
        """The rows of one change, in the open write transaction; returns the encounter id."""
        channel_id = key.channel_id
        now, version, seq = written.at, loaded.version + 1, written.seq
        enc_before = loaded.snap["encounter"]
        enc_after = after["encounter"]
        encounter_id = loaded.encounter_id
        away = written.away
        # 1. compare-and-set the channel version (also takes PostgreSQL's row lock); a channel playing in
        # another's campaign keeps its own pool (set aside), and the home's row is compared-and-set too when
        # its roster or pool changes.
        own_tokens = after["tokens"] if away is None else away.channel.snap["tokens"]
        parent_id = key.parent_id if loaded.parent_id is None else loaded.parent_id
        if not self._claim_row(connection, key, loaded.version, own_tokens, now, parent_id):
            raise StaleState()
        home_id = channel_id if away is None else away.home_id
        if away is not None and written.home_changed:
            home_key = ChannelKey(key.guild_id, home_id)
            if not self._claim_row(connection, home_key, away.home.version, after["tokens"], now, None):
                raise StaleState()
        # 2. heroes: only the changed rows.
        self._write_heroes(connection, home_id, loaded.snap["heroes"], after["heroes"], now)
        # 3. the encounter row and the event's seq.
        if enc_before is None and enc_after is not None:
            encounter_id = (
                connection.execute(
                    sa.insert(encounters)
                    .values(
                        guild_id=key.guild_id,
                        channel_id=channel_id,
                        name=enc_after["name"],
                        director_id=enc_after["director_id"],
                        state=enc_after["state"],
                        active=True,
                        last_seq=1,
                        created_at=now,
                    )
                    .returning(encounters.c.id)
                )
            ).scalar_one()
            seq = 1
        elif enc_before is not None and enc_after is not None:
            seq = loaded.last_seq + 1
            params: dict[str, Any] = {
                "b_id": encounter_id,
                "b_last": loaded.last_seq,
                "b_seq": seq,
                "b_state": written.state_text,
            }
            if (
                enc_after["active"]
                and enc_after["name"] == enc_before["name"]
                and enc_after["director_id"] == enc_before["director_id"]
            ):
                matched = execute(connection, _UPDATE_ENCOUNTER_STATE, params)
            else:
                params["b_name"], params["b_director"] = enc_after["name"], enc_after["director_id"]
                params["b_active"] = enc_after["active"]
                params["b_ended"] = None if enc_after["active"] else now
                matched = execute(connection, _UPDATE_ENCOUNTER, params)
            if matched != 1:
                raise StaleState()
        else:
            seq = version
        # 4. the event.
        execute(
            connection,
            _INSERT_EVENT,
            {
                "encounter_id": encounter_id,
                "channel_id": channel_id,
                "seq": seq,
                "user_id": user_id,
                "at": now,
                "kind": kind,
                "summary": written.summary,
                "details": written.details,
                "patch": written.patch,
                "undoes": written.undoes,
                "interaction_id": written.interaction_id,
                "once_key": written.once_key,
            },
        )
        return encounter_id

    def _claim_row(
        self,
        connection: Connection,
        key: ChannelKey,
        version: int,
        tokens: int,
        now: datetime,
        parent_id: int | None,
    ) -> bool:
        """Compare-and-set a channel row's version (inserting the row on a channel's first write, with its
        parent when it is a thread), setting its pool; False when another write got there first."""
        if version == 0:
            values = {"id": key.channel_id, "guild_id": key.guild_id, "tokens": tokens, "version": 1}
            insert = self._insert(channels).values(**values, parent_id=parent_id, updated_at=now)
            return int(connection.execute(insert.on_conflict_do_nothing(index_elements=["id"])).rowcount) == 1
        params = {
            "b_id": key.channel_id,
            "b_version": version,
            "b_new": version + 1,
            "b_tokens": tokens,
            "b_now": now,
        }
        return execute(connection, _CAS_VERSION, params) == 1

    def _write_heroes(
        self,
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
