"""What /encounter and /turn replies say: pure functions from the rules' results to text (every name inert).

- `started_text`, `added_text`, `begin_text`, `first_choice_text`, `round_lines`, `news_lines`,
  `turn_start_lines` (`turn_start_text`), `turn_end_text` (with `villain_reminder_lines`), `skip_text`,
  `speed_text`, `next_pick_text` (the pick line a turn change ends with, once; `named_in`), `finish_text`.

A turn change is one message: what ended, what began (the round, its Malice), who picks; each creature
named once in it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from bot.replies import inert
from bot.rules.conditions import ConditionInstance, Duration
from bot.rules.encounter import Encounter
from bot.rules.encounter.flow import Finish, Flow
from bot.rules.encounter.harm import SaveResult
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
from bot.ui.combat import dying_warnings, save_reply
from bot.ui.format import grave_state, stamina_text
from exts.tracker._objectives import due_lines, summary_lines, villain_reminder_lines


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
    """The rounds a change outside a turn started (`round_lines`, as a turn's end says them); who picks now
    is the reply's last line (`exts.turn._replies.reply_and_ping`)."""
    started = tuple(RoundStarted(number) for number in news.rounds)
    return round_lines(Flow(encounter, started, malice_gained=news.malice_gained, due=news.due))


def _event_lines(encounter: Encounter, events: Sequence[Event], own: str = "") -> list[str]:
    """What a turn's end (or a pass) set off; a line about `own` (the creature whose turn it was, named
    in the reply's first line already) doesn't name it again, and another creature (a squad's minion) is
    named once for all its conditions that ended, and once for all its saves due; those waiting for the slow
    turns are one line."""
    lines: list[str] = []
    grouped: dict[tuple[str, str], tuple[int, list[str]]] = {}  # (what, creature) -> (its line, labels)

    def group(what: str, creature: str, label: str) -> None:
        if (what, creature) not in grouped:
            grouped[(what, creature)] = (len(lines), [])
            lines.append("")
        grouped[(what, creature)][1].append(label)

    for event in events:
        if isinstance(event, ConditionExpired) and event.reason == "eot":
            group("ended", event.creature, inert(event.custom_text or event.condition.value))
        elif isinstance(event, SaveDue):
            group("save", event.creature, inert(event.custom_text or event.condition.value))
        elif isinstance(event, SpeedChosen) and event.speed is Speed.SLOW:
            group("slow", "", f"**{inert(event.entry)}**")
        elif isinstance(event, SideSkipped):
            lines.append(f"⏭️ {side_does(encounter, event.side, 'skip')} the rest of their turns this round.")
    for (what, creature), (at, labels) in grouped.items():
        said = _listed(labels, "or" if what == "ended" else "and")
        if what == "slow":
            lines[at] = f"{said} {'waits' if len(labels) == 1 else 'wait'} for the slow turns."
        elif what == "ended":
            lines[at] = f"No longer {said}." if creature == own else f"{inert(creature)} is no longer {said}."
        else:
            who = "" if creature == own else f" for {inert(creature)}"
            lines[at] = f"🎲 Save due{who} against {said}: press Save on the tracker (or /save)."
    return lines


def _listed(words: Sequence[str], last: str) -> str:
    """`slowed`, `slowed or dazed`, `slowed, dazed or prone`."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def _verdict(result: SaveResult) -> str:
    label = inert(result.label)
    verdict = f"success, {label} ends" if result.success else "fails (needs 6 or higher)"
    return f"d10 **{result.roll}** — {verdict}"


def _save_lines(results: Sequence[SaveResult], own: str) -> list[str]:
    """The saves the Director's creatures rolled at the end of a turn (`own`'s without its name again;
    another creature's, a squad's minion's, in one line naming it once)."""
    lines: list[str] = []
    line_of: dict[str, int] = {}
    for result in results:
        label = inert(result.label)
        if result.target == own:
            lines.append(f"🎲 Saves against {label}: {_verdict(result)}.")
        elif result.target in line_of:
            at = line_of[result.target]
            lines[at] = f"{lines[at].removesuffix('.')}; against {label}: {_verdict(result)}."
        else:
            line_of[result.target] = len(lines)
            lines.append(save_reply(result))
    return lines


#: Names the pick line lists at most (then "and N more").
PICK_NAMES = 10
#: A hero's conditions the pick line lists at most (then "and N more"; a custom one runs to 60).
PICK_CONDITIONS = 3


def pick_names(encounter: Encounter, named: Collection[str] = ()) -> str:
    """Whom the picking side may pick: each hero with their Stamina and conditions, a monster by name; an
    entry in `named` (the message names it already, e.g. a solo whose first turn just ended) as `the one
    named above` (several: `those named above`, once)."""
    turns = encounter.turns
    pick = picking(turns)
    names: list[str] = []
    above = [e for e in (pick.entries if pick is not None else ()) if e in named]
    for entry_id in pick.entries if pick is not None else ():
        if entry_id in named:
            if entry_id == above[0]:
                names.append("the one named above" if len(above) == 1 else "those named above")
            continue
        entry = turns.entry(entry_id)
        ids = creatures_of(encounter, entry) if entry is not None else ()
        creature = encounter.creature(ids[0]) if len(ids) == 1 else None
        if creature is None or not creature.is_hero:
            names.append(f"**{inert(entry_id)}**")
            continue
        conditions = [condition_text(c) for c in turns.conditions_of(creature.id)]
        if len(conditions) > PICK_CONDITIONS:
            conditions[PICK_CONDITIONS:] = [f"and {len(conditions) - PICK_CONDITIONS} more"]
        details = [stamina_text(creature.vitals), *grave_state(creature.vitals), *conditions]
        names.append(f"**{inert(entry_id)}** ({', '.join(details)})")
    if len(names) > PICK_NAMES:
        names[PICK_NAMES:] = [f"and {len(names) - PICK_NAMES} more"]
    return ", ".join(names)


def named_in(encounter: Encounter, text: str) -> frozenset[str]:
    """The entries the picking side may pick that `text` (a reply's body) names already, as the replies
    name a creature: in bold."""
    pick = picking(encounter.turns)
    return frozenset(e for e in (pick.entries if pick is not None else ()) if f"**{inert(e)}**" in text)


def next_pick_text(encounter: Encounter, named: Collection[str] = ()) -> str:
    """The pick line: who picks now, and whom they may pick ("" when nobody picks). A turn change's reply
    ends with it, once, with the mentions of those pinged in front (`exts.turn._pings`); `named`: the
    entries the reply names already (`named_in`), not named again."""
    turns = encounter.turns
    pick = picking(turns)
    if pick is None:
        return ""
    names = pick_names(encounter, named)
    if turns.mode is Mode.FAST_SLOW:
        part = pick.speed.value if pick.speed is not None else "next"
        who = controller_does(pick.controller, "pick")
        return f"Next: {who} a {part} turn with /turn act: {names}"
    if pick.group is not None:
        return f"Next: group {inert(pick.group)} keeps acting: {names}"
    return f"Next: {side_does(encounter, pick.sides[0], 'pick')} who acts with /turn act: {names}"


def begin_text(flow: Flow) -> str:
    """The start of combat: the d10 (and who chooses), or the first round (who picks then follows, as at a
    turn's end)."""
    lines = []
    if flow.malice_carried:
        lines.append(
            f"😈 The Director starts with {flow.malice_carried} Malice carried over from the montage."
        )
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
    return "\n".join(lines)


def turn_start_lines(
    encounter: Encounter,
    entry_id: str,
    gains: Sequence[tuple[str, int]] = (),
    resource_names: Mapping[str, str] | None = None,
) -> list[str]:
    """Start of a turn, a line each: who acts (and the round), their conditions, saves due, heroic resource
    gained, what they may not do now (nothing at a fresh turn). Each creature is named once."""
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
        what = inert((resource_names or {}).get(hero, "heroic resource"))
        lines.append(
            f"Gains {amount} {what} (now {value})."
            if hero == entry_id
            else f"{inert(hero)} gains {amount} {what} (now {value})."
        )
    lines += dying_warnings(encounter, ids, named=entry_id)
    unavailable = budget(turns, entry_id).summary
    if unavailable:
        lines.append(inert(unavailable))
    return lines


def turn_start_text(
    encounter: Encounter,
    entry_id: str,
    gains: Sequence[tuple[str, int]] = (),
    resource_names: Mapping[str, str] | None = None,
) -> str:
    """`turn_start_lines`, one message."""
    return "\n".join(turn_start_lines(encounter, entry_id, gains, resource_names))


def turn_end_text(entry_id: str, flow: Flow, rolled: Sequence[SaveResult] = ()) -> str:
    """End of a turn: whose, what it set off (conditions ended, saves due or rolled), the rounds it started;
    who picks next is the reply's last line (`exts.turn._replies.reply_and_ping`)."""
    lines = [f"⏹️ **{inert(entry_id)}**'s turn ends."]
    lines += villain_reminder_lines(flow)
    lines += _save_lines(rolled, entry_id)
    lines += _event_lines(flow.encounter, flow.events, entry_id)
    lines += round_lines(flow)
    return "\n".join(lines)


def skip_text(flow: Flow, entry_id: str = "", rolled: Sequence[SaveResult] = ()) -> str:
    """A pass: `entry_id`'s turn (or, without one, a side's turns), what it set off, the rounds it started."""
    lines = [f"⏭️ **{inert(entry_id)}** passes their turn."] if entry_id else []
    lines += villain_reminder_lines(flow)
    lines += _save_lines(rolled, entry_id)
    lines += _event_lines(flow.encounter, flow.events, entry_id) + round_lines(flow)
    if not lines and picking(flow.encounter.turns) is None:
        return "Nothing to skip."
    return "\n".join(lines)


def speed_text(entry_id: str, speed: Speed, flow: Flow) -> str:
    """/turn speed (Shadow of the Demon Lord, Combat, "Fast Turns", "Slow Turns"): the choice, then what
    follows."""
    if speed is Speed.FAST:
        head = f"⏩ **{inert(entry_id)}** takes a fast turn this round: an action or a move."
    else:
        head = f"🐢 **{inert(entry_id)}** takes a slow turn this round: an action and a move, later."
    rest = [e for e in flow.events if not isinstance(e, SpeedChosen)]
    return "\n".join([head, *_event_lines(flow.encounter, rest), *round_lines(flow)])


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
