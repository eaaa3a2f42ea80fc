"""A dying hero's player in play by post, through SimCord: pinged when their hero falls dying, dead or
unconscious (the mention in the reply's allowed mentions); the hero-token rescue open until they answer or
their hero's next turn starts, whatever else happens meanwhile; *dying* in the pick ping's status; what
bleeding costs at the dying hero's turn start; and `/tokens spend use:regain` only on the hero's turn or as
the rescue of a damage (Draw Steel, The Basics, "Spending Hero Tokens"; Draw Steel, Combat, "Dying and
Death")."""

from __future__ import annotations

import pytest

from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table

LABEL = "Spend 2 hero tokens: regain 10 first"


async def ready(table: Table, tokens: int = 2) -> None:
    """Round 1, the heroes pick (Ash: alice's, Stamina 30, dies at −15; Bree: bob's), with hero tokens."""
    await table.configure_director_role()
    await kit.ready(table)
    if tokens:
        kit.ok(await table.director.slash(table.channel, "tokens award", count=tokens))


@pytest.mark.parametrize(
    ("amount", "knock_out", "state"),
    [(32, False, "dying"), (50, False, "dead"), (50, True, "knocked out")],
)
async def test_the_heros_player_is_pinged_when_the_hero_falls(
    table: Table, amount: int, knock_out: bool, state: str
) -> None:
    """Play by post: the player isn't there when the Director's damage lands; the reply tells them."""
    await ready(table)
    before = len(kit.pings(table))

    hit = await table.director.slash(
        table.channel, "stamina damage", target="Ash", amount=amount, knock_out=knock_out
    )

    text = kit.ok(hit)
    assert f"<@{table.alice.id}> — **Ash** is {state}" in text
    assert hit.response is not None
    message = hit.response.message
    assert [u.id for u in message.mentions] == [table.alice.id]  # the allowed mentions name alice alone
    assert kit.pings(table)[before:] == [(text, [table.alice.id], [])]


async def test_nobody_is_pinged_for_their_own_change_nor_a_scratch(table: Table) -> None:
    await ready(table)
    before = len(kit.pings(table))
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Bree", amount=5))
    kit.ok(await table.alice.slash(table.channel, "stamina damage", target="Ash", amount=32))
    assert len(kit.pings(table)) == before


async def test_the_rescue_stays_open_through_other_changes(table: Table) -> None:
    """ "when you take damage ... before taking the damage": the player answers later, the regain still
    counts as before that damage (and one undo takes it back)."""
    await ready(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=20))  # 10 left
    hit = await table.director.slash(table.channel, "stamina damage", target="Ash", amount=12)  # −2
    assert hit.response is not None and "Spend 2 hero tokens to regain 10 Stamina" in hit.response.content
    kit.ok(await table.director.slash(table.channel, "malice gain", amount=1))
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=3))
    assert LABEL in kit.labels(kit.tracker(table.channel))

    pressed = await table.alice.click(hit.response.message, label=LABEL)

    said = kit.ok(pressed)
    assert said.startswith("🛡️ **Ash** spends 2 hero tokens and regains 10 Stamina before the damage")
    assert "Stamina: 8/30" in said
    assert (await kit.stored(table)).creature("Ash").vitals.stamina == 8
    assert LABEL not in kit.labels(kit.tracker(table.channel))
    kit.ok(await table.director.slash(table.channel, "encounter undo"))
    assert (await kit.stored(table)).creature("Ash").vitals.stamina == -2
    assert (await table.store.view(kit.key(table))).tokens == 2


async def test_a_later_rescue_adds_what_it_would_have_spared(table: Table) -> None:
    """More damage since: the hero ends with the Stamina they would have had (the same losses, 10 more)."""
    await ready(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=20))  # 10 left
    hit = await table.director.slash(table.channel, "stamina damage", target="Ash", amount=12)  # −2
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=3))  # −5
    assert hit.response is not None

    kit.ok(await table.alice.click(hit.response.message, label=LABEL))

    vitals = (await kit.stored(table)).creature("Ash").vitals
    assert vitals.stamina == 5 and not vitals.dying  # 10 + 10 − 12 − 3


