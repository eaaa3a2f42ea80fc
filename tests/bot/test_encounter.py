"""/encounter on SimCord: start, add, hero, remove, surprise, begin (the d10 and the choice buttons), status,
undo, log, end (the confirmation), who may do each, and bad input on every option."""

from __future__ import annotations

import json

import pytest
from simcord.env import Env

from bot.play import sheet_of
from bot.rules.conditions import Condition
from bot.rules.turns import Phase
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table
from tests.bot.roll_kit import Loaded
from tests.bot.test_heroes import create


@pytest.fixture
def dice() -> Loaded:
    """Loaded results first, then 5s (the d10 for who goes first comes first)."""
    return Loaded()


async def test_start_add_and_begin_with_first(table: Table) -> None:
    text = await kit.start(table, name="Goblin <@123> ambush")
    assert "<@\u200b123>" in text and "Draw Steel turns" in text
    await kit.add_party(table)
    enc = await kit.stored(table)
    assert [c.id for c in enc.creatures] == ["Ash", "Bree", "Goblin 1", "Goblin 2"]
    ash = enc.creature("Ash")
    assert ash.is_hero and ash.owner_id == table.alice.id and ash.characteristics.agility == 3
    assert ash.vitals.recoveries == 2
    text = await kit.begin(table, first="heroes")
    assert "Round 1 begins" in text and "Ash" in text
    enc = await kit.stored(table)
    assert enc.turns.phase is Phase.IN_ROUND and enc.malice.value == 3  # 0 + 2 heroes + round 1


async def test_add_options_squads_groups_turns_modifiers(table: Table) -> None:
    await kit.start(table)
    d = table.director
    kit.ok(await d.slash(table.channel, "encounter add", name="Minion", stamina=4, count=3, squad="Pack"))
    kit.ok(
        await d.slash(
            table.channel,
            "encounter add",
            name="Ogre",
            stamina=40,
            turns=2,
            group="Brutes",
            immunity="fire 5",
            weakness="cold 3",
            can_be_surprised=False,
        )
    )
    enc = await kit.stored(table)
    assert enc.squad("Pack") is not None and enc.creature("Minion 2").squad_id == "Pack"
    ogre = enc.entry_of("Ogre")
    assert ogre.turns_per_round == 2 and ogre.group == "Brutes" and ogre.cannot_be_surprised
    assert enc.creature("Ogre").modifiers.immunities


@pytest.mark.parametrize(
    ("options", "hint"),
    [
        ({"stamina": 0}, "Stamina must be a number from 1"),
        ({"stamina": 5000}, "Stamina must be a number from 1"),
        ({"count": 0}, "Count must be"),
        ({"count": 41}, "Count must be"),
        ({"turns": 9}, "Turns per round"),
        ({"recoveries": -1}, "Recoveries"),
        ({"side": "dragons"}, "No side"),
        ({"characteristics": "Q9"}, "characteristic"),
        ({"immunity": "banana"}, ""),
        ({"weakness": "fire lots"}, ""),
        ({"name": "x" * 200}, "at most"),
        ({"name": "Ash"}, "already in this encounter"),
        ({"squad": "Ash", "count": 2}, "already in this encounter"),
    ],
)
async def test_add_bad_input_is_one_line_and_stores_nothing(
    table: Table, options: dict[str, object], hint: str
) -> None:
    await kit.start(table)
    await kit.add(table, name="Ash", stamina=30, player=table.alice)
    before = await kit.stored(table)
    args: dict[str, object] = {"name": "Goblin", "stamina": 10, **options}
    text = kit.refused(await table.director.slash(table.channel, "encounter add", **args))
    assert hint in text
    assert await kit.stored(table) == before


async def test_players_add_only_their_own_creatures_on_the_heroes_side(table: Table) -> None:
    await kit.start(table)
    kit.ok(await table.alice.slash(table.channel, "encounter add", name="Ash", stamina=30))
    assert (await kit.stored(table)).creature("Ash").owner_id == table.alice.id
    text = kit.refused(
        await table.alice.slash(table.channel, "encounter add", name="Orc", stamina=5, side="director")
    )
    assert "Only the Director" in text
    text = kit.refused(
        await table.alice.slash(table.channel, "encounter add", name="Pal", stamina=5, player=table.bob)
    )
    assert "Only the Director" in text
    await kit.add(table, name="Orc", stamina=5)
    text = kit.refused(await table.alice.slash(table.channel, "encounter remove", name="Orc"))
    assert "Only the Director can remove Orc" in text
    kit.ok(await table.alice.slash(table.channel, "encounter remove", name="Ash"))
    assert [c.id for c in (await kit.stored(table)).creatures] == ["Orc"]


