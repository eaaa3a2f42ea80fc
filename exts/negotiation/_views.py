"""What a negotiation looks like: the players' view, the Director's, the offer, and the replies and log
summaries of each step. Pure functions of the state.

Hidden information: the players' view and every public reply name only revealed motivations and pitfalls
(and motivations that aren't the NPC's at all); the log's summaries name none of the NPC's, since an undo can
hide again what a summary would have named. With `numbers` off (`/settings negotiation_numbers:False`)
players see Interest and Patience as words, and changes as which way they went.
"""

from __future__ import annotations

from dataclasses import dataclass

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
from bot.ui.persistent import NUMBER, ActionButton, ForgedId, PersistentView, Presses
from exts.tracker._service import SceneView, SceneWait

CHOICES_MAX = 24
"""Buttons in one pick (Discord holds 25 a message; a negotiation has at most twelve traits)."""

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


# --- the scene the channel keeps, its tracker and its buttons ----------------------------------------------
KIND = "negotiation"
"""The scene kind a negotiation's encounter row names (`bot.play.play_scene`)."""


@dataclass(frozen=True, slots=True)
class Scene:
    """What the channel keeps: the negotiation, and whether players see its numbers (the server's
    `negotiation_numbers` as of the newest step, so the tracker needs no settings to render it)."""

    negotiation: Negotiation
    numbers: bool = True


def scene_view(name: str, scene: Scene, encounter_id: int, version: int, active: bool) -> SceneView:
    """The tracker of a negotiation: the players' view; once it is over, the Director's close buttons."""
    state = scene.negotiation
    view = close_view(encounter_id, version) if active and state.ended else None
    return SceneView(public_embed(state, scene.numbers), view, SceneWait(None))


#: What a press of a negotiation button does (registered by the extension's `setup`).
BUTTON_TEMPLATE = (
    rf"neg:(?P<action>reveal|pick|lie|close):(?P<eid>{NUMBER}):(?P<ver>{NUMBER})"
    r"(?::(?P<arg>[a-z0-9: ]{1,40}))?"
)
PRESSES = Presses(
    lambda _action: "This button isn't available right now: use the /negotiation command instead."
)
set_handler = PRESSES.set


class NegotiationButton(ActionButton, template=BUTTON_TEMPLATE):
    """A negotiation's button: the Director's pick of what a discovery reveals, the lie's extra Interest, the
    close with Victories. Its custom id says which negotiation (encounter id) and state (version)."""

    prefix = "neg"
    presses = PRESSES


def close_view(encounter_id: int, version: int) -> discord.ui.View:
    """Under the offer: the Director closes the negotiation, with 1 Victory each or none."""
    view = PersistentView()
    view.add_item(
        NegotiationButton(
            "close",
            encounter_id,
            version,
            "1",
            label="Award 1 Victory each and close",
            style=discord.ButtonStyle.success,
        )
    )
    view.add_item(NegotiationButton("close", encounter_id, version, "0", label="Close without Victories"))
    return view


def _director_button(
    action: str, encounter_id: int, version: int, label: str, style: discord.ButtonStyle
) -> discord.ui.View:
    """A view of one Director's button under a reply: `action` on the state the reply was sent for."""
    button = NegotiationButton(action, encounter_id, version, label=label, style=style)
    return PersistentView().add_item(button)


def reveal_view(encounter_id: int, version: int) -> discord.ui.View:
    """Under a tier 3 discovery: the Director opens the pick (seen by them alone)."""
    label = "Director: pick what is revealed"
    return _director_button("reveal", encounter_id, version, label, discord.ButtonStyle.primary)


def pick_view(
    encounter_id: int, version: int, choices: tuple[tuple[Motivation, bool], ...]
) -> discord.ui.View:
    """The Director's pick (an ephemeral message): one button per hidden motivation or pitfall; one click
    reveals it."""
    view = PersistentView()
    for motivation, pitfall in choices[:CHOICES_MAX]:
        arg = f"{'p' if pitfall else 'm'}:{motivation.value}"
        view.add_item(
            NegotiationButton("pick", encounter_id, version, arg, label=reveal_label(motivation, pitfall))
        )
    return view


def lie_view(encounter_id: int, version: int) -> discord.ui.View:
    """Under an argument made as a lie that didn't raise Interest: the Director may take 1 more."""
    label = "Director: caught lying, take 1 more Interest"
    return _director_button("lie", encounter_id, version, label, discord.ButtonStyle.danger)


def read_pick(arg: str) -> tuple[Motivation, bool]:
    """A pick button's argument (`m:greed`, `p:higher authority`) as the trait it reveals."""
    side, _, name = arg.partition(":")
    if side not in ("m", "p") or name not in {m.value for m in Motivation}:
        raise ForgedId()
    return Motivation(name), side == "p"


def started_text(state: Negotiation) -> str:
    return (
        f"🤝 **{title(state)}** begins. Heroes: argue with /negotiation argue, or read what moves "
        f"{inert(state.npc)} with /negotiation discover."
    )


def lie_text(state: Negotiation, numbers: bool) -> str:
    return (
        f"🤥 Caught in a lie: {change_text('Interest', -1, numbers)} "
        f"(now {interest_text(state.interest, numbers)})."
    )


def closed_text(state: Negotiation, victories: int, awarded: tuple[str, ...]) -> str:
    if not victories or not awarded:
        return f"{title(state)} is closed."
    each = f"{victories} Victor{'y' if victories == 1 else 'ies'}"
    return f"{title(state)} is closed: {each} each to {', '.join(inert(n) for n in awarded)}."


def motivation_choices(state: Negotiation | None, director: bool, current: str) -> list[tuple[str, str]]:
    """`motivation:`'s autocomplete as (label, value): all twelve motivations containing `current`, the
    NPC's revealed motivations and pitfalls first and marked. For players nothing else is marked and the
    rest keep the twelve's order, so the list tells nothing hidden; the Director's marks every one of the
    NPC's."""
    key = " ".join(current.casefold().split())
    names = [m for m in Motivation if key in m.value]
    marks: dict[Motivation, str] = {}
    if state is not None:
        for traits, what in ((state.motivations, "motivation"), (state.pitfalls, "pitfall")):
            for t in traits:
                if t.revealed:
                    marks[t.motivation] = f"{what}, revealed"
                elif director:
                    marks[t.motivation] = f"{what}, hidden"
    revealed = [m for m in names if m in marks and (director or "revealed" in marks[m])]
    ordered = revealed + [m for m in names if m not in revealed]
    return [(f"{m.value} ({marks[m]})" if m in marks else m.value, m.value) for m in ordered]
