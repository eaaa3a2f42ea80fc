"""Revision 0009_keep_shown_stamina: hidden monster Stamina became the default, and a server that played
before it keeps seeing the numbers (both engines)."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

from bot.store.migrate import upgrade
from tests.store.conftest import Target

PLAYED, CHOSE_HIDDEN, BESTIARY_ONLY, NEW = 11, 12, 13, 14


async def test_a_server_that_played_keeps_seeing_monster_stamina(target: Target) -> None:
    store = await target.open(migrate=False)
    try:
        await upgrade(store.engine, "0007_rolls")
        now = datetime.now(UTC)
        async with store.engine.begin() as connection:
            for channel_id, guild_id in ((7001, PLAYED), (7002, CHOSE_HIDDEN)):
                await connection.execute(
                    sa.text(
                        "INSERT INTO channels (id, guild_id, tokens, version, updated_at) "
                        "VALUES (:id, :guild, 0, 3, :now)"
                    ),
                    {"id": channel_id, "guild": guild_id, "now": now},
                )
            await connection.execute(
                sa.text(
                    "INSERT INTO guild_settings (guild_id, turn_pings, tokens_reset_per_session, "
                    "malice_rounding, show_monster_stamina, enforce_action_economy, auto_saves, updated_at) "
                    "VALUES (:guild, FALSE, TRUE, 'up', FALSE, TRUE, TRUE, :now)"
                ),
                {"guild": CHOSE_HIDDEN, "now": now},
            )
            await connection.execute(
                sa.text(
                    "INSERT INTO monsters (guild_id, name, name_key, group_name, source_id, data, added_by, "
                    "added_at) VALUES (:guild, 'Goblin', 'goblin', '', '', '{}', 1, :now)"
                ),
                {"guild": BESTIARY_ONLY, "now": now},
            )
        await upgrade(store.engine)

        played = await store.get_settings(PLAYED)
        assert played.show_monster_stamina  # the old default, kept
        assert played.turn_pings and played.malice_rounding == "down"  # and every other one as it was
        assert (await store.get_settings(BESTIARY_ONLY)).show_monster_stamina
        chose = await store.get_settings(CHOSE_HIDDEN)
        assert not chose.show_monster_stamina and not chose.turn_pings and chose.malice_rounding == "up"
        assert not (await store.get_settings(NEW)).show_monster_stamina  # a new server: hidden
    finally:
        await store.close()
