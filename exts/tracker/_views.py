"""The tracker embed: one message per encounter showing the round, who picks now, who has acted, every
creature's Stamina and conditions, minion squads, groups, hero tokens and Malice.

Pure functions from state to `discord.Embed` (no Discord I/O): `render_tracker` for a running encounter,
`render_final` for the summary it becomes when the encounter ends. What it shows follows the rules texts
(each function cites its own); every user-supplied name goes through `bot.replies.inert`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import discord

from bot.embeds import FIELD_VALUE_MAX, FIELDS_MAX, TOTAL_MAX, Colour, Field, make_embed
from bot.replies import inert
from bot.rules.conditions import ConditionInstance, Duration
from bot.rules.creature import Creature
from bot.rules.encounter import Encounter, UnknownCreature
from bot.rules.squads import Squad
from bot.rules.turns import (
    Controller,
    Entry,
    EntryKind,
    Phase,
    Side,
    TurnState,
    acted,
    current,
    fast_slow_part,
    picking,
    remaining_turns,
    turns_taken,
)
from bot.ui.combat import baseline_words
from bot.ui.format import bar, hidden_stamina, stamina_numbers, stamina_text, state_label
from exts.tracker._objectives import objectives_field, tracker_fields

#: Detail levels, most detailed first: 0 = bar + `Stamina: 12/30` + conditions with durations;
#: 1 = `Stamina: 12/30` + conditions with short durations; 2 = `12/30` and condition names only (a hidden
#: healthy monster shows no state); 3 = the same with names cut to `SHORT_NAME` characters (a hundred
#: creatures with 64-character names still fit); 4 = conditions only counted (`3 conditions`).
DETAIL_LEVELS = (0, 1, 2, 3, 4)
SHORT_NAME = 20
#: Most names listed after "May act:" (the rest are counted).
MAY_ACT_SHOWN = 6
#: Room kept free under Discord's 6,000-character embed limit (field separators, safety).
BUDGET = TOTAL_MAX - 200

ACTING = "▶️"
ACTED = "✅"
WAITING = "⬜"
OUT = "💀"
DOWN = "💤"

DURATION_LONG: dict[Duration, str] = {
    Duration.EOT: "EoT",
    Duration.END_OF_FIRST_ROUND: "end of round 1",
    Duration.SAVE: "save ends",
    Duration.ENCOUNTER: "this encounter",
    Duration.UNTIL_REMOVED: "until removed",
}
DURATION_SHORT: dict[Duration, str] = {
    Duration.EOT: "EoT",
    Duration.END_OF_FIRST_ROUND: "R1",
    Duration.SAVE: "save",
    Duration.ENCOUNTER: "enc",
    Duration.UNTIL_REMOVED: "",
}


@dataclass(frozen=True, slots=True)
class TrackerView:
    """What the tracker shows besides the encounter itself: its name, the party's hero tokens, whether
    Director creatures' exact Stamina is public, a footer note (none on the channel's tracker: the state
    version is in the controls' custom ids, where a press needs it, not in the players' view; a private view
    may say it is private), whether it is the Director's `private` view (which adds what only the Director
    sees: the villain actions, `exts.tracker._objectives.tracker_fields`), and `resource_names` what each
    roster hero's heroic resource is called (creature id -> "Ferocity"; else "heroic resource")."""

    name: str
    tokens: int
    show_monster_stamina: bool = False
    note: str = ""
    private: bool = False
    resource_names: Mapping[str, str] = field(default_factory=dict)


# --- small pieces ------------------------------------------------------------------------------------------
def name_text(name: str, level: int = 0) -> str:
    """A user-supplied name made inert; at the tersest level cut to `SHORT_NAME` characters in the middle, so
    numbered names stay apart (`Gloomfang Rav…ains 12`)."""
    if level >= 3 and len(name) > SHORT_NAME:
        tail = SHORT_NAME // 2
        name = name[: SHORT_NAME - tail - 1] + "…" + name[-tail:]
    return inert(name)


def source_text(source: str) -> str:
    """A condition's source, cut in the middle when long (`Sir Bartholomew…the Bold`): a source is shown on
    each creature it touched."""
    return name_text(source, 3)


