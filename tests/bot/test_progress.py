"""/victories and /respite through SimCord: awards (everyone or one hero), the respite's conversion and
restoration, refusals (players, during combat, bad input) that store nothing."""

from __future__ import annotations

from bot.play import sheet_of
from bot.rules.resources import Progress
from bot.store import Hero
from tests.bot.conftest import Table
from tests.bot.test_heroes import embed_text, refused
from tests.bot.test_heroes import heroes as roster
from tests.bot.test_tokens import hurt, start_encounter


def progress(heroes: dict[str, Hero], name: str) -> Progress:
    return sheet_of(heroes[name]).progress


async def test_award_everyone_then_one_hero_and_show(party: Table) -> None:
    result = await party.director.slash(party.channel, "victories", award=2)
    assert "awards 2 Victories to each hero" in embed_text(result)
    await party.director.slash(party.channel, "victories", award=1, hero="bo")
    heroes = await roster(party)
    assert progress(heroes, "Ash") == Progress(2, 0) and progress(heroes, "Bo") == Progress(3, 0)
    shown = embed_text(await party.alice.slash(party.channel, "victories"))
    assert "Ash** — Victories: 2 · XP: 0" in shown and "Bo** — Victories: 3 · XP: 0" in shown
    one = embed_text(await party.alice.slash(party.channel, "victories", hero="Bo"))
    assert "Bo" in one and "Ash" not in one


async def test_a_player_cant_award_victories(party: Table) -> None:
    refused(await party.alice.slash(party.channel, "victories", award=1), "Only a server Director")
    assert progress(await roster(party), "Ash") == Progress()


async def test_award_bad_input(party: Table) -> None:
    refused(await party.director.slash(party.channel, "victories", award=1, hero="Nobody"), "No hero named")
    refused(await party.director.slash(party.channel, "victories", hero="Nobody"), "No hero named")
    assert progress(await roster(party), "Ash") == Progress()


async def test_award_with_no_roster(table: Table) -> None:
    await table.configure_director_role()
    refused(await table.director.slash(table.channel, "victories", award=1), "No heroes in this channel")
    assert "No heroes in this channel yet" in embed_text(await table.alice.slash(table.channel, "victories"))


async def test_respite_converts_victories_and_restores(party: Table) -> None:
    await party.director.slash(party.channel, "victories", award=3)
    await hurt(party, "Ash", 4)
    result = await party.director.slash(party.channel, "respite")
    assert "Victories become XP" in embed_text(result) and "Victories: 0 · XP: 3" in embed_text(result)
    heroes = await roster(party)
    ash = sheet_of(heroes["Ash"])
    assert ash.progress == Progress(0, 3) and ash.vitals.stamina == 30 and ash.vitals.recoveries == 8
    assert progress(heroes, "Bo") == Progress(0, 3)


async def test_respite_leaves_the_dead_dead(party: Table) -> None:
    await party.director.slash(party.channel, "victories", award=1)
    await hurt(party, "Bo", -12)
    result = await party.director.slash(party.channel, "respite")
    assert "Bo: dead, not restored" in embed_text(result)
    bo = sheet_of((await roster(party))["Bo"])
    assert bo.vitals.dead and bo.progress == Progress(0, 1)


async def test_respite_is_refused_during_combat_and_for_players(party: Table) -> None:
    await party.director.slash(party.channel, "victories", award=2)
    refused(await party.alice.slash(party.channel, "respite"), "Only a server Director")
    await start_encounter(party)
    refused(await party.director.slash(party.channel, "respite"), "during combat", "/encounter end")
    assert progress(await roster(party), "Ash") == Progress(2, 0)


async def test_respite_with_no_roster(table: Table) -> None:
    await table.configure_director_role()
    refused(await table.director.slash(table.channel, "respite"), "No heroes in this channel")
