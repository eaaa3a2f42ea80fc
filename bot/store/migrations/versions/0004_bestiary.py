"""The server bestiary: monsters (a guild's stat blocks, unique by name per guild)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004_bestiary"
down_revision: str | None = "0003_interaction_ids"


def upgrade() -> None:
    op.create_table(
        "monsters",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("name_key", sa.String(length=256), nullable=False),
        sa.Column("group_name", sa.String(length=64), nullable=False),
        sa.Column("source_id", sa.String(length=100), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("added_by", sa.BigInteger(), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_monsters"),
        sa.UniqueConstraint("guild_id", "name_key", name="uq_monsters_guild_id_name_key"),
    )
    op.create_index("ix_monsters_guild_id_source_id", "monsters", ["guild_id", "source_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_monsters_guild_id_source_id", table_name="monsters")
    op.drop_table("monsters")
