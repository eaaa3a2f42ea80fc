"""The /roll renderer without Discord: the custom-id encoding of a roll, and what every reply shows.

Properties over every valid roll: the buttons' custom ids round-trip and fit Discord's 100 characters; the
contract labels (`Dice: a + b`, `Total: t`, `Tier n`, `Critical`) agree with the rules core in both the embed
and the content; the buttons offer exactly the lower tiers (and a reroll on a test not yet rerolled); the
embed fits Discord's limits with the longest, most hostile text.
"""

from __future__ import annotations

import dataclasses
import re

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.embeds import TOTAL_MAX
from bot.rules.characteristics import Characteristic
from bot.rules.power import AUTO_TIERS_MAX, Difficulty, PowerRoll, PowerRollError, RollAction, RollKind
from bot.rules.situations import Situation
from bot.store.rolls import CARD_MAX
from exts.rolls import _views as views

SNOWFLAKE_MAX = 2**64 - 1


def situations_for(kind: RollKind) -> tuple[Situation, ...]:
    """The situations a roll of `kind` may name (on a test, only being squeezed applies)."""
    return (Situation.SQUEEZED,) if kind is RollKind.TEST else tuple(Situation)


@st.composite
def cards(draw: st.DrawFn) -> views.RollCard:
    characteristic = draw(st.none() | st.sampled_from(list(Characteristic)))
    kind = draw(st.sampled_from(list(RollKind)))
    card = views.RollCard(
        dice=(draw(st.integers(1, 10)), draw(st.integers(1, 10))),
        roller_id=draw(st.integers(1, SNOWFLAKE_MAX)),
        bonus=draw(st.integers(-views.BONUS_LIMIT, views.BONUS_LIMIT)),
        characteristic=characteristic,
        characteristic_score=draw(st.integers(-5, 10)) if characteristic is not None else 0,
        edges=draw(st.integers(0, views.EDGES_MAX)),
        banes=draw(st.integers(0, views.EDGES_MAX)),
        auto_tiers=tuple(draw(st.lists(st.integers(1, 3), max_size=AUTO_TIERS_MAX))),
        kind=kind,
        difficulty=draw(st.none() | st.sampled_from(list(Difficulty))) if kind is RollKind.TEST else None,
        rerolled=draw(st.booleans()) if kind is RollKind.TEST else False,
        action=draw(st.sampled_from(list(RollAction))) if kind is RollKind.ABILITY else RollAction.MAIN,
        situations=tuple(
            draw(st.lists(st.sampled_from(situations_for(kind)), unique=True, max_size=len(Situation)))
        ),
    )
    lower = list(range(1, card.roll.tier))
    downgrade = draw(st.booleans())
    if lower and downgrade:
        card = card.downgrade(draw(st.sampled_from(lower)))
    return card


@settings(max_examples=300, deadline=None)
@given(cards())
def test_cards_round_trip_and_the_custom_ids_name_only_the_roll(card: views.RollCard) -> None:
    """The card is what the store keeps (at most its 120 characters); a button names the roll's id."""
    assert views.RollCard.decode(card.encode()) == card
    assert len(card.encode()) <= CARD_MAX
    roll_id = 1456074443980800045
    for button in views.roll_buttons(card, roll_id):
        assert len(button.custom_id) <= 100
        template = views.DOWNGRADE_TEMPLATE if button.tier is not None else views.REROLL_TEMPLATE
        match = re.fullmatch(template, button.custom_id)
        assert match is not None
        assert match["state"] == str(roll_id)


@settings(max_examples=300, deadline=None)
@given(cards())
def test_labels_agree_with_the_rules_core(card: views.RollCard) -> None:
    roll: PowerRoll = card.roll
    content, embed = views.render_roll(card, views.RollText(), "alice")
    lines = (embed.description or "").splitlines()
    labels = [f"Dice: {card.dice[0]} + {card.dice[1]}", f"Total: {roll.total}", f"Tier {roll.tier}"]
    for label in labels:
        assert label in lines and label in content
    assert ("Critical" in lines) is roll.critical
    assert ("Critical" in content) is roll.critical
    main = card.action is RollAction.MAIN  # a critical hit needs a main action
    assert roll.critical is (card.kind is RollKind.ABILITY and main and sum(card.dice) >= 19)
    # The tier the content names first is the outcome tier (later mentions are lowercase).
    assert content.index(f"Tier {roll.tier}") == content.index("Tier ")
    assert "\n" not in content


