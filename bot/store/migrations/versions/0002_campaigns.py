"""Campaigns: a thread's parent and the campaign a channel joined, on `channels`.

No row moves and nothing is dropped: a thread's own roster and pool from before this revision are merged
into its parent's campaign the first time a command there names its parent (docs/store.md, *Campaigns*).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002_campaigns"
down_revision: str | None = "0001_initial"


def upgrade() -> None:
    with op.batch_alter_table("channels") as batch:
        batch.add_column(sa.Column("parent_id", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("campaign_id", sa.BigInteger(), nullable=True))
        batch.create_index("ix_channels_parent_id", ["parent_id"], unique=False)
        batch.create_index("ix_channels_campaign_id", ["campaign_id"], unique=False)


def downgrade() -> None:
    """Back to one roster per channel: a joined channel keeps its own roster (set aside while it played in
    another campaign); heroes made in a thread after the upgrade stay with the thread's parent."""
    with op.batch_alter_table("channels") as batch:
        batch.drop_index("ix_channels_campaign_id")
        batch.drop_index("ix_channels_parent_id")
        batch.drop_column("campaign_id")
        batch.drop_column("parent_id")
