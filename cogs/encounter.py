"""Running an encounter (/encounter start | add | hero | remove | surprise | begin | status | undo | log |
end).

Rules: `bot.rules.encounter` (roster: `add_creatures`, `add_hero`, `remove`; flow: `begin`,
`choose_first_side`, `finish`) and the turn engine (`mark_surprised`). Who may (`bot.permissions`): whoever
starts an encounter is its Director (so are members with Manage Channels and the Director role); only the
Director adds or removes Director creatures, marks surprise, begins, overrides the turn order and ends the
encounter. A player adds creatures they control to a players' side, brings in their own roster hero, and
removes their own creatures.

Undo: the Director undoes the newest change; a player only when that newest change was their own.
The who-goes-first buttons and the end confirmation are persistent (`bot.ui.tracker_controls`).
"""

from __future__ import annotations

import contextlib
import io
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import bestiary
from bot.client import DrawSteelBot
from bot.permissions import Refused, require_controls
from bot.play import (
    Caller,
    InTime,
    caller_of,
    channel_key,
    commit,
    encounter_of,
    may_undo,
    put_encounter,
    put_sheet,
    sheet_of,
    sheets_of,
)
from bot.replies import fail, inert, send
from bot.rules import codec, turns
from bot.rules.characteristics import Characteristics
from bot.rules.damage import DamageModifiers
from bot.rules.encounter import (
    NewCreatures,
    add_creatures,
    add_hero,
    fold,
    new_encounter_state,
    remove,
    written_back,
)
from bot.rules.encounter.flow import Finish, Flow, begin, choose_first_side, finish, side_named
from bot.rules.names import clean_name
from bot.rules.resources import Rounding
from bot.rules.turns import Controller, Mode, Side
from bot.store import Change, Event, Table
from bot.tracker import tracker_for
from bot.ui import pings
from bot.ui.encounter import added_text, begin_text, finish_text, side_label, started_text
from bot.ui.tracker_controls import (
    DYNAMIC_ITEMS,
    end_confirm_view,
    first_choice_view,
    set_handler,
)
from cogs.meta import HelpEntry
from cogs.turn import entry_named, owner_of, reply_and_ping, repost_tracker

MODE_CHOICES = [app_commands.Choice(name=m.value, value=m.value) for m in Mode]
TEXT_MAX = 100
LIST_MAX = 1000
STAMINA_MAX = 999
TURNS_MAX = 3
RECOVERIES_MAX = 99
TEAMS_MAX = 10
TEAM_NAME_MAX = 32


def _check_text(value: str | None, what: str, limit: int = TEXT_MAX) -> None:
    if value is not None and len(value) > limit:
        fail(f"The {what} can be at most {limit} characters: type a shorter one.")


def _check_range(value: int, low: int, high: int, what: str) -> None:
    if not low <= value <= high:
        fail(f"{what} must be a number from {low} to {high}.")


def _teams(text: str | None, mode: Mode) -> tuple[Side, ...] | None:
    """ "Red, Blue, Green" -> the teams (initiative order as typed); None for the default sides."""
    if mode is not Mode.TEAMS:
        if text:
            fail("Only the teams mode takes teams: leave it out, or pick mode: teams.")
        return None
    names = [" ".join(t.split()) for t in (text or "").split(",") if t.strip()]
    if len(names) < 2 or len(names) > TEAMS_MAX:
        fail(f"Name 2 to {TEAMS_MAX} teams separated by commas, e.g. teams: Red, Blue, Green.")
    if any(len(n) > TEAM_NAME_MAX for n in names):
        fail(f"Team names are at most {TEAM_NAME_MAX} characters: type shorter ones.")
    ids = [fold(n) for n in names]
    if len(set(ids)) != len(ids):
        fail("Give each team a different name.")
    return tuple(Side(i, Controller.PLAYERS, clean_name(n)) for i, n in zip(ids, names, strict=True))


async def _director_check(interaction: discord.Interaction[Any], bot: DrawSteelBot, action: str) -> Caller:
    who = await caller_of(interaction, bot)
    if not who.director:
        raise Refused(f"Only the Director can {action}.")
    return who


# --- autocomplete -----------------------------------------------------------------------------------------


