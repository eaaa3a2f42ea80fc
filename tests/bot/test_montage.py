"""A montage test through SimCord: /montage start with the channel's heroes, the Director's challenges and
secret outcome texts, each hero's test or assist once a round, the pinned tracker, the end by itself, the
close with Victories and Malice; undo, a restart mid-way, and the encounter commands refusing in one line."""

from __future__ import annotations

import re
from collections.abc import Iterable

import discord
import pytest
from simcord import ChannelHandle, MemberActor

from bot.replies import UserError
from bot.rules.montage import MontageDifficulty
from bot.settings import Settings
from bot.store import ChannelKey, Store
from exts.montage._cog import _pick
from tests.bot import encounter_kit as kit
from tests.bot import scene_kit
from tests.bot.conftest import Table, build_bot
from tests.bot.files_kit import CdnServer, fixture, refusal
from tests.bot.roll_kit import Loaded, loaded
from tests.bot.test_reminders import HOUR, Clock, service_of


@pytest.fixture
def dice() -> Loaded:
    return Loaded()


def montage_trackers(channel: ChannelHandle) -> list[discord.Message]:
    return [m for m in channel.history() if m.embeds and (m.embeds[0].title or "").startswith("🏔️")]


async def ready(table: Table) -> None:
    await table.configure_director_role()
    await scene_kit.heroes(table)
    text = kit.ok(await table.director.slash(table.channel, "montage start", name="Flood", difficulty="easy"))
    # 2 heroes: easy's 5 and 5 drop by 3 each
    assert "success limit 2, failure limit 2" in text and "Ash, Bree" in text
    kit.ok(
        await table.director.slash(
            table.channel, "montage challenge add", name="Climb", characteristics="Might", uses=2
        )
    )
    kit.ok(
        await table.director.slash(table.channel, "montage challenge add", name="Swim", characteristics="A")
    )


async def montage_test(table: Table, member: MemberActor, challenge: str, *faces: int) -> discord.Message:
    """`member`'s hero tests `challenge`, rolling `faces`: the public reply, whose buttons a test presses."""
    loaded(table).load(*faces)
    result = await member.slash(table.channel, "montage test", challenge=challenge)
    kit.ok(result)
    assert result.response is not None
    return result.response.message


def has(text: str, *parts: Iterable[str] | str) -> None:
    for part in parts:
        assert part in text, (part, text)


async def test_a_whole_montage_from_start_to_close(table: Table, store: Store) -> None:
    await ready(table)
    secret = "The bridge holds, barely."
    shown = await table.director.slash(table.channel, "montage outcome", result="total success", text=secret)
    assert shown.response is not None and shown.response.ephemeral
    [tracker] = montage_trackers(table.channel)
    has(kit.body(tracker), "Successes 0/2", "Round 1 of 2", "To act: Ash, Bree", "Climb")
    assert secret not in kit.body(tracker)  # hidden until the montage ends that way
    assert tracker.pinned

    loaded(table).load(3, 4)  # Bree assists Ash: 7 + 2 = 9, a failure: a bane
    text = kit.ok(
        await table.bob.slash(table.channel, "montage assist", hero="Ash", characteristic="agility")
    )
    has(text, "Bree** assists **Ash", "a bane", "still to act: Ash")
    refused = kit.refused(await table.bob.slash(table.channel, "montage test", challenge="Swim"))
    assert "already acted in round 1" in refused
    refused = kit.refused(
        await table.alice.slash(table.channel, "montage test", challenge="Swim", hero="Bree")
    )
    assert "Bree" in refused  # a player tests only with their own hero

    loaded(table).load(9, 8)  # Ash climbs: 17 + 2 - 2 (the bane) = 17, a success; round 2 begins
    text = kit.ok(await table.alice.slash(table.channel, "montage test", challenge="climb"))
    has(
        text,
        "Ash** tries **Climb**",
        "9 + 8 + 2, bane (−2) = 17",
        "success",
        "Successes 1/2",
        "Round 2 of 2** begins",
    )
    [tracker] = montage_trackers(table.channel)
    has(kit.body(tracker), "Successes 1/2", "Round 2 of 2", "1 of 2 uses left")

    loaded(table).load(10, 9)  # Bree swims: natural 19, a success: total success
    text = kit.ok(await table.bob.slash(table.channel, "montage test", challenge="Swim"))
    has(text, "Total success", secret, "/montage award")
    [tracker] = montage_trackers(table.channel)
    has(kit.body(tracker), "Total success", secret)
    refused = kit.refused(await table.alice.slash(table.channel, "montage award"))
    assert "Director" in refused

    closed = kit.ok(await table.director.slash(table.channel, "montage award", victories=1, malice=2))
    has(closed, "1 Victory each to Ash, Bree", "2 Malice carried")
    stored = await store.view(ChannelKey(table.guild.id, table.channel.id))
    assert stored.encounter is None or not stored.encounter.active
    assert {h.data["progress"]["victories"] for h in stored.heroes.values()} == {1}
    [tracker] = montage_trackers(table.channel)
    assert not tracker.pinned and "Closed: 1 Victory each; 2 Malice" in (tracker.embeds[0].footer.text or "")
    # the channel is free again: an encounter can start
    await kit.start(table)


