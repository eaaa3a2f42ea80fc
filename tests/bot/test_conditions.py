"""/condition add | remove and /save through SimCord: durations, custom conditions, sources, no stacking,
saving throws with the die shown, who may, bad input on every option, inert names."""

from __future__ import annotations

import pytest

from bot.options import read_condition
from bot.replies import UserError
from bot.rules.conditions import Condition, Duration
from bot.rules.dice import Dice, FixedDice
from bot.rules.encounter import Encounter, NewCreatures, saves
from bot.rules.turns.events import SaveDue
from exts.combat._conditions import read_duration
from tests.bot import harm_kit
from tests.bot.conftest import Table


def _owed(encounter: Encounter, creature: str, *conditions: Condition) -> Encounter:
    """`encounter` with one save owed to `creature` against each of `conditions` (as turns' ends bring)."""
    return saves.owe_turn_end_saves(encounter, [SaveDue(creature, c, "") for c in conditions])


@pytest.fixture
def dice() -> Dice:
    return FixedDice([4, 8, 6, 2, 9, 9, 9, 9])


async def test_add_with_each_duration_and_a_source(table: Table) -> None:
    await harm_kit.start(table)

    slowed = await table.alice.slash(
        table.channel, "condition add", target="ogre", condition="slowed", duration="save"
    )
    feared = await table.director.slash(
        table.channel, "condition add", target="Ash", condition="frightened", duration="eot", source="Ogre"
    )
    marked = await table.alice.slash(
        table.channel,
        "condition add",
        target="Goblin 1",
        condition="custom",
        text="marked",
        duration="encounter",
    )
    prone = await table.director.slash(table.channel, "condition add", target="Minion 2", condition="prone")

    assert slowed.response is not None and feared.response is not None
    assert marked.response is not None and prone.response is not None
    assert slowed.response.content == "**Ogre** is slowed (save ends)."
    assert feared.response.content == "**Ash** is frightened (until the end of its next turn (EoT)) by Ogre."
    assert marked.response.content == "**Goblin 1** is marked (until the end of the encounter)."
    assert prone.response.content == "**Minion 2** is prone (until removed)."
    conditions = (await harm_kit.current(table)).turns.conditions
    assert [(c.creature_id, c.condition, c.duration, c.source_id, c.custom_text) for c in conditions] == [
        ("Ogre", Condition.SLOWED, Duration.SAVE, None, ""),
        ("Ash", Condition.FRIGHTENED, Duration.EOT, "Ogre", ""),
        ("Goblin 1", Condition.CUSTOM, Duration.ENCOUNTER, None, "marked"),
        ("Minion 2", Condition.PRONE, Duration.UNTIL_REMOVED, None, ""),
    ]


async def test_no_stacking_the_longer_stays(table: Table) -> None:
    await harm_kit.start(table)
    await table.director.slash(
        table.channel, "condition add", target="Ogre", condition="dazed", duration="save"
    )

    again = await table.director.slash(
        table.channel, "condition add", target="Ogre", condition="dazed", duration="eot"
    )

    assert again.response is not None and not again.ephemeral
    assert again.response.content == "**Ogre** is already dazed for at least as long: nothing changes."
    (only,) = (await harm_kit.current(table)).turns.conditions
    assert only.duration is Duration.SAVE


async def test_remove(table: Table) -> None:
    await harm_kit.start(table)
    await table.director.slash(
        table.channel, "condition add", target="Ash", condition="custom", text="Hexed", duration="save"
    )

    result = await table.alice.slash(
        table.channel, "condition remove", target="Ash", condition="custom", text="hexed"
    )
    missing = await table.alice.slash(table.channel, "condition remove", target="Ash", condition="prone")

    assert result.response is not None and result.response.content == "**Ash** is no longer hexed."
    assert (await harm_kit.current(table)).turns.conditions == ()
    assert missing.ephemeral and missing.response is not None and "\n" not in missing.response.content


async def test_save_shows_the_die_and_ends_on_six_or_more(table: Table) -> None:
    await harm_kit.start(table)
    await table.director.slash(
        table.channel, "condition add", target="Ash", condition="weakened", duration="save"
    )
    await table.director.slash(
        table.channel, "condition add", target="Ash", condition="bleeding", duration="save"
    )

    early = await table.alice.slash(table.channel, "save", target="Ash")
    await harm_kit.edit(
        table, lambda e: _owed(e, "Ash", Condition.WEAKENED, Condition.WEAKENED, Condition.BLEEDING)
    )
    ambiguous = await table.alice.slash(table.channel, "save", target="Ash")
    failed = await table.alice.slash(table.channel, "save", target="Ash", condition="weakened")  # d10 4
    saved = await table.alice.slash(table.channel, "save", target="Ash", condition="weakened")  # d10 8
    last = await table.director.slash(table.channel, "save", target="Ash")  # d10 6, the only one left

    assert early.ephemeral and early.response is not None
    assert early.response.content.startswith("Ash has no save due now")
    assert ambiguous.ephemeral and ambiguous.response is not None
    assert "has saves due against bleeding, weakened: pick the condition" in ambiguous.response.content
    assert failed.response is not None and saved.response is not None and last.response is not None
    assert (
        failed.response.content == "🎲 **Ash** saves against weakened: d10 **4** — fails (needs 6 or higher)."
    )
    assert saved.response.content == "🎲 **Ash** saves against weakened: d10 **8** — success, weakened ends."
    assert last.response.content == "🎲 **Ash** saves against bleeding: d10 **6** — success, bleeding ends."
    assert (await harm_kit.current(table)).turns.conditions == ()