def condition_text(instance: ConditionInstance, level: int = 0, *, source: bool = True) -> str:
    """A condition and its duration (Draw Steel, Combat, "Conditions"): `frightened (Ogre, save ends)` at
    level 0, `frightened (save)` at 1, `frightened` at 2; without `source`, no source (`conditions_text` says
    it once for several)."""
    label = name_text(instance.label, level)
    if level >= 2:
        return label
    parts: list[str] = []
    if instance.source_id and level == 0 and source:
        parts.append(source_text(instance.source_id))
    duration = (DURATION_LONG if level == 0 else DURATION_SHORT)[instance.duration]
    if duration:
        parts.append(duration)
    return f"{label} ({', '.join(parts)})" if parts else label


def conditions_text(conditions: Sequence[ConditionInstance], level: int = 0) -> str:
    """The conditions, each with `condition_text`; at level 4 only how many (`2 conditions`). A source that
    gave several is said once, after them: `dazed (save ends), slowed (EoT) — by Ogre`."""
    if level >= 4 and len(conditions) > 1:
        return f"{len(conditions)} conditions"
    if level > 0:
        return ", ".join(condition_text(c, level) for c in conditions)
    counts = Counter(c.source_id for c in conditions if c.source_id)
    shared = {s for s, n in counts.items() if n > 1}
    alone = [condition_text(c) for c in conditions if c.source_id not in shared]
    groups = [
        ", ".join(condition_text(c, source=False) for c in conditions if c.source_id == s)
        + f" — by {source_text(s)}"
        for s in dict.fromkeys(
            c.source_id for c in conditions if c.source_id is not None and c.source_id in shared
        )
    ]
    return "; ".join(g for g in (", ".join(alone), *groups) if g)


def _vitals_part(creature: Creature, hidden: bool, level: int) -> str:
    """Stamina as `Stamina: 12/30` with a bar (`bot.ui.format`), and the winded / dying / dead state
    (Draw Steel, Combat, "Stamina"). A `hidden` creature (a Director creature, unless the guild's
    `show_monster_stamina` setting is on) shows only its state (`winded`)."""
    vitals = creature.vitals
    state = state_label(vitals)
    if hidden:
        return "" if level >= 2 and state == "healthy" else state
    if level == 0:
        text = f"{bar(vitals.stamina, vitals.max_stamina)} {stamina_text(vitals)}"
    elif level == 1:
        text = stamina_text(vitals)
    else:
        text = stamina_numbers(vitals)
    return text if state == "healthy" else f"{text} {state}"


def _marker(state: TurnState, entry: Entry, out: bool) -> str:
    if out or entry.dead:
        return OUT
    now = current(state)
    if now is not None and now.entry == entry.id and not now.ended:
        return ACTING
    if entry.unconscious:
        return DOWN
    if state.phase is Phase.IN_ROUND and acted(state, entry.id):
        if remaining_turns(state, entry) == 0 or entry.turns_per_round < 2:
            return ACTED
        # a solo with a turn left: `✅1/2`
        return f"{ACTED}{turns_taken(state, entry.id)}/{entry.turns_per_round}"
    return WAITING


def _status_word(marker: str, level: int) -> str:
    """The marker in words at the detailed levels (` acting`, ` acted`, ` acted 1/2`), for screen readers and
    searches; nothing at the terse levels."""
    if level > 1:
        return ""
    if marker == ACTING:
        return " (acting)"
    if marker.startswith(ACTED):
        return f" (acted {marker[len(ACTED) :]})".replace(" )", ")")
    return ""


def _extras(encounter: Encounter, creature: Creature, resource_names: Mapping[str, str]) -> list[str]:
    """Surges, the heroic resource, and a Defend or Aid Attack while it lasts (Draw Steel, Combat, "Defend",
    "Aid Attack")."""
    extras: list[str] = []
    surges = encounter.surges.get(creature.id, 0)
    if surges:
        extras.append(f"{surges} surge{'s' if surges != 1 else ''}")
    resource = encounter.resources.get(creature.id, 0)
    if resource:  # the class's own word: "Ferocity 13"
        extras.append(f"{inert(resource_names.get(creature.id, 'heroic resource'))} {resource}")
    extras.extend(baseline_words(encounter, creature.id))  # Defend, Aid Attack while they last
    return extras


