"""What /encounter and /turn replies say: pure functions from the rules' results to text (every name inert).

- `started_text`, `added_text`, `begin_text`, `first_choice_text`, `round_lines`, `news_lines`,
  `turn_start_text`, `turn_end_text`, `speed_text`, `next_pick_text`, `finish_text`, `summary` (one line for
  the encounter's log).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.replies import inert
from bot.rules.conditions import ConditionInstance, Duration
from bot.rules.encounter import Encounter
from bot.rules.encounter.flow import Finish, Flow
from bot.rules.encounter.model import RoundNews
from bot.rules.turns import Controller, Entry, Mode, Speed, budget, current, picking, waiting
from bot.rules.turns.events import (
    ConditionExpired,
    Event,
    FirstSideChosen,
    FirstTurnRolled,
    RoundStarted,
    SaveDue,
    SideSkipped,
    SpeedChosen,
)
from bot.ui.combat import dying_warnings
from exts.tracker._objectives import due_lines, summary_lines


def creatures_of(encounter: Encounter, entry: Entry) -> tuple[str, ...]:
    """The creatures an entry is: itself, or a minion squad's minions (`Encounter.creatures_in`)."""
    return encounter.creatures_in(entry)


MODE_NAMES = {
    Mode.DRAW_STEEL: "Draw Steel turns",
    Mode.AGILITY: "Agility turn order",
    Mode.TEAMS: "teams",
    Mode.FAST_SLOW: "fast and slow turns",
}
_DURATION = {
    Duration.EOT: "until the end of their turn",
    Duration.END_OF_FIRST_ROUND: "until the end of the first round",
    Duration.SAVE: "save ends",
    Duration.ENCOUNTER: "until the end of the encounter",
    Duration.UNTIL_REMOVED: "until removed",
}


def side_label(encounter: Encounter, side_id: str) -> str:
    """ "the heroes", "the Director", "team Red"."""
    side = encounter.turns.side(side_id)
    name = (side.name or side.id) if side is not None else side_id
    if encounter.turns.mode is Mode.TEAMS:
        return f"team {inert(name)}"
    if side is not None and side.controller is Controller.DIRECTOR:
        return "the Director"
    return f"the {inert(name).lower()}" if name.lower() == "heroes" else inert(name)


def does(subject: str, verb: str) -> str:
    """`subject` and `verb` agreeing: "the Director picks", "team Red skips", "the heroes pick" (the Director
    and a team are one; a side named for its members, like the heroes or the players, is many)."""
    if subject.lower() == "the director" or subject.startswith("team "):
        verb += "es" if verb.endswith(("o", "s", "sh", "ch")) else "s"
    return f"{subject} {verb}"


def side_does(encounter: Encounter, side_id: str, verb: str) -> str:
    """ "the Director picks", "the heroes pick", "team Red skips": a side's label with `verb` agreeing."""
    return does(side_label(encounter, side_id), verb)


def controller_does(controller: Controller, verb: str) -> str:
    """ "the players choose", "the Director chooses"."""
    return does("the players" if controller is Controller.PLAYERS else "the Director", verb)


def condition_text(instance: ConditionInstance) -> str:
    return f"{inert(instance.label)} ({_DURATION[instance.duration]})"


def started_text(name: str, mode: Mode, teams: Sequence[str] = ()) -> str:
    extra = f" Teams: {', '.join(inert(t) for t in teams)}." if teams else ""
    return (
        f"⚔️ Encounter **{inert(name)}** started ({MODE_NAMES[mode]}).{extra} Add combatants with "
        "/encounter add or /encounter hero, then /encounter begin."
    )


def added_text(names: Sequence[str], side: str, squad: str | None) -> str:
    shown = ", ".join(f"**{inert(n)}**" for n in names)
    squad_text = f" as the squad **{inert(squad)}**" if squad else ""
    return f"➕ {shown} joined {side}{squad_text}."


def round_lines(flow: Flow) -> list[str]:
    """A line per round that started in `flow` (with its Malice), and the objectives whose counter hit 0."""
    lines = []
    for event in flow.events:
        if isinstance(event, RoundStarted):
            malice = f" The Director gains {flow.malice_gained} Malice (now {flow.encounter.malice.value})."
            what = "The surprise round" if event.round == 0 else f"Round {event.round}"
            lines.append(f"🔔 {what} begins.{malice if event.round >= 1 and flow.malice_gained else ''}")
    return lines + due_lines(flow.due)


def news_lines(encounter: Encounter, news: RoundNews) -> list[str]:
    """The rounds a change outside a turn started (`round_lines`, as a turn's end says them), then who picks
    now."""
    started = tuple(RoundStarted(number) for number in news.rounds)
    lines = round_lines(Flow(encounter, started, malice_gained=news.malice_gained, due=news.due))
    nxt = next_pick_text(encounter)
    return [*lines, nxt] if nxt else lines


def _event_lines(encounter: Encounter, events: Sequence[Event]) -> list[str]:
    lines = []
    for event in events:
        if isinstance(event, ConditionExpired) and event.reason == "eot":
            label = event.custom_text or event.condition.value
            lines.append(f"{inert(event.creature)} is no longer {inert(label)}.")
        elif isinstance(event, SaveDue):
            label = event.custom_text or event.condition.value
            lines.append(
                f"🎲 Save due: {inert(event.creature)} against {inert(label)} — press Save on the tracker "
                f"or /save target: {inert(event.creature)}."
            )
        elif isinstance(event, SpeedChosen) and event.speed is Speed.SLOW:
            lines.append(f"{inert(event.entry)} waits for the slow turns.")
        elif isinstance(event, SideSkipped):
            lines.append(f"⏭️ {side_does(encounter, event.side, 'skip')} the rest of their turns this round.")
    return lines