async def test_the_close_button_awards_one_victory_after_a_restart(
    table: Table, settings: Settings, store: Store
) -> None:
    await ready(table)
    await montage_test(table, table.alice, "Climb", 10, 10)
    message = await montage_test(table, table.bob, "Swim", 10, 10)
    assert "Award 1 Victory each and close" in kit.labels(message)
    kit.refused(await table.bob.click(message, label="Award 1 Victory each and close"))
    await table.env.restart_bot(build_bot(settings, store, Loaded()))  # the button is persistent
    kit.ok(await table.director.click(message, label="Award 1 Victory each and close"))
    assert kit.labels(fresh(table.channel, message)) == []  # pressed once: it goes
    stored = await store.view(ChannelKey(table.guild.id, table.channel.id))
    assert {h.data["progress"]["victories"] for h in stored.heroes.values()} == {1}


async def test_undo_and_a_restart_mid_way(table: Table, settings: Settings, store: Store) -> None:
    await ready(table)
    loaded(table).load(1, 1)
    text = kit.ok(await table.alice.slash(table.channel, "montage test", challenge="Climb"))
    has(text, "failure", "Failures 1/2")
    undone = kit.ok(await table.alice.slash(table.channel, "montage undo"))
    assert "Ash tried Climb" in undone
    [tracker] = montage_trackers(table.channel)
    has(kit.body(tracker), "Failures 0/2", "To act: Ash, Bree")

    await montage_test(table, table.alice, "Climb", 10, 10)
    restarted = Loaded()
    await table.env.restart_bot(build_bot(settings, store, restarted))
    restarted.load(1, 1)
    text = kit.ok(await table.bob.slash(table.channel, "montage test", challenge="Swim"))
    has(text, "Successes 1/2 · Failures 1/2", "Round 2 of 2** begins")
    [again] = montage_trackers(table.channel)
    assert again.id == tracker.id  # the same tracker, edited after the restart
    # undo after the restart takes back the step made since, and the round it began
    undone = kit.ok(await table.bob.click(again, label="Undo"))
    assert "Bree tried Swim" in undone
    [again] = montage_trackers(table.channel)
    has(kit.body(again), "Successes 1/2 · Failures 0/2", "Round 1 of 2", "To act: Bree")


async def test_encounter_commands_refuse_while_a_montage_runs(table: Table) -> None:
    await ready(table)
    refused = kit.refused(await table.director.slash(table.channel, "encounter start"))
    assert "montage is already running" in refused
    refused = kit.refused(await table.director.slash(table.channel, "malice gain", amount=1))
    assert "A montage is running here: use /montage" in refused
    refused = kit.refused(await table.alice.slash(table.thread, "montage test", challenge="Climb"))
    assert "No montage is running here" in refused


async def test_the_directors_secrets_stay_hidden(table: Table) -> None:
    await ready(table)
    secret = "They are swept out to sea."
    await table.director.slash(table.channel, "montage outcome", result="total failure", text=secret)
    mine = await table.director.slash(table.channel, "montage status")
    assert mine.response is not None and mine.response.ephemeral and secret in mine.response.content
    theirs = await table.alice.slash(table.channel, "montage status")
    assert theirs.response is not None and secret not in (theirs.response.content or "")
    log = await table.alice.slash(table.channel, "montage log")
    message = log.response or log.followups[0]
    for attachment in message.attachments:
        assert secret not in (await attachment.read()).decode()


