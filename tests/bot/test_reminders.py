"""Reminders that survive restarts on SimCord: `/settings nudge_after` and `argument_timer`,
the nudge and the note to the Director, the argument timer's buttons, cancellation when the turn moves on,
and a restart that neither forgets nor postpones a reminder. The reminder service's clock is the test's
(`Clock`); due reminders are fired by calling `fire_due` (the bot's loop runs only under `python -m bot`)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import discord
import pytest

from bot.client import DrawSteelBot
from bot.rules.dice import Dice
from bot.settings import Settings
from bot.store import Reminder, Store
from exts.reminders._service import ReminderService, reminders_for
from exts.tracker._service import jump_link
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table, build_bot

HOUR = 3600
FAR = datetime(2100, 1, 1, tzinfo=UTC)


class Clock:
    """The reminder service's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def service_of(table: Table, clock: Clock) -> ReminderService:
    bot = table.env.bot
    assert isinstance(bot, DrawSteelBot)
    service = reminders_for(bot)
    service.clock = clock
    return service


async def pending(table: Table, service: ReminderService) -> list[Reminder]:
    await service.flush()
    return await table.store.due_reminders(FAR)


def pings_since(table: Table, count: int) -> list[tuple[str, list[int], list[int]]]:
    return kit.pings(table)[count:]


async def ready_with(table: Table, clock: Clock, **settings: int) -> ReminderService:
    await table.store.update_settings(table.guild.id, **settings)
    service = service_of(table, clock)
    await kit.start(table)
    await kit.add_party(table)
    await kit.begin(table, first="heroes")
    await service.flush()
    return service


# --- /settings ---------------------------------------------------------------------------------------------
async def test_settings_take_durations_and_show_every_default(table: Table) -> None:
    """ "/settings nudge_after:12h (off by default; 15 min to 7 days)"; "Every setting's default is listed
    ... in /settings itself." """
    await table.configure_director_role()
    shown = await table.director.slash(table.channel, "settings")
    text = shown.response.embeds[0].description or "" if shown.response is not None else ""
    assert "Nudge a side that hasn't picked after: off" in text and "Argument timer: off" in text
    command = table.env.bot.tree.get_command("settings")
    assert command is not None  # one default a setting: every option but clear_director_role names one
    assert text.count("(default: ") == len(command.parameters) - 1
    changed = await table.director.slash(table.channel, "settings", nudge_after="12h", argument_timer="30s")
    assert changed.response is not None
    described = changed.response.embeds[0].description or ""
    assert "picked after: 12h" in described and "Argument timer: 30s" in described
    settings = await table.store.get_settings(table.guild.id)
    assert (settings.nudge_after, settings.argument_timer) == (12 * HOUR, 30)
    short = await table.director.slash(table.channel, "settings", nudge_after="5m")
    assert "15m and 7d" in kit.refused(short)
    assert "like 15m, 2h or 1d" in kit.refused(
        await table.director.slash(table.channel, "settings", nudge_after="soon")
    )
    await table.director.slash(table.channel, "settings", nudge_after="1d2h", argument_timer="off")
    settings = await table.store.get_settings(table.guild.id)
    assert (settings.nudge_after, settings.argument_timer) == (26 * HOUR, None)


# --- nudges ------------------------------------------------------------------------------------------------
async def test_a_side_that_hasnt_picked_is_nudged_once_then_its_director_told(table: Table) -> None:
    """ "When the side that must pick hasn't picked for that long, the bot pings the same players once more
    with the jump link. After a second interval it tells the encounter's Director who is waited on. Nobody is
    pinged more than once per interval." """
    clock = Clock()
    service = await ready_with(table, clock, nudge_after=HOUR)
    before = len(kit.pings(table))
    clock.advance(HOUR - 1)
    assert await service.fire_due() == 0
    clock.advance(1)
    assert await service.fire_due() == 1
    assert await service.fire_due() == 0  # not twice
    [(text, users, roles)] = pings_since(table, before)
    assert text.startswith("⏰ Still waiting after 1h:") and "Next: the heroes pick who acts" in text
    assert sorted(users) == sorted([table.alice.id, table.bob.id]) and roles == []
    assert jump_link(table.guild.id, table.channel.id, kit.tracker(table.channel).id) in text
    clock.advance(HOUR - 1)
    assert await service.fire_due() == 0
    clock.advance(1)
    assert await service.fire_due() == 1
    [(note, users, roles)] = pings_since(table, before + 1)
    assert users == [table.director.id] and roles == []
    assert f"<@{table.alice.id}>" in note and f"<@{table.bob.id}>" in note and "/turn skip" in note
    clock.advance(10 * HOUR)
    assert await service.fire_due() == 0  # nothing more for this wait
    assert len(kit.pings(table)) == before + 2


