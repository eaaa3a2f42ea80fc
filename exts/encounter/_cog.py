"""The /encounter commands (start | add | hero | remove | surprise | begin | status | undo | log | end).

Rules: `bot.rules.encounter` (roster: `add_creatures`, `add_hero`, `remove`; flow: `begin`,
`choose_first_side`, `finish`) and the turn engine (`mark_surprised`). Who may (`bot.permissions`, the
rules of docs/permissions.md): when the server has a Director role only server Directors start encounters
(anyone otherwise); whoever starts one is its Director (so is every server Director); only the Director adds
or removes Director creatures, marks surprise, begins, overrides the turn order and ends the encounter. A
player adds creatures they control to a players' side, brings in their own roster hero (only they or a server
Director bring in a roster hero), and removes their own creatures.
"""

from __future__ import annotations

from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import DrawSteelBot
from bot.help import HelpEntry
from bot.options import check_range, check_text
from bot.permissions import actor_from_interaction, require, require_controls, standing
from bot.play import (
    InTime,
    caller_of,
    channel_key,
    commit,
    encounter_of,
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
    Encounter,
    NewCreatures,
    add_creatures,
    add_hero,
    new_encounter_state,
    remove,
    written_back,
)
from bot.rules.encounter.flow import Flow, begin, side_named
from bot.rules.encounter.model import RoundNews
from bot.rules.encounter.rounds import news_since
from bot.rules.forced import MEDIUM, Size
from bot.rules.names import clean_name
from bot.rules.resources import Rounding
from bot.rules.turns import Controller, Mode
from bot.store import Change, Table
from exts.bestiary import _service as bestiary
from exts.encounter._controls import director_check, do_undo
from exts.encounter._options import (
    LIST_MAX,
    MODE_CHOICES,
    RECOVERIES_MAX,
    STAMINA_MAX,
    TEXT_MAX,
    TURNS_MAX,
    entries,
    roster,
    sides,
    teams_of,
)
from exts.encounter._record import post_log, post_status
from exts.tracker._controls import end_confirm_view, first_choice_view
from exts.turn import _pings as pings
from exts.turn._glue import entry_named, owner_of
from exts.turn._replies import reply_and_ping, reply_with_rounds
from exts.turn._views import added_text, begin_text, side_label, started_text


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
        HelpEntry(
            "encounter status",
            "/encounter status private: True",
            "Post the tracker again at the bottom; private: the Director's exact tracker, only for you.",
        ),
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
        check_text(name, "name", 64)
        check_text(teams, "teams list", LIST_MAX)
        try:
            chosen = Mode(mode)
        except ValueError:
            fail("Pick a mode: draw-steel, agility, teams or fast-slow.")
        sides = teams_of(teams, chosen)
        clean = clean_name(name)
        in_time = InTime(interaction)
        settings = await in_time.run(self.bot.store.get_settings(channel_key(interaction).guild_id))
        role = settings.director_role_id
        require(
            "/encounter start",
            standing(actor_from_interaction(interaction), director_role_id=role),
            director_role_id=role,
        )
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
        size='Size, e.g. "1S", "2" (default 1M): a larger creature pushes a smaller one farther',
    )
    @app_commands.autocomplete(side=sides, monster=bestiary.monster_choices)
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
        size: str | None = None,
    ) -> None:
        for value, what in ((name, "name"), (side, "side"), (squad, "squad name"), (group, "group name")):
            check_text(value, what, 64)
        if monster is not None:
            check_text(monster, "monster's name", 64)
            given = {"stamina": stamina, "player": player, "characteristics": characteristics}
            given |= {"immunity": immunity, "weakness": weakness, "size": size}
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
            (size, "size"),
        ):
            check_text(value, what, TEXT_MAX)
        check_range(stamina, 1, STAMINA_MAX, "Stamina")
        check_range(count, 1, 40, "Count")
        check_range(turns, 1, TURNS_MAX, "Turns per round")
        check_range(recoveries, 0, RECOVERIES_MAX, "Recoveries")
        stats = Characteristics.parse(characteristics) if characteristics else Characteristics()
        modifiers = DamageModifiers.parse(immunity or "", weakness or "")
        bulk = Size.parse(size) if size else MEDIUM
        in_time = InTime(interaction)
        who = await in_time.run(caller_of(interaction, self.bot))
        owner = player.id if player is not None else None
        if owner not in (None, who.actor.user_id):
            who.require("/encounter add player:")
        if not who.director:
            owner = who.actor.user_id

        def change(table: Table) -> Change[tuple[tuple[str, ...], Encounter, RoundNews | None]]:
            encounter = encounter_of(table)
            chosen = side_named(encounter, side) if side else None
            if chosen is None:
                controller = Controller.PLAYERS if owner is not None else Controller.DIRECTOR
                chosen = next(
                    (s for s in encounter.turns.sides if s.controller is controller), encounter.turns.sides[0]
                )
            if chosen.controller is Controller.DIRECTOR:
                who.require("/encounter add side:director")
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
                size=bulk,
            )
            updated, names = add_creatures(encounter, spec)
            put_encounter(table, updated)
            label = side_label(updated, chosen.id)
            if chosen.controller is Controller.DIRECTOR and updated.turns.mode is not Mode.TEAMS:
                label = "the Director's side"
            shown = ", ".join(names) if len(names) <= 5 else f"{names[0]}..{names[-1]}"
            news = news_since(encounter, updated)  # somebody able to act again: a waiting round starts
            return Change(f"{shown} joined {label}"[:300], ((label, *names), updated, news))

        committed = await in_time.run(commit(interaction, "encounter.add", change))
        (label, *names), after, news = committed.value
        text = added_text(names, label, clean_name(squad) if squad else None)
        await reply_with_rounds(interaction, who, text, after, news, committed)

    @encounter.command(name="import", description="Bring in a Forge Steel encounter's monsters.")
    @app_commands.describe(
        file="A .ds-encounter file exported from Forge Steel",
        group="Its monsters' .ds-monster-group, if the bestiary doesn't have them",
        side="Their side (default the Director's)",
    )
    @app_commands.autocomplete(side=sides)
    async def import_cmd(
        self,
        interaction: discord.Interaction[Any],
        file: discord.Attachment,
        group: discord.Attachment | None = None,
        side: str | None = None,
    ) -> None:
        check_text(side, "side", 64)
        await bestiary.import_encounter(interaction, self.bot, file, group, side)

    @encounter.command(name="hero", description="Bring a roster hero into the encounter.")
    @app_commands.describe(name="The roster hero (see /hero show)", side="Their side (default heroes)")
    @app_commands.autocomplete(name=roster, side=sides)
    async def hero(self, interaction: discord.Interaction[Any], name: str, side: str | None = None) -> None:
        check_text(name, "name", 64)
        check_text(side, "side", 64)
        in_time = InTime(interaction)
        who = await in_time.run(caller_of(interaction, self.bot))

        def change(table: Table) -> Change[str]:
            found = table.hero_named(name)
            if found is None:
                fail(
                    "No roster hero by that name here: pick one from the list, or make one with /hero create."
                )
            # the roster is the campaign's: only the hero's player or a server Director brings them in, never
            # an encounter's Director as such (whoever started it could otherwise wound anyone's hero)
            owner = None if sheet_of(found).claimable else found.owner_id
            require(
                "/encounter hero",
                who.standing(owner_id=owner),
                director_role_id=who.settings.director_role_id,
                action=f"bring {inert(found.name)} in",
                whose=None if owner is None else found.name,
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
            table.rely_on_roster()  # deleted or re-imported meanwhile (even in another process): run again
            return Change(f"{creature_id} joined the encounter", creature_id)

        committed = await in_time.run(commit(interaction, "encounter.hero", change))
        await send(interaction, content=f"➕ **{inert(committed.value)}** joined the encounter.")

    @encounter.command(name="remove", description="Remove a creature (or a whole minion squad).")
    @app_commands.describe(name="The creature or squad")
    @app_commands.autocomplete(name=entries)
    async def remove_cmd(self, interaction: discord.Interaction[Any], name: str) -> None:
        check_text(name, "name", TEXT_MAX)
        in_time = InTime(interaction)
        who = await in_time.run(caller_of(interaction, self.bot))

        def change(table: Table) -> Change[tuple[tuple[str, ...], Encounter, RoundNews | None]]:
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
            return Change(f"{', '.join(gone)} removed"[:300], (gone, updated, news_since(encounter, updated)))

        committed = await in_time.run(commit(interaction, "encounter.remove", change))
        gone, after, news = committed.value
        text = f"➖ {', '.join(inert(n) for n in gone)} left the encounter."
        await reply_with_rounds(interaction, who, text, after, news, committed)

    @encounter.command(name="surprise", description="Mark creatures surprised (before the encounter begins).")
    @app_commands.describe(combatants="Names separated by commas, e.g. Goblin 1, Goblin 2")
    async def surprise(self, interaction: discord.Interaction[Any], combatants: str) -> None:
        check_text(combatants, "list", LIST_MAX)
        names = [n.strip() for n in combatants.split(",") if n.strip()]
        if not names:
            fail("Name the surprised combatants separated by commas, e.g. Goblin 1, Goblin 2.")
        in_time = InTime(interaction)
        await in_time.run(director_check(interaction, self.bot, "/encounter surprise"))

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
    @app_commands.autocomplete(first=sides)
    async def begin_cmd(
        self, interaction: discord.Interaction[Any], first: str | None = None, order: str | None = None
    ) -> None:
        check_text(first, "side", 64)
        check_text(order, "order", LIST_MAX)
        in_time = InTime(interaction)
        who = await in_time.run(director_check(interaction, self.bot, "/encounter begin"))
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
            await pings.reply(interaction, begin_text(flow), ping, enabled=who.settings.turn_pings, view=view)
            return
        await reply_and_ping(interaction, who, begin_text(flow), flow.encounter)

    @encounter.command(name="status", description="Post the tracker again at the bottom of the channel.")
    @app_commands.describe(private="Director: a tracker with every exact Stamina that only you see")
    async def status(self, interaction: discord.Interaction[Any], private: bool = False) -> None:
        await post_status(interaction, self.bot, private)

    @encounter.command(name="undo", description="Undo the newest change (players: only their own).")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await do_undo(interaction, self.bot)

    @encounter.command(name="log", description="The encounter's log as Markdown and JSON files.")
    @app_commands.describe(
        encounter="An ended encounter's number (default: the one running here, else the last one that ended)"
    )
    async def log(self, interaction: discord.Interaction[Any], encounter: int | None = None) -> None:
        await post_log(interaction, self.bot, encounter)

    @encounter.command(name="end", description="End the encounter (after a confirmation).")
    @app_commands.describe(victory="Was the heroes' objective achieved? (1 Victory each to the survivors)")
    async def end(self, interaction: discord.Interaction[Any], victory: bool = True) -> None:
        in_time = InTime(interaction)
        who = await in_time.run(director_check(interaction, self.bot, "/encounter end"))
        table = await in_time.run(self.bot.store.view(channel_key(interaction)))
        doc = table.require_encounter()
        assert doc.id is not None
        won = "the objective achieved: 1 Victory to each surviving hero" if victory else "no Victories"
        if victory and not who.standing().server_director:
            won += " (once a server Director awards them)"
        await send(
            interaction,
            content=f"End **{inert(doc.name)}** now, with {won}?",
            view=end_confirm_view(doc.id, table.version, victory),
            ephemeral=True,
        )