@settings(max_examples=200, deadline=None)
@given(cards())
def test_buttons_offer_the_lower_tiers_and_one_reroll(card: views.RollCard) -> None:
    specs = views.roll_buttons(card, 1)
    tiers = [s.tier for s in specs if s.tier is not None]
    assert tiers == list(range(card.roll.tier - 1, 0, -1))
    assert [s.label for s in specs if s.tier is not None] == [f"Downgrade to tier {t}" for t in tiers]
    rerolls = [s for s in specs if s.tier is None]
    assert len(rerolls) == (1 if card.kind is RollKind.TEST and not card.rerolled else 0)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "7-9",
        "0-9:0:x:0:0:0:ax:1:00",
        "7-11:0:x:0:0:0:ax:1:00",
        "7-9:0:Q2:0:0:0:ax:1:00",
        "7-9:0:x:0:0:4:ax:1:00",
        "7-9:0:x:0:0:0:zx:1:00",
        "7-9:0:x:0:0:0:ax:1:30",
        "7-9:100:x:0:0:0:ax:1:00",
        "3-4:0:x:0:0:0:ax:1:10",  # tier 1 can't have been downgraded to tier 1
        "7-9:0:M11:0:0:0:ax:1:00",  # a characteristic score beyond +10
    ],
)
def test_unreadable_states_are_refused(bad: str) -> None:
    with pytest.raises(views.CardError):
        views.RollCard.decode(bad)


class _Message:
    """What `read_text` reads of a message: its embeds."""

    def __init__(self, embed: discord.Embed) -> None:
        self.embeds = [embed]


@pytest.mark.parametrize("kind", list(RollKind))
def test_the_longest_hostile_text_fits_and_reads_back(kind: RollKind) -> None:
    label = ("*_`|@everyone<@123456789012345678>" * 10)[: views.LABEL_MAX]
    tiers = "; ".join([("> # -*" * 40)[:95]] * 3)
    assert len(tiers) <= views.TIERS_MAX
    text = views.RollText.from_input(label, tiers)
    card = views.RollCard(
        dice=(10, 10),
        roller_id=SNOWFLAKE_MAX,
        edges=views.EDGES_MAX,
        banes=1,
        auto_tiers=(2, 2, 2, 2),
        kind=kind,
        action=RollAction.FREE_STRIKE if kind is RollKind.ABILITY else RollAction.MAIN,
        situations=situations_for(kind),
    )
    content, embed = views.render_roll(card, text, "x" * 32, note="n" * 200)
    assert len(content) <= 2000
    assert len(embed) <= TOTAL_MAX
    assert "@everyone" not in content
    assert views.read_text(_Message(embed), kind) == text

    again_content, again = views.render_roll(
        card, views.read_text(_Message(embed), kind), "x" * 32, note="n" * 200
    )
    assert again.to_dict() == embed.to_dict() and again_content == content


def test_default_titles_read_back_as_no_label() -> None:
    card = views.RollCard(dice=(5, 5), roller_id=1, kind=RollKind.TEST)
    _, embed = views.render_roll(card, views.RollText(), "alice")
    assert embed.title == "Test"
    assert views.read_text(_Message(embed), RollKind.TEST) == views.RollText()
    assert views.read_text(None, RollKind.TEST) == views.RollText()


def test_a_downgrade_must_be_lower() -> None:
    card = views.RollCard(dice=(6, 6), roller_id=1)  # 12: tier 2
    assert card.downgrade(1).roll.tier == 1
    with pytest.raises(PowerRollError, match="below tier 2"):
        card.downgrade(2)
    assert dataclasses.replace(card, downgraded_to=1).encode().endswith(":10")
