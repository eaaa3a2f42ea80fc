"""Taking turns (/turn act | end | skip | speed | swap), the baseline actions that change rolls (/turn defend
| aid: `bot.rules.encounter.baseline`), and the tracker's Act / End turn / Save buttons and its select menu.

Rules: `bot.rules.encounter.flow` (turn start: heroic resource, hero-token benefit; turn end: conditions,
saves; rounds roll over with Malice) over the turn engine `bot.rules.turns`. Who may: `bot.permissions` — a
player acts, ends and skips turns only for creatures they control; the Director for any, and a Director's
pick of someone not up now is an out-of-order turn (an override).

Play-by-post: after a turn ends or a side is skipped, the side that picks next is pinged (`bot.ui.pings`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import autocomplete
from bot.client import DrawSteelBot
from bot.permissions import require_controls
from bot.play import Caller, InTime, caller_of, channel_key, commit, encounter_of, put_encounter, sheet_of
from bot.replies import UserError, fail, inert, send
from bot.rules.dice import Dice
from bot.rules.encounter import Encounter, fold, saves
from bot.rules.encounter.flow import Flow, act, choose_speed, end_turn, pass_part, skip
from bot.rules.encounter.harm import SaveResult
from bot.rules.encounter.helping import HealUse
from bot.rules.hero import HeroSheet
from bot.rules.turns import (
    Controller,
    Entry,
    Mode,
    Speed,
    TurnState,
    current,
    eligible,
    picking,
    swap_agility,
    waiting,
)
from bot.rules.turns.events import SaveDue
from bot.store import Change, Table
from bot.tracker import tracker_for
from bot.ui import pings
from bot.ui.combat import save_reply
from bot.ui.encounter import creatures_of, skip_text, speed_text, turn_end_text, turn_start_text
from bot.ui.tracker_controls import set_handler
from cogs.conditions import CONDITION_CHOICES, send_saves
from cogs.meta import HelpEntry
from cogs.turn_actions import do_aid, do_defend
from cogs.turn_heal import do_heal

NAME_MAX = 100
CHOICES_MAX = 25


class StaleTracker(UserError):
    """A press on a tracker that no longer shows the newest state."""


def check_expected(table: Table, expect: tuple[int, int] | None) -> None:
    """Refuse a press on a tracker of another encounter or an older version."""
    if expect is None:
        return
    encounter_id, version = expect
    doc = table.encounter
    if doc is None or not doc.active or doc.id != encounter_id:
        fail("That encounter is over: start a new one with /encounter start.")
    if table.version != version:
        raise StaleTracker("That tracker was out of date: a fresh one is below, try again there.")


async def pressed(interaction: discord.Interaction[Any], bot: DrawSteelBot, work: Awaitable[None]) -> None:
    """Run a tracker press (its operation checks the tracker's encounter and version inside its change:
    `check_expected`); a press on a tracker that no longer shows the newest state gets a fresh tracker below,
    then the short note."""
    try:
        await work
    except StaleTracker:
        await InTime(interaction).run(repost_tracker(interaction, bot))
        raise


async def repost_tracker(interaction: discord.Interaction[Any], bot: DrawSteelBot) -> int | None:
    """Post this channel's tracker anew at the bottom (the tracker service's `repost`)."""
    return await tracker_for(bot).repost(channel_key(interaction))


def entry_named(encounter: Encounter, name: str) -> Entry:
    """The turn-engine entry called `name` (a creature, or a minion squad by its name or a minion's)."""
    key = fold(name)
    for entry in encounter.turns.entries:
        if fold(entry.id) == key:
            return entry
    return encounter.entry_of(encounter.find(name).id)


def owner_of(encounter: Encounter, entry: Entry) -> int | None:
    """Who controls an entry: its creature's, or a squad's first minion's, player (None: the Director)."""
    ids = creatures_of(encounter, entry)
    return encounter.creature(ids[0]).owner_id if ids else None


def controlled(encounter: Encounter, entry: Entry, who: Caller) -> bool:
    return who.director or (owner_of(encounter, entry) == who.actor.user_id)


def roster_sheets(table: Table, encounter: Encounter) -> dict[str, HeroSheet]:
    """The roster sheets of the encounter's roster heroes, by creature id (their heroic resource's name and
    per-turn gain live there)."""
    return {
        creature_id: sheet_of(table.heroes[hero_id])
        for creature_id, hero_id in encounter.roster.items()
        if hero_id in table.heroes
    }


async def reply_and_ping(
    interaction: discord.Interaction[Any], who: Caller, content: str, encounter: Encounter
) -> None:
    """Answer with `content`, pinging the side that picks next in the same message (`bot.ui.pings.reply`)."""
    ping = pings.pick_ping(
        encounter, director_id=who.director_id, director_role_id=who.settings.director_role_id
    )
    await pings.reply(interaction, content, ping, enabled=who.settings.turn_pings)


# --- the operations (commands and buttons share them) ----------------------------------------------------


async def do_act(
    interaction: discord.Interaction[Any],
    bot: DrawSteelBot,
    name: str | None,
    expect: tuple[int, int] | None = None,
) -> None:
    """`name` (or, without one, the caller's only creature that may act now) starts its turn."""
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))
    dice = bot.dice

    def change(table: Table) -> Change[tuple[str, Flow, dict[str, str]]]:
        check_expected(table, expect)
        encounter = encounter_of(table)
        if name is None:
            mine = [
                e
                for e in encounter.turns.entries
                if e.id in eligible(encounter.turns) and owner_of(encounter, e) == who.actor.user_id
            ]
            if not mine:
                fail("None of your creatures may act now: pick one with /turn act combatant: <name>.")
            if len(mine) > 1:
                fail("Several of your creatures may act: pick one in the tracker's menu or with /turn act.")
            entry = mine[0]
        else:
            entry = entry_named(encounter, name)
        require_controls(
            who.actor,
            owner_of(encounter, entry),
            who.director,
            creature=entry.id,
            action=f"have {entry.id} act",
        )
        override = (
            who.director and entry.id not in eligible(encounter.turns) and current(encounter.turns) is None
        )
        sheets = roster_sheets(table, encounter)
        gains = {cid: sheet.turn_gain for cid, sheet in sheets.items()}
        flow = act(encounter, entry.id, who.by, dice, override=override, gains=gains)
        put_encounter(table, flow.encounter)
        how = " (out of order)" if override else ""
        names = {cid: sheet.resource_name for cid, sheet in sheets.items()}
        return Change(f"{entry.id} starts their turn{how}", (entry.id, flow, names))

    committed = await in_time.run(commit(interaction, "turn.act", change))
    entry_id, flow, names = committed.value
    await send(interaction, content=turn_start_text(flow.encounter, entry_id, flow.gains, names))


