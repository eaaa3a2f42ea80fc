"""`/roll` through real dispatch: the contract labels, every option, the Downgrade and Reroll buttons (before
and after a restart), who may press them, hero tokens, and bad input.

The dice are forced per test (`LoadedDice`, a `FixedDice` the test loads); rosters, hero tokens and
encounters are set up straight through the store, so these tests depend on no other cog.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from simcord import MemberActor
from simcord.actors import _dispatch_actor_interaction
from simcord.backend.errors import SetupError
from simcord.enums import InteractionType
from simcord.env import Env
from simcord.results import InteractionResult, ResponseMessage

from bot.client import DrawSteelBot
from bot.play import put_sheet, sheet_of
from bot.rules import codec
from bot.rules.characteristics import Characteristics
from bot.rules.encounter import Encounter, add_hero, new_encounter_state
from bot.rules.hero import new_sheet
from bot.store import Change, ChannelKey
from bot.store import Table as StoreTable
from exts.help._cog import help_entries
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table, slow_commits
from tests.bot.roll_kit import LoadedDice, description, reply
from tests.bot.test_contract import CONTRACT


@pytest.fixture
def dice() -> LoadedDice:
    return LoadedDice()


# --- helpers ----------------------------------------------------------------------------------------------
def field(message: ResponseMessage, name: str) -> str | None:
    (embed,) = message.embeds
    return next((f.value for f in embed.fields if f.name == name), None)


def buttons(message: ResponseMessage) -> dict[str, str]:
    """Label -> custom id of every button on the message."""
    out: dict[str, str] = {}
    for row in message.components:
        for item in row.get("components", []):
            out[item["label"]] = item["custom_id"]
    return out


def one_line_error(result: InteractionResult) -> str:
    assert result.ephemeral
    message = reply(result)
    assert not message.embeds and not message.components
    assert "\n" not in message.content
    return message.content


async def give_hero(
    table: Table, member_id: int, name: str = "Ash", characteristics: str = "M2 A1 R0 I-1 P1", tokens: int = 0
) -> None:
    """A roster hero owned by `member_id` in the table's channel, and the party's hero-token pool."""
    sheet = new_sheet(30, 8, Characteristics.parse(characteristics))

    def change(t: StoreTable) -> Change[None]:
        hero = t.add_hero(member_id, name, {})
        put_sheet(hero, sheet)
        t.tokens = tokens
        return Change(f"test: {name} joins", None)

    await table.store.mutate(ChannelKey(table.guild.id, table.channel.id), member_id, "test", change)


async def token_test(
    table: Table,
    dice: LoadedDice,
    tokens: int,
    faces: tuple[int, int],
    roller: MemberActor | None = None,
    **options: Any,
) -> ResponseMessage:
    """Alice's hero Ash, `tokens` hero tokens in the pool; `roller` (alice) rolls a test on `faces`: the
    reply, whose Reroll button a test presses."""
    await give_hero(table, table.alice.id, tokens=tokens)
    dice.load(*faces)
    return reply(await (roller or table.alice).slash(table.channel, "roll", kind="test", **options))


async def start_encounter_with(table: Table, member_id: int, name: str = "Ash") -> None:
    """An active encounter in the channel with the member's roster hero brought in."""

    def change(t: StoreTable) -> Change[None]:
        hero = next(h for h in t.heroes.values() if h.name == name)
        encounter, _ = add_hero(new_encounter_state(), hero.id, member_id, hero.name, sheet_of(hero))
        t.begin_encounter("Ambush", table.director.id, codec.to_data(encounter))
        return Change("test: encounter", None)

    await table.store.mutate(ChannelKey(table.guild.id, table.channel.id), table.director.id, "test", change)


async def tokens_left(table: Table) -> int:
    return (await table.store.view(ChannelKey(table.guild.id, table.channel.id))).tokens


async def raw_roll(table: Table, actor: Any, **options: Any) -> InteractionResult:
    """/roll as a client that ignores the command's declared ranges and choices would send it (the wire)."""
    root = table.env.backend.find_command("roll", table.guild.id, type=1)
    assert root is not None
    declared = {o["name"]: o["type"] for o in root.get("options", [])}
    data = {
        "id": root["id"],
        "name": "roll",
        "type": 1,
        "options": [{"name": k, "type": declared[k], "value": v} for k, v in options.items()],
    }
    return await _dispatch_actor_interaction(actor, InteractionType.APPLICATION_COMMAND, table.channel, data)