def creature_line(
    encounter: Encounter,
    entry: Entry,
    creature: Creature,
    hidden: bool,
    level: int,
    indent: str = "",
    resource_names: Mapping[str, str] | None = None,
) -> str:
    """One creature: marker, name, Stamina (or its state only), conditions, surges and resource."""
    state = encounter.turns
    out = creature.vitals.dead
    marker = _marker(state, entry, out)
    parts = [
        f"{indent}{marker} **{name_text(creature.name, level)}**{_status_word(marker, level)}",
        _vitals_part(creature, hidden, level),
    ]
    line = " ".join(part for part in parts if part)
    conditions = state.conditions_of(creature.id)
    extras = [conditions_text(conditions, level)] if conditions else []
    if creature.vitals.dying:  # Draw Steel, Combat, "Dying and Death": "Additionally, you are bleeding"
        extras.insert(0, "bleeding" if level >= 2 else "bleeding (while dying)")
    if level < 2:
        extras += _extras(encounter, creature, resource_names or {})
    if extras:
        line += " · " + " · ".join(extras)
    return line


def squad_line(
    encounter: Encounter, entry: Entry, squad: Squad, hidden: bool, level: int, indent: str = ""
) -> list[str]:
    """A minion squad (Monsters, "Minions"): marker, name, minions alive, the shared pool (unless hidden),
    conditions; at level 0 the living minions' names on a second line, each with its own conditions
    (`Minion 2 (slowed (EoT))`); at terser levels the minions' conditions are summed up on the squad's line,
    each once."""
    state = encounter.turns
    total = len(squad.alive) + len(squad.dead)
    out = not squad.alive
    name = name_text(entry.name or entry.id, level)
    marker = _marker(state, entry, out)
    head = f"{indent}{marker} **{name}**{_status_word(marker, level)} squad {len(squad.alive)}/{total} alive"
    if not hidden:
        maximum = squad.minion_stamina * total
        if level == 0:
            head += f" · {bar(squad.pool, maximum)} Stamina: {squad.pool}/{maximum}"
        else:
            head += f" · {squad.pool}/{maximum}"
    own = list(state.conditions_of(entry.id))
    if level > 0:
        seen = {(c.label, c.duration) for c in own}
        for minion in squad.alive:
            for condition in state.conditions_of(minion):
                if (condition.label, condition.duration) not in seen:
                    seen.add((condition.label, condition.duration))
                    own.append(condition)
    if own:
        head += " · " + conditions_text(own, level)
    lines = [head]
    if level == 0 and squad.alive:
        members = []
        for minion in squad.alive:
            conditions = state.conditions_of(minion)
            text = inert(minion)
            members.append(f"{text} ({conditions_text(conditions, 0)})" if conditions else text)
        lines.append(f"{indent}  ↳ " + ", ".join(members))
    return lines


def _entry_lines(
    encounter: Encounter,
    entry: Entry,
    hidden_ids: frozenset[str],
    level: int,
    indent: str,
    resource_names: Mapping[str, str],
) -> list[str]:
    hidden = entry.id in hidden_ids
    if entry.kind is EntryKind.SQUAD:
        squad = encounter.squad(entry.id)
        if squad is not None:
            return squad_line(encounter, entry, squad, hidden, level, indent)
    try:
        creature = encounter.creature(entry.id)
    except UnknownCreature:  # an entry without a creature record: show its name only
        return [f"{indent}{_marker(encounter.turns, entry, False)} **{inert(entry.name or entry.id)}**"]
    return [creature_line(encounter, entry, creature, hidden, level, indent, resource_names)]


