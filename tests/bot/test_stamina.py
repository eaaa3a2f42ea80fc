"""/stamina damage | heal | temp | set and /recover through SimCord: who may change whose Stamina, the damage
steps, minions, dying and dead heroes, Catch Breath, bad input on every option, inert names."""

from __future__ import annotations

import pytest
from simcord.env import Env

from bot.rules.encounter import NewCreatures
from tests.bot import encounter_kit as kit
from tests.bot import harm_kit
from tests.bot.conftest import Table, slow_commits

SLOW = 5.0


async def test_director_damages_a_monster_with_weakness(table: Table) -> None:
    await harm_kit.start(table)

    result = await table.director.slash(table.channel, "stamina damage", target="ogre", amount=4, type="cold")

    assert result.response is not None and not result.ephemeral
    assert result.response.content == "**Ogre** takes 7 cold damage (of 4: cold weakness 3) · Stamina: 13/20"
    assert (await harm_kit.current(table)).creature("Ogre").vitals.stamina == 13


async def test_halved_damage_is_halved_before_immunity(table: Table) -> None:
    """Draw Steel, Combat, "DAMAGE IMMUNITY": "if an ally first halved the damage with a triggered action,
    your hero would take 4 damage before immunity is applied, with immunity then reducing the damage to 0"."""
    await harm_kit.start(table)

    result = await table.director.slash(
        table.channel, "stamina damage", target="Ogre", amount=8, type="fire", halved=True
    )

    assert result.response is not None and not result.ephemeral
    assert result.response.content == (
        "**Ogre** takes 0 fire damage (of 8: halved, rounded down, fire immunity 5) · Stamina: 20/20"
    )


async def test_immunity_and_temporary_stamina(table: Table) -> None:
    await harm_kit.start(table)

    temp = await table.director.slash(table.channel, "stamina temp", target="Ogre", amount=3)
    fire = await table.director.slash(table.channel, "stamina damage", target="Ogre", amount=10, type="fire")

    assert temp.response is not None and fire.response is not None
    assert temp.response.content == "**Ogre** gains 3 temporary Stamina · Stamina: 20/20 (+3 temp)"
    assert fire.response.content == (
        "**Ogre** takes 5 fire damage (of 10: fire immunity 5, 3 temporary Stamina absorbed) · Stamina: 18/20"
    )


async def test_with_monster_stamina_hidden_replies_show_a_monsters_state_only(table: Table) -> None:
    await harm_kit.start(table)
    await table.store.update_settings(table.guild.id, show_monster_stamina=False)

    ogre = await table.director.slash(table.channel, "stamina damage", target="Ogre", amount=12)
    minion = await table.director.slash(table.channel, "stamina damage", target="Minion 1", amount=4)
    healed = await table.director.slash(table.channel, "stamina heal", target="Ogre", amount=1)
    ash = await table.director.slash(table.channel, "stamina damage", target="Ash", amount=5)
    strike = await table.alice.slash(table.channel, "strike", targets="Ogre, Minion 2", damage="1/1/1")

    replies = [r.response.content if r.response else "" for r in (ogre, minion, healed, ash, strike)]
    assert replies[0] == "**Ogre** takes 12 damage · winded"
    assert replies[1] == "**Minion 1** takes 4 damage · 1 minion killed: Minion 1"
    assert replies[2] == "**Ogre** regains 1 Stamina · winded"
    assert replies[3] == "**Ash** takes 5 damage · Stamina: 25/30"  # heroes always show
    assert "Stamina:" not in replies[4] and "1 damage · winded" in replies[4], replies[4]


async def test_a_player_heals_and_shields_their_own_hero(table: Table) -> None:
    await harm_kit.start(table)
    await table.director.slash(table.channel, "stamina damage", target="Ash", amount=20)

    heal = await table.alice.slash(table.channel, "stamina heal", target="Ash", amount=6)
    temp = await table.alice.slash(table.channel, "stamina temp", target="Ash", amount=5)

    assert heal.response is not None and temp.response is not None
    assert heal.response.content == "**Ash** regains 6 Stamina · Stamina: 16/30 (was 10)"
    assert "Stamina: 16/30 (+5 temp)" in temp.response.content


