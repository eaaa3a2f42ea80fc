"""Negotiations: every rule of the negotiation summary, each test quoting the sentence it checks."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.codec import load, to_data
from bot.rules.dice import FixedDice
from bot.rules.negotiation import (
    Appeal,
    Attitude,
    Motivation,
    Negotiation,
    NegotiationError,
    Offer,
    Row,
    argue,
    begin,
    call_for_offer,
    discover,
    offer_for,
    reveal,
    reveal_owed,
    roll_test,
    start,
    take_lie_interest,
)
from bot.rules.power import PowerRoll, RollKind

GREED, LEGACY, PEACE, POWER, REVELRY = (
    Motivation.GREED,
    Motivation.LEGACY,
    Motivation.PEACE,
    Motivation.POWER,
    Motivation.REVELRY,
)


def test_roll(natural: int) -> PowerRoll:
    """A test with that natural roll and no bonus: 2-11 tier 1, 12-16 tier 2, 17-20 tier 3."""
    first = max(1, natural - 10)
    return PowerRoll(dice=(first, natural - first), kind=RollKind.TEST)


test_roll.__test__ = False  # type: ignore[attr-defined]
TIER_NATURAL = {1: 5, 2: 14, 3: 17}
"""A natural roll for each tier that isn't a natural 19 or 20."""


def baron(
    attitude: Attitude = Attitude.NEUTRAL, interest: int | None = None, patience: int | None = None
) -> Negotiation:
    """An NPC moved by greed and legacy, whose pitfall is peace."""
    state = start("Baron Vell", attitude, [GREED, LEGACY], [PEACE])
    return dataclasses.replace(
        state,
        interest=state.interest if interest is None else interest,
        patience=state.patience if patience is None else patience,
    )


# --- "An NPC has Interest and Patience, each 0 to 5, set by their first attitude" --------------------------
# An independent copy of the attitude table, as the summary prints it.
ATTITUDE_TABLE = [
    ("hostile", 1, 2),
    ("suspicious", 2, 2),
    ("neutral", 2, 3),
    ("open", 3, 3),
    ("friendly", 3, 4),
    ("trusting", 3, 5),
]


@pytest.mark.parametrize(("attitude", "interest", "patience"), ATTITUDE_TABLE)
def test_first_attitude_sets_interest_and_patience(attitude: str, interest: int, patience: int) -> None:
    """ "An NPC has Interest and Patience ... set by their first attitude" (the attitude table)."""
    state = start("Vell", Attitude(attitude), [GREED], [PEACE])
    assert (state.interest, state.patience) == (interest, patience)
    assert not state.ended


@given(
    st.sampled_from(list(Attitude)),
    st.lists(st.tuples(st.sampled_from(list(Appeal)), st.integers(2, 20), st.booleans()), max_size=30),
)
def test_interest_and_patience_stay_0_to_5(attitude: Attitude, moves: list[tuple[Appeal, int, bool]]) -> None:
    """ "An NPC has Interest and Patience, each 0 to 5": whatever arguments are made."""
    state = start("Vell", attitude, [GREED], [PEACE])
    for appeal, natural, lie in moves:
        if state.ended:
            break
        state = argue(state, "Ash", appeal, GREED, test_roll(natural), lie=lie).state
        assert 0 <= state.interest <= 5 and 0 <= state.patience <= 5


# --- "one or more motivations and one or more pitfalls" ----------------------------------------------------
TWELVE = (
    "benevolence, discovery, freedom, greed, higher authority, justice, legacy, peace, power, protection, "
    "revelry or vengeance"
)


def test_the_twelve_motivations() -> None:
    """ "Each is one of benevolence, discovery, freedom, greed, higher authority, justice, legacy, peace,
    power, protection, revelry or vengeance." """
    names = TWELVE.replace(" or ", ", ").split(", ")
    assert [m.value for m in Motivation] == names
    assert Motivation.from_text("Higher-Authority") is Motivation.HIGHER_AUTHORITY
    with pytest.raises(NegotiationError, match="isn't a motivation"):
        Motivation.from_text("money")


