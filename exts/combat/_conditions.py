"""Conditions and saving throws (/condition add | remove, /save), through `bot.rules.encounter.harm` and
`bot.rules.encounter.saves`. Who may: the Director, anything; a player imposes a condition while they control
a creature in the encounter (their abilities impose conditions), and removes one from, or rolls a save for,
only the creatures they control. A hero's failed save carries the hero-token button.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot import autocomplete
from bot.client import BotCog, DrawSteelBot
from bot.help import guild_group
from bot.options import CONDITION_CHOICES, SuggestedText, read_condition
from bot.permissions import Refused, controls
from bot.play import Caller, play
from bot.replies import fail, inert, send
from bot.rules.conditions import ConditionInstance, Duration
from bot.rules.encounter import Encounter, harm, saves
from bot.rules.encounter.harm import SaveResult
from bot.store import Table
from bot.ui.combat import DURATION_TEXT, condition_reply, save_summary
from exts.combat._stamina import NAME_TEXT_MAX, Name, guard
from exts.turn._replies import send_saves

SourceName = app_commands.Transform[
    str, SuggestedText("source's name", NAME_TEXT_MAX, autocomplete.creatures)
]
DURATIONS = [Duration.EOT, Duration.SAVE, Duration.ENCOUNTER, Duration.UNTIL_REMOVED]
DURATION_CHOICES = [
    app_commands.Choice(name=f"{d.value}: {DURATION_TEXT[d]}", value=d.value) for d in DURATIONS
]


def read_duration(text: str | None) -> Duration:
    key = (text or Duration.UNTIL_REMOVED.value).strip().lower()
    duration = next((d for d in DURATIONS if d.value == key), None)
    if duration is None:
        fail("Pick a duration: eot, save, encounter or until-removed.")
    return duration


@dataclass(frozen=True, slots=True)
class Added:
    """A condition imposed on a creature (None: it already had it)."""

    creature_id: str
    added: ConditionInstance | None


class Conditions(BotCog):
    """Conditions and saving throws (/condition, /save)."""

    condition = guild_group(
        "condition",
        "Impose or end conditions.",
        "/condition add target: Ogre condition: slowed duration: save",
        "Conditions.",
    )

    @condition.command(name="add", description="Impose a condition on a creature.")
    @app_commands.choices(condition=CONDITION_CHOICES, duration=DURATION_CHOICES)
    async def add(
        self,
        interaction: discord.Interaction[Any],
        target: Name,
        condition: str,
        duration: str | None = None,
        text: str | None = None,
        source: SourceName | None = None,
    ) -> None:
        """Impose a condition (eot, save ends, encounter, until removed; custom with text).

        Example: /condition add target: Ogre condition: slowed duration: save

        Args:
            target: Who gets the condition
            condition: The condition (custom: name it with text)
            duration: How long it lasts (default: until removed)
            text: A custom condition's name, e.g. marked
            source: The creature it comes from (frightened of, taunted by, grabbed by)
        """
        kind, words = read_condition(condition, text)
        lasts = read_duration(duration)
        from_ = source if source is not None and source.strip() else None
        label = words or kind.value

        def step(who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Added]:
            creature = harm.target(encounter, target)
            mine = (controls(who.actor, c.owner_id, False) for c in encounter.creatures)
            if not who.director and not any(mine):
                raise Refused(
                    "Only the Director or a player with a creature in this encounter can impose conditions."
                )
            updated, added = harm.add_condition(
                encounter, creature.id, kind, lasts, custom_text=words, source=from_
            )
            return updated, Added(creature.id, added)

        def summary(done: Added) -> str:
            if done.added is None:
                return f"{done.creature_id} is already {label}"
            return f"{done.creature_id} is {done.added.label} ({DURATION_TEXT[done.added.duration]})"

        played = await play(interaction, "condition.add", step, summary)
        done = played.result
        await send(interaction, content=condition_reply(done.creature_id, done.added, label))

    @condition.command(name="remove", description="End a condition on a creature now.")
    @app_commands.choices(condition=CONDITION_CHOICES)
    async def remove(
        self, interaction: discord.Interaction[Any], target: Name, condition: str, text: str | None = None
    ) -> None:
        """End a condition now.

        Example: /condition remove target: Ogre condition: slowed

        Args:
            target: Whose condition ends
            condition: The condition
            text: A custom condition's name
        """
        kind, words = read_condition(condition, text)
        label = words or kind.value

        def step(who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, str]:
            creature_id = guard(encounter, who, target, "end {name}'s conditions")
            return harm.remove_condition(encounter, creature_id, kind, words)

        played = await play(
            interaction, "condition.remove", step, lambda creature_id: f"{creature_id} is no longer {label}"
        )
        await send(interaction, content=f"**{inert(played.result)}** is no longer {inert(label)}.")

    @app_commands.command(
        name="save", description="Roll a saving throw: d10, 6 or higher ends the condition."
    )
    @app_commands.guild_only()
    @app_commands.choices(condition=CONDITION_CHOICES)
    async def save(
        self,
        interaction: discord.Interaction[Any],
        target: Name,
        condition: str | None = None,
        text: str | None = None,
    ) -> None:
        """Roll a saving throw (d10, 6 or higher) against save ends.

        Example: /save target: Ogre

        Args:
            target: Who saves
            condition: Which condition (when the creature has several that a save ends)
            text: A custom condition's name
        """
        chosen = read_condition(condition, text) if condition is not None else None
        if chosen is None and text:
            fail("The text option names a custom condition: add condition: custom.")
        dice = self.bot.dice

        def step(who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, SaveResult]:
            creature_id = guard(encounter, who, target, "roll {name}'s saves")
            kind, words = chosen if chosen is not None else (None, "")
            return saves.roll_owed(encounter, dice, creature_id, kind, words)

        played = await play(interaction, "save", step, save_summary)
        await send_saves(interaction, played, [played.result], bool(saves.open_failures(played.after)))


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Conditions(bot))