def side_lines(encounter: Encounter, side: Side, view: TrackerView, level: int) -> list[str]:
    """A side's entries in order, an enemy group's members together under the group's name
    (Draw Steel, Combat, "Enemies Act In Groups")."""
    lines: list[str] = []
    entries = [e for e in encounter.turns.entries if e.side == side.id]
    hidden_ids = hidden_stamina(encounter, view.show_monster_stamina)
    seen_groups: set[str] = set()
    for entry in entries:
        if entry.group is None:
            lines += _entry_lines(encounter, entry, hidden_ids, level, "", view.resource_names)
            continue
        if entry.group in seen_groups:
            continue
        seen_groups.add(entry.group)
        members = [e for e in entries if e.group == entry.group]
        lines.append(f"__Group {name_text(entry.group, level)}__")
        for member in members:
            lines += _entry_lines(encounter, member, hidden_ids, level, "  ", view.resource_names)
    return lines


def _chunks(title: str, lines: Iterable[str]) -> list[Field]:
    """Fields of at most 1,024 characters, the side's name on the first and `(cont.)` on the rest."""
    fields: list[Field] = []
    chunk: list[str] = []
    size = 0
    for line in lines:
        line = line if len(line) <= FIELD_VALUE_MAX else line[: FIELD_VALUE_MAX - 1] + "…"
        if chunk and size + len(line) + 1 > FIELD_VALUE_MAX:
            fields.append(Field(title if not fields else f"{title} (cont.)", "\n".join(chunk)))
            chunk, size = [], 0
        chunk.append(line)
        size += len(line) + 1
    if chunk or not fields:
        fields.append(Field(title if not fields else f"{title} (cont.)", "\n".join(chunk) or "—"))
    return fields


def _side_name(side: Side) -> str:
    return inert(side.name or side.id)


def status_lines(encounter: Encounter, view: TrackerView) -> list[str]:
    """The round, who acts or picks now (and the fast/slow part), hero tokens and Malice.

    The round and the side that picks follow Draw Steel, Combat, "Taking Turns"; Teams Combat, "Initiative
    and Rounds"; and Shadow of the Demon Lord, Combat, "Anatomy of a Round" (the fast or slow part)."""
    state = encounter.turns
    lines: list[str] = []
    if state.phase is Phase.SETUP:
        lines.append("**Setting up** · the fight has not started yet")
    elif state.phase is Phase.ENDED:
        lines.append(f"**Ended** after round {state.round}")
    elif state.round == 0:
        lines.append("**Surprise round**")  # Teams Combat, "Surprise": round 0 belongs to those not surprised
    else:
        lines.append(f"**Round {state.round}**")
    now = current(state)
    if now is not None and not now.ended:
        acting = state.entry(now.entry)
        name = inert(acting.name or acting.id) if acting is not None else inert(now.entry)
        lines.append(f"{ACTING} **Acting: {name}**")
    elif state.phase is Phase.IN_ROUND:
        pick = picking(state)
        part = fast_slow_part(state)
        part_text = f" ({part.value} part)" if part is not None else ""
        if pick is None:
            lines.append(f"Nobody can act{part_text}: the round is over")
        else:
            names = (
                ", ".join(_side_name(s) for s in state.sides if s.id in pick.sides) or pick.controller.value
            )
            group = f" (group {inert(pick.group)})" if pick.group else ""
            lines.append(f"**Picks now: {names}**{group}{part_text}")
            if pick.entries:
                lines.append(f"May act: {_few(state, pick.entries)}")
    elif state.phase is Phase.BETWEEN_ROUNDS:
        # the next round starts by itself once somebody can act (bot.rules.encounter.rounds)
        lines.append(
            f"Round {state.round} is over and nobody can act: bring a creature back or add one, "
            "or end the encounter"
        )
    lines.append(f"**Hero tokens: {view.tokens} · Malice: {encounter.malice.value}**")
    return lines


def _few(state: TurnState, entry_ids: Sequence[str], most: int = MAY_ACT_SHOWN) -> str:
    """`Ash, Bree` or `Goblin 1, …, Goblin 6 and 12 more` (entries' names, inert)."""
    names = []
    for entry_id in entry_ids[:most]:
        entry = state.entry(entry_id)
        names.append(inert(entry.name or entry.id) if entry is not None else inert(entry_id))
    more = len(entry_ids) - most
    return ", ".join(names) + (f" and {more} more" if more > 0 else "")


