"""The store's tables as SQLModel models (SQLAlchemy Core tables underneath).

Migrations in `bot/store/migrations/versions/` create exactly these; tests/store/test_migrations.py
proves it
with Alembic's `compare_metadata` on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

# Naming convention so constraint names are identical on every engine (and in the migration).
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class GuildSettingsModel(SQLModel, table=True):
    """Per-guild settings; a guild without a row uses the defaults."""

    __tablename__ = "guild_settings"

    guild_id: int = Field(sa_column=sa.Column(sa.BigInteger, primary_key=True, autoincrement=False))
    director_role_id: int | None = Field(default=None, sa_column=sa.Column(sa.BigInteger, nullable=True))
    turn_pings: bool = Field(default=True, sa_column=sa.Column(sa.Boolean, nullable=False))
    tokens_reset_per_session: bool = Field(default=True, sa_column=sa.Column(sa.Boolean, nullable=False))
    malice_rounding: str = Field(default="down", sa_column=sa.Column(sa.String(8), nullable=False))
    show_monster_stamina: bool = Field(default=False, sa_column=sa.Column(sa.Boolean, nullable=False))
    enforce_action_economy: bool = Field(default=True, sa_column=sa.Column(sa.Boolean, nullable=False))
    auto_saves: bool = Field(
        default=True, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.true())
    )
    #: Seconds a side may wait to pick before it is nudged (None: off); `exts.reminders._service`.
    nudge_after: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    #: Seconds the players may argue who goes next before the Director picks (None: off).
    argument_timer: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    #: Players see a negotiation's Interest and Patience as numbers (False: as words).
    negotiation_numbers: bool = Field(
        default=True, sa_column=sa.Column(sa.Boolean, nullable=False, server_default=sa.true())
    )
    updated_at: datetime = Field(sa_column=sa.Column(sa.DateTime(timezone=True), nullable=False))


class ChannelModel(SQLModel, table=True):
    """One row per channel or thread: the compare-and-set `version`, and for a campaign's home channel the
    party's hero-token pool (its roster: `heroes.channel_id`). `parent_id` is a thread's parent channel (its
    campaign is the parent's); `campaign_id` the home of the campaign a channel joined (None: its own)."""

    __tablename__ = "channels"

    id: int = Field(sa_column=sa.Column(sa.BigInteger, primary_key=True, autoincrement=False))
    guild_id: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False, index=True))
    tokens: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False))
    parent_id: int | None = Field(default=None, sa_column=sa.Column(sa.BigInteger, nullable=True, index=True))
    campaign_id: int | None = Field(
        default=None, sa_column=sa.Column(sa.BigInteger, nullable=True, index=True)
    )
    version: int = Field(default=0, sa_column=sa.Column(sa.BigInteger, nullable=False))
    updated_at: datetime = Field(sa_column=sa.Column(sa.DateTime(timezone=True), nullable=False))


class HeroModel(SQLModel, table=True):
    """A hero of a campaign's roster (`channel_id`: the campaign's home channel); `data` is the rules core's
    codec data (Stamina, recoveries, ...)."""

    __tablename__ = "heroes"
    __table_args__ = (sa.UniqueConstraint("channel_id", "name_key"),)

    id: str = Field(sa_column=sa.Column(sa.String(32), primary_key=True))
    channel_id: int = Field(
        sa_column=sa.Column(sa.BigInteger, sa.ForeignKey("channels.id", ondelete="CASCADE"), nullable=False)
    )
    owner_id: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    name: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    name_key: str = Field(sa_column=sa.Column(sa.String(256), nullable=False))
    data: dict[str, Any] = Field(sa_column=sa.Column(sa.JSON, nullable=False))
    created_at: datetime = Field(sa_column=sa.Column(sa.DateTime(timezone=True), nullable=False))
    updated_at: datetime = Field(sa_column=sa.Column(sa.DateTime(timezone=True), nullable=False))


class EncounterModel(SQLModel, table=True):
    """An encounter; at most one active per channel (partial unique index on `channel_id` WHERE active)."""

    __tablename__ = "encounters"
    __table_args__ = (
        sa.Index(
            "ix_encounters_one_active",
            "channel_id",
            unique=True,
            sqlite_where=sa.text("active"),
            postgresql_where=sa.text("active"),
        ),
        sa.Index("ix_encounters_ended_at", "ended_at"),
    )

    id: int | None = Field(
        default=None, sa_column=sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    )
    guild_id: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    channel_id: int = Field(
        sa_column=sa.Column(sa.BigInteger, sa.ForeignKey("channels.id", ondelete="CASCADE"), nullable=False)
    )
    name: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    director_id: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    state: dict[str, Any] = Field(sa_column=sa.Column(sa.JSON, nullable=False))
    active: bool = Field(default=True, sa_column=sa.Column(sa.Boolean, nullable=False))
    last_seq: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False))
    tracker_channel_id: int | None = Field(default=None, sa_column=sa.Column(sa.BigInteger, nullable=True))
    tracker_message_id: int | None = Field(default=None, sa_column=sa.Column(sa.BigInteger, nullable=True))
    created_at: datetime = Field(sa_column=sa.Column(sa.DateTime(timezone=True), nullable=False))
    ended_at: datetime | None = Field(
        default=None, sa_column=sa.Column(sa.DateTime(timezone=True), nullable=True)
    )