async def test_save_needs_a_save_ends_condition(table: Table) -> None:
    await harm_kit.start(table)
    await table.director.slash(table.channel, "condition add", target="Ash", condition="prone")

    none = await table.alice.slash(table.channel, "save", target="Ash")
    not_save = await table.alice.slash(table.channel, "save", target="Ash", condition="prone")

    assert none.ephemeral and none.response is not None
    assert none.response.content.startswith("Ash has no save due now")
    assert not_save.ephemeral and not_save.response is not None and "\n" not in not_save.response.content


@pytest.mark.parametrize(
    ("who", "command", "options", "message"),
    [
        (
            "stranger",
            "condition add",
            {"target": "Goblin 1", "condition": "prone"},
            "Only the Director or a player with a creature in this encounter can impose conditions.",
        ),
        (
            "bob",
            "condition remove",
            {"target": "Ash", "condition": "prone"},
            "Only Ash's player or the Director can end Ash's conditions.",
        ),
        (
            "alice",
            "condition remove",
            {"target": "Ogre", "condition": "prone"},
            "Only the Director can end Ogre's conditions.",
        ),
        ("bob", "save", {"target": "Ash"}, "Only Ash's player or the Director can roll Ash's saves."),
        ("alice", "save", {"target": "Ogre"}, "Only the Director can roll Ogre's saves."),
    ],
)
async def test_who_may(
    table: Table, who: str, command: str, options: dict[str, object], message: str
) -> None:
    await harm_kit.start(table)
    for name in ("Ash", "Ogre"):
        await table.director.slash(
            table.channel, "condition add", target=name, condition="prone", duration="save"
        )
    member = harm_kit.member(table, who)
    assert await harm_kit.refused_unchanged(table, command, by=member, **options) == message


@pytest.mark.parametrize(
    ("command", "options", "hint"),
    [
        ("condition add", {"target": "Gobbo", "condition": "prone"}, "No creature named 'Gobbo'"),
        ("condition add", {"target": "Ogre", "condition": "custom"}, "Name the custom condition"),
        ("condition add", {"target": "Ogre", "condition": "prone", "text": "x"}, "names a custom condition"),
        ("condition add", {"target": "Ogre", "condition": "custom", "text": "x" * 61}, "at most 60"),
        ("condition add", {"target": "Ogre", "condition": "taunted", "source": "Nobody"}, "'Nobody'"),
        ("condition remove", {"target": "Ogre", "condition": "prone"}, "Ogre"),
        ("save", {"target": "Gobbo"}, "No creature named 'Gobbo'"),
        ("save", {"target": "Ogre", "text": "marked"}, "add condition: custom"),
    ],
)
async def test_bad_input(table: Table, command: str, options: dict[str, object], hint: str) -> None:
    await harm_kit.start(table)
    assert hint in await harm_kit.refused_unchanged(table, command, **options)


@pytest.mark.parametrize(
    ("condition", "duration", "hint"),
    [
        ("sleepy", None, "Pick a condition from the list"),
        ("surprised", None, "Pick a condition from the list"),
        ("prone", "forever", "Pick a duration"),
        ("prone", "end-of-first-round", "Pick a duration"),
    ],
)
def test_values_outside_the_choices_are_refused(condition: str, duration: str | None, hint: str) -> None:
    """Discord's client offers only the choices; a raw request with another value still gets a hint."""
    with pytest.raises(UserError, match=hint):
        read_condition(condition, None)
        read_duration(duration)


def test_choice_values_read_back() -> None:
    assert read_condition(" Custom ", "marked") == (Condition.CUSTOM, "marked")
    assert read_duration(None) is Duration.UNTIL_REMOVED and read_duration("EOT") is Duration.EOT


@pytest.mark.parametrize("command", ["condition add", "condition remove", "save"])
async def test_no_encounter_here(table: Table, command: str) -> None:
    options = {"target": "Ogre"} | ({"condition": "prone"} if command != "save" else {})
    result = await table.director.slash(table.thread, command, **options)
    assert result.ephemeral and result.response is not None
    assert "No encounter in this channel" in result.response.content


async def test_names_and_custom_text_render_inert(table: Table) -> None:
    await harm_kit.start(table, (NewCreatures("@here boss", 10, "director"),))

    result = await table.director.slash(
        table.channel, "condition add", target="@here boss", condition="custom", text="<@&1> *cursed*"
    )

    assert result.response is not None
    assert result.response.content == "**@\u200bhere boss** is <@&\u200b1> \\*cursed\\* (until removed)."
