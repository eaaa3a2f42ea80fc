"""My hero: one card, seen only by you, for a player arriving late: for each creature you control in this
channel's encounter, what happened to it since its last turn (the encounter's log as players see it), its
Stamina, conditions and heroic resource, and what it may do now (its turn, the abilities its resource
affords, whether it is dying). `/hero me` and the tracker's My hero button (`enc:me`) show it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.client import DrawSteelBot
from bot.embeds import Colour, make_embed
from bot.in_time import InTime
from bot.play import TOUCHED, TURN_ENDED, channel_key, encounter_of, resource_names
from bot.replies import fail, inert, send
from bot.rules.creature import Creature
from bot.rules.encounter import Encounter
from bot.rules.turns import Phase, acted, current
from bot.store import Event
from bot.ui.format import hidden_stamina, players_view, stamina_text, state_label
from exts.tracker._views import conditions_text

#: Log lines shown per creature (the newest; the rest are counted).
EVENTS_SHOWN = 8
#: Ability names listed per kind (the rest are counted).
ABILITIES_SHOWN = 10


async def show_my_hero(interaction: discord.Interaction[Any], bot: DrawSteelBot) -> None:
    """The card for the member who asked, ephemeral; one line saying what to do when they control nobody in
    the encounter."""
    in_time = InTime(interaction)
    key = channel_key(interaction)
    table = await in_time.run(bot.store.view(key, shared=True))
    doc = table.require_encounter()
    encounter = encounter_of(table)
    mine = [c for c in encounter.creatures if c.owner_id == interaction.user.id and c.squad_id is None]
    if not mine:
        fail("You have no creature in this encounter: bring your hero in with /encounter hero.")
    settings = await in_time.run(bot.store.get_settings(key.guild_id))
    events: list[Event] = []
    if doc.id is not None:
        events = await in_time.run(bot.store.events(doc.id, guild_id=key.guild_id))
    seen: Callable[[Event], Event] = (lambda e: e) if settings.show_monster_stamina else players_view(events)
    hidden = hidden_stamina(encounter, settings.show_monster_stamina)
    names = resource_names(table, encounter)
    parts = [creature_card(encounter, c, [seen(e) for e in events], names.get(c.id), hidden) for c in mine]
    title = f"🛡️ My hero: {mine[0].name}" if len(mine) == 1 else "🛡️ My creatures"
    embed = make_embed(title, "\n\n".join(parts), colour=Colour.INFO)
    await send(interaction, embed=embed, ephemeral=True)


def since_last_turn(events: Sequence[Event], creature_id: str) -> list[Event]:
    """The events that touched the creature after its last turn ended (all of them if it has had none),
    leaving out undone changes and the undos."""
    start = 0
    for index, event in enumerate(events):
        if creature_id in _ids(event, TURN_ENDED):
            start = index + 1
    return [
        e
        for e in events[start:]
        if creature_id in _ids(e, TOUCHED) and e.undone_by is None and e.undoes is None
    ]


def _ids(event: Event, key: str) -> list[str]:
    found = event.details.get(key)
    return [str(i) for i in found] if isinstance(found, list) else []


def creature_card(
    encounter: Encounter,
    creature: Creature,
    events: Sequence[Event],
    resource: str | None,
    hidden: frozenset[str],
) -> str:
    """One creature's part of the card: its state, what happened since its last turn, what it may do."""
    lines = [f"**{inert(creature.name)}** · {_vitals(creature, hidden)}"]
    conditions = encounter.turns.conditions_of(creature.id)
    if conditions:
        lines.append(f"Conditions: {conditions_text(conditions)}")
    lines += _resources(encounter, creature, resource)
    happened = since_last_turn(events, creature.id)
    if happened:
        lines.append(f"__Since your last turn__ ({len(happened)}):")
        earlier = len(happened) - EVENTS_SHOWN
        if earlier > 0:
            lines.append(f"… {earlier} earlier")
        lines += [f"• {inert(e.summary)}" for e in happened[-EVENTS_SHOWN:]]
    else:
        lines.append("__Since your last turn__: nothing has happened to you.")
    lines.append(f"__Now__: {_turn_words(encounter, creature)}")
    lines += _ability_lines(encounter, creature, resource)
    if creature.vitals.dying:
        lines.append(
            "💀 **Dying**: you are bleeding and can't Catch Breath; you can still act, and an ally's Heal "
            f"lets you spend a Recovery. You die at -{creature.vitals.winded_value} Stamina."
        )
    return "\n".join(lines)


def _vitals(creature: Creature, hidden: frozenset[str]) -> str:
    vitals = creature.vitals
    state = state_label(vitals)
    if creature.id in hidden:
        return state
    text = stamina_text(vitals) + ("" if state == "healthy" else f" ({state})")
    if creature.is_hero:
        text += f" · Recoveries {vitals.recoveries}/{vitals.max_recoveries}"
    return text


def _resources(encounter: Encounter, creature: Creature, resource: str | None) -> list[str]:
    parts = []
    if creature.is_hero:
        parts.append(f"{inert(resource or 'heroic resource')}: {encounter.resources.get(creature.id, 0)}")
    surges = encounter.surges.get(creature.id, 0)
    if surges:
        parts.append(f"surges: {surges}")
    return [" · ".join(parts)] if parts else []


def _turn_words(encounter: Encounter, creature: Creature) -> str:
    turns = encounter.turns
    if creature.vitals.dead:
        return "dead."
    if turns.phase is not Phase.IN_ROUND:
        return "the encounter waits between rounds or to begin."
    entry = encounter.entry_of(creature.id)
    turn = current(turns)
    if turn is not None and turn.entry == entry.id:
        return "it's your turn."
    if acted(turns, entry.id):
        return "you have acted this round."
    return "your turn is still to come this round."


def _listed(names: Sequence[str]) -> str:
    shown = ", ".join(names[:ABILITIES_SHOWN])
    more = len(names) - ABILITIES_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def _ability_lines(encounter: Encounter, creature: Creature, resource: str | None) -> list[str]:
    """The creature's own abilities: the free ones, those its heroic resource affords now, those it doesn't
    yet (a Director creature's costs are Malice: listed without a judgement)."""
    own = creature.abilities
    if not own:
        return []
    if not creature.is_hero:
        return [f"Abilities: {_listed([inert(a.name) for a in own])}"]
    value = encounter.resources.get(creature.id, 0)
    word = inert(resource or "heroic resource")
    free = [inert(a.name) for a in own if a.cost == 0]
    afford = [f"{inert(a.name)} ({a.cost})" for a in own if 0 < a.cost <= value]
    dear = [f"{inert(a.name)} ({a.cost})" for a in own if a.cost > value]
    lines = [f"You can use: {_listed(free)}"] if free else []
    if afford:
        lines.append(f"Your {word} affords: {_listed(afford)}")
    if dear:
        lines.append(f"Not yet ({value} {word}): {_listed(dear)}")
    return lines