def rewrite_button(table: Table, message: ResponseMessage, label: str, custom_id: str) -> None:
    """Give a button of a stored message another custom id (a message from an older or tampered bot)."""
    stored = table.env.backend.get_message(message.channel_id, message.id)
    for row in stored.components:
        for item in row.get("components", []):
            if item.get("label") == label:
                item["custom_id"] = custom_id


# --- the reply and its labels ------------------------------------------------------------------------------
async def test_contract_labels_in_embed_and_content(table: Table, dice: LoadedDice) -> None:
    dice.load(7, 9)
    result = await table.alice.slash(table.channel, "roll", bonus=2)

    message = reply(result)
    assert not result.ephemeral
    lines = description(message)
    for label in ("Dice: 7 + 9", "Total: 18", "Tier 3"):
        assert label in lines  # a line of its own in the embed
        assert label in message.content  # and in the one-line content any client reads
    assert "\n" not in message.content
    assert "Modifiers: bonus +2" in lines
    assert "Critical" not in message.content and "Critical" not in lines
    assert field(message, "Rolled by") == "alice"
    assert message.embeds[0].title == "Power roll"


@pytest.mark.parametrize(
    ("faces", "bonus", "total", "tier"),
    [((5, 6), 0, 11, 1), ((6, 6), 0, 12, 2), ((8, 8), 0, 16, 2), ((8, 8), 1, 17, 3), ((1, 1), -5, -3, 1)],
)
async def test_tier_boundaries(
    table: Table, dice: LoadedDice, faces: tuple[int, int], bonus: int, total: int, tier: int
) -> None:
    dice.load(*faces)
    message = reply(await table.bob.slash(table.thread, "roll", bonus=bonus))
    assert f"Total: {total}" in description(message)
    assert f"Tier {tier}" in description(message)
    assert f"Dice: {faces[0]} + {faces[1]}" in message.content
    if bonus < 0:
        assert f"Modifiers: penalty {bonus}" in description(message)


async def test_characteristic_is_read_from_the_callers_hero(table: Table, dice: LoadedDice) -> None:
    await give_hero(table, table.alice.id, characteristics="M3 A1 R0 I-1 P1")
    dice.load(4, 5)
    message = reply(await table.alice.slash(table.channel, "roll", characteristic="might", bonus=1))

    lines = description(message)
    assert "Modifiers: Might +3, bonus +1" in lines
    assert "Total: 13" in lines and "Tier 2" in lines

    dice.load(4, 5)
    message = reply(await table.alice.slash(table.channel, "roll", characteristic="intuition"))
    assert "Modifiers: Intuition -1" in description(message)
    assert "Total: 8" in description(message)


async def test_characteristic_without_a_hero(table: Table, dice: LoadedDice) -> None:
    await give_hero(table, table.alice.id)  # alice's hero is not bob's
    dice.load(4, 5)
    text = one_line_error(await table.bob.slash(table.channel, "roll", characteristic="agility"))
    assert "bonus:" in text and "/hero create" in text
    # A thread plays with its channel's roster (campaigns): alice's hero is found there.
    result = await table.alice.slash(table.thread, "roll", characteristic="might")
    assert result.response is not None and not result.ephemeral


async def test_characteristic_of_a_hero_added_to_the_encounter(table: Table, dice: LoadedDice) -> None:
    """A player whose hero the Director added with `/encounter add player:` (no roster hero) rolls with
    that creature's characteristics; a member who controls nothing there is still refused."""
    await kit.start(table)
    await kit.add_party(table)  # Ash: alice's, "M2 A3"
    dice.load(4, 5)
    message = reply(await table.alice.slash(table.channel, "roll", characteristic="agility"))
    assert "Modifiers: Agility +3" in description(message) and "Total: 12" in description(message)
    stranger = table.add_player("eve")
    text = one_line_error(await stranger.slash(table.channel, "roll", characteristic="agility"))
    assert text.startswith("You have no hero in this channel")


