"""The negotiation's views (exts/negotiation/_views.py), without Discord: what players and the Director see,
the offer, and that no public text or log line names a hidden motivation or pitfall."""

from __future__ import annotations

import re

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.negotiation import (
    Appeal,
    Attitude,
    Motivation,
    Negotiation,
    argue,
    call_for_offer,
    discover,
    reveal,
    start,
)
from bot.rules.power import PowerRoll, RollKind
from exts.negotiation._views import (
    INTEREST_WORDS,
    PATIENCE_WORDS,
    argue_reply,
    argue_summary,
    director_embed,
    discover_reply,
    discover_summary,
    motivation_choices,
    offer_text,
    public_embed,
)

GREED, LEGACY, PEACE = Motivation.GREED, Motivation.LEGACY, Motivation.PEACE


def roll(natural: int) -> PowerRoll:
    first = max(1, natural - 10)
    return PowerRoll(dice=(first, natural - first), kind=RollKind.TEST)


def baron() -> Negotiation:
    return start("Baron Vell", Attitude.NEUTRAL, [GREED, LEGACY], [PEACE])


def text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


def names(state: Negotiation, *, hidden_only: bool) -> set[str]:
    traits = (*state.motivations, *state.pitfalls)
    return {t.motivation.value for t in traits if not (hidden_only and t.revealed)}


def mentions(body: str, words: set[str]) -> set[str]:
    return {w for w in words if re.search(rf"\b{re.escape(w)}\b", body, re.IGNORECASE)}


def test_players_see_numbers_or_words() -> None:
    """ "The players see Interest and Patience as the Director chooses (a `/settings` choice: shown, or shown
    as words)." """
    shown = text(public_embed(baron(), numbers=True))
    assert "Interest 2/5" in shown.replace("\n", " ") and "Patience 3/5" in shown.replace("\n", " ")
    words = text(public_embed(baron(), numbers=False))
    assert INTEREST_WORDS[2] in words and PATIENCE_WORDS[3] in words
    assert "2/5" not in words and "3/5" not in words


def test_players_never_see_an_unrevealed_motivation_or_pitfall() -> None:
    """ "They never see an unrevealed motivation or pitfall." — the Director's view lists them all."""
    state = baron()
    assert not mentions(text(public_embed(state, numbers=True)), names(state, hidden_only=False))
    assert mentions(text(director_embed(state)), names(state, hidden_only=False)) == {
        "greed",
        "legacy",
        "peace",
    }
    shown, _ = reveal(state, LEGACY, pitfall=False)
    assert mentions(text(public_embed(shown, numbers=True)), names(state, hidden_only=False)) == {"legacy"}


def test_the_offer_by_interest() -> None:
    """ "The offer by Interest ('No, and…' to 'Yes, and…') is posted"."""
    over = call_for_offer(baron())
    assert "No, but…" in offer_text(over, numbers=True)
    assert "No, but…" in text(public_embed(over, numbers=False))


def test_argument_reply_and_summary() -> None:
    result = argue(baron(), "Ash", Appeal.MOTIVATION, GREED, roll(17))
    reply = argue_reply(result, roll(17), numbers=True)
    assert "appeals to a motivation: greed" in reply and "Tier 3" in reply and "Interest +1" in reply
    assert "Interest rises" in argue_reply(result, roll(17), numbers=False)
    summary = argue_summary(result)
    assert "greed" not in summary and "a motivation not yet used" in summary


_STEPS = st.lists(
    st.tuples(
        st.sampled_from(["argue", "discover"]),
        st.sampled_from(list(Appeal)),
        st.sampled_from(list(Motivation)),
        st.integers(2, 20),
    ),
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(_STEPS)
def test_no_public_text_or_log_line_names_a_hidden_trait(
    steps: list[tuple[str, Appeal, Motivation, int]],
) -> None:
    """Hidden information stays hidden in every public message and the log: each reply names no trait still
    hidden after it; each log line names none of the NPC's at all (an undo hides again what it revealed)."""
    state = baron()
    for step, appeal, motivation, natural in steps:
        if state.ended:
            break
        if step == "argue":
            result = argue(state, "Ash", appeal, motivation, roll(natural))
            state = result.state
            public = argue_reply(result, roll(natural), numbers=True)
            log = argue_summary(result)
        else:
            found = discover(state, roll(natural))
            state = found.state
            public = discover_reply("Ash", found, roll(natural), numbers=False)
            log = discover_summary("Ash", found)
        assert not mentions(public, names(state, hidden_only=True)), public
        assert not mentions(log, names(state, hidden_only=False)), log
        for numbers in (True, False):
            assert not mentions(text(public_embed(state, numbers)), names(state, hidden_only=True))
        assert not mentions(offer_text(state, True), names(state, hidden_only=False))


_TRAIT_SETS = st.lists(st.sampled_from(list(Motivation)), min_size=2, max_size=6, unique=True)


@settings(max_examples=100, deadline=None)
@given(_TRAIT_SETS, _TRAIT_SETS, st.sampled_from(["", "e", "pow", "higher"]))
def test_the_players_autocomplete_tells_nothing_hidden(
    first: list[Motivation], second: list[Motivation], typed: str
) -> None:
    """The players' autocomplete of `motivation:` offers the twelve names and marks only revealed ones: two
    NPCs with different hidden motivations and pitfalls give players the very same list; a revealed one
    comes first, marked. The Director's marks the hidden ones too."""
    one = start("Vell", Attitude.OPEN, first[:1], first[1:])
    two = start("Vell", Attitude.OPEN, second[:1], second[1:])
    assert motivation_choices(one, False, typed) == motivation_choices(two, False, typed)
    assert [v for _, v in motivation_choices(one, False, "")] == [m.value for m in Motivation]
    shown, _ = reveal(one, first[1], pitfall=True)
    assert motivation_choices(shown, False, "")[0] == (
        f"{first[1].value} (pitfall, revealed)",
        first[1].value,
    )
    director = dict(motivation_choices(one, True, ""))
    assert f"{first[0].value} (motivation, hidden)" in director