async def test_a_forge_steel_montage_is_imported(table: Table, cdn_server: CdnServer) -> None:
    await ready(table)
    upload = fixture("Flooded Causeway.ds-montage")
    refused = refusal(table.env, await table.alice.slash(table.channel, "montage import", file=upload))
    assert "Director" in refused
    result = await table.director.slash(table.channel, "montage import", file=upload)
    text = kit.ok(result)
    has(text, "3 challenges added", "Read the Tide", "The Far Shore", "Luck")
    secret = "Everyone reaches the shore before dark."
    assert secret not in text and "Undertow" not in text  # the outcome texts and twists are the Director's
    private = [m for m in result.followups if m.ephemeral]
    assert private and secret in private[-1].content and "Undertow" in private[-1].content
    [tracker] = montage_trackers(table.channel)
    has(kit.body(tracker), "Wade the Shallows", "2 of 2 uses left", "The tide is coming in")
    assert secret not in kit.body(tracker)
    wrong = refusal(
        table.env,
        await table.director.slash(table.channel, "montage import", file=fixture("Bog Ambush.ds-encounter")),
    )
    assert "use /encounter import for it" in wrong


async def test_heroes_who_havent_acted_are_nudged_then_the_director_told(table: Table) -> None:
    """The reminders' nudge (`/settings nudge_after`) for a montage: the players whose heroes haven't acted
    this round are pinged once more; after a second interval the Director is told who is waited on."""
    clock = Clock()
    await table.store.update_settings(table.guild.id, nudge_after=HOUR)
    service = service_of(table, clock)
    await ready(table)
    await montage_test(table, table.alice, "Climb", 10, 10)
    await service.flush()
    before = len(kit.pings(table))
    clock.advance(HOUR)
    assert await service.fire_due() == 1
    [(text, users, _)] = kit.pings(table)[before:]
    assert text.startswith("⏰ Still waiting after 1h:") and "Bree still to act" in text
    assert users == [table.bob.id]  # Ash has acted: alice isn't pinged
    clock.advance(HOUR)
    assert await service.fire_due() == 1
    [(note, users, _)] = kit.pings(table)[before + 1 :]
    assert users == [table.director.id] and "Bree" in note and "/montage next" in note
    clock.advance(10 * HOUR)
    assert await service.fire_due() == 0
    # Bree acts: the round moves on and the wait is a new one
    await montage_test(table, table.bob, "Swim", 10, 10)
    await service.flush()
    assert await service.fire_due() == 0


async def test_a_hero_token_rerolls_the_newest_test(table: Table, store: Store) -> None:
    await ready(table)
    kit.ok(await table.director.slash(table.channel, "tokens award", count=1))
    await montage_test(table, table.alice, "Climb", 1, 1)
    refused = kit.refused(await table.bob.slash(table.channel, "montage reroll", hero="Ash"))
    assert "Ash" in refused
    loaded(table).load(10, 10)
    text = kit.ok(await table.alice.slash(table.channel, "montage reroll"))
    has(text, "Hero token spent", "success", "Successes 1/2 · Failures 0/2")
    assert (await store.view(ChannelKey(table.guild.id, table.channel.id))).tokens == 0
    refused = kit.refused(await table.alice.slash(table.channel, "montage reroll"))
    assert "already rerolled" in refused
    # the new round's reply pings the players still to act
    users, _ = kit.pinged(table, await montage_test(table, table.bob, "Swim", 1, 1))
    assert users == [table.alice.id]  # round 2: Ash (alice); Bree's player moved it on


async def test_the_autocompletes_offer_the_montages_challenges_and_heroes(table: Table) -> None:
    await ready(table)
    offered = await table.alice.autocomplete(table.channel, "montage test", "challenge", "cl")
    assert [c["value"] for c in offered] == ["Climb"]
    await montage_test(table, table.alice, "Climb", 10, 10)
    offered = await table.bob.autocomplete(table.channel, "montage assist", "hero", "")
    assert [c["value"] for c in offered] == ["Bree"]  # Ash has acted this round
    refused = kit.refused(await table.director.slash(table.thread, "montage status"))
    assert "No montage is running here" in refused