def test_one_or_more_motivations_and_pitfalls() -> None:
    """ "The NPC has one or more motivations and one or more pitfalls." """
    with pytest.raises(NegotiationError, match="at least one motivation and one pitfall"):
        start("Vell", Attitude.OPEN, [], [PEACE])
    with pytest.raises(NegotiationError, match="at least one motivation and one pitfall"):
        start("Vell", Attitude.OPEN, [GREED], [])
    with pytest.raises(NegotiationError, match="both a motivation and a pitfall"):
        start("Vell", Attitude.OPEN, [GREED], [GREED])
    state = start("Vell", Attitude.OPEN, [GREED, LEGACY, GREED], [PEACE, POWER])
    assert [t.motivation for t in state.motivations] == [GREED, LEGACY]
    assert [t.motivation for t in state.pitfalls] == [PEACE, POWER]


def test_hidden_until_revealed() -> None:
    """ "They stay hidden from the players until revealed." """
    state = baron()
    assert not any(t.revealed for t in (*state.motivations, *state.pitfalls))
    assert state.hidden() == ((GREED, False), (LEGACY, False), (PEACE, True))
    shown, trait = reveal(state, LEGACY, pitfall=False)
    assert trait.revealed and trait.motivation is LEGACY
    assert shown.hidden() == ((GREED, False), (PEACE, True))
    with pytest.raises(NegotiationError, match="isn't a hidden motivation"):
        reveal(shown, LEGACY, pitfall=False)
    with pytest.raises(NegotiationError, match="isn't a hidden pitfall"):
        reveal(shown, GREED, pitfall=True)


# --- "An argument ... Its effect depends on what the argument appeals to, by tier" -------------------------
# An independent copy of the arguments table: (row, tier) -> (Interest change, Patience change).
ARGUMENT_TABLE = {
    ("appeals to a motivation not yet used", 1): (0, -1),
    ("appeals to a motivation not yet used", 2): (1, -1),
    ("appeals to a motivation not yet used", 3): (1, 0),
    ("appeals to a motivation already used", 1): (0, -1),
    ("appeals to a motivation already used", 2): (0, -1),
    ("appeals to a motivation already used", 3): (0, -1),
    ("appeals to no motivation and no pitfall", 1): (-1, -1),
    ("appeals to no motivation and no pitfall", 2): (0, -1),
    ("appeals to no motivation and no pitfall", 3): (1, -1),
    ("mentions a pitfall (automatically tier 1)", 1): (-1, -1),
}


def _argue_as(row: str, tier: int) -> tuple[Negotiation, Negotiation, Row]:
    """The Baron at Interest 2 and Patience 4 (nothing ends at one step), before and after an argument of
    that row and tier (a used motivation: greed appealed to once already)."""
    state = baron(interest=2, patience=4)
    appeal, motivation = {
        "appeals to a motivation not yet used": (Appeal.MOTIVATION, GREED),
        "appeals to a motivation already used": (Appeal.MOTIVATION, GREED),
        "appeals to no motivation and no pitfall": (Appeal.NONE, None),
        "mentions a pitfall (automatically tier 1)": (Appeal.PITFALL, PEACE),
    }[row]
    if "already used" in row:
        state = dataclasses.replace(state, used=(GREED,))
    after = argue(state, "Ash", appeal, motivation, test_roll(TIER_NATURAL[tier]))
    return state, after.state, after.row


@pytest.mark.parametrize(("row", "tier"), list(ARGUMENT_TABLE))
def test_argument_table(row: str, tier: int) -> None:
    """ "Its effect depends on what the argument appeals to, by tier" (the arguments table)."""
    before, after, _ = _argue_as(row, tier)
    assert (after.interest - before.interest, after.patience - before.patience) == ARGUMENT_TABLE[row, tier]
    assert after.arguments[-1].tier == tier


@pytest.mark.parametrize("natural", [12, 17, 19, 20])
def test_pitfall_is_automatically_tier_1(natural: int) -> None:
    """ "mentions a pitfall (automatically tier 1)": even a natural 19 or 20."""
    result = argue(baron(), "Ash", Appeal.PITFALL, PEACE, test_roll(natural))
    assert result.argument.tier == 1
    assert (result.state.interest, result.state.patience) == (1, 2)


def test_naming_a_pitfall_as_a_motivation_reads_the_pitfall_row() -> None:
    """An argument appealing to what is the NPC's pitfall "mentions a pitfall" whatever the hero thought it
    was; one appealing to a motivation the NPC doesn't have appeals to "no motivation and no pitfall"."""
    hit = argue(baron(), "Ash", Appeal.MOTIVATION, PEACE, test_roll(17))
    assert hit.row is Row.PITFALL and hit.argument.tier == 1
    assert hit.revealed is not None and hit.state.pitfalls[0].revealed
    miss = argue(baron(), "Ash", Appeal.MOTIVATION, REVELRY, test_roll(17))
    assert miss.row is Row.NO_MOTIVATION and miss.revealed is None
    assert (miss.state.interest, miss.state.patience) == (3, 2)
    assert REVELRY not in miss.state.used


