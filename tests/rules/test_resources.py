"""Hero tokens, Victories, respite, Malice, heroic resources (Draw Steel, The Basics, "Hero Tokens",
"Victories", "Respite"; Monsters "Malice"; Heroes ch. 5, the classes' heroic resources)."""

from __future__ import annotations

import pytest

from bot.rules.codec import load, to_data
from bot.rules.dice import FixedDice
from bot.rules.resources import (
    HeroicResource,
    HeroTokens,
    Malice,
    Progress,
    ResourceError,
    Rounding,
    TokenBenefit,
    _rollable,
    award_tokens,
    award_victories,
    encounter_victories,
    end_of_combat_malice,
    gain_resource,
    malice_start_of_round,
    new_turn,
    resource_end_of_combat,
    resource_start_of_combat,
    resource_start_of_turn,
    respite,
    spend_for_stamina,
    spend_malice,
    spend_resource,
    spend_tokens,
    start_session,
    starting_malice,
)
from bot.rules.stamina import Vitals


# Draw Steel, The Basics, "Earning Hero Tokens" and "Optional Rule: Hero Tokens Don't Reset".
@pytest.mark.parametrize(
    ("pool", "heroes", "reset", "expected"), [(0, 4, True, 4), (7, 4, True, 4), (7, 4, False, 7)]
)
def test_start_session(pool: int, heroes: int, reset: bool, expected: int) -> None:
    tokens = start_session(HeroTokens(pool, ("a",)), heroes, tokens_reset=reset)
    assert tokens == HeroTokens(expected, ())


# Draw Steel, The Basics, "Spending Hero Tokens": costs.
@pytest.mark.parametrize(
    ("benefit", "cost"),
    [(TokenBenefit.SURGES, 1), (TokenBenefit.SAVE, 1), (TokenBenefit.REROLL, 1), (TokenBenefit.STAMINA, 2)],
)
def test_token_costs(benefit: TokenBenefit, cost: int) -> None:
    assert spend_tokens(HeroTokens(3), "ash", benefit).pool == 3 - cost


def test_not_enough_tokens_message() -> None:
    with pytest.raises(ResourceError, match=r"^Not enough hero tokens: the party has 1, that costs 2\.$"):
        spend_tokens(HeroTokens(1), "ash", TokenBenefit.STAMINA)


def test_one_benefit_per_hero_per_turn() -> None:
    """ "You can use only one hero token benefit per turn or per test"."""
    tokens = spend_tokens(HeroTokens(4), "ash", TokenBenefit.SURGES)
    with pytest.raises(ResourceError, match="one hero-token benefit"):
        spend_tokens(tokens, "ash", TokenBenefit.SAVE)
    tokens = spend_tokens(tokens, "bree", TokenBenefit.SAVE)
    assert tokens == HeroTokens(2, ("ash", "bree"))
    assert new_turn(tokens, "ash") == HeroTokens(2, ("bree",))
    assert new_turn(tokens) == HeroTokens(2, ())
    assert load(HeroTokens, to_data(tokens)) == tokens


def test_tokens_for_stamina() -> None:
    """2 tokens: regain Stamina equal to the recovery value (before the damage)."""
    tokens, vitals = spend_for_stamina(HeroTokens(2), "ash", Vitals(30, 5, is_hero=True))
    assert tokens.pool == 0 and vitals.stamina == 15


def test_award_tokens() -> None:
    assert award_tokens(HeroTokens(1), 2).pool == 3
    with pytest.raises(ResourceError):
        award_tokens(HeroTokens(1), 0)
    with pytest.raises(ResourceError):
        HeroTokens(-1)
    with pytest.raises(ResourceError):
        start_session(HeroTokens(), -1)