async def test_no_encounter_and_an_encounter_already_running(table: Table) -> None:
    text = kit.refused(await table.director.slash(table.channel, "encounter add", name="Orc", stamina=5))
    assert "/encounter start" in text
    for sub in ("status", "undo", "log", "end", "begin"):
        kit.refused(await table.director.slash(table.channel, f"encounter {sub}"))
    await kit.start(table)
    text = kit.refused(await table.alice.slash(table.channel, "encounter start"))
    assert "already running" in text
    # a thread is its own table
    await kit.start(table, channel=table.thread)


@pytest.mark.parametrize(
    ("options", "hint"),
    [
        ({"mode": "teams"}, "Name 2 to"),
        ({"mode": "teams", "teams": "Red"}, "Name 2 to"),
        ({"mode": "teams", "teams": "Red, red"}, "different name"),
        ({"mode": "draw-steel", "teams": "Red, Blue"}, "Only the teams mode"),
        ({"name": "x" * 80}, "at most"),
        ({"name": "   "}, "name"),
    ],
)
async def test_start_bad_input(table: Table, options: dict[str, object], hint: str) -> None:
    text = kit.refused(await table.director.slash(table.channel, "encounter start", **options))
    assert hint in text
    assert (await table.store.view(kit.key(table))).encounter is None


async def test_hero_brings_a_roster_hero_in(table: Table) -> None:
    kit.ok(await table.alice.slash(table.channel, "hero create", name="Vex", stamina=28, recoveries=8))
    await kit.start(table)
    text = kit.refused(await table.bob.slash(table.channel, "encounter hero", name="Vex"))
    assert "Only Vex's player or a server Director" in text
    kit.refused(await table.alice.slash(table.channel, "encounter hero", name="Nobody"))
    kit.ok(await table.alice.slash(table.channel, "encounter hero", name="vex"))
    enc = await kit.stored(table)
    vex = enc.creature("Vex")
    assert vex.is_hero and vex.owner_id == table.alice.id and vex.vitals.max_stamina == 28
    assert "already" in kit.refused(await table.alice.slash(table.channel, "encounter hero", name="Vex"))
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Vex", amount=10))
    kit.ok(await table.alice.slash(table.channel, "encounter remove", name="Vex"))
    after = await table.store.view(kit.key(table))
    [sheet] = [sheet_of(h) for h in after.heroes.values()]
    assert sheet.vitals.stamina == 18


async def test_surprise_then_begin_without_a_roll(table: Table) -> None:
    await kit.start(table)
    await kit.add_party(table)
    assert "Only the Director" in kit.refused(
        await table.alice.slash(table.channel, "encounter surprise", combatants="Goblin 1")
    )
    kit.refused(
        await table.director.slash(table.channel, "encounter surprise", combatants="Goblin 1, Dragon")
    )
    assert not (await kit.stored(table)).turns.conditions  # nothing partial
    kit.ok(await table.director.slash(table.channel, "encounter surprise", combatants="goblin 1, Goblin 2"))
    enc = await kit.stored(table)
    assert {c.creature_id for c in enc.turns.conditions if c.condition is Condition.SURPRISED} == {
        "Goblin 1",
        "Goblin 2",
    }
    text = await kit.begin(table, first=None)
    assert "go first" in text and "Round 1 begins" in text


async def test_begin_rolls_the_d10_and_the_winner_chooses_with_buttons(
    table: Table, dice: Loaded, simcord_env: Env
) -> None:
    await kit.start(table)
    await kit.add_party(table)
    assert "Only the Director" in kit.refused(await table.alice.slash(table.channel, "encounter begin"))
    dice.load(3)
    result = await table.director.slash(table.channel, "encounter begin")
    assert "**3**" in kit.ok(result) and "the Director chooses" in kit.ok(result)
    assert result.response is not None
    shown = result.response.message
    # the Director is pinged to choose (no Director role set: the encounter's Director)
    assert kit.pings(table)[-1][1:] == ([table.director.id], [])
    await simcord_env.restart_bot()
    text = kit.refused(await table.alice.click(shown, label="Heroes go first"))
    assert "Director choose" in text
    assert (await kit.stored(table)).turns.phase is Phase.SETUP
    text = kit.ok(await table.director.click(shown, label="Heroes go first"))
    assert "Round 1 begins" in text
    assert kit.pings(table)[-1][1] == [table.alice.id, table.bob.id]
    assert "already settled" in kit.refused(await table.director.click(shown, label="Director goes first"))


async def test_players_choose_after_a_high_roll(table: Table, dice: Loaded) -> None:
    await kit.start(table)
    await kit.add_party(table)
    dice.load(6)
    result = await table.director.slash(table.channel, "encounter begin")
    assert "the players choose" in kit.ok(result)
    assert kit.pings(table)[-1][1] == [table.alice.id, table.bob.id]
    assert result.response is not None
    kit.ok(await table.bob.click(result.response.message, label="Director goes first"))
    enc = await kit.stored(table)
    assert enc.turns.first is not None and enc.turns.first.side == "director"


