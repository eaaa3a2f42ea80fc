"""A Forge Steel negotiation (`.ds-negotiation`) read into the rules' start state.

The bot keeps the name, Interest, Patience and the traits with their descriptions (the Director's notes);
`impression` (the heroes' Renown against it, a rule the bot leaves to the table) is read and not kept.
"""

from __future__ import annotations

from bot.content.forgesteel.files import BadValue, Fields, Kind, ReadBudget, at_most, load_export
from bot.rules.errors import RuleError
from bot.rules.negotiation import Motivation, Negotiation, Trait, begin

NOTE_MAX = 300
"""The longest description kept for a motivation or pitfall (longer ones are cut, marked with `…`)."""
_TRAITS_MAX = len(Motivation)
"""A list names each of the twelve at most once; a file listing more isn't a Forge Steel export."""
_NAMES = {m.value: m for m in Motivation}


def _note(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= NOTE_MAX else flat[: NOTE_MAX - 1] + "…"


def _traits(top: Fields, key: str) -> tuple[Trait, ...]:
    entries = top.objects(key, f"negotiation {key[:-1]}")
    at_most(len(entries), _TRAITS_MAX, key)
    instead = "pick it from Forge Steel's list and export the negotiation again."
    return tuple(
        Trait(
            entry.known("trait", "", _NAMES, f"The {key[:-1]}", instead),
            note=_note(entry.text("description")),
        )
        for entry in entries
    )


def read_negotiation(data: bytes) -> Negotiation:
    """A `.ds-negotiation` export as the negotiation's start (or a one-line `ForgeSteelError` saying what to
    upload or change instead).

    Forge Steel's `Negotiation` (`src/models/negotiation.ts`) is an element (`id`, `name`, `description`)
    with `interest`, `patience`, `impression`, and `motivations` and `pitfalls`, each a list of `{trait,
    description}` where `trait` is one of the twelve motivations by its capitalised name ("Higher
    Authority")."""
    _, top = load_export(data, Kind.NEGOTIATION, budget=ReadBudget())
    motivations, pitfalls = _traits(top, "motivations"), _traits(top, "pitfalls")
    name, interest, patience = top.text("name"), top.integer("interest"), top.integer("patience")
    try:
        return begin(name, interest, patience, motivations, pitfalls, unwritten=True)
    except RuleError as error:
        raise BadValue(f"That negotiation can't be played: {error}") from None