def test_victories_and_respite() -> None:
    """ "Victories For Combat": +1 for surviving an encounter whose objectives were achieved; "Respite":
    Victories become XP and reset; Recoveries and Stamina regained."""
    progress = {"ash": Progress(2, 5), "bree": Progress(1, 0)}
    won = encounter_victories(progress, ["ash", "cato"], objectives_achieved=True)
    assert won == {"ash": Progress(3, 5), "bree": Progress(1, 0), "cato": Progress(1, 0)}
    assert encounter_victories(progress, ["ash"], objectives_achieved=False) == progress
    after, vitals = respite(won["ash"], Vitals(30, 4, recoveries=0, max_recoveries=8, is_hero=True))
    assert after == Progress(0, 8)
    assert (vitals.stamina, vitals.recoveries) == (30, 8)
    with pytest.raises(ResourceError):
        award_victories(Progress(), 0)
    assert load(Progress, to_data(after)) == after


# Malice at the start of combat: the heroes' average Victories, rounded by the chosen mode.
@pytest.mark.parametrize(
    ("victories", "rounding", "malice"),
    [
        ([1, 2], Rounding.DOWN, 1),
        ([1, 2], Rounding.NEAREST, 2),
        ([1, 2], Rounding.UP, 2),
        ([1, 1, 2], Rounding.NEAREST, 1),
        ([1, 1, 2], Rounding.UP, 2),
        ([3, 3, 3], Rounding.DOWN, 3),
        ([], Rounding.DOWN, 0),
    ],
)
def test_starting_malice(victories: list[int], rounding: Rounding, malice: int) -> None:
    assert starting_malice(victories, rounding) == Malice(malice)


def test_malice_rounds() -> None:
    """Start of each round: + heroes still in the fight + the round number; lost at the end of combat."""
    m = malice_start_of_round(Malice(2), heroes_in_fight=4, round_number=1)
    assert m == Malice(7)
    assert malice_start_of_round(m, 3, 2) == Malice(12)
    assert spend_malice(m, 7) == Malice(0)
    with pytest.raises(ResourceError, match=r"^Not enough Malice: the Director has 7, that costs 8\.$"):
        spend_malice(m, 8)
    with pytest.raises(ResourceError):
        spend_malice(m, -1)
    with pytest.raises(ResourceError):
        malice_start_of_round(m, 3, 0)
    assert end_of_combat_malice(m) == Malice(0)


def test_heroic_resource() -> None:
    fury = HeroicResource("ash", "rage", gain="1d3")
    fury = resource_start_of_combat(fury, victories=2)
    assert fury.value == 2
    fury, gained = resource_start_of_turn(FixedDice([6]), fury)  # d3 from a d6: 6 → 3
    assert (fury.value, gained) == (5, 3)
    fury = gain_resource(fury, 1)
    assert spend_resource(fury, 6).value == 0
    with pytest.raises(ResourceError, match="Not enough rage: you have 6, that costs 7"):
        spend_resource(fury, 7)
    assert resource_end_of_combat(fury).value == 0
    assert load(HeroicResource, to_data(fury)) == fury
    talent = HeroicResource("bree", "clarity", value=1, gain="2", may_go_negative=True)
    talent, gained = resource_start_of_turn(FixedDice([]), talent)
    assert gained == 2 and spend_resource(talent, 5).value == -2
    with pytest.raises(ResourceError):
        HeroicResource("x", gain="lots")
    with pytest.raises(ResourceError):
        gain_resource(talent, -1)
    with pytest.raises(ResourceError):
        spend_resource(talent, -1)


@pytest.mark.parametrize(
    "value", [Malice(3), Progress(2, 7), HeroTokens(2, ("a",)), HeroicResource("h", gain="2")]
)
def test_round_trip(value: object) -> None:
    assert load(type(value), to_data(value)) == value


def test_gain_checks_are_kept_per_text_and_bounded() -> None:
    """Each resource made checks its gain; a text's verdict is worked out once and kept (bounded), and a bad
    text is refused every time."""
    _rollable.cache_clear()
    for _ in range(3):
        assert HeroicResource("h", gain="1d3").gain == "1d3"
        with pytest.raises(ResourceError):
            HeroicResource("h", gain="lots")
    assert _rollable.cache_info().currsize == 2
    for i in range(300):
        HeroicResource("h", gain=str(i))
    assert _rollable.cache_info().currsize == 256  # the least recently used verdicts went