@pytest.mark.parametrize(
    ("edges", "banes", "faces", "total", "tier", "words"),
    [
        (1, 0, (5, 5), 12, 2, "edge (+2)"),
        (0, 1, (7, 7), 12, 2, "bane (−2)"),
        (1, 1, (5, 5), 10, 1, "1 edge and 1 bane cancel out"),
        (2, 2, (5, 5), 10, 1, "2 edges and 2 banes cancel out"),
        (2, 0, (5, 5), 10, 2, "double edge (tier +1)"),
        (0, 2, (9, 9), 18, 2, "double bane (tier −1)"),
        (2, 1, (5, 5), 12, 2, "2 edges and 1 bane: edge (+2)"),
        (1, 2, (7, 7), 12, 2, "1 edge and 2 banes: bane (−2)"),
        (3, 0, (8, 8), 16, 3, "3 edges: double edge (tier +1)"),
        (0, 2, (3, 3), 6, 1, "double bane (tier −1)"),
    ],
)
async def test_edges_and_banes(
    table: Table,
    dice: LoadedDice,
    edges: int,
    banes: int,
    faces: tuple[int, int],
    total: int,
    tier: int,
    words: str,
) -> None:
    dice.load(*faces)
    message = reply(await table.alice.slash(table.channel, "roll", edges=edges, banes=banes))
    lines = description(message)
    assert f"Modifiers: {words}" in lines
    assert f"Total: {total}" in lines
    assert f"Tier {tier}" in lines
    if edges > 2:
        assert "count as 2" in (field(message, "Notes") or "")


async def test_critical_on_an_ability_roll(table: Table, dice: LoadedDice) -> None:
    dice.load(10, 9)
    message = reply(await table.alice.slash(table.channel, "roll", banes=2, label="Mind Spike"))

    lines = description(message)
    assert "Tier 3" in lines and "Critical" in lines  # natural 19: tier 3 whatever the banes
    assert "Critical" in message.content
    assert "extra main action" in (field(message, "Notes") or "")
    assert message.embeds[0].title == "Mind Spike"


async def test_a_natural_19_on_a_test_is_a_success_with_a_reward(table: Table, dice: LoadedDice) -> None:
    dice.load(9, 10)
    message = reply(await table.alice.slash(table.channel, "roll", kind="test", difficulty="hard", bonus=-9))
    lines = description(message)
    assert "Tier 3" in lines
    assert "Result: success with a reward (hard)" in lines
    assert "Critical" not in message.content
    assert "success with a reward (hard)" in message.content


@pytest.mark.parametrize(("faces", "auto", "tier"), [((1, 1), 3, 3), ((9, 9), 1, 1), ((10, 9), 1, 3)])
async def test_automatic_tiers(
    table: Table, dice: LoadedDice, faces: tuple[int, int], auto: int, tier: int
) -> None:
    dice.load(*faces)
    message = reply(await table.alice.slash(table.channel, "roll", auto_tier=str(auto), edges=1))
    lines = description(message)
    assert f"Tier {tier}" in lines
    notes = field(message, "Notes") or ""
    if sum(faces) >= 19:
        assert "Automatic outcome" not in lines and "beats the automatic outcome" in notes
    else:
        assert "Automatic outcome" in lines and f"Automatic outcome: tier {auto}" in notes
        assert "automatic" in message.content


@pytest.mark.parametrize(
    ("difficulty", "faces", "result"),
    [
        ("easy", (3, 4), "success with a consequence (easy)"),
        ("medium", (6, 7), "success with a consequence (medium)"),
        ("medium", (9, 8), "success (medium)"),
        ("hard", (6, 7), "failure (hard)"),
        ("hard", (1, 2), "failure with a consequence (hard)"),
    ],
)
async def test_tests_show_their_outcome(
    table: Table, dice: LoadedDice, difficulty: str, faces: tuple[int, int], result: str
) -> None:
    dice.load(*faces)
    message = reply(await table.alice.slash(table.channel, "roll", kind="test", difficulty=difficulty))
    assert f"Result: {result}" in description(message)
    assert message.embeds[0].title == "Test"
    assert "Reroll (hero token)" in buttons(message)