async def test_recoveries_are_spent_as_outside_combat_during_a_montage(table: Table, store: Store) -> None:
    await ready(table)
    refused = kit.refused(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=1))
    assert "A montage is running here: use /montage" in refused  # combat's commands leave a montage alone
    text = kit.ok(await table.alice.slash(table.channel, "recover"))
    assert "**Ash** spends a Recovery (out of combat)" in text
    stored = await store.view(ChannelKey(table.guild.id, table.channel.id))
    [ash] = [h for h in stored.heroes.values() if h.name == "Ash"]
    assert ash.data["vitals"]["recoveries"] == 7


def test_a_choice_outside_the_list_is_refused_in_one_line() -> None:
    """Discord (and SimCord) only send listed choices; a client that sends another gets one line."""
    with pytest.raises(UserError, match="difficulty is easy, moderate or hard: pick one from the list"):
        _pick(MontageDifficulty, "brutal", "difficulty is easy, moderate or hard")
    assert _pick(MontageDifficulty, " Hard", "") is MontageDifficulty.HARD


async def test_the_reroll_button_and_the_trackers_undo(table: Table, store: Store) -> None:
    await ready(table)
    kit.ok(await table.director.slash(table.channel, "tokens award", count=1))
    message = await montage_test(table, table.alice, "Climb", 1, 1)
    assert kit.labels(message) == ["Reroll (hero token)"]
    kit.refused(await table.bob.click(message, label="Reroll (hero token)"))  # Ash isn't Bree's player
    loaded(table).load(10, 10)
    text = kit.ok(await table.alice.click(message, label="Reroll (hero token)"))
    has(text, "Hero token spent", "Successes 1/2 · Failures 0/2")
    [tracker] = montage_trackers(table.channel)
    assert kit.labels(tracker) == ["Undo"]
    undone = kit.ok(await table.alice.click(tracker, label="Undo"))
    assert "Hero token" in undone
    stored = await store.view(ChannelKey(table.guild.id, table.channel.id))
    assert stored.tokens == 1
    [tracker] = montage_trackers(table.channel)
    has(kit.body(tracker), "Failures 1/2")


async def test_the_malice_a_montage_carries_starts_the_next_fight_once(table: Table) -> None:
    """The Director's Malice carried over at the close is the next fight's in this channel when it begins
    (said in the replies), again after the begin is undone, and not the fight's after."""
    await ready(table)
    await montage_test(table, table.alice, "Climb", 10, 10)
    await montage_test(table, table.bob, "Swim", 10, 10)
    closed = kit.ok(await table.director.slash(table.channel, "montage award", victories=0, malice=2))
    has(closed, "2 Malice carried into the next fight")
    # a negotiation in between keeps it for the fight
    kit.ok(await scene_kit.start_negotiation(table, "open"))
    kit.ok(await table.alice.slash(table.channel, "negotiation offer"))
    kit.ok(await table.director.slash(table.channel, "negotiation close", victories=0))

    has(await kit.start(table), "2 Malice carried over from the montage Flood")
    await kit.add(table, name="Cal", stamina=20, side="heroes", player=table.alice)
    await kit.add(table, name="Goblin", stamina=10, side="director")
    begun = await kit.begin(table)
    has(begun, "starts with 2 Malice carried over")
    gained = re.search(r"gains (\d+) Malice", begun)
    assert gained is not None
    fight = await kit.stored(table)
    assert (fight.malice.value, fight.carried_malice) == (2 + int(gained[1]), 0)

    kit.ok(await table.director.slash(table.channel, "encounter undo"))
    fight = await kit.stored(table)
    assert (fight.malice.value, fight.carried_malice) == (0, 2)
    has(await kit.begin(table), "starts with 2 Malice carried over")

    asked = await table.director.slash(table.channel, "encounter end", victory=False)
    assert asked.response is not None
    kit.ok(await table.director.click(asked.response.message, label="End the encounter"))
    assert "carried" not in await kit.start(table)
    assert (await kit.stored(table)).carried_malice == 0


def fresh(channel: ChannelHandle, message: discord.Message) -> discord.Message:
    """The message as the channel shows it now (after any edit)."""
    return next(m for m in channel.history() if m.id == message.id)