async def do_end(
    interaction: discord.Interaction[Any], bot: DrawSteelBot, expect: tuple[int, int] | None = None
) -> None:
    """End the turn in progress (its controller or the Director)."""
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))
    dice = bot.dice

    def change(table: Table) -> Change[tuple[str, Flow, list[SaveResult]]]:
        check_expected(table, expect)
        encounter = encounter_of(table)
        cur = current(encounter.turns)
        if cur is None:
            fail("Nobody is taking a turn right now: start one with /turn act.")
        entry = encounter.turns.entry(cur.entry)
        assert entry is not None
        require_controls(
            who.actor,
            owner_of(encounter, entry),
            who.director,
            creature=entry.id,
            action=f"end {entry.id}'s turn",
        )
        flow, rolled = director_saves(end_turn(encounter), dice, who.settings.auto_saves)
        put_encounter(table, flow.encounter)
        return Change(f"{entry.id}'s turn ends", (entry.id, flow, rolled))

    committed = await in_time.run(commit(interaction, "turn.end", change))
    entry_id, flow, rolled = committed.value
    await reply_and_ping(interaction, who, with_saves(turn_end_text(entry_id, flow), rolled), flow.encounter)


async def do_skip(interaction: discord.Interaction[Any], bot: DrawSteelBot, name: str | None) -> None:
    """Without a name, the Director skips the picking side's remaining turns this round; with one, that
    combatant's turn passes (it starts and ends at once)."""
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))
    dice = bot.dice

    def change(table: Table) -> Change[tuple[str, Flow, list[SaveResult]]]:
        encounter = encounter_of(table)
        if name is None:
            pick = picking(encounter.turns)
            if pick is None:
                fail("Nobody is picking right now: end the turn in progress with /turn end first.")
            if encounter.turns.mode is Mode.FAST_SLOW and pick.speed is Speed.FAST:
                if not who.director and pick.controller is not Controller.PLAYERS:
                    fail("Only the Director can move the Director's creatures to the slow turns.")
                # a player passes for their own creatures only; the Director for the whole part
                mine = (
                    None
                    if who.director
                    else [e.id for e in encounter.turns.entries if controlled(encounter, e, who)]
                )
                flow = pass_part(encounter, pick.controller, mine)
                if mine is not None and not flow.events:
                    fail("None of your creatures waits for a fast turn: pass one with /turn skip combatant:.")
                put_encounter(table, flow.encounter)
                done = f"The {pick.controller.value}" if mine is None else "A player's creatures"
                return Change(f"{done} are done with fast turns", ("", flow, []))
            if not who.director:
                fail("Only the Director can skip a side's turns: to pass your own turn, add combatant.")
            flow = skip(encounter, pick.sides[0])
            put_encounter(table, flow.encounter)
            return Change(f"The {pick.sides[0]} side's turns are skipped", ("", flow, []))
        entry = entry_named(encounter, name)
        require_controls(
            who.actor,
            owner_of(encounter, entry),
            who.director,
            creature=entry.id,
            action=f"skip {entry.id}'s turn",
        )
        override = who.director and entry.id not in eligible(encounter.turns)
        started = act(encounter, entry.id, who.by, dice, override=override)
        flow, rolled = director_saves(end_turn(started.encounter), dice, who.settings.auto_saves)
        flow = Flow(flow.encounter, (*started.events, *flow.events), flow.gains, flow.malice_gained)
        put_encounter(table, flow.encounter)
        return Change(f"{entry.id} passes their turn", (entry.id, flow, rolled))

    committed = await in_time.run(commit(interaction, "turn.skip", change))
    entry_id, flow, rolled = committed.value
    text = with_saves(skip_text(flow), rolled)
    if entry_id:
        text = f"⏭️ **{inert(entry_id)}** passes their turn.\n" + text
    await reply_and_ping(interaction, who, text, flow.encounter)


