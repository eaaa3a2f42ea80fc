"""Initial schema: guild_settings, channels, heroes, encounters, events."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001_initial"
down_revision: str | None = None


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("director_role_id", sa.BigInteger(), nullable=True),
        sa.Column("turn_pings", sa.Boolean(), nullable=False),
        sa.Column("tokens_reset_per_session", sa.Boolean(), nullable=False),
        sa.Column("malice_rounding", sa.String(length=8), nullable=False),
        sa.Column("show_monster_stamina", sa.Boolean(), nullable=False),
        sa.Column("enforce_action_economy", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", name="pk_guild_settings"),
    )
    op.create_table(
        "channels",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("tokens", sa.Integer(), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_channels"),
    )
    op.create_index("ix_channels_guild_id", "channels", ["guild_id"], unique=False)
    op.create_table(
        "heroes",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("owner_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("name_key", sa.String(length=256), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["channel_id"], ["channels.id"], name="fk_heroes_channel_id_channels", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_heroes"),
        sa.UniqueConstraint("channel_id", "name_key", name="uq_heroes_channel_id_name_key"),
    )
    op.create_table(
        "encounters",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("director_id", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("tracker_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("tracker_message_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["channel_id"], ["channels.id"], name="fk_encounters_channel_id_channels", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_encounters"),
    )
    op.create_index("ix_encounters_ended_at", "encounters", ["ended_at"], unique=False)
    op.create_index(
        "ix_encounters_one_active",
        "encounters",
        ["channel_id"],
        unique=True,
        sqlite_where=sa.text("active"),
        postgresql_where=sa.text("active"),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("encounter_id", sa.Integer(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("patch", sa.JSON(), nullable=True),
        sa.Column("undoes", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["encounter_id"],
            ["encounters.id"],
            name="fk_events_encounter_id_encounters",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        sa.UniqueConstraint("encounter_id", "seq", name="uq_events_encounter_id_seq"),
    )
    op.create_index("ix_events_channel_id", "events", ["channel_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_events_channel_id", table_name="events")
    op.drop_table("events")
    op.drop_index("ix_encounters_one_active", table_name="encounters")
    op.drop_index("ix_encounters_ended_at", table_name="encounters")
    op.drop_table("encounters")
    op.drop_table("heroes")
    op.drop_index("ix_channels_guild_id", table_name="channels")
    op.drop_table("channels")
    op.drop_table("guild_settings")
