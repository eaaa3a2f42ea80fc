"""/turn and the tracker's controls on SimCord: act, end, skip; Act / End turn / Undo / Save and the select of
who may act, before and after a restart; a press on an old tracker; who may; who is pinged; bad input."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
from simcord.env import Env

from bot.rules.conditions import Condition, Duration
from bot.rules.turns import Phase, add_condition, current
from bot.settings import Settings
from bot.store import Change, Store
from bot.store import Table as StoreTable
from tests.bot import encounter_kit as kit
from tests.bot import harm_kit
from tests.bot.conftest import Table, slow_commits
from tests.bot.test_forged_ids import forge

SLOW = 5.0


def custom_ids(message: discord.Message) -> list[str]:
    return [c.custom_id or "" for row in message.components for c in getattr(row, "children", [])]


def select_id(message: discord.Message) -> str:
    return next(i for i in custom_ids(message) if i.startswith("enc:pick:"))


def options(message: discord.Message) -> list[str]:
    for row in message.components:
        for child in getattr(row, "children", []):
            if isinstance(child, discord.SelectMenu):
                return [o.value for o in child.options]
    return []


async def test_act_and_end_show_the_turn_and_ping_the_next_side(table: Table) -> None:
    await kit.ready(table)
    # round start pinged the heroes' players, exactly them
    assert kit.pings(table)[-1][1:] == ([table.alice.id, table.bob.id], [])
    text = kit.ok(await table.alice.slash(table.channel, "turn act", combatant="ash"))
    assert "**Ash** starts their turn" in text
    assert "can still use" not in text and "Not available" not in text  # a fresh turn: nothing to say
    count = len(kit.pings(table))
    text = kit.ok(await table.alice.slash(table.channel, "turn end"))
    assert "Ash**'s turn ends" in text and "the Director pick" in text
    pinged = kit.pings(table)
    assert len(pinged) == count + 1
    assert pinged[-1][1:] == ([table.director.id], [])  # no Director role set: the encounter's Director
    assert pinged[-1][0] == text  # the reply itself pings: one message, no post of its own


async def test_a_deferred_turn_end_pings_in_a_message_of_its_own(
    table: Table, simcord_env: Env, monkeypatch: Any
) -> None:
    """A slow store defers the reply, which then edits the "thinking…" message (an edit pings nobody): the
    ping follows in a message of its own, to exactly the side that picks."""
    await kit.ready(table)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="ash"))
    slow_commits(simcord_env, monkeypatch, "exts.turn._cog", SLOW)
    count = len(kit.pings(table))
    result = await table.alice.slash(table.channel, "turn end")
    assert result.deferred
    await simcord_env.advance_time(SLOW)
    texts = [m.content for m in ([result.response] if result.response else []) + result.followups]
    assert any("Ash**'s turn ends" in t for t in texts), texts
    pinged = kit.pings(table)
    assert len(pinged) == count + 1
    assert pinged[-1][1:] == ([table.director.id], [])
    assert "Ash**'s turn ends" not in pinged[-1][0] and "the Director pick" in pinged[-1][0]


async def test_the_director_role_is_pinged_when_set_and_pings_can_be_off(table: Table) -> None:
    await table.configure_director_role()
    await kit.ready(table)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    assert kit.pings(table)[-1][1:] == ([], [table.director_role.id])
    await table.store.update_settings(table.guild.id, turn_pings=False)
    count = len(kit.pings(table))
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    kit.ok(await table.director.slash(table.channel, "turn end"))
    assert len(kit.pings(table)) == count


async def test_permissions_player_cannot_move_a_monster_stranger_cannot_end_a_turn(table: Table) -> None:
    await kit.ready(table)
    stranger = table.add_player("eve")
    text = kit.refused(await table.bob.slash(table.channel, "turn act", combatant="Ash"))
    assert "Only Ash's player or the Director" in text
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    assert "Only Ash's player or the Director can end Ash's turn" in kit.refused(
        await stranger.slash(table.channel, "turn end")
    )
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    assert "Only the Director" in kit.refused(
        await table.alice.slash(table.channel, "turn act", combatant="Goblin 1")
    )
    assert "Only the Director" in kit.refused(await table.alice.slash(table.channel, "turn skip"))
    enc = await kit.stored(table)
    assert [t.entry for t in enc.turns.turns] == ["Ash"]


async def test_wrong_side_and_unknown_names_are_refused_in_one_line(table: Table) -> None:
    await kit.ready(table, first="director")
    assert "Director's side" in kit.refused(
        await table.alice.slash(table.channel, "turn act", combatant="Ash")
    )
    assert "No creature named" in kit.refused(
        await table.director.slash(table.channel, "turn act", combatant="Dragon")
    )
    assert "at most" in kit.refused(
        await table.director.slash(table.channel, "turn act", combatant="x" * 200)
    )
    assert "Nobody is taking a turn" in kit.refused(await table.director.slash(table.channel, "turn end"))
    assert "None of your creatures" in kit.refused(await table.alice.slash(table.channel, "turn act"))


async def test_the_director_overrides_the_order(table: Table) -> None:
    await kit.ready(table, first="director")
    text = kit.ok(await table.director.slash(table.channel, "turn act", combatant="Bree"))
    assert "out of order" in text


async def test_autocomplete_offers_only_who_may_act_for_the_caller(table: Table) -> None:
    await kit.ready(table)
    names = [c["value"] for c in await table.alice.autocomplete(table.channel, "turn act", "combatant", "")]
    assert names == ["Ash"]
    names = [
        c["value"] for c in await table.director.autocomplete(table.channel, "turn act", "combatant", "")
    ]
    assert names == ["Ash", "Bree"]
    none = await table.alice.autocomplete(table.thread, "turn act", "combatant", "")
    assert none == []


async def test_skip_a_combatant_or_the_picking_side(table: Table) -> None:
    await kit.ready(table)
    text = kit.ok(await table.bob.slash(table.channel, "turn skip", combatant="Bree"))
    assert "Bree** passes" in text
    text = kit.ok(await table.director.slash(table.channel, "turn skip"))
    assert "the Director skips the rest" in text
    enc = await kit.stored(table)
    assert enc.turns.round == 1
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    text = kit.ok(await table.alice.slash(table.channel, "turn end"))
    assert "Round 2 begins" in text
    assert (await kit.stored(table)).turns.round == 2


async def test_tracker_buttons_and_select_work_after_a_restart(table: Table, simcord_env: Env) -> None:
    await kit.ready(table)
    shown = kit.tracker(table.channel)
    assert options(shown) == ["Ash", "Bree"]
    assert all(i.startswith("enc:") for i in custom_ids(shown))
    await simcord_env.restart_bot()
    text = kit.ok(await table.alice.select(shown, ["Ash"], custom_id=select_id(shown)))
    assert "**Ash** starts their turn" in text
    shown = kit.tracker(table.channel)
    await simcord_env.restart_bot()
    assert "Only Ash's player" in kit.refused(await table.bob.click(shown, label="End turn"))
    text = kit.ok(await table.alice.click(shown, label="End turn"))
    assert "turn ends" in text
    shown = kit.tracker(table.channel)
    assert "Undone" in kit.ok(await table.director.click(shown, label="Undo"))
    enc = await kit.stored(table)
    assert enc.turns.turns[-1].entry == "Ash" and not enc.turns.turns[-1].ended


def end_id(message: discord.Message) -> str:
    return next(i for i in custom_ids(message) if i.startswith("enc:end:"))


async def test_end_turn_after_another_change_in_the_same_turn_is_carried_out(table: Table) -> None:
    """The press depends on the turn in progress, not on the tracker's last render: another process's change
    that leaves Ash's turn running (the tracker not edited) doesn't make End turn stale."""
    await kit.ready(table)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    old = kit.tracker(table.channel)
    await harm_kit.edit(table, lambda enc: dataclasses.replace(enc, surges={"Ash": 1}))
    text = kit.ok(await table.alice.click(old, label="End turn"))
    assert "Ash**'s turn ends" in text
    assert (await kit.stored(table)).turns.turns[-1].ended is True


async def test_end_turn_pressed_right_after_your_own_strike_is_carried_out(table: Table) -> None:
    """End turn pressed a second after one's own strike, on the tracker as it was before its refresh."""
    await kit.ready(table)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    pressed = end_id(kit.tracker(table.channel))
    kit.ok(await table.alice.slash(table.channel, "strike", targets="Goblin 1", damage="3/6/9"))
    tracker = kit.tracker(table.channel)
    assert end_id(tracker) != pressed  # refreshed meanwhile: the press carries the id the player saw
    forge(table, tracker, "enc:end:", pressed)
    text = kit.ok(await table.alice.click(tracker, custom_id=pressed))
    assert "Ash**'s turn ends" in text
    assert (await kit.stored(table)).turns.turns[-1].ended is True