async def do_save(
    interaction: discord.Interaction[Any], bot: DrawSteelBot, expect: tuple[int, int] | None = None
) -> None:
    """The Save button: the caller's creatures roll every save they are owed (d10, 6+ each); the Director's
    press rolls the Director's creatures' (or, when they owe none, everyone's)."""
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))
    dice = bot.dice

    def change(table: Table) -> Change[tuple[list[SaveResult], bool]]:
        check_expected(table, expect)
        encounter = encounter_of(table)
        owing = list(dict.fromkeys(s.creature_id for s in saves.due(encounter)))
        ids = [c for c in owing if controlled(encounter, encounter.entry_of(c), who)]
        if who.director:
            ids = [c for c in ids if c in saves.director_creatures(encounter)] or ids
        if not ids:
            fail("None of your creatures has a save due: a save comes at the end of a creature's turn.")
        encounter, results = saves.roll_all(encounter, dice, ids)
        put_encounter(table, encounter)
        summary = "; ".join(f"{r.target} saves against {r.label}: {r.roll}" for r in results)
        return Change(summary[:300], (results, bool(saves.open_failures(encounter))))

    committed = await in_time.run(commit(interaction, "save", change))
    await send_saves(interaction, committed, *committed.value)


def director_saves(flow: Flow, dice: Dice, auto: bool) -> tuple[Flow, list[SaveResult]]:
    """With `/settings auto_saves:true`, the Director's creatures roll the saves they owe when a turn ends;
    their rolls replace the "Save due" lines."""
    if not auto:
        return flow, []
    encounter, results = saves.roll_all(flow.encounter, dice, saves.director_creatures(flow.encounter))
    rolled = {r.target for r in results}
    events = tuple(e for e in flow.events if not (isinstance(e, SaveDue) and e.creature in rolled))
    return Flow(encounter, events, flow.gains, flow.malice_gained), results


