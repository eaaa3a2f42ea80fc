"""Hidden monster Stamina becomes the default: a server that never changed its settings but already played
keeps seeing monsters' exact Stamina, as it did.

A server without a `guild_settings` row uses the defaults, and `show_monster_stamina`'s turns from on to off
with this revision. So every server the store already knows (a channel, an encounter or a bestiary of its
own) that has no row gets one holding the defaults as they were; a server's stored row is its own choice and
is left as it is. A server first seen after this revision gets the new default.
"""

from __future__ import annotations

from alembic import op

revision: str = "0009_keep_shown_stamina"
down_revision: str | None = "0008_negotiation_numbers"

#: The servers the store knows of, but those with a settings row.
_KNOWN = """
    SELECT guild_id FROM channels
    UNION SELECT guild_id FROM encounters
    UNION SELECT guild_id FROM monsters
"""


def upgrade() -> None:
    # the defaults of 0007_rolls, written out: the rows keep what those servers had
    op.execute(
        "INSERT INTO guild_settings (guild_id, director_role_id, turn_pings, tokens_reset_per_session, "
        "malice_rounding, show_monster_stamina, enforce_action_economy, auto_saves, nudge_after, "
        "argument_timer, updated_at) "
        "SELECT known.guild_id, NULL, TRUE, TRUE, 'down', TRUE, TRUE, TRUE, NULL, NULL, CURRENT_TIMESTAMP "
        f"FROM ({_KNOWN}) AS known "
        "WHERE known.guild_id NOT IN (SELECT guild_id FROM guild_settings)"
    )


def downgrade() -> None:
    """Nothing to undo: before this revision a row holding the old defaults means what no row did."""