async def _sides(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    try:
        encounter = encounter_of(await interaction.client.store.view(channel_key(interaction), shared=True))
        key = fold(current)
        names = [s.name or s.id for s in encounter.turns.sides]
        return [app_commands.Choice(name=n, value=n) for n in names if key in fold(n)][:25]
    except Exception:  # an autocomplete must never fail
        return []


async def _entries(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    try:
        encounter = encounter_of(await interaction.client.store.view(channel_key(interaction), shared=True))
        key = fold(current)
        names = [e.id for e in encounter.turns.entries if key in fold(e.id)]
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names][:25]
    except Exception:
        return []


async def _roster(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    try:
        table = await interaction.client.store.view(channel_key(interaction))
        key = fold(current)
        names = [h.name for h in table.heroes.values() if key in fold(h.name)]
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names][:25]
    except Exception:
        return []


# --- the button handlers ----------------------------------------------------------------------------------


async def on_first(interaction: discord.Interaction[Any], eid: int, ver: int, side: str) -> None:
    """A who-goes-first button: the winner of the d10 roll picks the side that goes first."""
    bot = interaction.client
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, bot))

    def change(table: Table) -> Change[Flow]:
        doc = table.require_encounter()
        if doc.id != eid:
            fail("That encounter is over: start a new one with /encounter start.")
        encounter = encounter_of(table)
        first = encounter.turns.first
        if first is None or first.chooser is None or first.side is not None:
            fail("Who goes first is already settled: carry on with /turn act.")
        chooser = first.chooser
        if not who.director:
            mine = any(
                c.owner_id == who.actor.user_id and encounter.side_of(c.id).controller is chooser
                for c in encounter.creatures
            )
            if not mine:
                who_chooses = "players" if chooser is Controller.PLAYERS else "Director"
                raise Refused(f"The {who_chooses} choose which side goes first.")
        flow = choose_first_side(encounter, side, chooser)
        put_encounter(table, flow.encounter)
        return Change(f"{side_named(encounter, side).name or side} go first", flow)

    committed = await in_time.run(commit(interaction, "encounter.first", change))
    await reply_and_ping(interaction, who, begin_text(committed.value), committed.value.encounter)