async def test_difficulty_alone_makes_a_test_and_a_test_without_one_shows_each(
    table: Table, dice: LoadedDice
) -> None:
    dice.load(6, 7)
    message = reply(await table.alice.slash(table.channel, "roll", difficulty="easy"))
    assert "Result: success (easy)" in description(message)

    dice.load(6, 7)
    message = reply(await table.alice.slash(table.channel, "roll", kind="test"))
    assert "Result: easy: success, medium: success with a consequence, hard: failure" in description(message)


async def test_tiers_show_the_reached_outcome(table: Table, dice: LoadedDice) -> None:
    dice.load(6, 7)
    message = reply(
        await table.alice.slash(table.channel, "roll", tiers="2 damage; 5 damage;7 damage", label="Strike")
    )
    assert "Outcome: **5 damage**" in description(message)
    assert field(message, "Outcomes") == "2 damage; 5 damage; 7 damage"


async def test_hidden_rolls_are_ephemeral(table: Table, dice: LoadedDice) -> None:
    dice.load(6, 7)
    result = await table.director.slash(table.channel, "roll", hidden=True, label="Ambush check")
    assert result.ephemeral
    assert "Dice: 6 + 7" in reply(result).content

    dice.load(6, 7)
    assert not (await table.director.slash(table.channel, "roll", hidden=False)).ephemeral


async def test_user_text_is_inert(table: Table, dice: LoadedDice, simcord_env: Env) -> None:
    dice.load(6, 7)
    message = reply(
        await table.alice.slash(
            table.channel, "roll", label="@everyone <@123456789012345678>", tiers="**a**; @here; c"
        )
    )
    stored = simcord_env.backend.get_message(table.channel.id, message.id)
    assert not stored.mention_everyone and not stored.ping_user_ids
    assert "@everyone" not in message.content and "@\u200beveryone" in message.content
    assert "Outcome: **@\u200bhere**" in description(message)
    assert field(message, "Outcomes") == "\\*\\*a\\*\\*; @\u200bhere; c"


# --- downgrade ---------------------------------------------------------------------------------------------
async def test_the_roller_downgrades_in_place(table: Table, dice: LoadedDice) -> None:
    dice.load(10, 10)
    shown = reply(
        await table.alice.slash(table.channel, "roll", tiers="2 damage; 5 damage; 7 damage", label="Strike")
    )
    assert list(buttons(shown)) == ["Downgrade to tier 2", "Downgrade to tier 1"]

    pressed = await table.alice.click(shown.message, label="Downgrade to tier 2")

    edited = reply(pressed)
    assert edited.id == shown.id  # the roll message itself (response type 7), not a new one
    assert not pressed.ephemeral and pressed.followups == []
    lines = description(edited)
    assert "Tier 2" in lines and "Downgraded from tier 3" in lines
    assert "Critical" in lines  # a downgraded critical keeps its extra main action
    assert "kept after the downgrade" in (field(edited, "Notes") or "")
    assert "Outcome: **5 damage**" in lines  # tiers text read back from the embed
    assert edited.embeds[0].title == "Strike"
    assert "Tier 2" in edited.content and "downgraded from tier 3" in edited.content
    assert list(buttons(edited)) == ["Downgrade to tier 1"]

    final = reply(await table.alice.click(edited.message, label="Downgrade to tier 1"))
    assert "Tier 1" in description(final) and "Outcome: **2 damage**" in description(final)
    assert buttons(final) == {}


async def test_only_the_roller_may_downgrade(table: Table, dice: LoadedDice) -> None:
    dice.load(9, 9)
    shown = reply(await table.alice.slash(table.channel, "roll"))

    refused = await table.bob.click(shown.message, label="Downgrade to tier 1")
    text = one_line_error(refused)
    assert text.startswith("Only the member who made this roll can downgrade it")
    assert "/roll" in text
    unchanged = table.env.backend.get_message(table.channel.id, shown.id)
    assert unchanged.content == shown.content
    assert "Tier 3" in unchanged.content


async def test_a_tier_1_ability_roll_has_no_buttons(table: Table, dice: LoadedDice) -> None:
    dice.load(1, 2)
    message = reply(await table.alice.slash(table.channel, "roll"))
    assert message.components == []


