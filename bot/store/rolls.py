"""Power rolls kept for their buttons (`models.RollModel`): a `/roll` reply's Downgrade and Reroll read the
roll from here, never from their custom id, which the pressing client may forge.

A row is the roll's card as the `/roll` feature encodes it (at most `CARD_MAX` characters), keyed by the
interaction that made the reply, with its server and channel: a press reads it only from the channel
it was made in. Rows older than `ROLL_KEPT` are deleted as new ones are saved (every `PRUNE_EVERY`-th save of
a process), so the table stays about a month of rolls.
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from bot.store import validate
from bot.store.core import check_key, utc_now
from bot.store.database import Database
from bot.store.errors import InvalidValue
from bot.store.models import rolls
from bot.store.prepared import Prepared, execute
from bot.store.table import ChannelKey

#: How long a roll's buttons work.
ROLL_KEPT = timedelta(days=30)
#: A saved card's length at most (an encoded card is about 60 characters).
CARD_MAX = 120
#: A process deletes the old rows once in this many saves.
PRUNE_EVERY = 100


class Rolls:
    """`save_roll`, `roll`, `update_roll`."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._waits = db.waits
        #: Rolls this store saved: every `PRUNE_EVERY`th save (the first included) deletes the old ones.
        self.saves = 0
        insert = db.insert(rolls)
        # prepared once (`bot.store.prepared`): every /roll with buttons saves one (docs/performance.md,
        # *Speed-only code kept*)
        self._insert = Prepared(
            insert.on_conflict_do_update(index_elements=["id"], set_={"card": insert.excluded.card}),
            ("id", "guild_id", "channel_id", "card", "created_at"),
        )

    async def save_roll(self, roll_id: int, key: ChannelKey, card: str) -> None:
        """Keep the roll `roll_id` (the interaction that made it) of channel `key`."""
        check_key(key)
        validate.snowflake(roll_id, "roll id")
        if not 0 < len(card) <= CARD_MAX:
            raise InvalidValue(f"A roll is at most {CARD_MAX} characters.")
        self.saves += 1
        prune = self.saves % PRUNE_EVERY == 1
        now = utc_now()
        values = {
            "id": roll_id,
            "guild_id": key.guild_id,
            "channel_id": key.channel_id,
            "card": card,
            "created_at": now,
        }

        def work(connection: Connection) -> None:
            if prune:
                connection.execute(sa.delete(rolls).where(rolls.c.created_at < now - ROLL_KEPT))
            execute(connection, self._insert, values)

        await self._db.transaction(work, self._waits.deadline())

    async def roll(self, roll_id: int, key: ChannelKey) -> str | None:
        """The card of the roll `roll_id` made in channel `key` (None: no such roll there, or too old)."""
        check_key(key)
        validate.snowflake(roll_id, "roll id")
        query = sa.select(rolls.c.card).where(
            rolls.c.id == roll_id, rolls.c.guild_id == key.guild_id, rolls.c.channel_id == key.channel_id
        )

        def read(connection: Connection) -> str | None:
            found = connection.execute(query).scalar()
            return None if found is None else str(found)

        return await self._db.select(read)

    async def update_roll(self, roll_id: int, key: ChannelKey, card: str) -> None:
        """The roll `roll_id` is now `card` (downgraded, or rerolled)."""
        check_key(key)
        if not 0 < len(card) <= CARD_MAX:
            raise InvalidValue(f"A roll is at most {CARD_MAX} characters.")
        update = (
            sa.update(rolls)
            .where(
                rolls.c.id == roll_id, rolls.c.guild_id == key.guild_id, rolls.c.channel_id == key.channel_id
            )
            .values(card=card)
        )

        def work(connection: Connection) -> None:
            connection.execute(update)

        await self._db.transaction(work, self._waits.deadline())
