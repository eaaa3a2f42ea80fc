"""Campaigns: a thread's parent and the campaign a channel joined, on `channels`.

A campaign is a channel with all its threads (docs/store.md, *Campaigns*): its roster (`heroes.channel_id`)
and hero-token pool (`channels.tokens`) stay on the campaign's home channel, as every channel's did before,
so no row moves here and nothing is dropped. The old schema never stored a thread's parent, so it cannot
tell which rows are threads: a thread's own roster and pool from before this revision are merged into its
parent's campaign the first time a command in the thread tells the store its parent (`Store._adopt`,
bot/store/campaigns.py): a hero whose name the campaign has is renamed `Ash (thread name)`, and the merge is
logged.

Revision ID: 0002_campaigns
Revises: 0001_initial
Create Date: 2026-11-25
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