async def test_a_turn_that_moves_on_cancels_and_reschedules_the_nudge(table: Table) -> None:
    """ "Any change that moves the turn on cancels or reschedules the pending reminder." """
    clock = Clock()
    service = await ready_with(table, clock, nudge_after=HOUR)
    [first] = await pending(table, service)
    clock.advance(HOUR / 2)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    assert await pending(table, service) == []  # a turn runs: nobody is waited on
    clock.advance(HOUR)
    assert await service.fire_due() == 0
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    [second] = await pending(table, service)
    assert second.turn_key != first.turn_key and second.due_at == clock.now + timedelta(seconds=HOUR)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=1))
    assert await pending(table, service) == [second]  # not the turn: the reminder stays as it is
    kit.ok(await table.director.slash(table.channel, "encounter undo"))
    kit.ok(await table.director.slash(table.channel, "encounter undo"))  # Ash's turn is running again
    assert await pending(table, service) == []


async def test_a_restart_neither_forgets_nor_postpones_a_nudge(
    table: Table, settings: Settings, store: Store, dice: Dice
) -> None:
    """ "Due times live in the database, not in memory. A restarted bot ... fires what fell due while it was
    down, exactly once." """
    clock = Clock()
    service = await ready_with(table, clock, nudge_after=HOUR)
    [before] = await pending(table, service)
    await table.env.restart_bot(build_bot(settings, store, dice))
    clock.advance(HOUR / 2)
    restarted = service_of(table, clock)
    assert restarted is not service
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=1))
    assert await pending(table, restarted) == [before]  # seen again after the restart: not postponed
    clock.advance(HOUR)
    count = len(kit.pings(table))
    assert await restarted.fire_due() == 1
    assert len(kit.pings(table)) == count + 1


async def test_an_ended_encounter_has_no_reminders(table: Table) -> None:
    clock = Clock()
    service = await ready_with(table, clock, nudge_after=HOUR, argument_timer=30)
    assert {r.kind for r in await pending(table, service)} == {"nudge", "argument"}
    asked = await table.director.slash(table.channel, "encounter end")
    assert asked.response is not None
    kit.ok(await table.director.click(asked.response.message, label="End the encounter"))
    assert await pending(table, service) == []


# --- the argument timer ------------------------------------------------------------------------------------
def argument_message(table: Table) -> discord.Message:
    return next(m for m in reversed(table.channel.history()) if m.content.startswith("⏳"))


async def test_when_the_players_cant_agree_the_director_gets_buttons_to_pick(table: Table) -> None:
    """ "When a players' side is to pick and nobody has picked when the timer runs out, the Director gets
    buttons to pick one of the candidates." """
    clock = Clock()
    service = await ready_with(table, clock, argument_timer=30)
    clock.advance(29)
    assert await service.fire_due() == 0
    clock.advance(1)
    assert await service.fire_due() == 1
    message = argument_message(table)
    users, _roles = kit.pinged(table, message)
    assert users == [table.director.id] and "within 30s" in message.content
    labels = [c.label for row in message.components for c in getattr(row, "children", [])]
    assert labels == ["Ash", "Bree"]
    assert "Only the Director" in kit.refused(await table.alice.click(message, label="Bree"))
    started = kit.ok(await table.director.click(message, label="Bree"))
    assert "Bree" in started
    stored = await kit.stored(table)
    assert stored.turns.turns[-1].entry == "Bree"
    assert "picked already" in kit.refused(await table.director.click(message, label="Ash"))


async def test_the_argument_timer_is_only_for_the_players_side(table: Table) -> None:
    clock = Clock()
    await table.store.update_settings(table.guild.id, argument_timer=30)
    service = service_of(table, clock)
    await kit.start(table)
    await kit.add_party(table)
    await kit.begin(table, first="director")
    assert await pending(table, service) == []


@pytest.mark.parametrize(("typed", "seconds"), [("15m", 900), ("2h", 7200), ("1d", 86400), ("1h30m", 5400)])
def test_durations_parse(typed: str, seconds: int) -> None:
    from bot.durations import parse_duration

    assert parse_duration(typed, low=900, high=7 * 86400, what="nudge_after") == seconds


# --- cost --------------------------------------------------------------------------------------------------
async def test_reminders_and_links_cost_a_warm_command_no_query(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Reminders and pins cost the commands nothing measurable": the reminders are written by a background
    task, and a turn ping's jump link comes from memory; with both settings off nothing is written at all."""
    calls: list[tuple[str, str]] = []
    for name in ("set_reminders", "clear_reminders", "find_encounter"):
        real = getattr(Store, name)

        def spy(real: object = real, name: str = name) -> object:
            async def recorded(self: Store, *args: object, **kwargs: object) -> object:
                task = asyncio.current_task()
                calls.append((name, task.get_name() if task is not None else ""))
                return await real(self, *args, **kwargs)  # type: ignore[operator]

            return recorded

        monkeypatch.setattr(Store, name, spy())
    clock = Clock()
    await ready_with(table, clock)  # both settings off
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    assert [name for name, _ in calls if name != "find_encounter"] == []
    assert all(task.startswith("tracker-") for _, task in calls)  # not on the commands' path
    await table.store.update_settings(table.guild.id, nudge_after=HOUR)
    calls.clear()
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    kit.ok(await table.director.slash(table.channel, "turn end"))
    # the act clears the wait (`clear_reminders` is `set_reminders` with none), the end sets the new one
    assert [name for name, _ in calls] == ["clear_reminders", "set_reminders", "set_reminders"], calls
    assert {task for _, task in calls} == {"reminders-write"}