async def test_a_closed_montages_buttons_go(table: Table) -> None:
    """The close button takes the buttons off the test reply it is under; a button left on an older reply
    after /montage award goes at its first press, which is refused in one line."""
    await ready(table)
    kit.ok(await table.director.slash(table.channel, "tokens award", count=1))
    older = await montage_test(table, table.alice, "Climb", 10, 10)
    assert kit.labels(older) == ["Reroll (hero token)"]
    newest = await montage_test(table, table.bob, "Swim", 10, 10)
    assert "Reroll (hero token)" in kit.labels(newest)
    kit.ok(await table.director.click(newest, label="Award 1 Victory each and close"))
    assert kit.labels(fresh(table.channel, newest)) == []
    refused = kit.refused(await table.alice.click(older, label="Reroll (hero token)"))
    assert "No montage is running here" in refused
    assert kit.labels(fresh(table.channel, older)) == []


async def test_a_total_failure_offers_the_award_and_a_close_without(table: Table, store: Store) -> None:
    """ "The Director then gets ... a button to award Victories, 1 by default": whatever the outcome, beside
    a close without Victories."""
    await ready(table)
    await montage_test(table, table.alice, "Climb", 1, 1)
    message = await montage_test(table, table.bob, "Swim", 1, 1)
    assert "Total failure" in message.content
    assert kit.labels(message) == [
        "Award 1 Victory each and close",
        "Close without Victories",
        "Reroll (hero token)",
    ]
    closed = kit.ok(await table.director.click(message, label="Close without Victories"))
    assert "Montage closed" in closed and "Victory" not in closed
    stored = await store.view(ChannelKey(table.guild.id, table.channel.id))
    assert all(h.data.get("progress", {}).get("victories", 0) == 0 for h in stored.heroes.values())


@pytest.mark.parametrize(
    ("difficulty", "names", "limits"),
    [
        ("hard", "Ash", "success limit 3, failure limit 2"),
        ("moderate", "Ash, Bree, Cal, Dee, Eve, Fay", "success limit 7, failure limit 5"),
        (
            "easy",
            "Ash, Bree, Cal, Dee, Eve, Fay, Gil, Hal, Ivo, Jo, Kit",
            "success limit 11, failure limit 11",
        ),
    ],
)
async def test_the_limits_follow_the_heroes_named(
    table: Table, difficulty: str, names: str, limits: str
) -> None:
    """ "/montage start name: difficulty: heroes: computes both limits from the difficulty and the number of
    heroes": heroes off the roster are the Director's to play, their tests taking bonus:."""
    await table.configure_director_role()
    await scene_kit.heroes(table)
    text = kit.ok(
        await table.director.slash(
            table.channel, "montage start", name="Siege", difficulty=difficulty, heroes=names
        )
    )
    has(text, limits)
    if "Cal" not in names:
        return
    assert "Cal" in text and "not on the roster" in text
    kit.ok(
        await table.director.slash(table.channel, "montage challenge add", name="Wall", characteristics="M")
    )
    loaded(table).load(6, 6)
    tested = kit.ok(
        await table.director.slash(table.channel, "montage test", challenge="Wall", hero="Cal", bonus=3)
    )
    has(tested, "Cal** tries **Wall**", "6 + 6 + 3 = 15", "Successes 1/")
    refused = kit.refused(
        await table.alice.slash(table.channel, "montage test", challenge="Wall", hero="Cal")
    )
    assert "Cal" in refused


async def test_an_older_tests_reroll_button_rerolls_nothing_else(table: Table, store: Store) -> None:
    """ "hero-token reroll": the button under a test rerolls that test, and only while it is the newest; under
    an older one it is refused in one line, and the newest test (another hero's) stays as rolled."""
    await ready(table)
    kit.ok(await table.director.slash(table.channel, "tokens award", count=1))
    older = await montage_test(table, table.alice, "Climb", 1, 1)
    await montage_test(table, table.bob, "Swim", 1, 1)
    loaded(table).load(10, 10)
    refused = kit.refused(await table.bob.click(older, label="Reroll (hero token)"))
    assert "newest" in refused
    assert (await store.view(ChannelKey(table.guild.id, table.channel.id))).tokens == 1
    [tracker] = montage_trackers(table.channel)
    has(kit.body(tracker), "Failures 2/2")