async def test_the_rescue_ends_when_the_heros_next_turn_starts(table: Table) -> None:
    await ready(table)
    hit = await table.director.slash(table.channel, "stamina damage", target="Ash", amount=32)
    assert hit.response is not None
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    assert LABEL not in kit.labels(kit.tracker(table.channel))

    late = await table.alice.click(hit.response.message, label=LABEL)

    assert "over" in kit.refused(late)
    assert (await kit.stored(table)).creature("Ash").vitals.stamina == -2
    assert (await table.store.view(kit.key(table))).tokens == 2


async def test_the_pick_ping_and_the_tracker_say_dying(table: Table) -> None:
    await ready(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=32))  # −2
    kit.ok(await table.bob.slash(table.channel, "turn act", combatant="Bree"))
    kit.ok(await table.bob.slash(table.channel, "turn end"))
    kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    kit.ok(await table.director.slash(table.channel, "turn end"))  # the heroes pick: alice is pinged

    content = kit.pings(table)[-1][0]
    assert "**Ash** (Stamina: -2/30, dying)" in content
    assert "Stamina: -2/30 dying" in kit.body(kit.tracker(table.channel))


async def test_a_dying_heros_turn_start_says_what_bleeding_costs(table: Table) -> None:
    """Draw Steel, Combat, "Dying and Death": "you are bleeding"; a main action costs 1d6 + level."""
    await ready(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=32))

    text = kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))

    assert text.splitlines()[1:] == [
        "🩸 Dying (Stamina: -2/30) and bleeding: a main action, a triggered action, or a Might or Agility "
        "test or ability roll costs 1d6 + 1 Stamina once it is resolved; death comes at -15 Stamina."
    ]
    assert text.count("Ash") == 1  # a turn's start names its creature once
    kit.ok(await table.alice.slash(table.channel, "turn end"))
    goblin = kit.ok(await table.director.slash(table.channel, "turn act", combatant="Goblin 1"))
    assert "🩸" not in goblin


async def test_the_token_regain_is_the_heros_turns_or_a_damages(table: Table) -> None:
    """ "You can spend 2 hero tokens on your turn or when you take damage": off both, refused."""
    await ready(table, tokens=4)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=15))

    refused = kit.refused(await table.alice.slash(table.channel, "tokens spend", use="regain"))

    assert "only on their turn or when they take damage" in refused
    assert (await table.store.view(kit.key(table))).tokens == 4
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    text = kit.ok(await table.alice.slash(table.channel, "tokens spend", use="regain"))
    assert "regains 10 Stamina. Stamina: 25/30." in text


async def test_the_token_regain_answers_the_rescue_off_the_heros_turn(table: Table) -> None:
    await ready(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=20))  # 10
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=12))  # −2
    kit.ok(await table.director.slash(table.channel, "malice gain", amount=1))

    text = kit.ok(await table.alice.slash(table.channel, "tokens spend", use="regain"))

    assert "regains 10 Stamina before the damage. Stamina: 8/30 · winded." in text
    assert LABEL not in kit.labels(kit.tracker(table.channel))


async def test_the_fall_that_ends_the_round_pings_in_the_same_reply(table: Table) -> None:
    """Ash, the last to act, dies outside a turn: the round ends there, and the reply that says so pings
    Ash's player too (one message, one notification)."""
    await table.configure_director_role()
    await kit.ready(table, first="director")
    for member, name in ((table.director, "Goblin 1"), (table.bob, "Bree"), (table.director, "Goblin 2")):
        kit.ok(await member.slash(table.channel, "turn act", combatant=name))
        kit.ok(await member.slash(table.channel, "turn end"))

    text = kit.ok(await table.director.slash(table.channel, "stamina damage", target="Ash", amount=50))

    assert "Round 2 begins" in text and f"<@{table.alice.id}> — **Ash** is dead" in text
    content, users, _roles = kit.pings(table)[-1]
    assert content == text and table.alice.id in users