def with_saves(text: str, results: list[SaveResult]) -> str:
    """A turn's reply with the saves rolled for it, right after its first line."""
    if not results:
        return text
    first, _, rest = text.partition("\n")
    return "\n".join([first, *(save_reply(r) for r in results), *([rest] if rest else [])])


async def do_speed(
    interaction: discord.Interaction[Any], bot: DrawSteelBot, name: str | None, speed: Speed
) -> None:
    """Fast/slow turns: `name` (or the caller's only creature still to act) takes a fast or slow turn."""
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))

    def change(table: Table) -> Change[tuple[str, Flow]]:
        encounter = encounter_of(table)
        if name is None:
            mine = [e for e in encounter.turns.entries if e.id in waiting(encounter.turns)]
            mine = [e for e in mine if owner_of(encounter, e) == who.actor.user_id]
            if len(mine) != 1:
                fail("Name the creature: /turn speed combatant: <name> speed: fast or slow.")
            entry = mine[0]
        else:
            entry = entry_named(encounter, name)
        require_controls(
            who.actor,
            owner_of(encounter, entry),
            who.director,
            creature=entry.id,
            action=f"choose {entry.id}'s turn",
        )
        flow = choose_speed(encounter, entry.id, speed)
        put_encounter(table, flow.encounter)
        return Change(f"{entry.id} takes a {speed.value} turn", (entry.id, flow))

    committed = await in_time.run(commit(interaction, "turn.speed", change))
    entry_id, flow = committed.value
    await reply_and_ping(interaction, who, speed_text(entry_id, speed, flow), flow.encounter)


# --- autocomplete -----------------------------------------------------------------------------------------


async def _offer(
    interaction: discord.Interaction[Any], current_text: str, pool: Callable[[TurnState], tuple[str, ...]]
) -> list[app_commands.Choice[str]]:
    """The entries of `pool` the caller controls (the Director: all) whose names hold the text typed."""
    try:
        bot = interaction.client
        who = await caller_of(interaction, bot)
        encounter = encounter_of(await bot.store.view(channel_key(interaction), shared=True))
        key = fold(current_text)
        ids = pool(encounter.turns)
        out = []
        for entry in encounter.turns.entries:
            if entry.id in ids and controlled(encounter, entry, who) and key in fold(entry.id):
                out.append(app_commands.Choice(name=entry.id[:100], value=entry.id[:100]))
        return out[:CHOICES_MAX]
    except Exception:  # an autocomplete must never fail: offer nothing
        return []


async def actable(interaction: discord.Interaction[Any], current_text: str) -> list[app_commands.Choice[str]]:
    """Who may act now (turns.eligible), only the caller's own creatures unless they are the Director."""
    return await _offer(interaction, current_text, eligible)


async def still_to_act(
    interaction: discord.Interaction[Any], current_text: str
) -> list[app_commands.Choice[str]]:
    """Who may still act this round (turns.waiting), the caller's own creatures unless the Director."""
    return await _offer(interaction, current_text, waiting)


