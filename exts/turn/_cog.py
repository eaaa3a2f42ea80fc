"""Taking turns (/turn act | end | skip | speed | swap | defend | aid | heal) and the tracker's Act / End
turn / Save buttons and its select menu, over `bot.rules.encounter.flow`. Who may: a player for the
creatures they control; the Director for any (a Director's pick of someone not up now is an out-of-order
turn). `_order`, `_actions` and `_heal` hold the steps of some commands; `_glue` the presses' checks and the
autocompletes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

import discord
from discord import app_commands

from bot import autocomplete
from bot.client import BotCog, DrawSteelBot
from bot.help import guild_group
from bot.options import CONDITION_CHOICES, Text
from bot.play import Caller, Played, play
from bot.replies import UserError, fail, send
from bot.rules.dice import Dice
from bot.rules.encounter import Encounter, saves
from bot.rules.encounter.flow import Flow, act, end_turn, pass_part, skip
from bot.rules.encounter.harm import SaveResult
from bot.rules.encounter.helping import HealUse
from bot.rules.turns import Controller, Entry, Mode, Speed, current, eligible, picking
from bot.rules.turns.events import SaveDue
from bot.store import Table
from bot.ui.persistent import optional_number
from exts.tracker._controls import act_choice_view, moment, set_handler
from exts.tracker._objectives import due_view
from exts.turn._actions import do_aid, do_defend
from exts.turn._glue import (
    Expect,
    actable,
    check_expected,
    controlled,
    entry_named,
    expect_of,
    owner_of,
    pressed,
    roster_sheets,
    still_to_act,
)
from exts.turn._heal import do_heal
from exts.turn._order import do_speed, do_swap
from exts.turn._replies import reply_and_ping, send_saves
from exts.turn._views import skip_text, turn_end_text, turn_start_text

NAME_MAX = 100
#: A creature's name in a /turn option; a longer one is refused before the command runs.
Combatant = app_commands.Transform[
    str, Text("name", NAME_MAX, f"Names are at most {NAME_MAX} characters: pick one from the list.")
]
HeroName = app_commands.Transform[
    str, Text("name", NAME_MAX, f"Names are at most {NAME_MAX} characters: type a hero's name.")
]


# --- the operations (commands and buttons share them) ----------------------------------------------------


class Several(UserError):
    """A bare Act when several of the caller's creatures may act: they are offered as buttons (`choices`:
    each creature's place in the turn order and its name, at the channel's `version`)."""

    def __init__(
        self, encounter_id: int, version: int, choices: tuple[tuple[int, str], ...], at: str
    ) -> None:
        super().__init__("Several of your creatures may act now: pick one.")
        self.encounter_id, self.version, self.choices, self.moment = encounter_id, version, choices, at


def own_eligible(encounter: Encounter, who: Caller) -> list[tuple[int, Entry]]:
    """The caller's creatures that may act now, with their place in the turn order: a player's own; the
    Director's, those no player controls."""
    own = {None, who.actor.user_id} if who.director else {who.actor.user_id}
    up = eligible(encounter.turns)
    return [
        (index, e)
        for index, e in enumerate(encounter.turns.entries)
        if e.id in up and owner_of(encounter, e) in own
    ]


@dataclass(frozen=True, slots=True)
class Turned:
    """A change of the turns: what the event says, the creature whose turn it was ("" for a whole side), the
    flow, the saves the Director's creatures rolled, and the roster heroes' resource names."""

    summary: str
    entry_id: str
    flow: Flow
    rolled: list[SaveResult] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)


def _said(turned: Turned) -> str:
    return turned.summary


async def do_act(
    interaction: discord.Interaction[Any],
    bot: DrawSteelBot,
    name: str | None,
    expect: Expect | None = None,
    at: int | None = None,
) -> None:
    """`name` (or the creature at place `at` of the turn order, or, without either, the caller's only
    creature that may act now) starts its turn; with several, they are offered as buttons (`Several`)."""
    dice = bot.dice

    def step(who: Caller, encounter: Encounter, table: Table) -> tuple[Encounter, Turned]:
        check_expected(table, expect, "act", encounter)
        entry = _to_act(encounter, who, table, name, at)
        who.require_controls(owner_of(encounter, entry), entry.id, f"have {entry.id} act")
        # a press only ever offers who may act: from one, an entry that may not is no out-of-order turn
        override = (
            expect is None
            and who.director
            and entry.id not in eligible(encounter.turns)
            and current(encounter.turns) is None
        )
        sheets = roster_sheets(table, encounter)
        gains = {cid: sheet.turn_gain for cid, sheet in sheets.items()}
        flow = act(encounter, entry.id, who.by, dice, override=override, gains=gains)
        how = " (out of order)" if override else ""
        names = {cid: sheet.resource_name for cid, sheet in sheets.items()}
        return flow.encounter, Turned(f"{entry.id} starts their turn{how}", entry.id, flow, names=names)

    try:
        played = await play(interaction, "turn.act", step, _said)
    except Several as several:
        view = act_choice_view(several.encounter_id, several.version, several.choices, several.moment)
        await send(interaction, content=str(several), view=view, ephemeral=True)
        return
    turned = played.result
    await send(
        interaction,
        content=turn_start_text(turned.flow.encounter, turned.entry_id, turned.flow.gains, turned.names),
    )