async def test_a_pick_made_for_the_same_pick_is_carried_out_and_one_made_before_it_is_refused(
    table: Table,
) -> None:
    """The select depends on the pick under way: a change that leaves the heroes picking in round 1 leaves
    it good; once a turn was taken since, the same pick is another pick, and the press is refused."""
    await kit.ready(table)
    old = kit.tracker(table.channel)
    await harm_kit.edit(table, lambda enc: dataclasses.replace(enc, surges={"Bree": 1}))
    text = kit.ok(await table.alice.select(old, ["Ash"], custom_id=select_id(old)))
    assert "**Ash** starts their turn" in text
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    kit.ok(await table.director.slash(table.channel, "turn skip", combatant="Goblin 1"))
    tracker = kit.tracker(table.channel)
    forge(table, tracker, "enc:pick:", select_id(old))
    assert "out of date" in kit.refused(await table.bob.select(tracker, ["Bree"], custom_id=select_id(old)))
    assert [t.entry for t in (await kit.stored(table)).turns.turns] == ["Ash", "Goblin 1"]


async def test_a_press_whose_turn_has_changed_is_refused_note_first(table: Table) -> None:
    """Ash's End turn pressed after Ash's turn ended and a goblin's began: refused, the note says the fresh
    tracker is below it, and it is (posted after the note); the goblin's turn goes on."""
    await kit.ready(table)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    pressed = end_id(kit.tracker(table.channel))
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    tracker = kit.tracker(table.channel)
    forge(table, tracker, "enc:end:", pressed)
    result = await table.alice.click(tracker, custom_id=pressed)
    note = kit.refused(result)
    assert "out of date" in note and "below" in note
    fresh = kit.tracker(table.channel)
    assert fresh.id != tracker.id
    assert result.response is not None and result.response.id < fresh.id  # the note first, the tracker below
    last = (await kit.stored(table)).turns.turns[-1]
    assert last.entry == "Goblin 1" and not last.ended