class Turn(commands.Cog):
    """Taking turns (/turn)."""

    help_entries: ClassVar[tuple[HelpEntry, ...]] = (
        HelpEntry("turn", "/turn act combatant: Ash", "Take turns: act, end your turn, skip."),
        HelpEntry(
            "turn act",
            "/turn act combatant: Ash",
            "Start a creature's turn (the menu offers who may act now; the Director may pick anyone).",
        ),
        HelpEntry("turn end", "/turn end", "End the turn in progress; the next side to pick is pinged."),
        HelpEntry(
            "turn skip",
            "/turn skip combatant: Goblin 1",
            "Pass a creature's turn; without one the Director skips the side that picks (fast/slow: slow).",
        ),
        HelpEntry(
            "turn speed",
            "/turn speed combatant: Ash speed: slow",
            "Fast/slow turns: choose a creature's fast turn (action or move) or slow turn (both) this round.",
        ),
        HelpEntry(
            "turn heal",
            "/turn heal target: Ash use: recovery",
            "Heal (main action): the target spends a Recovery (even while dying) or makes one saving throw.",
        ),
        HelpEntry(
            "turn swap",
            "/turn swap hero: Ash with: Bree",
            "Agility order: at the start of a round the Director lets two heroes swap places.",
        ),
        # --- baseline actions that change rolls (issue 21, power rolls) ---
        HelpEntry(
            "turn defend",
            "/turn defend",
            "Defend (main action): ability rolls against you have a double bane until your next turn.",
        ),
        HelpEntry(
            "turn aid",
            "/turn aid target: Goblin 1",
            "Aid Attack (maneuver): an ally's next ability roll against that enemy gains an edge.",
        ),
    )

    turn = app_commands.Group(
        name="turn", description="Take turns in this channel's encounter.", guild_only=True
    )

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot

    @turn.command(name="act", description="Start a creature's turn.")
    @app_commands.describe(combatant="Who acts now (default: your only creature that may)")
    @app_commands.autocomplete(combatant=actable)
    async def act_cmd(self, interaction: discord.Interaction[Any], combatant: str | None = None) -> None:
        if combatant is not None and len(combatant) > NAME_MAX:
            fail(f"Names are at most {NAME_MAX} characters: pick one from the list.")
        await do_act(interaction, self.bot, combatant)

    @turn.command(name="end", description="End the turn in progress.")
    async def end_cmd(self, interaction: discord.Interaction[Any]) -> None:
        await do_end(interaction, self.bot)

    @turn.command(
        name="skip", description="Pass a creature's turn, or (Director) skip the picking side's turns."
    )
    @app_commands.describe(
        combatant="Whose turn passes (leave out: the Director skips the side that picks now)"
    )
    @app_commands.autocomplete(combatant=actable)
    async def skip_cmd(self, interaction: discord.Interaction[Any], combatant: str | None = None) -> None:
        if combatant is not None and len(combatant) > NAME_MAX:
            fail(f"Names are at most {NAME_MAX} characters: pick one from the list.")
        await do_skip(interaction, self.bot, combatant)

    @turn.command(name="speed", description="Fast/slow turns: choose a creature's fast or slow turn.")
    @app_commands.describe(
        speed="fast: an action or a move, in the fast turns; slow: an action and a move, after them",
        combatant="Whose turn (default: your only creature still to act)",
    )
    @app_commands.autocomplete(combatant=still_to_act)
    async def speed_cmd(
        self, interaction: discord.Interaction[Any], speed: Speed, combatant: str | None = None
    ) -> None:
        if combatant is not None and len(combatant) > NAME_MAX:
            fail(f"Names are at most {NAME_MAX} characters: pick one from the list.")
        await do_speed(interaction, self.bot, combatant, speed)

    @turn.command(name="swap", description="Agility order: two heroes swap places at the start of a round.")
    @app_commands.rename(other="with")
    @app_commands.describe(hero="A hero", other="The willing hero they swap places with")
    async def swap_cmd(self, interaction: discord.Interaction[Any], hero: str, other: str) -> None:
        if len(hero) > NAME_MAX or len(other) > NAME_MAX:
            fail(f"Names are at most {NAME_MAX} characters: type a hero's name.")
        await do_swap(interaction, self.bot, hero, other)

    # --- baseline actions that change rolls: Defend, Aid Attack (issue 21, power rolls) ---------------------
    @turn.command(
        name="defend", description="Defend (main action): double bane on ability rolls against you."
    )
    @app_commands.describe(combatant="Who defends (default: the creature whose turn it is, if yours)")
    @app_commands.autocomplete(combatant=autocomplete.creatures)
    async def defend_cmd(self, interaction: discord.Interaction[Any], combatant: str | None = None) -> None:
        if combatant is not None and len(combatant) > NAME_MAX:
            fail(f"Names are at most {NAME_MAX} characters: pick one from the list.")
        await do_defend(interaction, self.bot, combatant)

    @turn.command(
        name="aid", description="Aid Attack (maneuver): an ally's next roll against an enemy gains an edge."
    )
    @app_commands.describe(
        target="The adjacent enemy", combatant="Who aids (default: the creature whose turn it is, if yours)"
    )
    @app_commands.autocomplete(target=autocomplete.creatures, combatant=autocomplete.creatures)
    async def aid_cmd(
        self, interaction: discord.Interaction[Any], target: str, combatant: str | None = None
    ) -> None:
        if len(target) > NAME_MAX or (combatant is not None and len(combatant) > NAME_MAX):
            fail(f"Names are at most {NAME_MAX} characters: pick one from the list.")
        await do_aid(interaction, self.bot, target, combatant)

    # --- /turn heal (the Heal main action: cogs/turn_heal.py) ---------------------------------------------
    @turn.command(name="heal", description="The Heal main action: an ally spends a Recovery or makes a save.")
    @app_commands.describe(
        target="Who is healed (an adjacent creature)",
        use="recovery: they spend a Recovery · save: they make one saving throw",
        healer="Who uses Heal (default: the creature taking its turn, or yours)",
        condition="For save: which save-ends condition (when they have several)",
        text="For save: a custom condition's name",
    )
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
        await do_heal(interaction, self.bot, target, HealUse(use), healer, condition, text)


