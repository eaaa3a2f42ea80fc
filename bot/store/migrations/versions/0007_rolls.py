"""Power rolls kept for their buttons: the `rolls` table (one row per `/roll` reply with buttons, by the
interaction that made it), so a press reads the roll from the store, never from its custom id.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007_rolls"
down_revision: str | None = "0006_reminders"


def upgrade() -> None:
    op.create_table(
        "rolls",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("card", sa.String(length=120), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_rolls"),
    )
    op.create_index("ix_rolls_created_at", "rolls", ["created_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_rolls_created_at", table_name="rolls")
    op.drop_table("rolls")