def next_pick_text(encounter: Encounter) -> str:
    """Who picks now, and whom they may pick."""
    turns = encounter.turns
    pick = picking(turns)
    if pick is None:
        return ""
    names = ", ".join(inert(e) for e in pick.entries[:10])
    more = f" and {len(pick.entries) - 10} more" if len(pick.entries) > 10 else ""
    if turns.mode is Mode.FAST_SLOW:
        part = pick.speed.value if pick.speed is not None else "next"
        who = controller_does(pick.controller, "pick")
        return f"Next: {who} a {part} turn ({names}{more}) with /turn act."
    if pick.group is not None:
        return f"Next: group {inert(pick.group)} keeps acting ({names}{more})."
    return f"Next: {side_does(encounter, pick.sides[0], 'pick')} who acts ({names}{more}) with /turn act."


def begin_text(flow: Flow) -> str:
    """The start of combat: the d10 (and who chooses), or the first round."""
    lines = []
    for event in flow.events:
        if isinstance(event, FirstTurnRolled):
            who = controller_does(event.chooser, "choose")
            lines.append(
                f"🎲 d10 for who goes first: **{event.roll}** (players need {event.threshold}+): "
                f"{who} which side goes first."
            )
        elif isinstance(event, FirstSideChosen):
            how = " (everyone on the other side is surprised)" if event.automatic else ""
            said = side_does(flow.encounter, event.side, "go")
            lines.append(f"{said[0].upper()}{said[1:]} first{how}.")
    lines += round_lines(flow)
    nxt = next_pick_text(flow.encounter)
    if nxt:
        lines.append(nxt)
    return "\n".join(lines)


def turn_start_text(
    encounter: Encounter,
    entry_id: str,
    gains: Sequence[tuple[str, int]] = (),
    resource_names: Mapping[str, str] | None = None,
) -> str:
    """Start of a turn: who acts, their conditions, saves due, heroic resource gained, what they may do."""
    turns = encounter.turns
    entry = turns.entry(entry_id)
    cur = current(turns)
    how = " (out of order)" if cur is not None and cur.override else ""
    part = f" ({cur.speed.value} turn)" if cur is not None and cur.speed is not None else ""
    lines = [f"▶️ **{inert(entry_id)}** starts their turn{part}{how} — round {turns.round}."]
    ids = entry.creature_ids if entry is not None else (entry_id,)
    conditions = [c for cid in ids for c in turns.conditions_of(cid)]
    if conditions:
        lines.append("Conditions: " + ", ".join(condition_text(c) for c in conditions) + ".")
        saves = [c for c in conditions if c.duration is Duration.SAVE]
        if saves:
            lines.append(
                "Saves due at the end of this turn: " + ", ".join(inert(c.label) for c in saves) + "."
            )
    for hero, amount in gains:
        value = encounter.resources.get(hero, 0)
        what = (resource_names or {}).get(hero, "heroic resource")
        lines.append(f"{inert(hero)} gains {amount} {inert(what)} (now {value}).")
    lines += dying_warnings(encounter, ids)
    lines.append(inert(budget(turns, entry_id).summary))
    return "\n".join(lines)


def turn_end_text(entry_id: str, flow: Flow) -> str:
    lines = [f"⏹️ **{inert(entry_id)}**'s turn ends."]
    lines += _event_lines(flow.encounter, flow.events)
    lines += round_lines(flow)
    nxt = next_pick_text(flow.encounter)
    if nxt:
        lines.append(nxt)
    return "\n".join(lines)


def skip_text(flow: Flow) -> str:
    lines = _event_lines(flow.encounter, flow.events) + round_lines(flow)
    nxt = next_pick_text(flow.encounter)
    if nxt:
        lines.append(nxt)
    return "\n".join(lines) or "Nothing to skip."


def speed_text(entry_id: str, speed: Speed, flow: Flow) -> str:
    """/turn speed (fast-slow-turns-combat.md "Fast Turns", "Slow Turns"): the choice, then what follows."""
    if speed is Speed.FAST:
        head = f"⏩ **{inert(entry_id)}** takes a fast turn this round: an action or a move."
    else:
        head = f"🐢 **{inert(entry_id)}** takes a slow turn this round: an action and a move, later."
    rest = [e for e in flow.events if not isinstance(e, SpeedChosen)]
    lines = [head, *_event_lines(flow.encounter, rest), *round_lines(flow)]
    nxt = next_pick_text(flow.encounter)
    if nxt:
        lines.append(nxt)
    return "\n".join(lines)


def finish_text(name: str, done: Finish, encounter_id: int | None) -> str:
    victors = ", ".join(inert(v) for v in done.victors)
    rounds = done.encounter.turns.round
    lines = [f"🏁 Encounter **{inert(name)}** is over after {rounds} round{'s' if rounds != 1 else ''}."]
    pending = done.encounter.unawarded
    if victors:
        lines.append(f"1 Victory each to {victors}.")
    if pending:
        names = ", ".join(inert(c) for c in pending)
        lines.append(f"1 Victory each to {names} once a server Director awards them (the button below).")
    if not victors and not pending:
        lines.append("No Victories this time.")
    lines.append("Temporary Stamina, surges, Malice and heroic resources are cleared.")
    lines += summary_lines(done.encounter)
    if encounter_id is not None:
        lines.append(f"The log stays available: /encounter log encounter: {encounter_id}")
    return "\n".join(lines)


def still_waiting(encounter: Encounter) -> tuple[str, ...]:
    return waiting(encounter.turns)
