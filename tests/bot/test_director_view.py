"""Hidden monster Stamina and the Director's own view of it: hidden by default on a server the bot has never
seen, and `/encounter status private:true` with a Refresh button that shows the numbers as they are now,
only to the encounter's Director."""

from __future__ import annotations

from simcord.results import ResponseMessage

from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table
from tests.bot.test_forged_ids import forge


def buttons(response: ResponseMessage) -> dict[str, str]:
    """A response's buttons (raw components, as the interaction's answer carried them): label -> custom id."""
    return {
        str(item.get("label")): str(item.get("custom_id"))
        for row in response.components
        for item in row.get("components", [])
    }


async def test_a_new_server_hides_monster_stamina_by_default(new_table: Table) -> None:
    table = new_table
    assert not (await table.store.get_settings(table.guild.id)).show_monster_stamina
    await kit.ready(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=3))
    shown = kit.body(kit.tracker(table.channel))
    assert "Stamina: 30/30" in shown  # a hero's numbers stay public
    assert "7/10" not in shown and "Goblin 1" in shown


async def test_a_server_that_kept_its_setting_still_shows_it(table: Table) -> None:
    """The table fixture's server stored `show_monster_stamina` on (as the migration keeps it)."""
    await kit.ready(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=3))
    assert "7/10" in kit.body(kit.tracker(table.channel))


async def test_the_private_tracker_refreshes_to_the_current_numbers(new_table: Table) -> None:
    table = new_table
    await kit.ready(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=3))
    result = await table.director.slash(table.channel, "encounter status", private=True)
    assert result.ephemeral and result.response is not None
    private = result.response
    assert "7/10" in kit.body(private) and "Refresh" in buttons(private)

    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=2))
    pressed = await table.director.click(private, label="Refresh")
    assert pressed.response is not None
    shown = kit.body(pressed.response)
    assert "5/10" in shown and "7/10" not in shown
    assert "Refresh" in buttons(pressed.response)  # it can be refreshed again


async def test_a_player_may_not_refresh_the_private_tracker(new_table: Table) -> None:
    """A player never sees the Director's ephemeral message; a press forged with its custom id (put on a
    button the player sees) is refused all the same."""
    table = new_table
    await kit.ready(table)
    result = await table.director.slash(table.channel, "encounter status", private=True)
    assert result.response is not None
    refresh = buttons(result.response)["Refresh"]
    tracker = kit.tracker(table.channel)
    forge(table, tracker, "enc:act:", refresh)
    refused = kit.refused(await table.alice.click(tracker, custom_id=refresh))
    assert refused == "Only the Director can see the private tracker."
