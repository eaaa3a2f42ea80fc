"""What objectives and villain actions look like: on the tracker, in replies, in the end summary.

Pure functions from state to text, fields and views (`bot.rules.encounter.objectives`); every objective text
and name goes through `bot.replies.inert`. The villain actions' names are the Director's secret: only the
Director's private tracker and own replies name them before they are used.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.embeds import Field
from bot.replies import inert
from bot.rules.encounter import Encounter
from bot.rules.encounter.flow import Flow
from bot.rules.encounter.objectives import Objective, Outcome, villain_actions, villain_round, villain_used
from bot.ui.persistent import PersistentView
from exts.tracker._controls import ControlButton

MARKS = {Outcome.OPEN: "🎯", Outcome.ACHIEVED: "✅", Outcome.FAILED: "❌"}
USED = "✅"
UNUSED = "⬜"


def _rounds(count: int) -> str:
    return f"{count} round{'s' if count != 1 else ''}"


def objective_text(objective: Objective) -> str:
    """`Hold the bridge — 3 rounds left`, `Stop the ritual`, `Hold the bridge — time is up`,
    `Stop the ritual — achieved` (the text inert)."""
    text = inert(objective.text)
    if objective.outcome is not Outcome.OPEN:
        return f"{text} — {objective.outcome.value}"
    if objective.left is None:
        return text
    if objective.left == 0:
        return f"{text} — time is up"
    return f"{text} — {_rounds(objective.left)} left"


DUE = "⏳"


def objective_lines(encounter: Encounter) -> list[str]:
    """The tracker's lines; one whose time is up says what the Director may do."""
    return [
        f"{DUE} {objective_text(o)}: Director, end the encounter or resolve it"
        if o.due
        else f"{MARKS[o.outcome]} {objective_text(o)}"
        for o in encounter.objectives
    ]


def objectives_field(encounter: Encounter) -> Field | None:
    """The tracker's Objectives field (None without objectives)."""
    lines = objective_lines(encounter)
    return Field("Objectives", "\n".join(lines)) if lines else None


def villain_lines(encounter: Encounter) -> list[str]:
    """A line per creature with villain actions: `**Ajax**: ✅ Rally · ⬜ Ruin`, then, once one was used this
    round, that the round's is spent (one a round). The Director's private view only."""
    lines = []
    for creature in encounter.creatures:
        actions = villain_actions(encounter, creature)
        if not actions:
            continue
        used = villain_used(encounter, creature)
        marks = [f"{USED if a in used else UNUSED} {inert(a)}" for a in actions]
        lines.append(f"**{inert(creature.name)}**: {' · '.join(marks)}")
    now = villain_round(encounter)
    if lines and now is not None and encounter.villain_round == now:
        lines.append("This round's villain action is used (one a round).")
    return lines


def villains_field(encounter: Encounter) -> Field | None:
    """The private tracker's Villain actions field (None when no creature has any)."""
    lines = villain_lines(encounter)
    return Field(f"Villain actions ({USED} used)", "\n".join(lines)) if lines else None


def tracker_fields(encounter: Encounter, private: bool = False) -> list[Field]:
    """The tracker's fields before the sides: the objectives; on the Director's `private` view, the villain
    actions too (never on the channel's tracker: their names would tell the players what is coming)."""
    fields = [objectives_field(encounter), villains_field(encounter) if private else None]
    return [f for f in fields if f is not None]


def villain_reminder_lines(flow: Flow) -> list[str]:
    """A turn ended and a villain action may follow (`Flow.villain_reminder`, once a round): remind the
    Director without naming any."""
    if not flow.villain_reminder:
        return []
    return [
        "😈 Director: a villain action is still unused this round. Use one now with /strike ability: or "
        "/encounter villain use (your private tracker lists them: /encounter status private: True)."
    ]


def due_lines(due: Sequence[str]) -> list[str]:
    """A round began with these objectives' counters at 0: say so and ask the Director."""
    if not due:
        return []
    names = ", ".join(f"**{inert(text)}**" for text in due)
    return [f"⏳ Time is up for {names}. Director: does the encounter end in victory?"]


def due_view(encounter_id: int | None, version: int, due: Sequence[str]) -> discord.ui.View | None:
    """The Director's answer to `due_lines`: end the encounter in victory, or keep fighting (the
    end-of-encounter confirmation's persistent buttons of `exts.tracker._controls`, which only the Director
    may press to end)."""
    if not due or encounter_id is None:
        return None
    view = PersistentView()
    view.add_item(
        ControlButton(
            "endok", encounter_id, version, "1", label="End in victory", style=discord.ButtonStyle.success
        )
    )
    view.add_item(ControlButton("endno", encounter_id, version, label="Keep fighting"))
    return view


def summary_lines(encounter: Encounter) -> list[str]:
    """The end of the encounter: each objective and its outcome (an open one: `not resolved`)."""
    if not encounter.objectives:
        return []
    lines = ["Objectives:"]
    for objective in encounter.objectives:
        outcome = "not resolved" if objective.outcome is Outcome.OPEN else objective.outcome.value
        lines.append(f"{MARKS[objective.outcome]} {inert(objective.text)} — {outcome}")
    return lines


def added_text(objective: Objective) -> str:
    """The channel's reply to a new objective."""
    return f"🎯 New objective: {objective_text(objective)}."


def resolved_text(objective: Objective, open_left: int) -> str:
    """The channel's reply to a resolved objective (the last one achieved: how to end the encounter)."""
    head = f"{MARKS[objective.outcome]} Objective {objective.outcome.value}: **{inert(objective.text)}**."
    if objective.outcome is Outcome.ACHIEVED and open_left == 0:
        head += " Every objective is resolved: end the encounter with /encounter end when the fight is done."
    return head


def named_text(creature: str, action: str, actions: Sequence[str]) -> str:
    """The Director's own reply to naming one (ephemeral: the names are theirs)."""
    return (
        f"😈 **{inert(creature)}** has the villain action **{inert(action)}** "
        f"({len(actions)} of 3: {', '.join(inert(a) for a in actions)}). Only you see this."
    )


def used_text(creature: str, action: str) -> str:
    """The channel's reply to one used: what it is, not what is left."""
    return f"😈 **{inert(creature)}** uses the villain action **{inert(action)}** (once per encounter)."


def left_text(creature: str, left: Sequence[str]) -> str:
    """The Director's own note after one is used: what is left (ephemeral)."""
    if not left:
        return f"😈 {inert(creature)} has no villain actions left. Only you see this."
    return f"😈 Left for {inert(creature)}: {', '.join(inert(a) for a in left)}. Only you see this."
