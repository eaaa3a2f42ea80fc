"""An encounter's record: finding it, its tracker message, its log, the JSON export and the Markdown
transcript.

Each takes the caller's server (`guild_id`) and refuses (`OtherServer`) an encounter or channel of another
server in the same query that reads or writes it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from bot.store import validate
from bot.store.database import Database
from bot.store.errors import NoEncounter, OtherServer
from bot.store.models import encounters, events
from bot.store.table import EncounterInfo, Event

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_Record = TypeVar("_Record", bound="DataclassInstance")


class EventLog:
    """Trackers and the log of encounters."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._waits = db.waits

    async def set_tracker(
        self, encounter_id: int, channel_id: int, message_id: int, *, guild_id: int
    ) -> None:
        """Remember the tracker message of an encounter of the server `guild_id` (no event, no version
        bump)."""
        validate.snowflake(guild_id, "guild id")
        validate.snowflake(channel_id, "channel id")
        validate.snowflake(message_id, "message id")
        if not is_encounter_id(encounter_id):
            raise NoEncounter("That encounter no longer exists.")
        deadline = self._waits.deadline()
        anywhere = sa.select(encounters.c.id).where(encounters.c.id == encounter_id)

        def work(connection: Connection) -> int:
            result = connection.execute(
                sa.update(encounters)
                .where(encounters.c.id == encounter_id, encounters.c.guild_id == guild_id)
                .values(tracker_channel_id=channel_id, tracker_message_id=message_id)
            )
            if result.rowcount != 1 and connection.execute(anywhere).first() is not None:
                raise OtherServer.encounter()
            return int(result.rowcount)

        if await self._db.repeatable(work, deadline) != 1:  # idempotent: safe to repeat
            raise NoEncounter("That encounter no longer exists.")

    async def tracker_of(self, encounter_id: int, *, guild_id: int) -> tuple[int, int] | None:
        """Where the encounter's tracker message is, as (channel id, message id); None when it has none or
        the encounter does not exist, `OtherServer` when it is not the server `guild_id`'s. Just those
        columns: the trackers of a hundred channels waking at once read it each, and the whole row (its
        state) cost them more than the rest of the read."""
        validate.snowflake(guild_id, "guild id")
        if not is_encounter_id(encounter_id):
            return None
        columns = (
            encounters.c.guild_id,
            encounters.c.channel_id,
            encounters.c.tracker_channel_id,
            encounters.c.tracker_message_id,
        )

        def read(connection: Connection) -> Any:
            return connection.execute(sa.select(*columns).where(encounters.c.id == encounter_id)).first()

        row = await self._db.select(read)
        if row is not None and row.guild_id != guild_id:
            raise OtherServer.encounter()
        if row is None or row.tracker_message_id is None:
            return None
        return int(row.tracker_channel_id or row.channel_id), int(row.tracker_message_id)

    async def find_encounter(self, encounter_id: int, *, guild_id: int) -> EncounterInfo | None:
        """An encounter by id (active or ended), or None when it does not exist (any more); `OtherServer`
        when it is not the server `guild_id`'s."""
        validate.snowflake(guild_id, "guild id")
        if not is_encounter_id(encounter_id):
            return None

        def read(connection: Connection) -> Any:
            return connection.execute(sa.select(encounters).where(encounters.c.id == encounter_id)).first()

        row = await self._db.select(read)
        if row is None:
            return None
        if row.guild_id != guild_id:
            raise OtherServer.encounter()
        return _info(row)

    async def recent_encounters(self, channel_id: int, *, guild_id: int, limit: int) -> list[EncounterInfo]:
        """A channel's newest `limit` encounters (scenes included), newest first; `OtherServer` when the
        channel is not the server `guild_id`'s."""
        validate.snowflake(guild_id, "guild id")
        validate.snowflake(channel_id, "channel id")
        query = (
            sa.select(encounters)
            .where(encounters.c.channel_id == channel_id)
            .order_by(encounters.c.id.desc())
            .limit(max(0, limit))
        )

        def read(connection: Connection) -> Any:
            return connection.execute(query).all()

        rows = await self._db.select(read)
        if any(row.guild_id != guild_id for row in rows):
            raise OtherServer()
        return [_info(row) for row in rows]

    async def latest_encounter(self, channel_id: int, *, guild_id: int) -> int | None:
        """The id of a channel's newest encounter: the one running there, else the last one that ended (None
        when none ever ran there); `OtherServer` when the channel is not the server `guild_id`'s. A channel
        runs one encounter at a time: the running one is the newest."""
        validate.snowflake(guild_id, "guild id")
        validate.snowflake(channel_id, "channel id")
        query = (
            sa.select(encounters.c.id, encounters.c.guild_id)
            .where(encounters.c.channel_id == channel_id)
            .order_by(encounters.c.id.desc())
            .limit(1)
        )

        def read(connection: Connection) -> Any:
            return connection.execute(query).first()

        found = await self._db.select(read)
        if found is None:
            return None
        if found.guild_id != guild_id:
            raise OtherServer()
        return int(found.id)

    async def _encounter_or_error(self, encounter_id: int, guild_id: int) -> EncounterInfo:
        info = await self.find_encounter(encounter_id, guild_id=guild_id)
        if info is None:
            raise NoEncounter("That encounter no longer exists.")
        return info

    async def events(self, encounter_id: int, *, guild_id: int) -> list[Event]:
        """The encounter's log in order (seq 1 is its start); `undone_by` is filled in. `OtherServer` when
        the encounter is not the server `guild_id`'s."""
        await self._encounter_or_error(encounter_id, guild_id)
        # the log's own read checks the server too: an id freed by a prune may be taken again elsewhere
        query = (
            sa.select(events)
            .select_from(events.join(encounters, encounters.c.id == events.c.encounter_id))
            .where(events.c.encounter_id == encounter_id, encounters.c.guild_id == guild_id)
            .order_by(events.c.seq)
        )

        def read(connection: Connection) -> Sequence[Any]:
            return connection.execute(query).all()

        rows = await self._db.select(read)
        undone_by = {row.undoes: row.seq for row in rows if row.undoes is not None}
        return [event_of(row, undone_by.get(row.seq)) for row in rows]

    async def export_json(
        self, encounter_id: int, *, guild_id: int, hide: Callable[[Event], Event] | None = None
    ) -> str:
        """The encounter (of the server `guild_id`) and its whole log as a JSON document; with `hide` (a
        players' view), each event as `hide` gives it and no state."""
        info = await self._encounter_or_error(encounter_id, guild_id)
        log = await self.events(encounter_id, guild_id=guild_id)
        if hide is not None:
            log = [hide(e) for e in log]
            info = dataclasses.replace(info, state={})
        encounter = dataclasses.asdict(info)
        encounter["created_at"] = info.created_at.isoformat()
        encounter["ended_at"] = None if info.ended_at is None else info.ended_at.isoformat()
        document = {
            "format": "draw-steel-bot/encounter",
            "format_version": 1,
            "encounter": encounter,
            "events": [{**dataclasses.asdict(e), "at": e.at.isoformat()} for e in log],
        }
        return json.dumps(document, ensure_ascii=False, indent=2)

    async def transcript_markdown(
        self, encounter_id: int, *, guild_id: int, hide: Callable[[Event], Event] | None = None
    ) -> str:
        """A readable Markdown transcript of the encounter (of the server `guild_id`; meant as a file
        attachment, so mentions never ping); with `hide` (a players' view), each event as `hide` gives it."""
        info = await self._encounter_or_error(encounter_id, guild_id)
        log = await self.events(encounter_id, guild_id=guild_id)
        if hide is not None:
            log = [hide(e) for e in log]
        ended = "still running" if info.ended_at is None else f"ended {info.ended_at:%Y-%m-%d %H:%M} UTC"
        lines = [
            f"# {_md(info.name)}",
            "",
            f"Director <@{info.director_id}> · channel <#{info.channel_id}> · "
            f"started {info.created_at:%Y-%m-%d %H:%M} UTC · {ended}",
            "",
        ]
        for event in log:
            note = f" *(undone by #{event.undone_by})*" if event.undone_by is not None else ""
            lines.append(
                f"- **#{event.seq}** {event.at:%H:%M:%S} <@{event.user_id}> `{event.kind}` — "
                f"{_md(event.summary)}{note}"
            )
        return "\n".join(lines) + "\n"


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def is_encounter_id(value: object) -> bool:
    """Encounter ids are positive 32-bit integers (the column is INTEGER on both engines)."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 2**31 - 1


def _md(text: str) -> str:
    return " ".join(text.split())


def event_of(row: Any, undone_by: int | None) -> Event:
    """An `events` row as `Event`, with the seq of the change that undid it (None: none did)."""
    return _as(Event, row, at=_aware(row.at), undone_by=undone_by)


def _info(row: Any) -> EncounterInfo:
    """An `encounters` row as `EncounterInfo`."""
    ended_at = None if row.ended_at is None else _aware(row.ended_at)
    return _as(EncounterInfo, row, created_at=_aware(row.created_at), ended_at=ended_at)


def _as(kind: type[_Record], row: Any, **given: Any) -> _Record:
    """`row` as the dataclass `kind`: each field the row's column of the same name, but those `given`."""
    columns = {f.name: getattr(row, f.name) for f in dataclasses.fields(kind) if f.name not in given}
    return kind(**columns, **given)
