"""Objectives and villain actions (/encounter objective add | done | fail, /encounter villain name | use).

Rules: `bot.rules.encounter.objectives` (objectives with round counters, counted down as each round starts;
a leader's or solo's villain actions, each once per encounter, one a round). When a counter hits 0 as a round
starts, the reply that started the round asks the Director (`exts.tracker._objectives.due_lines`,
`due_view`; exts/turn/_cog.py). Who may, and how the subgroups join /encounter: `ObjectivesCog`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import discord
from discord import app_commands

from bot.autocomplete import never_fails
from bot.client import BotCog, DrawSteelBot
from bot.help import help_line
from bot.options import SuggestedText, Text
from bot.play import Caller, channel_key, encounter_of, play
from bot.replies import send
from bot.rules.creature import Creature
from bot.rules.encounter import Encounter, UnknownCreature, fold
from bot.rules.encounter.objectives import (
    OBJECTIVE_TEXT_MAX,
    Objective,
    Outcome,
    add_objective,
    name_villain_action,
    open_ones,
    resolve,
    use_villain_action,
    villain_actions,
    villain_used,
)
from bot.store import Table
from exts.tracker import _objectives as render

CHOICES_MAX = 25
VALUE_MAX = 100
NAME_MAX = 100

ActionName = app_commands.Transform[str, Text("villain action's name", NAME_MAX)]


async def _encounter(interaction: discord.Interaction[Any]) -> Encounter:
    return encounter_of(await interaction.client.store.view(channel_key(interaction), shared=True))


# --- autocomplete (pure parts first) ------------------------------------------------------------------------


def objective_choices(encounter: Encounter, current: str) -> list[app_commands.Choice[str]]:
    """The open objectives whose text holds what was typed; the value is the objective's number."""
    key = fold(current)
    out = []
    for number, objective in enumerate(encounter.objectives, start=1):
        if objective.outcome is Outcome.OPEN and key in fold(objective.text):
            out.append(app_commands.Choice(name=objective.text[:VALUE_MAX], value=str(number)))
    return out[:CHOICES_MAX]


def villain_choices(encounter: Encounter, current: str) -> list[app_commands.Choice[str]]:
    """The Director's creatures (not minions) whose names hold what was typed, those with villain actions
    first."""
    key = fold(current)
    found = [
        c
        for c in encounter.creatures
        if not c.is_hero and c.owner_id is None and c.squad_id is None and key in fold(c.id)
    ]
    found.sort(key=lambda c: not villain_actions(encounter, c))
    return [app_commands.Choice(name=c.id[:VALUE_MAX], value=c.id[:VALUE_MAX]) for c in found][:CHOICES_MAX]


def action_choices(encounter: Encounter, creature: str, current: str) -> list[app_commands.Choice[str]]:
    """The creature's villain actions not used yet whose names hold what was typed."""
    try:
        found = encounter.find(creature)
    except UnknownCreature:
        return []
    used = villain_used(encounter, found)
    key = fold(current)
    names = [a for a in villain_actions(encounter, found) if a not in used and key in fold(a)]
    return [app_commands.Choice(name=a[:VALUE_MAX], value=a[:VALUE_MAX]) for a in names]