class EventModel(SQLModel, table=True):
    """The append-only log: one row per committed change, with the patch that undoes it.

    `seq` counts per encounter from 1 (the start); channel-level events outside an encounter have no
    `encounter_id` and use the channel's new `version` as `seq`. `undoes` is set on undo events;
    `interaction_id` and `once_key` (each unique when set) keep a change from being applied twice.
    """

    __tablename__ = "events"
    __table_args__ = (
        sa.UniqueConstraint("encounter_id", "seq"),
        sa.Index("ix_events_channel_id", "channel_id"),
        sa.Index("ix_events_interaction_id", "interaction_id", unique=True),
        sa.Index(  # partial: most events have no once-key, and then cost no index entry
            "ix_events_once_key",
            "once_key",
            unique=True,
            sqlite_where=sa.text("once_key IS NOT NULL"),
            postgresql_where=sa.text("once_key IS NOT NULL"),
        ),
    )

    id: int | None = Field(
        default=None, sa_column=sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    )
    encounter_id: int | None = Field(
        default=None,
        sa_column=sa.Column(sa.Integer, sa.ForeignKey("encounters.id", ondelete="CASCADE"), nullable=True),
    )
    channel_id: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    seq: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    user_id: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    at: datetime = Field(sa_column=sa.Column(sa.DateTime(timezone=True), nullable=False))
    kind: str = Field(sa_column=sa.Column(sa.String(40), nullable=False))
    summary: str = Field(sa_column=sa.Column(sa.Text, nullable=False))
    details: dict[str, Any] = Field(sa_column=sa.Column(sa.JSON, nullable=False))
    patch: dict[str, Any] | None = Field(default=None, sa_column=sa.Column(sa.JSON, nullable=True))
    undoes: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, nullable=True))
    #: The Discord interaction that made the change: an interaction is applied at most once, whichever
    #: process (shard, rolling restart) it reached.
    interaction_id: int | None = Field(default=None, sa_column=sa.Column(sa.BigInteger, nullable=True))
    #: A thing that may happen at most once (e.g. `reroll:<roll message id>`: one hero-token reroll a roll).
    once_key: str | None = Field(default=None, sa_column=sa.Column(sa.String(80), nullable=True))


class MonsterModel(SQLModel, table=True):
    """A monster of a server's bestiary: its stat block as the rules' codec data (`bot.content.monster`).

    `name_key` (the name's case-insensitive key) is unique per guild, so re-importing a monster updates it
    in place; `source_id` is the id its Forge Steel file gave it (how encounter files name it; empty for one
    entered by hand), `group_name` its monster group's name."""

    __tablename__ = "monsters"
    __table_args__ = (
        sa.UniqueConstraint("guild_id", "name_key"),
        sa.Index("ix_monsters_guild_id_source_id", "guild_id", "source_id"),
    )

    id: int | None = Field(
        default=None, sa_column=sa.Column(sa.Integer, primary_key=True, autoincrement=True)
    )
    guild_id: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    name: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    name_key: str = Field(sa_column=sa.Column(sa.String(256), nullable=False))
    group_name: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    source_id: str = Field(sa_column=sa.Column(sa.String(100), nullable=False))
    data: dict[str, Any] = Field(sa_column=sa.Column(sa.JSON, nullable=False))
    added_by: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    added_at: datetime = Field(sa_column=sa.Column(sa.DateTime(timezone=True), nullable=False))


class ReminderModel(SQLModel, table=True):
    """A reminder due for an encounter (`exts.reminders._service`): one per encounter and `kind` ("nudge":
    the side
    that must pick is pinged again, then its Director told; "argument": the Director gets buttons to pick).
    `version` is the channel version when it was set, `turn_key` the wait it is for (who picks, in which
    round); `step` counts the nudges sent for that wait. `claimed` is set by the process that fires it (an
    atomic compare-and-set: exactly one process wins) and cleared when the reminder is set again."""

    __tablename__ = "reminders"
    __table_args__ = (sa.Index("ix_reminders_due_at", "due_at"),)

    encounter_id: int = Field(
        sa_column=sa.Column(
            sa.Integer,
            sa.ForeignKey("encounters.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        )
    )
    kind: str = Field(sa_column=sa.Column(sa.String(16), primary_key=True))
    guild_id: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    channel_id: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    due_at: datetime = Field(sa_column=sa.Column(sa.DateTime(timezone=True), nullable=False))
    version: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    turn_key: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    step: int = Field(default=0, sa_column=sa.Column(sa.Integer, nullable=False))
    claimed: str | None = Field(default=None, sa_column=sa.Column(sa.String(32), nullable=True))


class RollModel(SQLModel, table=True):
    """A `/roll` reply with buttons, so a press reads the roll from here and never from its custom id: `id`
    is the interaction that made it (the reply's interaction metadata names it), `card` the roll as the
    `/roll` feature encodes it (its dice, modifiers, roller, downgrade, reroll), rewritten by each press.
    Rows older than `bot.store.rolls.ROLL_KEPT` are deleted as new ones come."""

    __tablename__ = "rolls"
    __table_args__ = (sa.Index("ix_rolls_created_at", "created_at"),)

    id: int = Field(sa_column=sa.Column(sa.BigInteger, primary_key=True, autoincrement=False))
    guild_id: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    channel_id: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    card: str = Field(sa_column=sa.Column(sa.String(120), nullable=False))
    created_at: datetime = Field(sa_column=sa.Column(sa.DateTime(timezone=True), nullable=False))


METADATA = SQLModel.metadata
guild_settings: sa.Table = METADATA.tables["guild_settings"]
channels: sa.Table = METADATA.tables["channels"]
heroes: sa.Table = METADATA.tables["heroes"]
encounters: sa.Table = METADATA.tables["encounters"]
events: sa.Table = METADATA.tables["events"]
monsters: sa.Table = METADATA.tables["monsters"]
reminders: sa.Table = METADATA.tables["reminders"]
rolls: sa.Table = METADATA.tables["rolls"]