def test_a_motivation_used_once_counts_as_already_used() -> None:
    """ "appeals to a motivation not yet used" then "appeals to a motivation already used": the second
    appeal to greed at tier 3 gives Interest +0, Patience −1."""
    first = argue(baron(), "Ash", Appeal.MOTIVATION, GREED, test_roll(17))
    assert first.row is Row.NEW_MOTIVATION and first.state.used == (GREED,)
    assert first.revealed is not None and first.state.motivations[0].revealed
    second = argue(first.state, "Bryn", Appeal.MOTIVATION, GREED, test_roll(17))
    assert second.row is Row.USED_MOTIVATION
    assert (second.state.interest, second.state.patience) == (3, 2)


@pytest.mark.parametrize("natural", [19, 20])
def test_natural_19_or_20_costs_no_patience_without_motivation(natural: int) -> None:
    """ "With no motivation or pitfall, a natural 19 or 20 costs no Patience." """
    result = argue(baron(), "Ash", Appeal.NONE, None, test_roll(natural))
    assert (result.state.interest, result.state.patience) == (3, 3)
    # ...only then: a tier 3 from a bonus still costs 1, and a motivation's natural 20 reads its own row
    bonus = argue(baron(), "Ash", Appeal.NONE, None, dataclasses.replace(test_roll(15), bonus=3))
    assert bonus.state.patience == 2
    used = dataclasses.replace(baron(), used=(GREED,))
    assert argue(used, "Ash", Appeal.MOTIVATION, GREED, test_roll(natural)).state.patience == 2


@pytest.mark.parametrize("natural", [14, 17])
def test_repeating_the_same_argument_counts_as_tier_1(natural: int) -> None:
    """ "Repeating the same argument counts as tier 1." """
    result = argue(baron(), "Ash", Appeal.NONE, None, test_roll(natural), repeated=True)
    assert result.argument.tier == 1 and result.argument.repeated
    assert (result.state.interest, result.state.patience) == (1, 2)


def test_lie_that_did_not_raise_interest_may_cost_one_more() -> None:
    """ "A hero caught in a lie that didn't raise Interest may lose 1 more Interest, at the Director's
    word." """
    lied = argue(baron(), "Ash", Appeal.NONE, None, test_roll(14), lie=True).state
    assert lied.interest == 2
    taken = take_lie_interest(lied)
    assert taken.interest == 1 and taken.arguments[-1].lie_taken
    with pytest.raises(NegotiationError, match="only once"):
        take_lie_interest(taken)
    raised = argue(baron(), "Ash", Appeal.NONE, None, test_roll(17), lie=True).state
    with pytest.raises(NegotiationError):
        take_lie_interest(raised)
    honest = argue(baron(), "Ash", Appeal.NONE, None, test_roll(14)).state
    with pytest.raises(NegotiationError):
        take_lie_interest(honest)


# --- "Discovering a motivation or pitfall is a test of its own" --------------------------------------------
def test_discovery_tier_1() -> None:
    """ "tier 1: Patience −1 and nothing learned" """
    result = discover(baron(), test_roll(5))
    assert result.tier == 1 and result.state.patience == 2 and result.choices == ()
    assert result.state.hidden() == baron().hidden()


def test_discovery_tier_2() -> None:
    """ "tier 2: nothing learned, no Patience lost" """
    result = discover(baron(), test_roll(14))
    assert result.tier == 2 and result.state == baron() and result.choices == ()


def test_discovery_tier_3() -> None:
    """ "tier 3: one motivation or pitfall revealed" (the Director picks which)."""
    result = discover(baron(), test_roll(17))
    assert result.tier == 3 and result.state.patience == 3 and result.state.owed
    assert result.choices == ((GREED, False), (LEGACY, False), (PEACE, True))
    shown, _ = reveal_owed(result.state, PEACE, pitfall=True)
    assert not shown.owed and shown.hidden() == ((GREED, False), (LEGACY, False))
    with pytest.raises(NegotiationError, match="revealed already"):
        reveal_owed(shown, GREED, pitfall=False)  # one per tier 3, however often the Director clicks
    assert discover(shown, test_roll(20)).choices == ((GREED, False), (LEGACY, False))


