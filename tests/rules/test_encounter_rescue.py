"""The hero token that saves a hero (bot.rules.encounter.rescue): Draw Steel, The Basics, "Spending Hero
Tokens": "You can spend 2 hero tokens on your turn or when you take damage (no action required) to regain
Stamina equal to your Recovery value before taking the damage"."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules import codec
from bot.rules.conditions import BleedingTrigger
from bot.rules.dice import FixedDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, flow, harm, new_encounter_state
from bot.rules.encounter.bleeding import bleed
from bot.rules.encounter.rescue import (
    Rescue,
    RescueError,
    find_rescue,
    live_rescues,
    offer_rescues,
    rescue,
    token_regain,
    turn_started,
)


def table() -> Encounter:
    enc = new_encounter_state()
    for spec in (
        NewCreatures("Ash", 30, "heroes", is_hero=True, owner_id=7, recoveries=2),
        NewCreatures("Goblin", 10, "director"),
    ):
        enc, _ = add_creatures(enc, spec)
    return enc


def hurt(amount: int, tokens: int = 2, enc: Encounter | None = None, **kw: bool) -> Encounter:
    enc, hit = harm.damage(enc or table(), "Ash", amount, **kw)
    return offer_rescues(enc, [hit], tokens, version=5)


def test_damage_that_makes_a_hero_dying_offers_the_spend() -> None:
    enc = hurt(33)  # 30 → −3: dying
    assert enc.rescues == (Rescue("Ash", 30, 0, 33, 10, 5),)
    assert codec.load(Encounter, codec.to_data(enc)) == enc
    saved, result = rescue(enc, enc.rescues[0])
    assert result.regain == 10 and result.before.stamina == -3
    assert saved.creature("Ash").vitals.stamina == 30 - 33  # the regain is capped at the maximum first
    assert saved.rescues == ()


def test_the_regain_comes_before_the_damage() -> None:
    enc, _ = harm.damage(table(), "Ash", 20)  # 10 left
    enc = hurt(12, enc=enc)  # → −2: dying
    saved, _ = rescue(enc, enc.rescues[0])
    assert saved.creature("Ash").vitals.stamina == 10 + 10 - 12  # 8: no longer dying


def test_it_can_save_a_hero_from_death() -> None:
    enc, _ = harm.damage(table(), "Ash", 25)  # 5 left; dies at −15
    enc = hurt(21, enc=enc)  # −16: dead
    assert enc.creature("Ash").vitals.dead and enc.rescues
    saved, _ = rescue(enc, enc.rescues[0])
    vitals = saved.creature("Ash").vitals
    assert not vitals.dead and vitals.stamina == 15 - 21


def test_the_turn_engine_learns_the_hero_lives() -> None:
    enc = table()
    enc = flow.begin(enc, FixedDice([10, 9, 1, 2, 3, 4]), first=enc.turns.sides[0].id).encounter
    enc, _ = harm.damage(enc, "Ash", 25)
    enc = hurt(21, enc=enc)
    entry = enc.turns.entry("Ash")
    assert entry is not None and entry.dead
    saved, _ = rescue(enc, enc.rescues[0])
    entry = saved.turns.entry("Ash")
    assert entry is not None and not entry.dead


@pytest.mark.parametrize(
    ("amount", "tokens", "offered"),
    [
        pytest.param(33, 1, False, id="one hero token isn't enough"),
        pytest.param(20, 2, False, id="not dying: no offer"),
        pytest.param(30, 2, True, id="0 Stamina is dying"),
    ],
)
def test_when_it_is_offered(amount: int, tokens: int, offered: bool) -> None:
    assert bool(hurt(amount, tokens).rescues) is offered


def test_no_offer_to_a_hero_dying_already_nor_after_a_benefit_this_turn() -> None:
    enc, _ = harm.damage(table(), "Ash", 31)
    assert hurt(2, enc=enc).rescues == ()
    used = dataclasses.replace(table(), tokens_used=("Ash",))
    assert hurt(33, enc=used).rescues == ()
    goblin, hit = harm.damage(table(), "Goblin", 12)
    assert offer_rescues(goblin, [hit], 5, 5).rescues == ()


def test_later_changes_leave_the_offer_open_and_it_applies_as_if_before_that_damage() -> None:
    """Play by post: the player answers after other changes. The regain still counts as spent before that
    damage: the Stamina it would have spared, added to the Stamina now."""
    enc, _ = harm.damage(table(), "Ash", 20)  # 10 left
    enc = hurt(12, enc=enc)  # → −2: dying
    enc, _ = harm.damage(enc, "Ash", 3)  # → −5, the offer still open
    enc, _ = harm.damage(enc, "Goblin", 2)
    [offer] = live_rescues(enc)
    saved, result = rescue(enc, find_rescue(enc, 5, 0))
    assert result.before.stamina == -5 and saved.creature("Ash").vitals.stamina == 5  # −5 + 10
    assert saved.rescues == ()
    with pytest.raises(RescueError, match="over"):
        rescue(saved, offer)


def test_the_regain_spared_is_what_the_cap_let_through_then() -> None:
    enc, _ = harm.damage(table(), "Ash", 2)  # 28: the regain brings it to 30 only
    enc = hurt(30, enc=enc)  # → −2
    enc, _ = harm.damage(enc, "Goblin", 2)
    enc = harm.heal(enc, "Ash", 1)[0]  # → −1: something touched the hero since
    saved, _ = rescue(enc, enc.rescues[0])
    assert saved.creature("Ash").vitals.stamina == 1  # −1 + 2, not + 10


def test_a_later_rescue_revives_a_hero_that_damage_killed() -> None:
    enc, _ = harm.damage(table(), "Ash", 25)  # 5 left; dies at −15
    enc = hurt(21, enc=enc)  # −16: dead
    enc, _ = harm.damage(enc, "Goblin", 2)
    saved, _ = rescue(enc, enc.rescues[0])
    vitals = saved.creature("Ash").vitals
    assert not vitals.dead and vitals.dying and vitals.stamina == -6


def test_the_offer_ends_when_the_heros_turn_starts_or_the_round_after() -> None:
    enc = hurt(33)
    assert turn_started(enc, ("Goblin",)).rescues == enc.rescues
    assert turn_started(enc, ("Ash",)).rescues == ()
    later = dataclasses.replace(enc, turns=dataclasses.replace(enc.turns, round=enc.turns.round + 2))
    assert live_rescues(later) == ()
    with pytest.raises(RescueError, match="over"):
        find_rescue(later, 5, 0)


def test_a_newer_offer_replaces_the_heros_older_one() -> None:
    enc, _ = harm.damage(table(), "Ash", 25)  # 5 left
    enc = hurt(6, enc=enc)  # → −1: dying, offer at version 5
    enc, hit = harm.damage(enc, "Ash", 20)  # → −21: dead
    enc = offer_rescues(enc, [hit], 2, version=9)
    assert [(r.version, r.stamina) for r in enc.rescues] == [(9, -1)]


def test_the_token_regain_off_a_damage_is_the_heros_turns() -> None:
    """ "on your turn or when you take damage": off both, refused."""
    enc = table()
    enc = flow.begin(enc, FixedDice([10, 9, 1, 2, 3, 4]), first=enc.turns.sides[0].id).encounter
    enc, _ = harm.damage(enc, "Ash", 15)
    with pytest.raises(RescueError, match="only on their turn"):
        token_regain(enc, "Ash")
    mine = flow.act(enc, "Ash", enc.turns.sides[0].controller, FixedDice([1])).encounter
    healed, result = token_regain(mine, "Ash")
    assert result.offer is None and healed.creature("Ash").vitals.stamina == 25
    hit = hurt(33)
    saved, result = token_regain(hit, "Ash")
    assert result.offer is not None and saved.rescues == ()


def test_a_later_rescue_revives_a_hero_bleeding_killed() -> None:
    """Bleeding is no damage (no offer of its own): the offer of the damage before it can still save."""
    enc, _ = harm.damage(table(), "Ash", 20)  # 10 left
    enc = hurt(12, enc=enc)  # −2: dying
    for _ in range(2):  # 1d6 + level 1, twice: −9, then −16: dead
        enc, bled = bleed(enc, FixedDice([6]), "Ash", BleedingTrigger.TRIGGERED_ACTION)
    assert bled is not None and enc.creature("Ash").vitals.dead
    saved, _ = rescue(enc, enc.rescues[0])
    vitals = saved.creature("Ash").vitals
    assert vitals.stamina == -6 and vitals.dying