async def test_downgrade_works_after_a_restart(table: Table, dice: LoadedDice, simcord_env: Env) -> None:
    dice.load(8, 9)
    shown = reply(
        await table.alice.slash(
            table.channel, "roll", bonus=1, edges=1, kind="test", difficulty="medium", tiers="a; b; c"
        )
    )
    assert "Total: 20" in description(shown)
    await simcord_env.restart_bot()

    edited = reply(await table.alice.click(shown.message, label="Downgrade to tier 2"))
    lines = description(edited)
    assert "Dice: 8 + 9" in lines and "Total: 20" in lines and "Tier 2" in lines
    assert "Modifiers: bonus +1, edge (+2)" in lines
    assert "Result: success with a consequence (medium)" in lines
    assert "Outcome: **b**" in lines
    assert set(buttons(edited)) == {"Downgrade to tier 1", "Reroll (hero token)"}
    refused = await table.bob.click(edited.message, label="Downgrade to tier 1")
    assert refused.ephemeral


CANT_READ = "This roll's buttons can't be read any more: make a new roll with /roll."


async def test_a_tampered_button_gets_a_one_line_answer(table: Table, dice: LoadedDice) -> None:
    dice.load(9, 9)
    shown = reply(await table.alice.slash(table.channel, "roll"))
    custom_id = buttons(shown)["Downgrade to tier 2"]
    assert re.fullmatch(r"roll:dg:2:[0-9]+", custom_id)  # the roll's id: the roll itself is in the store

    for forged in ("roll:dg:2:9-99", f"{custom_id}0", "roll:dg:2:99999999999999999999"):
        rewrite_button(table, shown, "Downgrade to tier 2", forged)
        text = one_line_error(await table.alice.click(shown.message, label="Downgrade to tier 2"))
        assert text == CANT_READ, forged
    rewrite_button(table, shown, "Downgrade to tier 2", "roll:dg:2:²")  # no template matches: ignored
    assert (await table.alice.click(shown.message, label="Downgrade to tier 2")).response is None
    assert table.env.backend.get_message(table.channel.id, shown.id).content == shown.content


async def test_a_forged_press_never_rerenders_another_members_roll(table: Table, dice: LoadedDice) -> None:
    """A forged press carrying a natural 20 in its custom id (the form the buttons used to carry the roll
    in) re-rendered bob's roll as alice's natural 20: the dice are read from the store now, for the message
    pressed, and a forged id gets one line."""
    dice.load(6, 6, 7, 7)
    bobs = reply(await table.bob.slash(table.channel, "roll", label="Bob's roll"))
    alices = reply(await table.alice.slash(table.channel, "roll"))
    natural_20 = f"roll:dg:2:10-10:0:x:0:0:0:ax:{table.alice.id}:00"
    own_roll = buttons(alices)["Downgrade to tier 1"]
    bobs_roll = buttons(bobs)["Downgrade to tier 1"]

    for forged, said in (
        (natural_20, CANT_READ),
        (own_roll, CANT_READ),  # alice's roll, pressed on bob's message
        (bobs_roll, "Only the member who made this roll can downgrade it"),
    ):
        rewrite_button(table, bobs, "Downgrade to tier 1", forged)
        text = one_line_error(await table.alice.click(bobs.message, label="Downgrade to tier 1"))
        assert text.startswith(said), forged
        unchanged = table.env.backend.get_message(table.channel.id, bobs.id)
        assert unchanged.content == bobs.content and "Dice: 6 + 6" in unchanged.content

    rewrite_button(table, bobs, "Downgrade to tier 1", bobs_roll)
    edited = reply(await table.bob.click(bobs.message, label="Downgrade to tier 1"))
    assert "Dice: 6 + 6" in description(edited) and "Tier 1" in description(edited)


