"""Reminders that survive restarts: the `reminders` table (one row per encounter and kind, with its due
time, indexed) and the two guild settings that set them, `nudge_after` and `argument_timer` (seconds; NULL:
off, the default).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006_reminders"
down_revision: str | None = "0005_auto_saves"


def upgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.add_column(sa.Column("nudge_after", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("argument_timer", sa.Integer(), nullable=True))
    op.create_table(
        "reminders",
        sa.Column("encounter_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.Column("turn_key", sa.String(length=64), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("claimed", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(
            ["encounter_id"],
            ["encounters.id"],
            name="fk_reminders_encounter_id_encounters",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("encounter_id", "kind", name="pk_reminders"),
    )
    op.create_index("ix_reminders_due_at", "reminders", ["due_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_reminders_due_at", table_name="reminders")
    op.drop_table("reminders")
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_column("argument_timer")
        batch.drop_column("nudge_after")