async def test_minions_share_the_pool_and_cannot_heal(table: Table) -> None:
    await harm_kit.start(table)

    hit = await table.director.slash(table.channel, "stamina damage", target="Minion 2", amount=5)
    heal = await table.director.slash(table.channel, "stamina heal", target="Minion 3", amount=1)
    set_ = await table.director.slash(table.channel, "stamina set", target="Minion 3", amount=1)

    assert hit.response is not None and heal.response is not None and set_.response is not None
    assert "Stamina: 7/12 · 1 minion killed: Minion 2" in hit.response.content
    assert heal.ephemeral and "Minions can't regain Stamina" in heal.response.content
    assert set_.ephemeral and "use /stamina damage" in set_.response.content


async def test_dying_then_dead_hero_and_set_as_a_correction(table: Table) -> None:
    await harm_kit.start(table)

    dying = await table.director.slash(table.channel, "stamina damage", target="Bree", amount=24)
    dead = await table.director.slash(table.channel, "stamina damage", target="Bree", amount=12)
    heal = await table.director.slash(table.channel, "stamina heal", target="Bree", amount=5)
    fixed = await table.director.slash(table.channel, "stamina set", target="Bree", amount=8)

    assert dying.response is not None and dead.response is not None
    # the next line pings Bree's player (tests/bot/test_dying.py)
    assert dying.response.content.splitlines()[0].endswith("Stamina: 0/24 · dying")
    assert dead.response.content.splitlines()[0].endswith("Stamina: -12/24 · dead")
    assert (
        heal.ephemeral and heal.response is not None and "dead creature can't regain" in heal.response.content
    )
    assert fixed.response is not None and fixed.response.content == (
        "**Bree** has Stamina set to 8 · Stamina: 8/24 · winded (was -12)"
    )
    assert not (await harm_kit.entry(table, "Bree")).dead


@pytest.mark.parametrize(
    ("who", "target", "message"),
    [
        ("alice", "Goblin 1", "Only the Director can change Goblin 1's Stamina."),
        ("bob", "Ash", "Only Ash's player or the Director can change Ash's Stamina."),
        ("stranger", "Ash", "Only Ash's player or the Director can change Ash's Stamina."),
    ],
)
@pytest.mark.parametrize("command", ["stamina damage", "stamina heal", "stamina temp", "stamina set"])
async def test_players_change_only_their_own_creatures(
    table: Table, who: str, target: str, message: str, command: str
) -> None:
    await harm_kit.start(table)
    member = harm_kit.member(table, who)
    assert await harm_kit.refused_unchanged(table, command, by=member, target=target, amount=1) == message


@pytest.mark.parametrize(
    ("command", "options", "hint"),
    [
        ("stamina damage", {"target": "Gobbo", "amount": 3}, "No creature named 'Gobbo'"),
        ("stamina damage", {"target": "Goblin 1", "amount": -3}, "can't be negative: type a number"),
        ("stamina damage", {"target": "Goblin 1", "amount": 10**6}, "at most 999"),
        ("stamina heal", {"target": "Ash", "amount": -1}, "can't be negative"),
        ("stamina temp", {"target": "Ash", "amount": -1}, "can't be negative"),
        ("stamina set", {"target": "Ash", "amount": -1}, "type a number from 0 to 30"),
        ("stamina set", {"target": "Ash", "amount": 31}, "type a number from 0 to 30"),
        ("stamina heal", {"target": "x" * 101, "amount": 1}, "at most 100 characters"),
    ],
)
async def test_bad_input(table: Table, command: str, options: dict[str, object], hint: str) -> None:
    await harm_kit.start(table)
    assert hint in await harm_kit.refused_unchanged(table, command, **options)


@pytest.mark.parametrize("command", ["stamina damage", "stamina heal", "stamina temp", "stamina set"])
async def test_no_encounter_here(table: Table, command: str) -> None:
    """(/recover with no encounter spends a roster hero's Recovery: tests/bot/test_saves_resources.py.)"""
    options = {"target": "Goblin 1", "amount": 3}
    result = await table.director.slash(table.thread, command, **options)
    assert result.ephemeral and result.response is not None
    assert "No encounter in this channel" in result.response.content


