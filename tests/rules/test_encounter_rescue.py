"""The hero token that saves a hero (bot.rules.encounter.rescue): Draw Steel, The Basics, "Spending Hero
Tokens": "You can spend 2 hero tokens on your turn or when you take damage (no action required) to regain
Stamina equal to your Recovery value before taking the damage"."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules import codec
from bot.rules.dice import FixedDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, flow, harm, new_encounter_state
from bot.rules.encounter.rescue import Rescue, RescueError, live_rescues, offer_rescues, rescue


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
    saved, result = rescue(enc, 0, 5)
    assert result.regain == 10 and result.before.stamina == -3
    assert saved.creature("Ash").vitals.stamina == 30 - 33  # the regain is capped at the maximum first
    assert saved.rescues == ()


def test_the_regain_comes_before_the_damage() -> None:
    enc, _ = harm.damage(table(), "Ash", 20)  # 10 left
    enc = hurt(12, enc=enc)  # → −2: dying
    saved, _ = rescue(enc, 0, 5)
    assert saved.creature("Ash").vitals.stamina == 10 + 10 - 12  # 8: no longer dying


def test_it_can_save_a_hero_from_death() -> None:
    enc, _ = harm.damage(table(), "Ash", 25)  # 5 left; dies at −15
    enc = hurt(21, enc=enc)  # −16: dead
    assert enc.creature("Ash").vitals.dead and enc.rescues
    saved, _ = rescue(enc, 0, 5)
    vitals = saved.creature("Ash").vitals
    assert not vitals.dead and vitals.stamina == 15 - 21


def test_the_turn_engine_learns_the_hero_lives() -> None:
    enc = table()
    enc = flow.begin(enc, FixedDice([10, 9, 1, 2, 3, 4]), first=enc.turns.sides[0].id).encounter
    enc, _ = harm.damage(enc, "Ash", 25)
    enc = hurt(21, enc=enc)
    entry = enc.turns.entry("Ash")
    assert entry is not None and entry.dead
    saved, _ = rescue(enc, 0, 5)
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


def test_refused_once_anything_else_changed() -> None:
    """ "It is refused once anything else has changed the encounter." """
    enc = hurt(33)
    assert live_rescues(enc, 6) == ()
    with pytest.raises(RescueError, match="Too late"):
        rescue(enc, 0, 6)
    with pytest.raises(RescueError):
        rescue(enc, 1, 5)