def _to_act(encounter: Encounter, who: Caller, table: Table, name: str | None, at: int | None) -> Entry:
    """The entry that starts its turn: at place `at`, named, or the caller's only one that may act now."""
    if at is not None:
        if not 0 <= at < len(encounter.turns.entries):
            fail("That creature has left the encounter: press Act on the tracker again.")
        return encounter.turns.entries[at]
    if name is not None:
        return entry_named(encounter, name)
    mine = own_eligible(encounter, who)
    if not mine:
        fail("None of your creatures may act now: pick one with /turn act combatant: <name>.")
    if len(mine) > 1:
        assert table.encounter is not None and table.encounter.id is not None
        choices = tuple((i, e.id) for i, e in mine)
        raise Several(table.encounter.id, table.version, choices, moment(encounter, "act"))
    return mine[0][1]


async def _reply_turned(interaction: discord.Interaction[Any], played: Played[Turned], text: str) -> None:
    """A turn change's reply (with the due objectives' buttons), pinging who picks next."""
    flow = played.result.flow
    due = due_view(played.encounter_id, played.version, flow.due)
    await reply_and_ping(interaction, played.caller, text, flow.encounter, view=due)


async def do_end(
    interaction: discord.Interaction[Any], bot: DrawSteelBot, expect: Expect | None = None
) -> None:
    """End the turn in progress (its controller or the Director)."""
    dice = bot.dice

    def step(who: Caller, encounter: Encounter, table: Table) -> tuple[Encounter, Turned]:
        check_expected(table, expect, "end", encounter)
        cur = current(encounter.turns)
        if cur is None:
            fail("Nobody is taking a turn right now: start one with /turn act.")
        entry = encounter.turns.entry(cur.entry)
        assert entry is not None
        who.require_controls(owner_of(encounter, entry), entry.id, f"end {entry.id}'s turn")
        flow, rolled = director_saves(end_turn(encounter), dice, who.settings.auto_saves)
        return flow.encounter, Turned(f"{entry.id}'s turn ends", entry.id, flow, rolled)

    played = await play(interaction, "turn.end", step, _said)
    turned = played.result
    await _reply_turned(interaction, played, turn_end_text(turned.entry_id, turned.flow, turned.rolled))


async def do_skip(interaction: discord.Interaction[Any], bot: DrawSteelBot, name: str | None) -> None:
    """Without a name, the Director skips the picking side's remaining turns this round; with one, that
    combatant's turn passes (it starts and ends at once)."""
    dice = bot.dice

    def step(who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Turned]:
        if name is None:
            turned = _skip_side(encounter, who)
            return turned.flow.encounter, turned
        entry = entry_named(encounter, name)
        who.require_controls(owner_of(encounter, entry), entry.id, f"skip {entry.id}'s turn")
        override = who.director and entry.id not in eligible(encounter.turns)
        started = act(encounter, entry.id, who.by, dice, override=override)
        flow, rolled = director_saves(end_turn(started.encounter), dice, who.settings.auto_saves)
        flow = dataclasses.replace(flow, events=(*started.events, *flow.events))
        return flow.encounter, Turned(f"{entry.id} passes their turn", entry.id, flow, rolled)

    played = await play(interaction, "turn.skip", step, _said)
    turned = played.result
    await _reply_turned(interaction, played, skip_text(turned.flow, turned.entry_id, turned.rolled))