# --- reroll with a hero token ------------------------------------------------------------------------------
async def test_reroll_spends_a_hero_token_and_keeps_the_new_roll(table: Table, dice: LoadedDice) -> None:
    shown = await token_test(table, dice, 2, (3, 4), difficulty="medium", label="Climb")
    assert "Result: failure (medium)" in description(shown)

    dice.load(9, 8)
    pressed = await table.alice.click(shown.message, label="Reroll (hero token)")

    edited = reply(pressed)
    assert edited.id == shown.id and not pressed.ephemeral
    lines = description(edited)
    assert "Dice: 9 + 8" in lines and "Total: 17" in lines and "Tier 3" in lines
    assert "Result: success (medium)" in lines
    notes = field(edited, "Notes") or ""
    assert "Hero token spent: rerolled 3 + 4 into 9 + 8; 1 hero token left." in notes
    assert edited.embeds[0].title == "Climb"
    assert "Reroll (hero token)" not in buttons(edited)  # one benefit per test: the new roll stands
    assert await tokens_left(table) == 1

    # Downgrading the rerolled test keeps it rerolled.
    downgraded = reply(await table.alice.click(edited.message, label="Downgrade to tier 2"))
    assert "Dice: 9 + 8" in description(downgraded)
    assert "Rerolled with a hero token" in (field(downgraded, "Notes") or "")
    assert "Reroll (hero token)" not in buttons(downgraded)
    assert await tokens_left(table) == 1


async def test_reroll_with_no_tokens_is_refused(table: Table, dice: LoadedDice) -> None:
    shown = await token_test(table, dice, 0, (3, 4))

    dice.load(9, 9)
    text = one_line_error(await table.alice.click(shown.message, label="Reroll (hero token)"))
    assert "no hero tokens" in text and "/tokens award" in text
    assert await tokens_left(table) == 0
    assert table.env.backend.get_message(table.channel.id, shown.id).content == shown.content


async def test_reroll_needs_a_hero_and_the_roller(table: Table, dice: LoadedDice) -> None:
    shown = await token_test(table, dice, 3, (3, 4), roller=table.bob)

    dice.load(9, 9)
    text = one_line_error(await table.alice.click(shown.message, label="Reroll (hero token)"))
    assert text.startswith("Only the member who made this roll can reroll it")
    text = one_line_error(await table.bob.click(shown.message, label="Reroll (hero token)"))
    assert "/hero create" in text  # bob has no hero to spend for
    assert await tokens_left(table) == 3


async def test_one_hero_token_benefit_per_turn_in_an_encounter(table: Table, dice: LoadedDice) -> None:
    await give_hero(table, table.alice.id, tokens=3)
    await start_encounter_with(table, table.alice.id)
    dice.load(3, 4, 2, 2)
    first = reply(await table.alice.slash(table.channel, "roll", kind="test"))
    second = reply(await table.alice.slash(table.channel, "roll", kind="test"))

    dice.load(5, 5, 6, 6)
    assert "Dice: 5 + 5" in reply(await table.alice.click(first.message, label="Reroll (hero token)")).content
    text = one_line_error(await table.alice.click(second.message, label="Reroll (hero token)"))
    assert "one hero-token benefit per turn" in text
    assert await tokens_left(table) == 2

    key = ChannelKey(table.guild.id, table.channel.id)
    snapshot = await table.store.view(key)
    assert snapshot.encounter is not None and snapshot.encounter.id is not None
    encounter = codec.load(Encounter, snapshot.encounter.state)
    assert encounter.tokens_used == ("Ash",)
    events = await table.store.events(snapshot.encounter.id, guild_id=key.guild_id)
    assert [e.kind for e in events][-1] == "token"


async def test_reroll_works_after_a_restart(table: Table, dice: LoadedDice, simcord_env: Env) -> None:
    shown = await token_test(table, dice, 1, (1, 1), difficulty="easy", hidden=True)
    await simcord_env.restart_bot()

    dice.load(10, 10)
    pressed = await table.alice.click(shown.message, label="Reroll (hero token)")
    edited = reply(pressed)
    assert edited.ephemeral  # the secret roll stays secret
    assert "Dice: 10 + 10" in description(edited)
    assert "Result: success with a reward (easy)" in description(edited)
    assert "0 hero tokens left" in (field(edited, "Notes") or "")
    assert await tokens_left(table) == 0


SLOW = 10.0


def callbacks(env: Env) -> list[int]:
    """The response types of every interaction callback the bot sent, in order."""
    return [
        int(r.json["type"])
        for r in env.http_requests
        if r.method == "POST" and r.path.startswith("/interactions/") and isinstance(r.json, dict)
    ]