async def test_act_button_acts_for_the_callers_only_creature(table: Table) -> None:
    await kit.ready(table)
    text = kit.ok(await table.bob.click(kit.tracker(table.channel), label="Act"))
    assert "**Bree** starts their turn" in text
    stranger = table.add_player("eve")
    kit.ok(await table.bob.click(kit.tracker(table.channel), label="End turn"))
    assert "None of your creatures" in kit.refused(
        await stranger.click(kit.tracker(table.channel), label="Act")
    )


async def test_save_button_rolls_the_saves_due(table: Table) -> None:
    await kit.ready(table)

    def dazed(enc: Any) -> Any:
        return enc.with_turns(add_condition(enc.turns, "Ash", Condition.DAZED, Duration.SAVE).state)

    await harm_kit.edit(table, dazed)
    text = kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    assert "dazed (save ends)" in text and "Saves due" in text
    text = kit.ok(await table.alice.slash(table.channel, "turn end"))
    assert "Save due against dazed" in text and text.count("Ash") == 1
    text = kit.ok(await table.alice.click(kit.tracker(table.channel), label="Save"))
    assert "saves against dazed" in text


async def test_turns_need_a_begun_encounter(table: Table) -> None:
    await kit.start(table)
    await kit.add_party(table)
    kit.refused(await table.director.slash(table.channel, "turn act", combatant="Ash"))
    assert (await kit.stored(table)).turns.phase is Phase.SETUP
    kit.refused(await table.director.slash(table.thread, "turn end"))


async def test_a_director_judged_on_an_old_memory_of_the_channel_is_not_obeyed(
    table: Table, settings: Settings
) -> None:
    """The bot judges who is acting on its memory of the channel (no database read); another process then
    hands the encounter to another Director. The old Director's override is refused, not applied to the new
    encounter, and the next try is judged afresh."""
    await kit.ready(table)
    other = await Store.open(settings.database_url, migrate=False)
    try:

        def hand_over(stored: StoreTable) -> Change[None]:
            stored.require_encounter().director_id = table.alice.id
            return Change("the encounter changes hands", None)

        await other.mutate(kit.key(table), table.director.id, "test.director", hand_over)
    finally:
        await other.close()

    text = kit.refused(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    assert "changed just now" in text
    assert current((await kit.stored(table)).turns) is None
    text = kit.refused(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    assert "Goblin 1" in text and "changed just now" not in text
