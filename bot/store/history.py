"""An encounter's record: finding it, its tracker message, its log, the JSON export and the Markdown
transcript.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from bot.store import validate
from bot.store.core import StoreCore
from bot.store.errors import NoEncounter
from bot.store.models import encounters, events
from bot.store.table import EncounterInfo, Event


class History(StoreCore):
    """Trackers and the log of encounters."""

    async def set_tracker(self, encounter_id: int, channel_id: int, message_id: int) -> None:
        """Remember the tracker message of an encounter (no event, no version bump)."""
        validate.snowflake(channel_id, "channel id")
        validate.snowflake(message_id, "message id")
        if not is_encounter_id(encounter_id):
            raise NoEncounter("That encounter no longer exists.")
        deadline = self._deadline()

        def work(connection: Connection) -> int:
            result = connection.execute(
                sa.update(encounters)
                .where(encounters.c.id == encounter_id)
                .values(tracker_channel_id=channel_id, tracker_message_id=message_id)
            )
            return int(result.rowcount)

        async def write() -> int:
            return await self._transaction(work, deadline)

        if await self._retrying(write, deadline) != 1:  # idempotent: safe to repeat
            raise NoEncounter("That encounter no longer exists.")

    async def tracker_of(self, encounter_id: int) -> tuple[int, int] | None:
        """Where the encounter's tracker message is, as (channel id, message id); None when it has none or
        the encounter does not exist. Just those two columns: the trackers of a hundred channels waking at
        once read it each, and the whole row (its state) cost them more than the rest of the read."""
        if not is_encounter_id(encounter_id):
            return None
        columns = encounters.c.channel_id, encounters.c.tracker_channel_id, encounters.c.tracker_message_id

        def read(connection: Connection) -> Any:
            return connection.execute(sa.select(*columns).where(encounters.c.id == encounter_id)).first()

        row = await self._select(read)
        if row is None or row.tracker_message_id is None:
            return None
        return int(row.tracker_channel_id or row.channel_id), int(row.tracker_message_id)

    async def find_encounter(self, encounter_id: int) -> EncounterInfo | None:
        """An encounter by id (active or ended), or None when it does not exist (any more)."""
        if not is_encounter_id(encounter_id):
            return None

        def read(connection: Connection) -> Any:
            return connection.execute(sa.select(encounters).where(encounters.c.id == encounter_id)).first()

        row = await self._select(read)
        if row is None:
            return None
        return EncounterInfo(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            name=row.name,
            director_id=row.director_id,
            state=row.state,
            active=row.active,
            last_seq=row.last_seq,
            tracker_channel_id=row.tracker_channel_id,
            tracker_message_id=row.tracker_message_id,
            created_at=_aware(row.created_at),
            ended_at=None if row.ended_at is None else _aware(row.ended_at),
        )

    async def latest_encounter(self, channel_id: int) -> int | None:
        """The id of a channel's newest encounter: the one running there, else the last one that ended (None
        when none ever ran there). A channel runs one encounter at a time: the running one is the newest."""
        validate.snowflake(channel_id, "channel id")

        def read(connection: Connection) -> Any:
            query = sa.select(sa.func.max(encounters.c.id)).where(encounters.c.channel_id == channel_id)
            return connection.execute(query).scalar()

        found = await self._select(read)
        return None if found is None else int(found)

    async def _encounter_or_error(self, encounter_id: int) -> EncounterInfo:
        info = await self.find_encounter(encounter_id)
        if info is None:
            raise NoEncounter("That encounter no longer exists.")
        return info

    async def events(self, encounter_id: int) -> list[Event]:
        """The encounter's log in order (seq 1 is its start); `undone_by` is filled in."""
        await self._encounter_or_error(encounter_id)

        def read(connection: Connection) -> Sequence[Any]:
            query = sa.select(events).where(events.c.encounter_id == encounter_id).order_by(events.c.seq)
            return connection.execute(query).all()

        rows = await self._select(read)
        undone_by = {row.undoes: row.seq for row in rows if row.undoes is not None}
        return [event_of(row, undone_by.get(row.seq)) for row in rows]

    async def export_json(self, encounter_id: int, *, hide: Callable[[Event], Event] | None = None) -> str:
        """The encounter and its whole log as a JSON document; with `hide` (a players' view), each event as
        `hide` gives it and no state."""
        info = await self._encounter_or_error(encounter_id)
        log = await self.events(encounter_id)
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
        self, encounter_id: int, *, hide: Callable[[Event], Event] | None = None
    ) -> str:
        """A readable Markdown transcript (meant as a file attachment, so mentions never ping); with `hide`
        (a players' view), each event as `hide` gives it."""
        info = await self._encounter_or_error(encounter_id)
        log = await self.events(encounter_id)
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
    return Event(
        encounter_id=row.encounter_id,
        channel_id=row.channel_id,
        seq=row.seq,
        user_id=row.user_id,
        at=_aware(row.at),
        kind=row.kind,
        summary=row.summary,
        details=cast(dict[str, Any], row.details),
        patch=row.patch,
        undoes=row.undoes,
        undone_by=undone_by,
    )