async def do_swap(interaction: discord.Interaction[Any], bot: DrawSteelBot, hero: str, other: str) -> None:
    """Agility turn order: at the start of a round the Director lets two heroes swap places."""
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))
    if not who.director:
        fail("Only the Director can let heroes swap places in the Agility order.")

    def change(table: Table) -> Change[tuple[str, str]]:
        encounter = encounter_of(table)
        a, b = entry_named(encounter, hero), entry_named(encounter, other)
        put_encounter(table, encounter.with_turns(swap_agility(encounter.turns, a.id, b.id).state))
        return Change(f"{a.id} and {b.id} swap places in the turn order", (a.id, b.id))

    committed = await in_time.run(commit(interaction, "turn.swap", change))
    a, b = committed.value
    await send(interaction, content=f"🔁 **{inert(a)}** and **{inert(b)}** swap places in the turn order.")


async def _on_act(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    bot = interaction.client
    await pressed(interaction, bot, do_act(interaction, bot, None, (eid, ver)))


async def _on_pick(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    bot = interaction.client
    await pressed(interaction, bot, do_act(interaction, bot, arg, (eid, ver)))


async def _on_end(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    bot = interaction.client
    await pressed(interaction, bot, do_end(interaction, bot, (eid, ver)))


async def _on_save(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    bot = interaction.client
    await pressed(interaction, bot, do_save(interaction, bot, (eid, ver)))


async def setup(bot: DrawSteelBot) -> None:
    set_handler("act", _on_act)
    set_handler("pick", _on_pick)
    set_handler("end", _on_end)
    set_handler("save", _on_save)
    await bot.add_cog(Turn(bot))