LEGEND = f"{ACTING} acting · {ACTED} acted · {WAITING} waiting · {DOWN} unconscious · {OUT} dead"


def _fields(encounter: Encounter, view: TrackerView, level: int) -> list[Field]:
    """The Director's objectives with their round counters and, on the Director's private view only, the
    leaders' and solos' villain actions (`exts.tracker._objectives`); then each side."""
    fields: list[Field] = tracker_fields(encounter, view.private)  # objectives (and villain actions) first
    for side in encounter.turns.sides:
        entries = [e for e in encounter.turns.entries if e.side == side.id]
        title = f"{_side_name(side)} ({len(entries)})"
        fields += _chunks(title, side_lines(encounter, side, view, level))
    return fields


def _size(title: str, description: str, fields: Sequence[Field], footer: str) -> int:
    return len(title) + len(description) + len(footer) + sum(len(f.name) + len(f.value) for f in fields)


def render_tracker(encounter: Encounter, view: TrackerView) -> discord.Embed:
    """The live tracker of a running encounter (the most detailed layout that fits Discord's limits).

    Built with `bot.embeds.make_embed`, so it never breaks Discord's limits (6,000 characters, 25 fields of
    1,024); to stay readable with 40 to 100 creatures it is grouped by side, one compact line per entry, and
    steps down to terser lines (`DETAIL_LEVELS`) until everything fits, instead of cutting creatures off."""
    title = f"⚔️ {inert(view.name)}"
    description = "\n".join([*status_lines(encounter, view), "", LEGEND])
    colour = Colour.INFO
    pick = picking(encounter.turns)
    if pick is not None:
        colour = Colour.HEROES if pick.controller is Controller.PLAYERS else Colour.DIRECTOR
    fields: list[Field] = []
    for level in DETAIL_LEVELS:
        fields = _fields(encounter, view, level)
        if len(fields) <= FIELDS_MAX and _size(title, description, fields, view.note) <= BUDGET:
            break
    return make_embed(title, description, colour=colour, fields=fields, footer=view.note or None)


def _final_lines(encounter: Encounter, side: Side, view: TrackerView, level: int) -> list[str]:
    """A side at the end: who is still standing (with Stamina or state) and who fell."""
    standing: list[str] = []
    fallen: list[str] = []
    side_of = {c: e.side for e in encounter.turns.entries for c in e.creature_ids}
    hidden_ids = hidden_stamina(encounter, view.show_monster_stamina)
    for creature in encounter.creatures:
        if side_of.get(creature.id) != side.id:
            continue
        name = name_text(creature.name, level)
        if creature.squad_id is not None:
            squad = encounter.squad(creature.squad_id)
            (standing if squad is not None and creature.id in squad.alive else fallen).append(name)
        elif creature.vitals.dead:
            fallen.append(name)
        else:
            standing.append(f"{name} ({_vitals_part(creature, creature.id in hidden_ids, max(level, 1))})")
    lines = [f"🛡️ {name}" for name in standing] + [f"{OUT} {name}" for name in fallen]
    return lines or ["—"]


def render_final(encounter: Encounter, view: TrackerView) -> discord.Embed:
    """What the tracker becomes when the encounter ends: the rounds fought, who is still standing (🛡️) and
    who fell (💀) on each side, hero tokens and Malice; no controls."""
    rounds = encounter.turns.round
    description = "\n".join(
        [
            f"**Encounter over** after {rounds} round{'s' if rounds != 1 else ''}.",
            f"**Hero tokens: {view.tokens} · Malice: {encounter.malice.value}**",
        ]
    )
    title = f"🏁 {inert(view.name)}"
    fields: list[Field] = []
    objectives = objectives_field(encounter)
    for level in (1, 3):
        fields = [objectives] if objectives is not None else []
        for side in encounter.turns.sides:
            fields += _chunks(_side_name(side), _final_lines(encounter, side, view, level))
        if len(fields) <= FIELDS_MAX and _size(title, description, fields, view.note) <= BUDGET:
            break
    return make_embed(title, description, colour=Colour.NEUTRAL, fields=fields, footer=view.note or None)