@never_fails
async def _open_objectives(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return objective_choices(await _encounter(interaction), current)


@never_fails
async def _villains(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    return villain_choices(await _encounter(interaction), current)


@never_fails
async def _actions(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    creature = str(getattr(interaction.namespace, "creature", "") or "")
    return action_choices(await _encounter(interaction), creature, current)


#: An open objective of the encounter, suggested as it is typed.
ObjectiveKey = app_commands.Transform[str, SuggestedText("objective", OBJECTIVE_TEXT_MAX, _open_objectives)]
#: A leader or solo of the encounter, suggested as it is typed.
CreatureName = app_commands.Transform[str, SuggestedText("creature's name", NAME_MAX, _villains)]


# --- the operations -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settled:
    """An objective just achieved or failed, and how many are still open."""

    objective: Objective
    open_left: int


@dataclass(frozen=True, slots=True)
class VillainAction:
    """A villain action just named or used: the creature, the action, and its villain actions (named: all of
    them; used: those left)."""

    creature: str
    action: str
    actions: tuple[str, ...]


def _counted(objective: Objective) -> str:
    counter = f" ({objective.left} rounds)" if objective.left is not None else ""
    return f"Objective: {objective.text}{counter}"[:300]


async def add(interaction: discord.Interaction[Any], text: str, rounds: int | None) -> None:
    def step(_who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Objective]:
        updated = add_objective(encounter, text, rounds)
        return updated, updated.objectives[-1]

    played = await play(interaction, "objective.add", step, _counted, rule="/encounter objective add")
    await send(interaction, content=render.added_text(played.result))


async def settle(interaction: discord.Interaction[Any], key: str, outcome: Outcome) -> None:

    def step(_who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Settled]:
        updated, objective = resolve(encounter, key, outcome)
        return updated, Settled(objective, len(open_ones(updated)))

    played = await play(
        interaction,
        f"objective.{outcome.value}",
        step,
        lambda done: f"Objective {outcome.value}: {done.objective.text}"[:300],
        rule="/encounter objective done",
    )
    await send(interaction, content=render.resolved_text(played.result.objective, played.result.open_left))


async def _villain_action(
    interaction: discord.Interaction[Any],
    verb: str,
    creature: str,
    change: Callable[[Encounter, Creature], tuple[Encounter, VillainAction]],
) -> VillainAction:
    """`/encounter villain <verb>`: the Director changes a creature's villain actions as `change` says."""

    def summary(done: VillainAction) -> str:
        # the log and an undo's reply are the players' too: an action not yet used stays the Director's secret
        if verb == "name":
            return f"{done.creature} has a villain action more (the Director's private tracker names it)"
        return f"{done.creature} uses the villain action {done.action}"[:300]

    played = await play(
        interaction,
        f"villain.{verb}",
        lambda _who, encounter, _table: change(encounter, encounter.find(creature)),
        summary,
        rule=f"/encounter villain {verb}",
    )
    return played.result


async def name_action(interaction: discord.Interaction[Any], creature: str, action: str) -> None:

    def change(encounter: Encounter, found: Creature) -> tuple[Encounter, VillainAction]:
        updated, named = name_villain_action(encounter, found, action)
        return updated, VillainAction(found.id, named, villain_actions(updated, found))

    done = await _villain_action(interaction, "name", creature, change)
    # the names are the Director's secret: the channel never sees them before they are used
    text = render.named_text(done.creature, done.action, done.actions)
    await send(interaction, content=text, ephemeral=True)


async def use_action(interaction: discord.Interaction[Any], creature: str, action: str) -> None:

    def change(encounter: Encounter, found: Creature) -> tuple[Encounter, VillainAction]:
        updated, used = use_villain_action(encounter, found, action)
        spent = villain_used(updated, found)
        left = tuple(a for a in villain_actions(updated, found) if a not in spent)
        return updated, VillainAction(found.id, used, left)

    done = await _villain_action(interaction, "use", creature, change)
    await send(interaction, content=render.used_text(done.creature, done.action))
    await send(interaction, content=render.left_text(done.creature, done.actions), ephemeral=True)


# --- the subgroups of /encounter ----------------------------------------------------------------------------


class Subgroup(app_commands.Group):
    """A subgroup of /encounter declared as a class: discord.py reads its name from the class arguments and
    its description from the class's docstring; its /help line is its `line`."""

    line: ClassVar[dict[str, Any]]

    def __init__(self) -> None:
        super().__init__(extras=self.line)


class ObjectiveCommands(Subgroup, name="objective"):
    """The Director's objectives for this encounter."""

    line = help_line(
        "/encounter objective add text: Stop the ritual", "The Director's objectives: add, done, fail."
    )

    @app_commands.command(name="add", description="Director: set an objective (with a round counter).")
    async def add_cmd(
        self, interaction: discord.Interaction[Any], text: str, rounds: int | None = None
    ) -> None:
        """Director: set an objective; with rounds, the tracker counts them down and asks you at 0.

        Example: /encounter objective add text: Hold the bridge rounds: 5

        Args:
            text: What the heroes must do, e.g. Hold the bridge
            rounds: Rounds it lasts, this round counting as the first (leave out for no counter)
        """
        await add(interaction, text, rounds)

    @app_commands.command(name="done", description="Director: the heroes achieved an objective.")
    async def done_cmd(self, interaction: discord.Interaction[Any], objective: ObjectiveKey) -> None:
        """Director: the heroes achieved an objective.

        Example: /encounter objective done objective: Hold the bridge

        Args:
            objective: An open objective
        """
        await settle(interaction, objective, Outcome.ACHIEVED)

    @app_commands.command(name="fail", description="Director: the heroes failed an objective.")
    async def fail_cmd(self, interaction: discord.Interaction[Any], objective: ObjectiveKey) -> None:
        """Director: the heroes failed an objective.

        Example: /encounter objective fail objective: Stop the ritual

        Args:
            objective: An open objective
        """
        await settle(interaction, objective, Outcome.FAILED)


class VillainCommands(Subgroup, name="villain"):
    """A leader's or solo's villain actions (Malice)."""

    line = help_line(
        "/encounter villain use creature: Ajax action: Rally",
        "A leader's or solo's villain actions: name, use.",
    )

    @app_commands.command(name="name", description="Director: name a villain action (up to 3 a creature).")
    async def name_cmd(
        self, interaction: discord.Interaction[Any], creature: CreatureName, action: str
    ) -> None:
        """Director: name a villain action of a creature whose stat block has none (up to 3).

        Example: /encounter villain name creature: Ajax action: Hit and Run

        Args:
            creature: A leader or solo
            action: The villain action's name
        """
        await name_action(interaction, creature, action)

    @app_commands.command(
        name="use", description="Director: mark a villain action used (once per encounter)."
    )
    @app_commands.autocomplete(action=_actions)
    async def use_cmd(
        self, interaction: discord.Interaction[Any], creature: CreatureName, action: ActionName
    ) -> None:
        """Director: mark a villain action used: each once per encounter.

        Example: /encounter villain use creature: Ajax action: Hit and Run

        Args:
            creature: A leader or solo
            action: One of its villain actions not used yet
        """
        await use_action(interaction, creature, action)


class ObjectivesCog(BotCog):
    """Objectives and villain actions: their subgroups of /encounter.

    Who may (`bot.permissions`): the encounter's Director sets and resolves objectives, names villain actions
    and marks them used (a strike with one marks it too: `bot.rules.encounter.ability_strike`). Everyone sees
    the objectives on the tracker; the villain actions only the Director, on their private tracker
    (`/encounter status private: True`), and the replies that name them before they are used are theirs
    alone.

    The commands are subgroups of `/encounter`: this cog attaches `ObjectiveCommands` and `VillainCommands`
    to the encounter cog's group when it loads (the package's `setup` adds the encounter cog first), before
    the commands are synced."""

    def __init__(self, bot: DrawSteelBot) -> None:
        super().__init__(bot)
        self.groups: tuple[app_commands.Group, ...] = (ObjectiveCommands(), VillainCommands())

    def _encounter_group(self) -> app_commands.Group:
        group = self.bot.tree.get_command("encounter")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("the objectives need the encounter cog added first (exts.encounter.setup)")
        return group

    async def cog_load(self) -> None:
        group = self._encounter_group()
        for sub in self.groups:
            group.add_command(sub, override=True)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("encounter")
        if isinstance(group, app_commands.Group):
            for sub in self.groups:
                group.remove_command(sub.name)


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(ObjectivesCog(bot))
