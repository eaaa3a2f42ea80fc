"""Objectives with round counters and villain actions through SimCord: /encounter objective
add | done | fail, the counter on the tracker, the Director asked when it hits 0, the end summary; /encounter
villain name | use.

Draw Steel, Combat, "How Combat Ends": "the Director can set objectives when they build the encounter. Once
the heroes achieve those objectives ... the Director can end the encounter."
"""

from __future__ import annotations

import pytest
from simcord.env import Env

from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


async def next_round(table: Table) -> str:
    """The Director skips both sides' remaining turns: the next round starts (the last reply's text)."""
    kit.ok(await table.director.slash(table.channel, "turn skip"))
    return kit.ok(await table.director.slash(table.channel, "turn skip"))


async def test_a_counter_counts_down_on_the_tracker(table: Table) -> None:
    """`/encounter objective add text:Hold the bridge rounds:5` shows `Hold the bridge — 3 rounds left` on
    the tracker after two rounds; an objective without a counter shows just its text."""
    await kit.ready(table)
    text = kit.ok(
        await table.director.slash(table.channel, "encounter objective add", text="Hold the bridge", rounds=5)
    )
    assert text == "🎯 New objective: Hold the bridge — 5 rounds left."
    kit.ok(await table.director.slash(table.channel, "encounter objective add", text="Stop the ritual"))
    assert "🎯 Hold the bridge — 5 rounds left" in kit.body(kit.tracker(table.channel))
    await next_round(table)
    await next_round(table)
    shown = kit.body(kit.tracker(table.channel))
    assert "Round 3" in shown
    assert "🎯 Hold the bridge — 3 rounds left" in shown
    assert "🎯 Stop the ritual\n" in shown + "\n"


async def test_at_0_the_director_is_asked_and_ends_it_in_victory(table: Table, simcord_env: Env) -> None:
    """ "When the counter hits 0 at the start of a round, the bot announces it and asks the Director (buttons)
    whether the encounter ends in victory"; "The final summary lists each objective and its outcome"."""
    await kit.ready(table)
    kit.ok(
        await table.director.slash(table.channel, "encounter objective add", text="Hold the bridge", rounds=2)
    )
    kit.ok(await table.director.slash(table.channel, "encounter objective add", text="Stop the ritual"))
    kit.ok(await table.director.slash(table.channel, "encounter objective add", text="Save the mayor"))
    first = await next_round(table)
    assert "Time is up" not in first
    kit.ok(await table.director.slash(table.channel, "turn skip"))
    asked = await table.director.slash(table.channel, "turn skip")
    text = kit.ok(asked)
    assert "🔔 Round 3 begins." in text
    assert "⏳ Time is up for **Hold the bridge**. Director: does the encounter end in victory?" in text
    assert asked.response is not None
    message = asked.response.message
    assert kit.labels(message) == ["End in victory", "Keep fighting"]
    assert "Hold the bridge — time is up" in kit.body(kit.tracker(table.channel))
    kit.ok(await table.director.slash(table.channel, "encounter objective fail", objective="Stop the ritual"))
    kit.ok(await table.director.slash(table.channel, "encounter objective done", objective="1"))
    await simcord_env.restart_bot()  # the buttons are persistent
    refused = kit.refused(await table.alice.click(message, label="End in victory"))
    assert refused == "Only the Director can end the encounter."
    ended = kit.ok(await table.director.click(message, label="End in victory"))
    assert "1 Victory each to Ash, Bree" in ended
    summary = "Objectives:\n✅ Hold the bridge — achieved\n❌ Stop the ritual — failed\n"
    assert summary + "🎯 Save the mayor — not resolved" in ended
    assert (await table.store.view(kit.key(table))).encounter is None
    final = next(
        m for m in table.channel.history() if (m.embeds and (m.embeds[0].title or "").startswith("🏁"))
    )
    assert "✅ Hold the bridge — achieved\n❌ Stop the ritual — failed" in kit.body(final)


async def test_end_in_victory_at_0_achieves_the_objective_whose_time_is_up(table: Table) -> None:
    """The Director answers the question at a counter's 0 with End in victory, resolving nothing first: the
    summary says the objective was achieved (not "not resolved"); one without a counter stays unresolved."""
    await kit.ready(table)
    kit.ok(
        await table.director.slash(table.channel, "encounter objective add", text="Hold the bridge", rounds=2)
    )
    kit.ok(await table.director.slash(table.channel, "encounter objective add", text="Save the mayor"))
    await next_round(table)
    kit.ok(await table.director.slash(table.channel, "turn skip"))
    asked = await table.director.slash(table.channel, "turn skip")
    assert "Time is up for **Hold the bridge**" in kit.ok(asked)
    assert asked.response is not None
    ended = kit.ok(await table.director.click(asked.response.message, label="End in victory"))
    assert "Objectives:\n✅ Hold the bridge — achieved\n🎯 Save the mayor — not resolved" in ended


async def test_keep_fighting_leaves_the_encounter_running(table: Table) -> None:
    await kit.ready(table)
    kit.ok(
        await table.director.slash(table.channel, "encounter objective add", text="Hold the bridge", rounds=1)
    )
    asked = await table.director.slash(table.channel, "turn skip")
    asked = await table.director.slash(table.channel, "turn skip")
    assert "Time is up for **Hold the bridge**" in kit.ok(asked)
    assert asked.response is not None
    assert kit.refused(await table.director.click(asked.response.message, label="Keep fighting"))
    assert (await kit.stored(table)).turns.round == 2
    # announced once: the next round says nothing more
    assert "Time is up" not in await next_round(table)