def _skip_side(encounter: Encounter, who: Caller) -> Turned:
    """The picking side's turns skipped (the Director), or in fast/slow turns its fast part passed (a player:
    for their own creatures)."""
    pick = picking(encounter.turns)
    if pick is None:
        fail("Nobody is picking right now: end the turn in progress with /turn end first.")
    if encounter.turns.mode is Mode.FAST_SLOW and pick.speed is Speed.FAST:
        if not who.director and pick.controller is not Controller.PLAYERS:
            fail("Only the Director can move the Director's creatures to the slow turns.")
        # a player passes for their own creatures only; the Director for the whole part
        mine = (
            None if who.director else [e.id for e in encounter.turns.entries if controlled(encounter, e, who)]
        )
        flow = pass_part(encounter, pick.controller, mine)
        if mine is not None and not flow.events:
            fail("None of your creatures waits for a fast turn: pass one with /turn skip combatant:.")
        done = f"The {pick.controller.value}" if mine is None else "A player's creatures"
        return Turned(f"{done} are done with fast turns", "", flow)
    if not who.director:
        fail("Only the Director can skip a side's turns: to pass your own turn, add combatant.")
    return Turned(f"The {pick.sides[0]} side's turns are skipped", "", skip(encounter, pick.sides[0]))


async def do_save(
    interaction: discord.Interaction[Any], bot: DrawSteelBot, expect: Expect | None = None
) -> None:
    """The Save button: the caller's creatures roll every save they are owed (d10, 6+ each); the Director's
    press rolls the Director's creatures' (or, when they owe none, everyone's)."""
    dice = bot.dice

    def step(who: Caller, encounter: Encounter, table: Table) -> tuple[Encounter, list[SaveResult]]:
        check_expected(table, expect, "save", encounter)
        owing = list(dict.fromkeys(s.creature_id for s in saves.due(encounter)))
        ids = [c for c in owing if controlled(encounter, encounter.entry_of(c), who)]
        if who.director:
            ids = [c for c in ids if c in saves.director_creatures(encounter)] or ids
        if not ids:
            fail("None of your creatures has a save due: a save comes at the end of a creature's turn.")
        return saves.roll_all(encounter, dice, ids)

    def summary(results: list[SaveResult]) -> str:
        return "; ".join(f"{r.target} saves against {r.label}: {r.roll}" for r in results)[:300]

    played = await play(interaction, "save", step, summary)
    await send_saves(interaction, played, played.result, bool(saves.open_failures(played.after)))


def director_saves(flow: Flow, dice: Dice, auto: bool) -> tuple[Flow, list[SaveResult]]:
    """With `/settings auto_saves:true`, the Director's creatures roll the saves they owe when a turn ends;
    their rolls replace the "Save due" lines."""
    if not auto or not flow.encounter.saves_due:  # nothing owed, nothing to roll
        return flow, []
    encounter, results = saves.roll_all(flow.encounter, dice, saves.director_creatures(flow.encounter))
    rolled = {r.target for r in results}
    events = tuple(e for e in flow.events if not (isinstance(e, SaveDue) and e.creature in rolled))
    return dataclasses.replace(flow, encounter=encounter, events=events), results


