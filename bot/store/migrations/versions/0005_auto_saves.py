"""Guild setting `auto_saves`: the Director's creatures roll their saving throws when their turn ends."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005_auto_saves"
down_revision: str | None = "0004_bestiary"


def upgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.add_column(sa.Column("auto_saves", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_column("auto_saves")
