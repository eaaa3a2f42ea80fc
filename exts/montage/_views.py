"""What a montage shows: the tracker (registered with the tracker service by kind), the replies to tests,
assists and the Director's commands, and the close button. Pure text and embeds from the rules' values.

Hidden information: the Director's outcome texts and the twists are shown only to the Director (ephemeral)
until the montage ends, and then only the outcome it reached."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import discord

from bot.embeds import fit_embed
from bot.error_hook import guarded
from bot.play import MONTAGE, NoScene
from bot.replies import UserError, drop_buttons, inert
from bot.rules.montage import (
    ROUNDS,
    Assist,
    Attempt,
    Challenge,
    Montage,
    MontageHero,
    MontageOutcome,
)
from bot.rules.power import PowerRoll
from bot.ui.combat import NET_EDGE_TEXT
from bot.ui.persistent import NUMBER, ActionButton, PersistentView, Presses
from exts.tracker._service import SceneView, SceneWait

KIND = MONTAGE
COLOUR = discord.Colour.teal()
_OUTCOME_ICON = {
    MontageOutcome.TOTAL_SUCCESS: "🏆",
    MontageOutcome.PARTIAL_SUCCESS: "⚖️",
    MontageOutcome.TOTAL_FAILURE: "💥",
}
CHALLENGES_SHOWN = 15


def roll_text(roll: PowerRoll) -> str:
    """`9 + 8 + 2, bane (−2) = 17, tier 3` (the edges and banes in /strike's words)."""
    text = " + ".join(str(d) for d in roll.dice)
    if roll.bonus:
        text += f" {'+' if roll.bonus > 0 else '−'} {abs(roll.bonus)}"
    if roll.net in NET_EDGE_TEXT:
        text += f", {NET_EDGE_TEXT[roll.net]}"
    return f"{text} = {roll.total}, tier {roll.tier}"


def count_text(montage: Montage) -> str:
    cap = montage.limits
    return f"Successes {montage.successes}/{cap.successes} · Failures {montage.failures}/{cap.failures}"


def round_text(montage: Montage) -> str:
    if montage.over:
        return "The montage is over."
    waiting = ", ".join(inert(h.name) for h in montage.waiting())
    return f"Round {montage.round} of {ROUNDS} · still to act: {waiting}"


def challenge_line(montage: Montage, challenge: Challenge) -> str:
    bits = [", ".join(c.value.capitalize() for c in challenge.characteristics)]
    bits.append(", ".join(inert(s) for s in challenge.skills))
    if challenge.difficulty is not None:
        bits.append(challenge.difficulty.value)
    left = montage.uses_left(challenge)
    if left is not None:
        bits.append(f"{left} of {challenge.uses} uses left")
    shown = " · ".join(b for b in bits if b)
    text = f"**{inert(challenge.name)}**" + (f" — {shown}" if shown else "")
    if challenge.description:
        text += f"\n  {inert(challenge.description)}"
    return text


def challenges_text(montage: Montage) -> str:
    if not montage.challenges:
        return "No challenges yet: the Director adds them with /montage challenge add."
    lines = [challenge_line(montage, c) for c in montage.challenges[:CHALLENGES_SHOWN]]
    more = len(montage.challenges) - CHALLENGES_SHOWN
    if more > 0:
        lines.append(f"… and {more} more (/montage challenge list)")
    return "\n".join(lines)


def outcome_text(montage: Montage) -> str | None:
    """The outcome reached, with the Director's text for it (None while it runs)."""
    outcome = montage.outcome
    if outcome is None:
        return None
    line = f"{_OUTCOME_ICON[outcome]} **{outcome.value.capitalize()}**"
    written = montage.outcomes.get(outcome.value)
    return f"{line}\n{inert(written)}" if written else line


def render_montage(name: str, montage: Montage, *, active: bool = True) -> discord.Embed:
    """The tracker: limits, successes, failures, round, who may still act, the challenges; at the end, the
    outcome reached and what was given."""
    embed = discord.Embed(
        title=f"🏔️ Montage: {inert(name)} ({montage.difficulty.value})",
        description=count_text(montage),
        colour=COLOUR,
    )
    if montage.description:
        embed.add_field(name="Scene", value=inert(montage.description)[:1024], inline=False)
    ended = outcome_text(montage)
    if ended is None:
        acted = ", ".join(inert(h) for h in montage.acted()) or "nobody yet"
        waiting = ", ".join(inert(h.name) for h in montage.waiting())
        embed.add_field(name=f"Round {montage.round} of {ROUNDS}", value=f"Acted: {acted}\nTo act: {waiting}")
    else:
        embed.add_field(name="Outcome", value=ended[:1024], inline=False)
    embed.add_field(name="Challenges", value=challenges_text(montage)[:1024], inline=False)
    if montage.closed:
        given = f"{montage.victories} Victor{'y' if montage.victories == 1 else 'ies'} each"
        if montage.malice:
            given += f"; {montage.malice} Malice carried into the next fight"
        embed.set_footer(text=f"Closed: {given}.")
    elif not active:
        embed.set_footer(text="Ended.")
    elif ended is not None:
        embed.set_footer(text="The Director closes it with /montage award (or the button).")
    else:
        embed.set_footer(text="/montage test · /montage assist · /montage challenge list")
    return fit_embed(embed)


def wait_of(montage: Montage) -> SceneWait:
    """Who the montage waits for: the heroes who haven't acted this round (their players pinged)."""
    waiting = montage.waiting()
    if not waiting:
        return SceneWait(None)
    raw = f"{montage.round}|{len(montage.attempts)}|{len(montage.assists)}|" + "\x1f".join(
        h.name for h in waiting
    )
    key = hashlib.blake2b(raw.encode(), digest_size=8).hexdigest()
    owners = tuple(dict.fromkeys(h.owner_id for h in waiting if h.owner_id))
    return SceneWait(
        key,
        owners,
        turn_ping(montage, waiting),
        tuple(h.name for h in waiting),
        "End the round for them with /montage next.",
    )


def turn_ping(montage: Montage, waiting: Sequence[MontageHero]) -> str:
    mentions = " ".join(dict.fromkeys(f"<@{h.owner_id}>" for h in waiting if h.owner_id))
    names = ", ".join(inert(h.name) for h in waiting)
    return (
        f"{mentions} — montage round {montage.round} of {ROUNDS}: {names} still to act "
        "(/montage test, or /montage assist)."
    ).lstrip(" —")


def scene_view(name: str, montage: Montage, encounter_id: int, version: int, active: bool) -> SceneView:
    view = tracker_controls(encounter_id, version, montage) if active else None
    return SceneView(render_montage(name, montage, active=active), view, wait_of(montage))


#: The Victories the close button gives each hero (1 by default, at the Director's word for any outcome).
DEFAULT_VICTORIES = 1


#: What a press of a montage button does (registered by the extension's `setup`). The custom ids:
#: `mtg:<action>:<encounter id>:<version>[:<argument>]`; `close` carries the Victories it gives, `reroll` the
#: number of the test it is under (the montage's tests counted from 1).
BUTTON_TEMPLATE = (
    rf"mtg:(?P<action>close|undo|reroll):(?P<eid>{NUMBER}):(?P<ver>{NUMBER})(?::(?P<arg>[0-9]{{1,3}}))?"
)
#: What each action's button is for, when a handler is missing (the slash command to use instead).
_INSTEAD = {"close": "/montage award", "undo": "/montage undo", "reroll": "/montage reroll"}
PRESSES = Presses(lambda action: f"This button isn't available right now: use {_INSTEAD[action]} instead.")
set_handler = PRESSES.set


class MontageGone(UserError):
    """A button of a montage that is no longer the one running in the channel."""


class MontageButton(ActionButton, template=BUTTON_TEMPLATE):
    """A montage's persistent button: the close under its end, Undo on its tracker, the hero-token reroll
    under a test."""

    prefix = "mtg"
    presses = PRESSES

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.presses.press(interaction, self.action, self.encounter_id, self.version, self.arg)
        except (NoScene, MontageGone):
            # its montage was closed (by the command or another press): the buttons go, the refusal follows
            await drop_buttons(interaction)
            raise


def close_view(encounter_id: int, version: int) -> discord.ui.View:
    """The Director's close: 1 Victory each (the usual award), or none."""
    view = PersistentView()
    award = f"Award {DEFAULT_VICTORIES} Victory each and close"
    view.add_item(
        MontageButton(
            "close",
            encounter_id,
            version,
            str(DEFAULT_VICTORIES),
            label=award,
            style=discord.ButtonStyle.primary,
        )
    )
    view.add_item(MontageButton("close", encounter_id, version, "0", label="Close without Victories"))
    return view


def tracker_controls(encounter_id: int, version: int, montage: Montage) -> discord.ui.View:
    """The running montage's tracker: Undo (the close once it is over)."""
    if montage.over:
        return close_view(encounter_id, version)
    view = PersistentView()
    view.add_item(MontageButton("undo", encounter_id, version, label="Undo"))
    return view


def test_reply_view(encounter_id: int, version: int, montage: Montage, attempt: Attempt) -> discord.ui.View:
    """Under a test: the hero-token reroll (while it is the newest test and not rerolled), and the close once
    the montage is over."""
    view = close_view(encounter_id, version) if montage.over else PersistentView()
    if not attempt.rerolled and not montage.closed:
        tested = str(len(montage.attempts))
        view.add_item(MontageButton("reroll", encounter_id, version, tested, label="Reroll (hero token)"))
    return view


def attempt_text(montage: Montage, attempt: Attempt, characteristic: str | None) -> str:
    trait = f", {characteristic}" if characteristic else ""
    helped = (
        f", assisted by {', '.join(inert(h) for h in attempt.assisted_by)}" if attempt.assisted_by else ""
    )
    mark = "✅" if attempt.success else "❌"
    return (
        f"🎲 **{inert(attempt.hero)}** tries **{inert(attempt.challenge)}** ({attempt.difficulty.value}"
        f"{trait}{helped}): {roll_text(attempt.roll)} — {mark} {attempt.outcome.value}."
    )


def gives_text(given: Assist) -> str:
    """What the assisted test takes, by the assist's tier."""
    return "a bane" if given.bane else ("a double edge" if given.edges == 2 else "an edge")


def assist_text(given: Assist) -> str:
    gives = gives_text(given)
    return (
        f"🤝 **{inert(given.hero)}** assists **{inert(given.helped)}**: {roll_text(given.roll)} — "
        f"their test this round takes {gives}."
    )


def progress_text(before: Montage, after: Montage) -> str:
    """The count, then what changed: a new round (with its ping) or the end."""
    lines = [count_text(after)]
    ended = outcome_text(after)
    if ended is not None:
        lines.append(f"The montage is over: {ended}")
        lines.append("The Director closes it with /montage award (Victories, Malice for the next fight).")
    elif after.round != before.round:
        lines.append(f"**Round {after.round} of {ROUNDS}** begins.")
        lines.append(turn_ping(after, after.waiting()))
    else:
        lines.append(round_text(after))
    return "\n".join(lines)


def closed_text(montage: Montage, awarded: Sequence[str]) -> str:
    who = ", ".join(inert(n) for n in awarded) or "no roster hero"
    lines = [f"🏔️ Montage closed: {outcome_text(montage) or ''}"]
    if montage.victories:
        lines.append(f"{montage.victories} Victor{'y' if montage.victories == 1 else 'ies'} each to {who}.")
    if montage.malice:
        lines.append(
            f"😈 {montage.malice} Malice carried into the next fight: the Director gains it when the next "
            "encounter in this channel begins."
        )
    return "\n".join(lines)


def imported_text(montage: Montage, done: Any) -> str:
    """The import's public reply: the challenges added and how many secrets came (never their texts)."""
    lines = [
        f"📥 Forge Steel montage: {len(done.added)} challenge{'s' if len(done.added) != 1 else ''} added."
    ]
    lines.append(challenges_text(montage))
    if done.outcomes or done.twists:
        lines.append(
            f"The Director got {len(done.outcomes)} outcome texts and {done.twists} twists (kept secret)."
        )
    lines.extend(f"⚠️ {inert(w)}" for w in done.warnings[:10])
    return "\n".join(lines)


def secrets_text(montage: Montage) -> str:
    """What only the Director sees: the outcome texts written and the twists."""
    lines = []
    for outcome in MontageOutcome:
        written = montage.outcomes.get(outcome.value)
        lines.append(f"**{outcome.value.capitalize()}**: {inert(written) if written else '(not written)'}")
    for index, twist in enumerate(montage.twists, 1):
        lines.append(f"**Twist {index}**: {inert(twist)}")
    return "\n".join(lines)
