"""Events remember the interaction that made them, and what may happen only once: `interaction_id` and
`once_key`, each unique when set (an interaction is applied at most once across processes; one hero-token
reroll per roll message).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003_interaction_ids"
down_revision: str | None = "0002_campaigns"


def upgrade() -> None:
    op.add_column("events", sa.Column("interaction_id", sa.BigInteger(), nullable=True))
    op.add_column("events", sa.Column("once_key", sa.String(length=80), nullable=True))
    op.create_index("ix_events_interaction_id", "events", ["interaction_id"], unique=True)
    op.create_index(
        "ix_events_once_key",
        "events",
        ["once_key"],
        unique=True,
        sqlite_where=sa.text("once_key IS NOT NULL"),
        postgresql_where=sa.text("once_key IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_events_once_key", table_name="events")
    op.drop_index("ix_events_interaction_id", table_name="events")
    op.drop_column("events", "once_key")
    op.drop_column("events", "interaction_id")