async def test_status_reposts_the_tracker(table: Table) -> None:
    await kit.ready(table)
    old = kit.tracker(table.channel)
    result = await table.bob.slash(table.channel, "encounter status")
    assert result.ephemeral
    new = kit.tracker(table.channel)
    assert new.id > old.id


async def test_undo_director_any_player_only_their_own(table: Table) -> None:
    await kit.ready(table)
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    assert "Only the Director or the member" in kit.refused(
        await table.bob.slash(table.channel, "encounter undo")
    )
    assert "Undone: Ash starts their turn" in kit.ok(await table.alice.slash(table.channel, "encounter undo"))
    assert (await kit.stored(table)).turns.turns == ()
    assert "Undone" in kit.ok(await table.director.slash(table.channel, "encounter undo"))
    assert (await kit.stored(table)).turns.phase is Phase.SETUP


async def test_log_sends_markdown_and_json(table: Table) -> None:
    await kit.ready(table)
    result = await table.alice.slash(table.channel, "encounter log")
    message = result.followups[0] if result.followups else result.response
    assert message is not None
    names = sorted(a.filename for a in message.attachments)
    assert names[0].endswith(".json") and names[1].endswith(".md")
    data = json.loads(await next(a for a in message.attachments if a.filename.endswith(".json")).read())
    assert data
    kit.refused(await table.alice.slash(table.channel, "encounter log", encounter=999999))


async def test_end_needs_the_director_and_a_confirmation(table: Table, simcord_env: Env) -> None:
    await table.configure_director_role()  # a server Director's end writes the Victories at once
    kit.ok(await table.alice.slash(table.channel, "hero create", name="Vex", stamina=28, recoveries=8))
    await kit.start(table)
    kit.ok(await table.alice.slash(table.channel, "encounter hero", name="Vex"))
    await kit.add(table, name="Orc", stamina=5)
    await kit.begin(table, first="heroes")
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Vex", amount=10))
    assert "Only the Director" in kit.refused(await table.alice.slash(table.channel, "encounter end"))
    asked = await table.director.slash(table.channel, "encounter end")
    assert asked.ephemeral and asked.response is not None
    kit.refused(await table.director.click(asked.response.message, label="Keep playing"))
    assert (await table.store.view(kit.key(table))).encounter is not None
    await simcord_env.restart_bot()
    text = kit.ok(await table.director.click(asked.response.message, label="End the encounter"))
    assert "1 Victory each to Vex" in text
    assert (await table.store.view(kit.key(table))).encounter is None
    after = await table.store.view(kit.key(table))
    [sheet] = [sheet_of(h) for h in after.heroes.values()]
    assert (sheet.vitals.stamina, sheet.progress.victories) == (18, 1)
    kit.refused(await table.director.click(asked.response.message, label="End the encounter"))


async def test_every_creature_name_is_inert(table: Table) -> None:
    await kit.start(table)
    text = await kit.add(table, name="@everyone", stamina=5)
    assert "@\u200beveryone" in text
    assert kit.pings(table) == []


@pytest.mark.parametrize(
    ("command", "options", "hint"),
    [
        ("encounter begin", {"first": "dragons"}, "No side"),
        ("encounter begin", {"first": "x" * 80}, "at most"),
        ("encounter begin", {"order": "Red, Blue"}, "Only the teams mode"),
        ("encounter remove", {"name": "Nobody"}, "No creature named"),
        ("encounter remove", {"name": "x" * 200}, "at most"),
        ("encounter hero", {"name": "x" * 80}, "at most"),
        ("encounter hero", {"name": "Vex", "side": "dragons"}, ""),
        ("encounter surprise", {"combatants": " , "}, "Name the surprised"),
        ("encounter surprise", {"combatants": "x" * 1200}, "at most"),
        ("encounter log", {"encounter": -5}, "No encounter with that number"),
    ],
)
async def test_bad_input_on_the_other_options(
    table: Table, command: str, options: dict[str, object], hint: str
) -> None:
    await kit.start(table)
    await kit.add_party(table)
    before = await kit.stored(table)
    assert hint in kit.refused(await table.director.slash(table.channel, command, **options))
    assert await kit.stored(table) == before


async def test_a_roster_heros_resource_grows_at_the_start_of_their_turn(
    table: Table, simcord_env: Env
) -> None:
    kit.ok(await create(table, table.alice, name="Vex", stamina=28, resource="wrath", resource_gain="2"))
    await kit.start(table)
    kit.ok(await table.alice.slash(table.channel, "encounter hero", name="Vex"))
    await kit.add(table, name="Orc", stamina=5)
    await kit.begin(table, first="heroes")
    await simcord_env.restart_bot()
    text = kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Vex"))
    assert "Gains 2 wrath (now 2)." in text and text.count("Vex") == 1