class Turn(BotCog):
    """Taking turns (/turn)."""

    turn = guild_group(
        "turn",
        "Take turns in this channel's encounter.",
        "/turn act combatant: Ash",
        "Take turns: act, end your turn, skip.",
    )

    @turn.command(name="act", description="Start a creature's turn.")
    @app_commands.autocomplete(combatant=actable)
    async def act_cmd(
        self, interaction: discord.Interaction[Any], combatant: Combatant | None = None
    ) -> None:
        """Start a creature's turn (the menu offers who may act now; the Director may pick anyone).

        Example: /turn act combatant: Ash

        Args:
            combatant: Who acts now (default: your only creature that may)
        """
        await do_act(interaction, self.bot, combatant)

    @turn.command(name="end", description="End the turn in progress.")
    async def end_cmd(self, interaction: discord.Interaction[Any]) -> None:
        """End the turn in progress; the next side to pick is pinged.

        Example: /turn end
        """
        await do_end(interaction, self.bot)

    @turn.command(
        name="skip", description="Pass a creature's turn, or (Director) skip the picking side's turns."
    )
    @app_commands.autocomplete(combatant=actable)
    async def skip_cmd(
        self, interaction: discord.Interaction[Any], combatant: Combatant | None = None
    ) -> None:
        """Pass a creature's turn; without one the Director skips the side that picks (fast/slow: slow).

        Example: /turn skip combatant: Goblin 1

        Args:
            combatant: Whose turn passes (leave out: the Director skips the side that picks now)
        """
        await do_skip(interaction, self.bot, combatant)

    @turn.command(name="speed", description="Fast/slow turns: choose a creature's fast or slow turn.")
    @app_commands.autocomplete(combatant=still_to_act)
    async def speed_cmd(
        self, interaction: discord.Interaction[Any], speed: Speed, combatant: Combatant | None = None
    ) -> None:
        """Fast/slow turns: choose a creature's fast turn (action or move) or slow turn (both) this round.

        Example: /turn speed combatant: Ash speed: slow

        Args:
            speed: fast: an action or a move, in the fast turns; slow: an action and a move, after them
            combatant: Whose turn (default: your only creature still to act)
        """
        await do_speed(interaction, combatant, speed)

    @turn.command(name="swap", description="Agility order: two heroes swap places at the start of a round.")
    @app_commands.rename(other="with")
    async def swap_cmd(self, interaction: discord.Interaction[Any], hero: HeroName, other: HeroName) -> None:
        """Agility order: at the start of a round the Director lets two heroes swap places.

        Example: /turn swap hero: Ash with: Bree

        Args:
            hero: A hero
            other: The willing hero they swap places with
        """
        await do_swap(interaction, hero, other)

    # --- baseline actions that change rolls: Defend, Aid Attack ------------------------------------------
    @turn.command(
        name="defend", description="Defend (main action): double bane on ability rolls against you."
    )
    @app_commands.autocomplete(combatant=autocomplete.creatures)
    async def defend_cmd(
        self, interaction: discord.Interaction[Any], combatant: Combatant | None = None
    ) -> None:
        """Defend (main action): ability rolls against you have a double bane until your next turn.

        Example: /turn defend

        Args:
            combatant: Who defends (default: the creature whose turn it is, if yours)
        """
        await do_defend(interaction, combatant)

    @turn.command(
        name="aid", description="Aid Attack (maneuver): an ally's next roll against an enemy gains an edge."
    )
    @app_commands.autocomplete(target=autocomplete.creatures, combatant=autocomplete.creatures)
    async def aid_cmd(
        self, interaction: discord.Interaction[Any], target: Combatant, combatant: Combatant | None = None
    ) -> None:
        """Aid Attack (maneuver): an ally's next ability roll against that enemy gains an edge.

        Example: /turn aid target: Goblin 1

        Args:
            target: The adjacent enemy
            combatant: Who aids (default: the creature whose turn it is, if yours)
        """
        await do_aid(interaction, target, combatant)

    # --- /turn heal (the Heal main action: exts/turn/_heal.py) ---------------------------------------------
    @turn.command(name="heal", description="The Heal main action: an ally spends a Recovery or makes a save.")
    @app_commands.choices(condition=CONDITION_CHOICES)
    @app_commands.autocomplete(target=autocomplete.creatures, healer=autocomplete.creatures)
    async def heal_cmd(
        self,
        interaction: discord.Interaction[Any],
        target: app_commands.Range[str, 1, NAME_MAX],
        use: Literal["recovery", "save"],
        healer: app_commands.Range[str, 1, NAME_MAX] | None = None,
        condition: str | None = None,
        text: app_commands.Range[str, 1, NAME_MAX] | None = None,
    ) -> None:
        """Heal (main action): the target spends a Recovery (even while dying) or makes one saving throw.

        Example: /turn heal target: Ash use: recovery

        Args:
            target: Who is healed (an adjacent creature)
            use: recovery: they spend a Recovery · save: they make one saving throw
            healer: Who uses Heal (default: the creature taking its turn, or yours)
            condition: For save: which save-ends condition (when they have several)
            text: For save: a custom condition's name
        """
        await do_heal(interaction, self.bot, target, HealUse(use), healer, condition, text)


async def _on_act(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    """The tracker's Act (no argument), or one of the creatures it offered (its place in the turn order)."""
    bot = interaction.client
    at = optional_number(arg)
    await pressed(interaction, bot, do_act(interaction, bot, None, expect_of(interaction, eid, ver), at))


async def _on_pick(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    bot = interaction.client
    await pressed(interaction, bot, do_act(interaction, bot, arg, expect_of(interaction, eid, ver)))


async def _on_end(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    bot = interaction.client
    await pressed(interaction, bot, do_end(interaction, bot, expect_of(interaction, eid, ver)))


async def _on_save(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    bot = interaction.client
    await pressed(interaction, bot, do_save(interaction, bot, expect_of(interaction, eid, ver)))


async def setup(bot: DrawSteelBot) -> None:
    set_handler("act", _on_act)
    set_handler("pick", _on_pick)
    set_handler("end", _on_end)
    set_handler("save", _on_save)
    await bot.add_cog(Turn(bot))
