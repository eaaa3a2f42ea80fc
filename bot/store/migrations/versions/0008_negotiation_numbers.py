"""Guild setting `negotiation_numbers`: players see a negotiation's Interest and Patience as numbers, or as
words when off.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008_negotiation_numbers"
down_revision: str | None = "0007_rolls"


def upgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.add_column(
            sa.Column("negotiation_numbers", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_column("negotiation_numbers")