async def test_a_slow_store_defers_then_edits(
    table: Table, dice: LoadedDice, monkeypatch: pytest.MonkeyPatch, simcord_env: Env
) -> None:
    """When the token spend can't answer at once, the press is acknowledged first (a deferred update) and
    the roll message is edited afterwards: Discord's 3 seconds never run out."""
    bot = simcord_env.bot
    assert isinstance(bot, DrawSteelBot)
    slow_commits(simcord_env, monkeypatch, "exts.rolls._cog", SLOW)
    shown = await token_test(table, dice, 2, (2, 3), difficulty="easy")

    dice.load(6, 6)
    pressed = await table.alice.click(shown.message, label="Reroll (hero token)")

    assert callbacks(simcord_env)[-1] == 6  # a deferred update, then the edit
    await simcord_env.advance_time(SLOW)  # the store answers
    assert not pressed.ephemeral and pressed.followups == []
    edited = table.env.backend.get_message(table.channel.id, shown.id)
    assert "Dice: 6 + 6" in edited.content and "success (easy)" in edited.content
    assert await tokens_left(table) == 1

    dice.load(6, 6)
    again = reply(await table.alice.slash(table.channel, "roll", kind="test"))
    await give_hero(table, table.bob.id, name="Brick", tokens=0)
    dice.load(9, 9)
    refused = await table.alice.click(again.message, label="Reroll (hero token)")
    assert callbacks(simcord_env)[-1] == 6
    await simcord_env.advance_time(SLOW)
    (followup,) = refused.followups  # the refusal after the deferral: one ephemeral followup
    assert followup.ephemeral and "no hero tokens" in followup.content
    assert "Dice: 6 + 6" in table.env.backend.get_message(table.channel.id, again.id).content


# --- bad input ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "hint"),
    [
        ({"edges": -1}, "edges:1"),
        ({"banes": 11}, "banes:1"),
        ({"auto_tier": "4"}, "auto_tier:3"),
        ({"auto_tier": "0"}, "auto_tier:3"),
        ({"auto_tier": "3,1,2,3,1"}, "auto_tier:3,1"),
        ({"bonus": 1000}, "bonus:2"),
        ({"characteristic": "charisma"}, "might, agility, reason, intuition or presence"),
        ({"kind": "attack"}, "kind:test"),
        ({"difficulty": "brutal"}, "difficulty:hard"),
        ({"kind": "ability", "difficulty": "hard"}, "kind:test"),
        ({"label": "x" * 101}, "label:"),
        ({"tiers": "2 damage; 5 damage"}, "tiers:2 damage; 5 damage; 7 damage"),
        ({"tiers": "a; ; c"}, "tiers:2 damage; 5 damage; 7 damage"),
        ({"tiers": "a;" * 200}, "tiers:"),
    ],
)
async def test_bad_input_gets_a_one_line_hint(
    table: Table, dice: LoadedDice, options: dict[str, Any], hint: str
) -> None:
    dice.load(5, 5)
    result = await raw_roll(table, table.alice, **options)
    assert hint in one_line_error(result)


async def test_declared_limits_are_enforced_by_discord(table: Table) -> None:
    """The options declare their ranges, choices and lengths, so Discord's client refuses these first."""
    for options in ({"edges": -1}, {"characteristic": "charisma"}, {"label": "x" * 101}):
        with pytest.raises(SetupError):
            await table.alice.slash(table.channel, "roll", **options)


async def test_blank_label_and_tiers_are_ignored(table: Table, dice: LoadedDice) -> None:
    dice.load(5, 5)
    message = reply(await raw_roll(table, table.alice, label="   ", tiers=" "))
    assert message.embeds[0].title == "Power roll"
    assert field(message, "Outcomes") is None


# --- help ---------------------------------------------------------------------------------------------------
async def test_roll_has_a_help_entry(simcord_env: Env) -> None:
    bot = simcord_env.bot
    assert isinstance(bot, DrawSteelBot)
    (entry,) = [e for e in help_entries(bot) if e.command == "roll"]
    assert entry.line.example.startswith("/roll ")
    command = bot.tree.get_command("roll")
    assert isinstance(command, discord.app_commands.Command)
    names = {p.name for p in command.parameters}
    assert names == CONTRACT["roll"] | {"action", "situation"}  # the contract's options, and no others
