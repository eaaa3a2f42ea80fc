"""Forge Steel negotiations (`.ds-negotiation`): our own file read into the negotiation's start, and the
refusals (one line each, nothing kept)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.content.forgesteel.files import BadValue, ForgeSteelError, TooMany, UnknownFormat, WrongKind
from bot.content.forgesteel.negotiation import NOTE_MAX, read_negotiation
from bot.rules.negotiation import Motivation, Trait
from tests.content.forgesteel_files import invented_bytes

FILE = "Reeve Halden.ds-negotiation"


def tollkeeper(**changes: Any) -> bytes:
    data = json.loads(invented_bytes(FILE)) | changes
    return json.dumps(data).encode()


def test_reads_name_interest_patience_motivations_and_pitfalls() -> None:
    """ "`/negotiation import file:` reads a Forge Steel negotiation: name, Interest, Patience, motivations,
    pitfalls" — all hidden to begin with, each with its description as the Director's note."""
    state = read_negotiation(invented_bytes(FILE))
    assert (state.npc, state.interest, state.patience, state.attitude) == ("Reeve Halden", 2, 4, None)
    assert state.motivations == (
        Trait(Motivation.GREED, note="The toll box is short this month, and the lord counts it."),
        Trait(Motivation.HIGHER_AUTHORITY, note="A sealed writ would settle it."),
    )
    assert state.pitfalls == (
        Trait(Motivation.FREEDOM, note="Talk of open roads reminds him of the smugglers."),
    )
    assert not state.used and not state.arguments and not state.ended


def test_long_descriptions_are_cut() -> None:
    state = read_negotiation(tollkeeper(pitfalls=[{"trait": "Peace", "description": "word " * 200}]))
    assert len(state.pitfalls[0].note) == NOTE_MAX and state.pitfalls[0].note.endswith("…")


REFUSALS = [
    ("an unknown trait", {"pitfalls": [{"trait": "Money", "description": ""}]}, UnknownFormat, "Money"),
    ("a trait as a number", {"motivations": [{"trait": 3}]}, UnknownFormat, "trait"),
    ("both lists", {"pitfalls": [{"trait": "Greed"}]}, BadValue, "both a motivation and a pitfall"),
    ("Interest 5", {"interest": 5}, BadValue, "end it at once"),
    ("Patience 0", {"patience": 0}, BadValue, "end it at once"),
    ("Patience as text", {"patience": "lots"}, UnknownFormat, "patience"),
    ("no name", {"name": ""}, BadValue, "Name the NPC"),
    ("13 motivations", {"motivations": [{"trait": "Greed"}] * 13}, TooMany, "12 motivations"),
]


@pytest.mark.parametrize(("what", "change", "error", "hint"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals_are_one_line(
    what: str, change: dict[str, Any], error: type[ForgeSteelError], hint: str
) -> None:
    with pytest.raises(error) as raised:
        read_negotiation(tollkeeper(**change))
    assert hint in str(raised.value) and "\n" not in str(raised.value)


def test_a_file_without_motivations_or_pitfalls_is_played_with_none() -> None:
    """Forge Steel starts a negotiation with both lists empty: such a file is still a negotiation to run,
    each argument appealing to no motivation (the Director keeps the NPC's in mind)."""
    state = read_negotiation(tollkeeper(motivations=[], pitfalls=[]))
    assert state.motivations == () and state.pitfalls == ()
    assert (state.interest, state.patience) == (2, 4)


def test_other_kinds_are_refused_naming_their_command() -> None:
    with pytest.raises(WrongKind, match="/encounter import"):
        read_negotiation(invented_bytes("Bog Ambush.ds-encounter"))


def test_a_newer_forge_steel_file_reads_the_same() -> None:
    """Newer Forge Steel negotiations also carry an attitude, languages and six offer texts, and may keep
    the description as a list of texts: the bot reads the same name, numbers and traits from them."""
    newer = tollkeeper(
        attitude="Neutral",
        languages=["Caelian"],
        outcomes=["", "", "A toll at half price.", "", "", ""],
        description=["The keeper of the bridge toll.", "At Marrow Ford."],
    )
    assert read_negotiation(newer) == read_negotiation(invented_bytes(FILE))