async def test_recover_catches_the_callers_breath(table: Table) -> None:
    await harm_kit.start(table)
    await table.director.slash(table.channel, "stamina damage", target="Ash", amount=25)

    first = await table.alice.slash(table.channel, "recover")
    second = await table.alice.slash(table.channel, "recover", target="Ash")
    third = await table.alice.slash(table.channel, "recover")

    assert first.response is not None and second.response is not None and third.response is not None
    assert first.response.content == (
        "**Ash** catches their breath (1 Recovery) · Stamina: 15/30 · winded (was 5)"
    )
    assert "Stamina: 25/30" in second.response.content
    assert third.ephemeral and "No Recoveries left" in third.response.content
    ash = (await harm_kit.current(table)).creature("Ash")
    assert ash.vitals.recoveries == 0


@pytest.mark.parametrize(
    ("who", "options", "hint"),
    [
        ("bob", {"target": "Ash"}, "Only Ash's player or the Director can have Ash catch their breath."),
        ("director", {}, "You control no hero in this encounter: name one with the target option."),
        ("director", {"target": "Goblin 1"}, "Director creatures have no Recoveries"),
        ("alice", {"target": "Nobody"}, "No creature named 'Nobody'"),
    ],
)
async def test_recover_refusals(table: Table, who: str, options: dict[str, object], hint: str) -> None:
    await harm_kit.start(table)
    member = harm_kit.member(table, who)
    assert hint in await harm_kit.refused_unchanged(table, "recover", by=member, **options)


async def test_dying_hero_cannot_catch_breath(table: Table) -> None:
    await harm_kit.start(table)
    await table.director.slash(table.channel, "stamina damage", target="Ash", amount=31)

    result = await table.alice.slash(table.channel, "recover")

    assert result.ephemeral and result.response is not None
    assert "A dying hero can't Catch Breath" in result.response.content


async def test_names_render_inert(table: Table) -> None:
    await harm_kit.start(table, (NewCreatures("<@123456789012345678> _x_", 10, "director"),))

    result = await table.director.slash(
        table.channel, "stamina damage", target="<@123456789012345678> _x_", amount=1
    )

    assert result.response is not None
    assert result.response.content.startswith("**<@\u200b123456789012345678> \\_x\\_** takes 1 damage")
    assert not result.response._message.ping_user_ids


async def test_autocomplete_offers_this_channels_creatures(table: Table) -> None:
    await harm_kit.start(table)

    choices = await table.alice.autocomplete(table.channel, "stamina heal", "target", "as")

    assert [c["value"] for c in choices] == ["Ash"]


async def test_a_slow_store_defers_first_then_answers(
    table: Table, monkeypatch: pytest.MonkeyPatch, simcord_env: Env
) -> None:
    """When the store can't answer at once, the command is acknowledged first (deferred) and the answer
    follows: Discord's 3 seconds never run out."""
    await harm_kit.start(table)
    slow_commits(simcord_env, monkeypatch, "exts.combat._stamina", SLOW)

    result = await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=3)
    assert result.deferred
    await simcord_env.advance_time(SLOW)

    texts = [m.content for m in ([result.response] if result.response else []) + result.followups]
    assert any("**Goblin 1** takes 3 damage · Stamina: 7/10" in t for t in texts), texts
    assert (await harm_kit.current(table)).creature("Goblin 1").vitals.stamina == 7


async def test_knock_out_instead_of_killing(table: Table) -> None:
    await harm_kit.start(table)

    result = await table.director.slash(
        table.channel, "stamina damage", target="Goblin 1", amount=12, knock_out=True
    )

    assert result.response is not None
    assert result.response.content == "**Goblin 1** takes 12 damage · Stamina: -2/10 · knocked out"
    entry = await harm_kit.entry(table, "Goblin 1")
    assert entry.unconscious and not entry.dead


@pytest.mark.parametrize(("first", "second", "said"), [(5, 3, "5 and 3"), (3, 5, "5 and 3")])
async def test_temporary_stamina_again_says_which_stays(
    table: Table, first: int, second: int, said: str
) -> None:
    """Draw Steel, Combat, "Temporary Stamina": "If you have temporary Stamina and then gain more temporary
    Stamina, you get whichever amount of temporary Stamina is greater, rather than adding the two pools
    together." The reply says what stays: "Ash keeps 5 temporary Stamina (the higher of 5 and 3)"."""
    await harm_kit.start(table)
    kit.ok(await table.alice.slash(table.channel, "stamina temp", target="Ash", amount=first))
    text = kit.ok(await table.alice.slash(table.channel, "stamina temp", target="Ash", amount=second))
    assert text.startswith(f"**Ash** keeps 5 temporary Stamina (the higher of {said}) · ")
    assert "(+5 temp)" in text