# --- "End." ------------------------------------------------------------------------------------------------
def test_ends_when_interest_reaches_0() -> None:
    """ "The negotiation ends when Interest reaches 0 ..." """
    state = argue(baron(Attitude.HOSTILE), "Ash", Appeal.PITFALL, PEACE, test_roll(5)).state
    assert state.interest == 0 and state.ended and state.offer is Offer.NO_AND
    with pytest.raises(NegotiationError, match="over"):
        argue(state, "Ash", Appeal.NONE, None, test_roll(17))
    with pytest.raises(NegotiationError, match="over"):
        discover(state, test_roll(17))


def test_ends_when_interest_reaches_5() -> None:
    """ "... or 5 ..." """
    state = argue(baron(interest=4), "Ash", Appeal.MOTIVATION, GREED, test_roll(17)).state
    assert state.interest == 5 and state.ended and state.offer is Offer.YES_AND


def test_ends_when_patience_reaches_0() -> None:
    """ "... or Patience reaches 0." """
    state = discover(baron(patience=1), test_roll(3)).state
    assert state.patience == 0 and state.ended and state.offer is Offer.NO_BUT


def test_heroes_may_ask_for_the_offer_at_any_time() -> None:
    """ "The heroes may also stop and ask for the NPC's offer at any time." """
    state = call_for_offer(baron(interest=3))
    assert state.ended and state.offer is Offer.YES_BUT
    with pytest.raises(NegotiationError, match="over"):
        call_for_offer(state)


# --- "The offer follows Interest" --------------------------------------------------------------------------
OFFER_TABLE = [(0, "No, and…"), (1, "No."), (2, "No, but…"), (3, "Yes, but…"), (4, "Yes."), (5, "Yes, and…")]


@pytest.mark.parametrize(("interest", "words"), OFFER_TABLE)
def test_offer_follows_interest(interest: int, words: str) -> None:
    """ "The offer follows Interest" (the offer table)."""
    assert offer_for(interest).words == words


# --- the state the store keeps -----------------------------------------------------------------------------
def test_round_trips_through_the_codec() -> None:
    state = argue(baron(), "Ash", Appeal.MOTIVATION, GREED, test_roll(17), lie=True).state
    state = discover(state, test_roll(3)).state
    assert load(Negotiation, to_data(state)) == state


def test_roll_test_is_a_test_with_its_bonus() -> None:
    """ "An argument is a hero's test, usually with Presence": an ordinary test (natural + characteristic)."""
    roll = roll_test(FixedDice([6, 5]), bonus=2, edges=1)
    assert roll.kind is RollKind.TEST and roll.natural == 11 and roll.total == 15 and roll.tier == 2


def test_npc_name_checked() -> None:
    with pytest.raises(NegotiationError, match="Name the NPC"):
        start("  ", Attitude.OPEN, [GREED], [PEACE])
    assert start("  Baron   Vell ", Attitude.OPEN, [GREED], [PEACE]).npc == "Baron Vell"


def test_motivation_required_for_a_motivation_appeal() -> None:
    with pytest.raises(NegotiationError, match="Name the motivation"):
        argue(baron(), "Ash", Appeal.MOTIVATION, None, test_roll(17))


def test_begin_at_given_numbers() -> None:
    """A negotiation may start at any Interest and Patience that don't end it at once ("The negotiation ends
    when Interest reaches 0 or 5, or Patience reaches 0")."""
    state = begin("Vell", 4, 1, [GREED], [PEACE])
    assert (state.interest, state.patience, state.attitude) == (4, 1, None)
    for interest, patience in ((0, 3), (5, 3), (2, 0), (2, 6)):
        with pytest.raises(NegotiationError, match="one of those would end it"):
            begin("Vell", interest, patience, [GREED], [PEACE])


def test_a_pitfall_call_naming_no_pitfall_records_no_name() -> None:
    """ "mentions a pitfall (automatically tier 1)" at the Director's word: a name given that isn't one of the
    NPC's pitfalls is neither revealed nor recorded (it may be a hidden motivation)."""
    result = argue(baron(), "Ash", Appeal.PITFALL, GREED, test_roll(17))
    assert result.row is Row.PITFALL and result.argument.motivation is None and result.revealed is None
    assert result.state.hidden() == baron().hidden() and result.state.used == ()