async def test_a_forge_steel_montage_imported_where_none_runs_starts_one(
    table: Table, cdn_server: CdnServer
) -> None:
    """ "/montage import file: reads a Forge Steel montage, meaning its sections, challenges, uses, twists and
    outcome texts": with no montage running, the file starts one (its name, moderate, the channel's
    heroes), the secrets to the Director alone."""
    await table.configure_director_role()
    await scene_kit.heroes(table)
    result = await table.director.slash(
        table.channel, "montage import", file=fixture("Flooded Causeway.ds-montage")
    )
    text = kit.ok(result)
    has(text, "The Flooded Causeway", "(moderate)", "success limit 3, failure limit 2", "3 challenges added")
    secret = "Everyone reaches the shore before dark."
    assert secret not in text and "Undertow" not in text
    private = [m for m in result.followups if m.ephemeral]
    assert private and secret in private[-1].content and "Undertow" in private[-1].content
    [tracker] = montage_trackers(table.channel)
    has(kit.body(tracker), "The Flooded Causeway", "Wade the Shallows", "2 of 2 uses left")
    loaded(table).load(10, 10)
    tested = kit.ok(
        await table.alice.slash(
            table.channel, "montage test", challenge="Wade the Shallows", characteristic="might"
        )
    )
    has(tested, "Successes 1/3")


async def test_the_encounters_log_and_undo_serve_a_montage(table: Table) -> None:
    """ "A montage has the encounter's machinery: ... undo; the log in /encounter log, or a /montage log." """
    await ready(table)
    await montage_test(table, table.alice, "Climb", 1, 1)
    for command in ("encounter log", "montage log"):
        log = await table.alice.slash(table.channel, command)
        message = log.response or log.followups[0]
        texts = [(await a.read()).decode() for a in message.attachments]
        assert texts and any("Ash tried Climb" in t for t in texts), command
    undone = kit.ok(await table.alice.slash(table.channel, "encounter undo"))
    assert "Ash tried Climb" in undone
    [tracker] = montage_trackers(table.channel)
    has(kit.body(tracker), "Failures 0/2", "To act: Ash, Bree")


async def test_two_rounds_over_with_two_more_successes_is_a_partial_success(table: Table) -> None:
    """ "... or the two rounds are over. Then, if the successes are at least 2 more than the failures, it is a
    partial success" — through the commands: hard, 2 heroes (limits 4 and 2), 3 successes and 1 failure."""
    await table.configure_director_role()
    await scene_kit.heroes(table)
    text = kit.ok(
        await table.director.slash(
            table.channel, "montage start", name="Siege", difficulty="hard", heroes="Ash, Bree"
        )
    )
    has(text, "success limit 4, failure limit 2")
    kit.ok(
        await table.director.slash(table.channel, "montage challenge add", name="Hold", characteristics="M")
    )
    for who, dice in ((table.alice, (10, 10)), (table.bob, (10, 10)), (table.alice, (10, 10))):
        loaded(table).load(*dice)
        kit.ok(await who.slash(table.channel, "montage test", challenge="Hold"))
    loaded(table).load(1, 1)
    text = kit.ok(await table.bob.slash(table.channel, "montage test", challenge="Hold"))
    has(text, "Successes 3/4 · Failures 1/2", "The montage is over: ⚖️ **Partial success**")
    [tracker] = montage_trackers(table.channel)
    has(kit.body(tracker), "Partial success")


async def test_a_round_end_that_ends_the_montage_offers_the_close(table: Table) -> None:
    """Ending the last round with /montage next ends the montage as the rules count it; its reply carries
    the Director's close buttons, as a test that ends it does."""
    await ready(table)
    first = await table.director.slash(table.channel, "montage next")
    assert first.response is not None and kit.labels(first.response.message) == []
    last = await table.director.slash(table.channel, "montage next")
    has(kit.ok(last), "Total failure")
    assert last.response is not None
    assert "Award 1 Victory each and close" in kit.labels(last.response.message)
    kit.ok(await table.director.click(last.response.message, label="Award 1 Victory each and close"))


async def test_ending_the_montage_early_offers_the_close(table: Table) -> None:
    await ready(table)
    await montage_test(table, table.alice, "Climb", 10, 10)
    ended = await table.director.slash(table.channel, "montage end")
    has(kit.ok(ended), "The montage is over")
    assert ended.response is not None
    assert "Award 1 Victory each and close" in kit.labels(ended.response.message)
