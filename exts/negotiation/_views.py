"""What a negotiation looks like: the players' view, the Director's, the offer, and the replies and log
summaries of each step. Pure functions of the state.

Hidden information: the players' view and every public reply name only revealed motivations and pitfalls
(and motivations that aren't the NPC's at all); the log's summaries name none of the NPC's, since an undo can
hide again what a summary would have named. With `numbers` off (`/settings negotiation_numbers:False`)
players see Interest and Patience as words, and changes as which way they went.
"""

from __future__ import annotations

import discord

from bot.embeds import Colour, Field, make_embed
from bot.replies import inert
from bot.rules.negotiation import (
    HIGH,
    ArgueResult,
    DiscoverResult,
    Motivation,
    Negotiation,
    Row,
    Trait,
)
from bot.rules.power import PowerRoll
from bot.ui.combat import roll_line

INTEREST_WORDS = (
    "against the idea",
    "not interested",
    "wary",
    "listening",
    "interested",
    "won over",
)
"""Interest 0 to 5 as the players may see it in words."""
PATIENCE_WORDS = (
    "out of patience",
    "at the end of their patience",
    "growing impatient",
    "patient",
    "very patient",
    "endlessly patient",
)
"""Patience 0 to 5 as the players may see it in words."""


def interest_text(value: int, numbers: bool) -> str:
    return f"{value}/{HIGH}" if numbers else INTEREST_WORDS[value]


def patience_text(value: int, numbers: bool) -> str:
    return f"{value}/{HIGH}" if numbers else PATIENCE_WORDS[value]


def change_text(what: str, change: int, numbers: bool) -> str:
    """ "Interest +1" with numbers; "Interest rises", "falls" or "holds" in words."""
    if numbers:
        return f"{what} {change:+d}"
    return f"{what} {'rises' if change > 0 else 'falls' if change < 0 else 'holds'}"


def title(state: Negotiation) -> str:
    return f"Negotiation with {inert(state.npc)}"


def _traits(traits: tuple[Trait, ...], director: bool) -> str:
    """The traits the viewer may see: all of them, marked and with notes, for the Director; the revealed
    ones for players."""
    if not director:
        shown = [t.motivation.value for t in traits if t.revealed]
        return ", ".join(shown) if shown else "none known yet"
    lines = []
    for t in traits:
        mark = "revealed" if t.revealed else "hidden"
        note = f" — {inert(t.note)}" if t.note else ""
        lines.append(f"{t.motivation.value} ({mark}){note}")
    return "\n".join(lines)


def _status_fields(state: Negotiation, numbers: bool, director: bool) -> list[Field]:
    fields = [
        Field("Interest", interest_text(state.interest, numbers), inline=True),
        Field("Patience", patience_text(state.patience, numbers), inline=True),
        Field("Motivations", _traits(state.motivations, director)),
        Field("Pitfalls", _traits(state.pitfalls, director)),
    ]
    if state.used:
        fields.append(Field("Motivations appealed to", ", ".join(m.value for m in state.used)))
    if state.ended:
        fields.append(Field("Offer", offer_line(state)))
    return fields


def public_embed(state: Negotiation, numbers: bool) -> discord.Embed:
    """The players' view: Interest and Patience (numbers or words), revealed motivations and pitfalls only,
    the motivations already appealed to, and the offer once it is over."""
    return make_embed(
        title(state),
        _attitude_line(state),
        colour=Colour.NEUTRAL if state.ended else Colour.INFO,
        fields=_status_fields(state, numbers, director=False),
        footer=_footer(state),
    )


def director_embed(state: Negotiation) -> discord.Embed:
    """The Director's view (sent to them alone): everything, numbers always, each trait marked hidden or
    revealed with its note."""
    return make_embed(
        f"{title(state)} (Director's view)",
        _attitude_line(state),
        colour=Colour.DIRECTOR,
        fields=_status_fields(state, numbers=True, director=True),
        footer=_footer(state),
    )


def _attitude_line(state: Negotiation) -> str:
    return f"Began {state.attitude.value}." if state.attitude is not None else ""


def _footer(state: Negotiation) -> str:
    if state.ended:
        return "The negotiation is over."
    return "Argue with /negotiation argue, learn with /negotiation discover, or ask for the offer."


def offer_line(state: Negotiation) -> str:
    """ "Yes, but… (the NPC agrees, with a cost or a condition)" for the state's Interest ("The Offer")."""
    offer = state.offer
    return f"{offer.words} ({offer.meaning})"