async def test_done_and_fail_offer_the_open_objectives(table: Table) -> None:
    await kit.ready(table)
    for text in ("Hold the bridge", "Stop the ritual", "Save the mayor"):
        kit.ok(await table.director.slash(table.channel, "encounter objective add", text=text))
    reply = kit.ok(await table.director.slash(table.channel, "encounter objective done", objective="2"))
    assert reply == "✅ Objective achieved: **Stop the ritual**."
    offered = await table.director.autocomplete(table.channel, "encounter objective fail", "objective", "")
    assert [(c["name"], c["value"]) for c in offered] == [("Hold the bridge", "1"), ("Save the mayor", "3")]
    offered = await table.director.autocomplete(table.channel, "encounter objective done", "objective", "may")
    assert [c["name"] for c in offered] == ["Save the mayor"]
    refused = kit.refused(
        await table.director.slash(table.channel, "encounter objective fail", objective="Stop the ritual")
    )
    assert refused == "'Stop the ritual' is already achieved."


@pytest.mark.parametrize(
    ("command", "options", "action"),
    [
        ("encounter objective add", {"text": "Hold the bridge"}, "set objectives"),
        ("encounter objective done", {"objective": "1"}, "resolve objectives"),
        ("encounter objective fail", {"objective": "1"}, "resolve objectives"),
        ("encounter villain name", {"creature": "Goblin 1", "action": "Rally"}, "name villain actions"),
        ("encounter villain use", {"creature": "Goblin 1", "action": "Rally"}, "use villain actions"),
    ],
)
async def test_only_the_director(table: Table, command: str, options: dict[str, str], action: str) -> None:
    await kit.ready(table)
    kit.ok(await table.director.slash(table.channel, "encounter objective add", text="Hold the bridge"))
    refused = kit.refused(await table.alice.slash(table.channel, command, **options))
    assert refused == f"Only the Director can {action}."


async def test_limits_are_refused_in_one_line(table: Table) -> None:
    await kit.ready(table)
    long = kit.refused(await table.director.slash(table.channel, "encounter objective add", text="x" * 201))
    assert "at most 200 characters" in long
    zero = kit.refused(
        await table.director.slash(table.channel, "encounter objective add", text="Hold", rounds=0)
    )
    assert "rounds must be a number from 1 to 99" in zero
    for n in range(10):
        kit.ok(await table.director.slash(table.channel, "encounter objective add", text=f"Objective {n}"))
    full = kit.refused(await table.director.slash(table.channel, "encounter objective add", text="Eleven"))
    assert full == "An encounter holds at most 10 objectives."
    assert len((await kit.stored(table)).objectives) == 10


async def test_the_director_names_villain_actions(table: Table) -> None:
    await kit.ready(table)
    d = table.director
    for action in ("Hit and Run", "Rally", "Ruin"):
        named = await d.slash(table.channel, "encounter villain name", creature="Goblin 1", action=action)
        assert named.ephemeral and named.response is not None  # the names are the Director's
        assert named.response.content.startswith(f"😈 **Goblin 1** has the villain action **{action}**")
    fourth = kit.refused(
        await d.slash(table.channel, "encounter villain name", creature="Goblin 1", action="X")
    )
    assert fourth == "Goblin 1 already has 3 villain actions."
    hero = kit.refused(await d.slash(table.channel, "encounter villain name", creature="Ash", action="X"))
    assert "Only the Director's leaders and solos" in hero
    offered = await d.autocomplete(table.channel, "encounter villain use", "action", "", creature="Goblin 1")
    assert [c["value"] for c in offered] == ["Hit and Run", "Rally", "Ruin"]
    kit.ok(await d.slash(table.channel, "encounter villain use", creature="Goblin 1", action="Rally"))
    assert "**Goblin 1**: ⬜ Hit and Run · ✅ Rally · ⬜ Ruin" in await kit.private_status(table)


async def test_a_round_started_by_a_death_counts_down_too(table: Table) -> None:
    """The round-start rule counts every round, however it began: here the last creatures still to act die
    outside a turn, the next round starts, and the tracker shows the objective's time is up."""
    await kit.ready(table)
    kit.ok(
        await table.director.slash(table.channel, "encounter objective add", text="Hold the bridge", rounds=1)
    )
    kit.ok(await table.director.slash(table.channel, "turn skip"))  # the heroes' turns: the goblins are left
    for goblin in ("Goblin 1", "Goblin 2"):
        kit.ok(await table.director.slash(table.channel, "stamina damage", target=goblin, amount=10))
    assert (await kit.stored(table)).turns.round == 2
    assert "⏳ Hold the bridge — time is up: Director, end the encounter or resolve it" in kit.body(
        kit.tracker(table.channel)
    )


async def test_objective_texts_and_action_names_are_inert(table: Table) -> None:
    await kit.ready(table)
    d = table.director
    text = kit.ok(await d.slash(table.channel, "encounter objective add", text="@everyone **now**", rounds=2))
    assert "@\u200beveryone \\*\\*now\\*\\*" in text and "@everyone" not in text
    named = await d.slash(table.channel, "encounter villain name", creature="Goblin 1", action="<@123> _x_")
    assert named.ephemeral
    shown = kit.body(kit.tracker(table.channel))
    assert "@\u200beveryone \\*\\*now\\*\\* — 2 rounds left" in shown and "@everyone" not in shown
    private = await kit.private_status(table)
    assert "<@123>" not in private and "\\_x\\_" in private