async def on_end_confirmed(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    bot = interaction.client
    in_time = InTime(interaction)
    await in_time.run(_director_check(interaction, bot, "end the encounter"))
    victory = arg != "0"

    def change(table: Table) -> Change[tuple[str, Finish]]:
        doc = table.require_encounter()
        if doc.id != eid:
            fail("That encounter is over already.")
        encounter = encounter_of(table)
        sheets = sheets_of(table)
        done = finish(encounter, victory=victory, sheets=sheets)
        for hero_id, sheet in done.sheets.items():
            put_sheet(table.heroes[hero_id], sheet)
        put_encounter(table, done.encounter)
        table.end_encounter()
        return Change(f"Encounter {doc.name} ended", (doc.name, done))

    committed = await in_time.run(commit(interaction, "encounter.end", change))
    name, done = committed.value
    await send(interaction, content=finish_text(name, done, committed.encounter_id))


async def on_end_cancelled(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    await send(interaction, content="The encounter goes on.", ephemeral=True)


async def on_undo(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    from cogs.turn import pressed

    bot = interaction.client
    await pressed(interaction, bot, do_undo(interaction, bot, (eid, ver)))


async def do_undo(
    interaction: discord.Interaction[Any], bot: DrawSteelBot, expect: tuple[int, int] | None = None
) -> None:
    """Undo the newest change: the Director any, a player only their own (`bot.play.may_undo`, judged by the
    store on the very change it undoes); from a tracker, only while it shows the newest state."""
    from cogs.turn import check_expected

    in_time = InTime(interaction)
    key = channel_key(interaction)

    async def run() -> str:
        judge = may_undo(await caller_of(interaction, bot))

        def allowed(table: Table, target: Event) -> None:
            check_expected(table, expect)
            judge(table, target)

        committed = await bot.store.undo(
            key, interaction.user.id, allowed=allowed, interaction_id=interaction.id
        )
        for listener in getattr(bot, "commit_listeners", ()):
            with contextlib.suppress(Exception):  # the undo is committed; the tracker catches up later
                await listener(key, committed)
        return committed.value.summary

    summary = await in_time.run(run())
    await send(interaction, content=f"↩️ Undone: {inert(summary)}")


class EncounterCog(commands.Cog):
    """Running an encounter (/encounter)."""

    help_entries: ClassVar[tuple[HelpEntry, ...]] = (
        HelpEntry("encounter", "/encounter start mode: draw-steel", "Run an encounter in this channel."),
        HelpEntry(
            "encounter start",
            "/encounter start mode: teams name: Arena teams: Red, Blue",
            "Start an encounter here; you become its Director. Modes: draw-steel, agility, teams, fast-slow.",
        ),
        HelpEntry(
            "encounter add",
            "/encounter add name: Goblin stamina: 10 side: director count: 3",
            "Add creatures (count numbers them; squad makes minions share a pool; player gives control; "
            "monster: a stat block from /monster).",
        ),
        HelpEntry(
            "encounter import",
            "/encounter import file: Goblin Ambush.ds-encounter",
            "Director: bring in a Forge Steel encounter's monsters from the bestiary (or group:).",
        ),
        HelpEntry("encounter hero", "/encounter hero name: Ash", "Bring a roster hero (from /hero) in."),
        HelpEntry(
            "encounter remove", "/encounter remove name: Goblin 2", "Remove a creature or a whole squad."
        ),
        HelpEntry(
            "encounter surprise",
            "/encounter surprise combatants: Goblin 1, Goblin 2",
            "Mark creatures surprised before the encounter begins.",
        ),
        HelpEntry(
            "encounter begin",
            "/encounter begin",
            "Roll the d10 for who goes first (or first: heroes) and start round 1.",
        ),
        HelpEntry("encounter status", "/encounter status", "Post the tracker again at the bottom."),
        HelpEntry("encounter undo", "/encounter undo", "Undo the newest change (players: only their own)."),
        HelpEntry("encounter log", "/encounter log", "The encounter's log as Markdown and JSON files."),
        HelpEntry(
            "encounter end",
            "/encounter end victory: True",
            "End the encounter after a confirmation: Victories, Stamina written back to the roster.",
        ),
    )

    encounter = app_commands.Group(
        name="encounter", description="Run an encounter in this channel or thread.", guild_only=True
    )

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot

    @encounter.command(name="start", description="Start an encounter in this channel or thread.")
    @app_commands.describe(
        mode="Turn structure (default draw-steel)",
        name="The encounter's name",
        teams="Teams mode: team names in initiative order, e.g. Red, Blue, Green",
    )
    @app_commands.choices(mode=MODE_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[Any],
        mode: str = Mode.DRAW_STEEL.value,
        name: str = "Encounter",
        teams: str | None = None,
    ) -> None:
        _check_text(name, "name", 64)
        _check_text(teams, "teams list", LIST_MAX)
        try:
            chosen = Mode(mode)
        except ValueError:
            fail("Pick a mode: draw-steel, agility, teams or fast-slow.")
        sides = _teams(teams, chosen)
        clean = clean_name(name)
        in_time = InTime(interaction)
        settings = await in_time.run(self.bot.store.get_settings(channel_key(interaction).guild_id))
        state = (
            new_encounter_state(chosen, sides, enforce_actions=settings.enforce_action_economy)
            if sides
            else (new_encounter_state(chosen, enforce_actions=settings.enforce_action_economy))
        )
        user_id = interaction.user.id

        def change(table: Table) -> Change[None]:
            table.begin_encounter(clean, user_id, codec.to_data(state))
            return Change(f"Encounter {clean} started ({chosen.value})", None)

        await in_time.run(commit(interaction, "encounter.start", change))
        await send(interaction, content=started_text(clean, chosen, [s.name for s in sides or ()]))

    @encounter.command(name="add", description="Add creatures to the encounter.")
    @app_commands.describe(
        name="Name (with count: numbered Goblin 1, Goblin 2...)",
        stamina="Stamina maximum (each)",
        side="heroes, director, or a team's name (default: heroes with a player, else director)",
        player="The member who controls it",
        count="How many (1-40)",
        squad="Minion squad name: they share one Stamina pool and one turn",
        group="Enemy group: its members act one after another",
        turns="Turns per round (2 for solo creatures)",
        characteristics='e.g. "M2 A1 R0 I-1 P1"',
        immunity='e.g. "fire 5, all 2"',
        weakness='e.g. "cold 3"',
        recoveries="Recoveries (heroes)",
        can_be_surprised="False for creatures that can't be surprised",
        monster="A stat block from this server's bestiary (/monster): no Stamina needed",
    )
    @app_commands.autocomplete(side=_sides, monster=bestiary.monster_choices)
    async def add(
        self,
        interaction: discord.Interaction[Any],
        name: str | None = None,
        stamina: int | None = None,
        side: str | None = None,
        player: discord.Member | None = None,
        count: int = 1,
        squad: str | None = None,
        group: str | None = None,
        turns: int = 1,
        characteristics: str | None = None,
        immunity: str | None = None,
        weakness: str | None = None,
        recoveries: int = 0,
        can_be_surprised: bool = True,
        monster: str | None = None,
    ) -> None:
        for value, what in ((name, "name"), (side, "side"), (squad, "squad name"), (group, "group name")):
            _check_text(value, what, 64)
        if monster is not None:
            _check_text(monster, "monster's name", 64)
            given = {"stamina": stamina, "player": player, "characteristics": characteristics}
            given |= {"immunity": immunity, "weakness": weakness}
            replaced = [option for option, value in given.items() if value is not None]
            where = bestiary.Where(side=side, name=name, squad=squad, group=group)
            await bestiary.add_from_bestiary(interaction, self.bot, monster, count, where, replaced)
            return
        if name is None or stamina is None:
            fail("Give the creature's name and stamina, or pick a stat block with monster:.")
        for value, what in (
            (characteristics, "characteristics"),
            (immunity, "immunity"),
            (weakness, "weakness"),
        ):
            _check_text(value, what)
        _check_range(stamina, 1, STAMINA_MAX, "Stamina")
        _check_range(count, 1, 40, "Count")
        _check_range(turns, 1, TURNS_MAX, "Turns per round")
        _check_range(recoveries, 0, RECOVERIES_MAX, "Recoveries")
        stats = Characteristics.parse(characteristics) if characteristics else Characteristics()
        modifiers = DamageModifiers.parse(immunity or "", weakness or "")
        in_time = InTime(interaction)
        who = await in_time.run(caller_of(interaction, self.bot))
        owner = player.id if player is not None else None
        if not who.director:
            if owner not in (None, who.actor.user_id):
                raise Refused("Only the Director can add creatures for another member.")
            owner = who.actor.user_id

        def change(table: Table) -> Change[tuple[str, ...]]:
            encounter = encounter_of(table)
            chosen = side_named(encounter, side) if side else None
            if chosen is None:
                controller = Controller.PLAYERS if owner is not None else Controller.DIRECTOR
                chosen = next(
                    (s for s in encounter.turns.sides if s.controller is controller), encounter.turns.sides[0]
                )
            if not who.director and chosen.controller is Controller.DIRECTOR:
                raise Refused("Only the Director can add Director creatures.")
            spec = NewCreatures(
                name=name,
                stamina=stamina,
                side=chosen.id,
                is_hero=owner is not None and squad is None and chosen.controller is Controller.PLAYERS,
                owner_id=owner,
                count=count,
                squad=squad,
                group=group,
                turns=turns,
                characteristics=stats,
                modifiers=modifiers,
                recoveries=recoveries,
                can_be_surprised=can_be_surprised,
            )
            updated, names = add_creatures(encounter, spec)
            put_encounter(table, updated)
            label = side_label(updated, chosen.id)
            if chosen.controller is Controller.DIRECTOR and updated.turns.mode is not Mode.TEAMS:
                label = "the Director's side"
            shown = ", ".join(names) if len(names) <= 5 else f"{names[0]}..{names[-1]}"
            return Change(f"{shown} joined {label}"[:300], (label, *names))

        committed = await in_time.run(commit(interaction, "encounter.add", change))
        label, *names = committed.value
        await send(interaction, content=added_text(names, label, clean_name(squad) if squad else None))

    @encounter.command(name="import", description="Bring in a Forge Steel encounter's monsters.")
    @app_commands.describe(
        file="A .ds-encounter file exported from Forge Steel",
        group="Its monsters' .ds-monster-group, if the bestiary doesn't have them",
        side="Their side (default the Director's)",
    )
    @app_commands.autocomplete(side=_sides)
    async def import_cmd(
        self,
        interaction: discord.Interaction[Any],
        file: discord.Attachment,
        group: discord.Attachment | None = None,
        side: str | None = None,
    ) -> None:
        _check_text(side, "side", 64)
        await bestiary.import_encounter(interaction, self.bot, file, group, side)

    @encounter.command(name="hero", description="Bring a roster hero into the encounter.")
    @app_commands.describe(name="The roster hero (see /hero show)", side="Their side (default heroes)")
    @app_commands.autocomplete(name=_roster, side=_sides)
    async def hero(self, interaction: discord.Interaction[Any], name: str, side: str | None = None) -> None:
        _check_text(name, "name", 64)
        _check_text(side, "side", 64)
        in_time = InTime(interaction)
        who = await in_time.run(caller_of(interaction, self.bot))

        def change(table: Table) -> Change[str]:
            found = table.hero_named(name)
            if found is None:
                fail(
                    "No roster hero by that name here: pick one from the list, or make one with /hero create."
                )
            require_controls(
                who.actor, found.owner_id, who.director, creature=found.name, action=f"bring {found.name} in"
            )
            encounter = encounter_of(table)
            if side:
                side_id = side_named(encounter, side).id
            else:
                side_id = next(
                    (s.id for s in encounter.turns.sides if s.controller is Controller.PLAYERS),
                    encounter.turns.sides[0].id,
                )
            updated, creature_id = add_hero(
                encounter, found.id, found.owner_id, found.name, sheet_of(found), side_id
            )
            put_encounter(table, updated)
            return Change(f"{creature_id} joined the encounter", creature_id)

        committed = await in_time.run(commit(interaction, "encounter.hero", change))
        await send(interaction, content=f"➕ **{inert(committed.value)}** joined the encounter.")

    @encounter.command(name="remove", description="Remove a creature (or a whole minion squad).")
    @app_commands.describe(name="The creature or squad")
    @app_commands.autocomplete(name=_entries)
    async def remove_cmd(self, interaction: discord.Interaction[Any], name: str) -> None:
        _check_text(name, "name")
        in_time = InTime(interaction)
        who = await in_time.run(caller_of(interaction, self.bot))

        def change(table: Table) -> Change[tuple[str, ...]]:
            encounter = encounter_of(table)
            entry = entry_named(encounter, name)
            require_controls(
                who.actor,
                owner_of(encounter, entry),
                who.director,
                creature=entry.id,
                action=f"remove {entry.id}",
            )
            updated, gone = remove(encounter, entry.id)
            sheets = sheets_of(table)
            for hero_id, sheet in written_back(encounter, sheets, gone).items():
                put_sheet(table.heroes[hero_id], sheet)
            put_encounter(table, updated)
            return Change(f"{', '.join(gone)} removed"[:300], gone)

        committed = await in_time.run(commit(interaction, "encounter.remove", change))
        await send(
            interaction, content=f"➖ {', '.join(inert(n) for n in committed.value)} left the encounter."
        )

    @encounter.command(name="surprise", description="Mark creatures surprised (before the encounter begins).")
    @app_commands.describe(combatants="Names separated by commas, e.g. Goblin 1, Goblin 2")
    async def surprise(self, interaction: discord.Interaction[Any], combatants: str) -> None:
        _check_text(combatants, "list", LIST_MAX)
        names = [n.strip() for n in combatants.split(",") if n.strip()]
        if not names:
            fail("Name the surprised combatants separated by commas, e.g. Goblin 1, Goblin 2.")
        in_time = InTime(interaction)
        await in_time.run(_director_check(interaction, self.bot, "mark surprise"))

        def change(table: Table) -> Change[tuple[str, ...]]:
            encounter = encounter_of(table)
            state = encounter.turns
            marked: list[str] = []
            for n in names:
                entry = entry_named(encounter, n)
                if entry.id not in marked:
                    state = turns.mark_surprised(state, entry.id).state
                    marked.append(entry.id)
            put_encounter(table, encounter.with_turns(state))
            return Change(f"Surprised: {', '.join(marked)}"[:300], tuple(marked))

        committed = await in_time.run(commit(interaction, "encounter.surprise", change))
        await send(interaction, content=f"😲 Surprised: {', '.join(inert(n) for n in committed.value)}.")

    @encounter.command(name="begin", description="Begin combat: who goes first, then round 1.")
    @app_commands.describe(
        first="Director: set the side that goes first outright (no roll)",
        order="Teams: the team order, e.g. Blue, Red (default: the order they were named)",
    )
    @app_commands.autocomplete(first=_sides)
    async def begin_cmd(
        self, interaction: discord.Interaction[Any], first: str | None = None, order: str | None = None
    ) -> None:
        _check_text(first, "side", 64)
        _check_text(order, "order", LIST_MAX)
        in_time = InTime(interaction)
        who = await in_time.run(_director_check(interaction, self.bot, "begin the encounter"))
        dice = self.bot.dice
        rounding = Rounding(who.settings.malice_rounding)
        team_order = [t.strip() for t in (order or "").split(",") if t.strip()]

        def change(table: Table) -> Change[tuple[int, Flow]]:
            doc = table.require_encounter()
            encounter = encounter_of(table)
            if team_order and encounter.turns.mode is not Mode.TEAMS:
                fail("Only the teams mode takes an order: leave it out.")
            victories = {
                cid: sheet_of(table.heroes[hid]).progress.victories
                for cid, hid in encounter.roster.items()
                if hid in table.heroes
            }
            flow = begin(
                encounter, dice, first=first, team_order=team_order, victories=victories, rounding=rounding
            )
            put_encounter(table, flow.encounter)
            summary = begin_text(flow).splitlines()[0] if begin_text(flow) else "Combat begins"
            assert doc.id is not None
            return Change(summary[:300], (doc.id, flow))

        committed = await in_time.run(commit(interaction, "encounter.begin", change))
        eid, flow = committed.value
        state = flow.encounter.turns
        if state.phase is turns.Phase.SETUP and state.first is not None and state.first.chooser is not None:
            view = first_choice_view(eid, committed.version, flow.encounter)
            ping = pings.chooser_ping(
                flow.encounter,
                state.first.chooser,
                director_id=who.director_id,
                director_role_id=who.settings.director_role_id,
            )
            await pings.reply(
                interaction, begin_text(flow), ping, enabled=who.settings.turn_pings, view=view
            )
            return
        await reply_and_ping(interaction, who, begin_text(flow), flow.encounter)

    @encounter.command(name="status", description="Post the tracker again at the bottom of the channel.")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        in_time = InTime(interaction)
        table = await in_time.run(self.bot.store.view(channel_key(interaction)))
        table.require_encounter()
        posted = await in_time.run(repost_tracker(interaction, self.bot))
        if posted is None:
            fail("The tracker couldn't be posted here: check the bot may send messages in this channel.")
        where = tracker_for(self.bot).where_text(channel_key(interaction))
        await send(interaction, content=where, ephemeral=True)

    @encounter.command(name="undo", description="Undo the newest change (players: only their own).")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await do_undo(interaction, self.bot)

    @encounter.command(name="log", description="The encounter's log as Markdown and JSON files.")
    @app_commands.describe(encounter="An ended encounter's number (default: the one running here)")
    async def log(self, interaction: discord.Interaction[Any], encounter: int | None = None) -> None:
        key = channel_key(interaction)
        in_time = InTime(interaction)
        if encounter is None:
            table = await in_time.run(self.bot.store.view(key))
            doc = table.require_encounter()
            assert doc.id is not None
            eid = doc.id
        else:
            info = await in_time.run(self.bot.store.find_encounter(encounter))
            if info is None or info.channel_id != key.channel_id:
                fail("No encounter with that number in this channel: leave it out for the one running here.")
            eid = info.id
        markdown = await in_time.run(self.bot.store.transcript_markdown(eid))
        exported = await in_time.run(self.bot.store.export_json(eid))
        files = [
            discord.File(io.BytesIO(markdown.encode()), filename=f"encounter-{eid}.md"),
            discord.File(io.BytesIO(exported.encode()), filename=f"encounter-{eid}.json"),
        ]
        await send(interaction, content=f"📜 The log of encounter {eid}.", files=files)

    @encounter.command(name="end", description="End the encounter (after a confirmation).")
    @app_commands.describe(victory="Was the heroes' objective achieved? (1 Victory each to the survivors)")
    async def end(self, interaction: discord.Interaction[Any], victory: bool = True) -> None:
        in_time = InTime(interaction)
        await in_time.run(_director_check(interaction, self.bot, "end the encounter"))
        table = await in_time.run(self.bot.store.view(channel_key(interaction)))
        doc = table.require_encounter()
        assert doc.id is not None
        won = "the objective achieved: 1 Victory to each surviving hero" if victory else "no Victories"
        await send(
            interaction,
            content=f"End **{inert(doc.name)}** now, with {won}?",
            view=end_confirm_view(doc.id, table.version, victory),
            ephemeral=True,
        )


async def setup(bot: DrawSteelBot) -> None:
    set_handler("first", on_first)
    set_handler("endok", on_end_confirmed)
    set_handler("endno", on_end_cancelled)
    set_handler("undo", on_undo)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(EncounterCog(bot))