def _why_over(state: Negotiation, numbers: bool) -> str:
    if state.called:
        return "The heroes ask for the offer."
    if state.patience == 0:
        return f"{inert(state.npc)} has run out of patience."
    if state.interest == HIGH:
        return f"{inert(state.npc)} is won over." if not numbers else "Interest reached 5."
    return f"{inert(state.npc)} has lost all interest." if not numbers else "Interest reached 0."


def offer_text(state: Negotiation, numbers: bool) -> str:
    """The end of the negotiation, posted for everyone: why it ended and the offer by Interest."""
    return f"**{title(state)} is over.** {_why_over(state, numbers)}\nThe offer: **{offer_line(state)}**"


# --- the steps' replies and log summaries ------------------------------------------------------------------
def _appeal_words(result: ArgueResult) -> str:
    """What the argument appealed to, as the players may hear it: a motivation or pitfall it named is
    revealed by the argument; an appeal to something the NPC doesn't care about is named."""
    named = result.argument.motivation
    if result.row is Row.PITFALL:
        return f"touches a pitfall: {named.value}" if named is not None else "touches a pitfall"
    if result.row is Row.NEW_MOTIVATION and named is not None:
        return f"appeals to a motivation: {named.value}"
    if result.row is Row.USED_MOTIVATION and named is not None:
        return f"appeals again to {named.value}, already used"
    if named is not None:
        return f"appeals to {named.value}, which moves them neither way"
    return "appeals to no motivation"


def argue_reply(result: ArgueResult, roll: PowerRoll, numbers: bool) -> str:
    """The public reply to an argument: the roll, what it appealed to, the tier read, the changes."""
    arg = result.argument
    notes = []
    if arg.repeated:
        notes.append("a repeated argument counts as tier 1")
    if result.row is Row.PITFALL:
        notes.append("a pitfall is automatically tier 1")
    if result.row is Row.NO_MOTIVATION and arg.natural >= 19:
        notes.append(f"a natural {arg.natural} costs no Patience")
    extra = f" ({'; '.join(notes)})" if notes else ""
    changes = (
        f"{change_text('Interest', arg.interest, numbers)}, {change_text('Patience', arg.patience, numbers)}"
    )
    state = result.state
    now = (
        f"Interest {interest_text(state.interest, numbers)}, "
        f"Patience {patience_text(state.patience, numbers)}"
    )
    return (
        f"**{inert(arg.hero)}** {_appeal_words(result)}.\n{roll_line(roll)}\n"
        f"Tier {arg.tier}{extra}: {changes}. Now: {now}."
    )


def argue_summary(result: ArgueResult) -> str:
    """The log's line for an argument: the row and tier, the changes as directions; it names a motivation
    only when it isn't one of the NPC's (an undo may hide again what the argument revealed)."""
    arg = result.argument
    named = arg.motivation
    if result.row is Row.NO_MOTIVATION:
        what = f"to {named.value}, no motivation of theirs" if named is not None else "to no motivation"
    else:
        what = f"to {result.row.words}"
    changes = (
        f"{change_text('Interest', arg.interest, False)}, {change_text('Patience', arg.patience, False)}"
    )
    lie = ", a lie" if arg.lie else ""
    return f"{arg.hero} argued{lie} (appealing {what}, tier {arg.tier}): {changes}"


def discover_reply(hero: str, result: DiscoverResult, roll: PowerRoll, numbers: bool) -> str:
    """The public reply to a discovery test ("Discovering Motivations and Pitfalls")."""
    head = f"**{inert(hero)}** tries to learn what moves {inert(result.state.npc)}.\n{roll_line(roll)}\n"
    if result.tier == 1:
        patience = patience_text(result.state.patience, numbers)
        return head + f"Tier 1: nothing learned, {change_text('Patience', -1, numbers)} (now {patience})."
    if result.tier == 2:
        return head + "Tier 2: nothing learned, no Patience lost."
    if not result.choices:
        return head + "Tier 3: but every motivation and pitfall is known already."
    return head + "Tier 3: the Director reveals a motivation or pitfall."


def discover_summary(hero: str, result: DiscoverResult) -> str:
    return f"{hero} tried to discover a motivation or pitfall: tier {result.tier}"


def reveal_reply(state: Negotiation, motivation: Motivation, pitfall: bool) -> str:
    what = "pitfall" if pitfall else "motivation"
    return f"{inert(state.npc)}'s {what} is revealed: **{motivation.value}**."


def reveal_label(motivation: Motivation, pitfall: bool) -> str:
    """A button the Director (alone) sees to reveal one trait."""
    return f"{'Pitfall' if pitfall else 'Motivation'}: {motivation.value}"
