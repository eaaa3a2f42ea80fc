"""The server bestiary's replies: a stat block as an embed (`/monster show`), the bestiary's list
(`/monster list`), what an import stored, and what a bestiary brought into an encounter.

Every text from a stat block (names, keywords, ability cards, traits) came from an upload or a Director's
typing, so each goes through `bot.replies.inert`. Tier texts are shown as written on the card.

Public API: `monster_embed(monster)`, `bestiary_embed(entries)`, `stocked_text(stocked, group=)`,
`brought_text(brought, side_label)`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord

from bot.content.bestiary import Brought
from bot.content.monster import Monster
from bot.embeds import Colour, Field, clamp, make_embed
from bot.replies import inert
from bot.rules.ability import Ability, ActionType
from bot.rules.characteristics import Characteristic
from bot.rules.damage import DamageType
from bot.store.bestiary import MONSTERS_MAX, MonsterEntry, Stocked
from exts.heroes._abilities_views import ACTION_LABELS

#: Longest effect or trait text shown in a stat block's embed (the embed has 6,000 characters in all).
TEXT_SHOWN = 300
_TIERS = ("≤11", "12-16", "17+")


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def _ability_field(monster: Monster, ability: Ability) -> Field:
    cost = f" · {ability.cost} Malice" if ability.cost else (" · Signature" if ability.signature else "")
    lines = [" · ".join(p for p in (inert(", ".join(ability.keywords)), inert(ability.distance)) if p)]
    if ability.target:
        lines.append(f"Target: {inert(ability.target)}")
    if ability.trigger:
        lines.append(f"Trigger: {inert(clamp(ability.trigger, TEXT_SHOWN))}")
    roll = ability.power_roll
    if roll is not None:
        scores = [monster.characteristics.get(c) for c in roll.characteristics]
        lines.append(f"Power Roll {_signed(roll.bonus + max(scores, default=0))}")
        lines += [f"**{band}** {inert(text)}" for band, text in zip(_TIERS, roll.tiers, strict=True)]
    if ability.effect:
        lines.append(inert(clamp(" ".join(ability.effect.split()), TEXT_SHOWN)))
    title = f"{inert(ability.name)} ({ACTION_LABELS[ability.action]}{cost})"
    return Field(title, "\n".join(line for line in lines if line))


def monster_embed(monster: Monster) -> discord.Embed:
    """A stat block: its header, numbers, immunities and weaknesses, abilities (villain actions last) and
    traits; what doesn't fit Discord's embed is cut (`make_embed` says how many fields)."""
    header = [monster.description]
    if monster.group:
        header.append(f"Group: {inert(monster.group)}")
    if monster.keywords:
        header.append(inert(", ".join(monster.keywords)))
    if monster.encounter_value:
        header.append(f"EV {monster.encounter_value}")
    moves = f" ({inert(', '.join(monster.movement))})" if monster.movement else ""
    kind = "" if monster.free_strike_type is DamageType.UNTYPED else f" {monster.free_strike_type.value}"
    numbers = [
        f"**Stamina** {monster.stamina} · **Speed** {monster.speed}{moves} · "
        f"**Size** {inert(monster.size)} · **Stability** {monster.stability} · "
        f"**Free Strike** {monster.free_strike}{kind}",
        "**Characteristics** "
        + " ".join(f"{c.letter} {_signed(monster.characteristics.get(c))}" for c in Characteristic),
    ]
    if monster.modifiers.immunities or monster.modifiers.weaknesses:
        numbers.append(inert(monster.modifiers.format()))
    if monster.condition_immunities:
        numbers.append(f"Can't be {inert(', '.join(monster.condition_immunities))}")
    ordered = sorted(monster.abilities, key=lambda a: a.action is ActionType.VILLAIN)
    fields = [_ability_field(monster, a) for a in ordered]
    fields += [
        Field(inert(t.name), inert(clamp(" ".join(t.text.split()), TEXT_SHOWN)))
        for t in monster.traits
        if " ".join(t.text.split())
    ]
    return make_embed(
        inert(monster.name),
        " · ".join(header) + "\n" + "\n".join(numbers),
        colour=Colour.DIRECTOR,
        fields=fields,
    )


def bestiary_embed(entries: Sequence[MonsterEntry]) -> discord.Embed:
    """The server's bestiary by group (monsters without a group last)."""
    if not entries:
        return make_embed(
            "Bestiary",
            "No monsters yet: a server Director adds them with /monster import or /monster add.",
            colour=Colour.NEUTRAL,
        )
    groups: dict[str, list[str]] = {}
    for entry in entries:
        groups.setdefault(entry.group, []).append(inert(entry.name))
    named = [Field(inert(g), ", ".join(names)) for g, names in groups.items() if g]
    if "" in groups:
        named.append(Field("Other monsters", ", ".join(groups[""])))
    return make_embed(
        "Bestiary",
        None,
        colour=Colour.DIRECTOR,
        fields=named,
        footer=f"{len(entries)} of {MONSTERS_MAX} monsters · /monster show for a stat block",
    )


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(inert(n) for n in names[:10])
    return shown + (f" and {len(names) - 10} more" if len(names) > 10 else "")


def stocked_text(stocked: Stocked, group: str = "") -> str:
    """What an import or `/monster add` stored: "📖 Added to the bestiary (Goblin): …; updated: …"."""
    where = f" ({inert(group)})" if group else ""
    parts = []
    if stocked.added:
        parts.append(f"added {_names(stocked.added)}")
    if stocked.updated:
        parts.append(f"updated {_names(stocked.updated)}")
    return f"📖 Bestiary{where}: " + "; ".join(parts) + "."


def _own_names(monster: str, names: Sequence[str]) -> bool:
    """Whether the creatures carry the monster's own name ("Goblin", "Goblin 2"): then naming the stat block
    again after them says nothing."""
    return all(n == monster or re.fullmatch(re.escape(monster) + r" \d+", n) for n in names)


def brought_text(brought: Sequence[Brought], side_label: str) -> str:
    """What `/encounter add monster:` or `/encounter import` brought in, one line per monster (the stat
    block named only when the creatures took another name); one monster's line says where it joined."""
    lines = []
    for one in brought:
        names = one.names
        shown = ", ".join(inert(n) for n in names)
        if len(names) > 5:
            shown = f"{inert(names[0])}..{inert(names[-1])}"
        squad = f" as the squad **{inert(one.squad)}**" if one.squad else ""
        block = "" if _own_names(one.monster, names) else f" ({inert(one.monster)})"
        lines.append(f"➕ {shown}{squad}{block}")
    if len(lines) == 1:
        return f"{lines[0]} joined {side_label}."
    return "\n".join(lines) + f"\njoined {side_label}."
