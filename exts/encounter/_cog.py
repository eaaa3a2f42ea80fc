"""The /encounter commands (start | add | hero | remove | surprise | begin | status | undo | log | end).

Rules: `bot.rules.encounter` (roster: `add_creatures`, `add_hero`, `remove`; flow: `begin`,
`choose_first_side`, `finish`) and the turn engine (`mark_surprised`). Who may: `bot.permissions` (the rules
of docs/permissions.md; in short on `EncounterCog`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.client import BotCog
from bot.help import guild_group
from bot.options import Bounded, Text
from bot.permissions import require, require_controls
from bot.play import (
    Caller,
    InTime,
    Member,
    Played,
    apply,
    carried_malice,
    channel_key,
    play,
    put_sheet,
    sheet_of,
    sheets_of,
)
from bot.replies import fail, inert, send
from bot.rules import codec, turns
from bot.rules.characteristics import Characteristics
from bot.rules.damage import DamageModifiers
from bot.rules.encounter import (
    COUNT_MAX,
    Encounter,
    NewCreatures,
    add_creatures,
    add_hero,
    new_encounter_state,
    remove,
    written_back,
)
from bot.rules.encounter.flow import Flow, begin, side_named
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
    Name,
    SideName,
    entries,
    roster,
    sides,
    teams_of,
)
from exts.encounter._record import post_log, post_status
from exts.tracker._controls import end_confirm_view, first_choice_view
from exts.turn import _pings as pings
from exts.turn._glue import entry_named, owner_of
from exts.turn._replies import reply_and_ping, reply_played
from exts.turn._views import added_text, begin_text, started_text


@dataclass(frozen=True, slots=True)
class Added:
    """What `/encounter add` brought in: the side's words for the reply ("the Director's side") and the
    creatures' names."""

    label: str
    names: tuple[str, ...]


def _add(
    who: Caller, encounter: Encounter, spec: NewCreatures, side: str | None, owner: int | None
) -> tuple[Encounter, Added]:
    """`/encounter add`: the creatures `spec` describes, on `side` (default: the players' side for a creature
    with a player, else the Director's); a player's creatures are always theirs."""
    if not who.director:
        owner = who.actor.user_id
    chosen = side_named(encounter, side) if side else None
    if chosen is None:
        controller = Controller.PLAYERS if owner is not None else Controller.DIRECTOR
        chosen = next(
            (s for s in encounter.turns.sides if s.controller is controller), encounter.turns.sides[0]
        )
    if chosen.controller is Controller.DIRECTOR:
        who.require("/encounter add side:director")
    is_hero = owner is not None and spec.squad is None and chosen.controller is Controller.PLAYERS
    spec = dataclasses.replace(spec, side=chosen.id, is_hero=is_hero, owner_id=owner)
    updated, names = add_creatures(encounter, spec)
    return updated, Added(bestiary.side_words(updated, chosen), tuple(names))


def _bring_hero(
    who: Caller, encounter: Encounter, table: Table, name: str, side: str | None
) -> tuple[Encounter, str]:
    """`/encounter hero`: a roster hero joins the encounter (on `side`, default the players'); returns their
    creature's id."""
    found = table.hero_named(name)
    if found is None:
        fail("No roster hero by that name here: pick one from the list, or make one with /hero create.")
    # the roster is the campaign's: only the hero's player or a server Director brings them in, never an
    # encounter's Director as such (whoever started it could otherwise wound anyone's hero)
    owner = None if sheet_of(found).claimable else found.owner_id
    require(
        "/encounter hero",
        who.standing(owner_id=owner),
        director_role_id=who.settings.director_role_id,
        action=f"bring {inert(found.name)} in",
        whose=None if owner is None else found.name,
    )
    if side:
        side_id = side_named(encounter, side).id
    else:
        players = (s.id for s in encounter.turns.sides if s.controller is Controller.PLAYERS)
        side_id = next(players, encounter.turns.sides[0].id)
    updated, creature_id = add_hero(encounter, found.id, found.owner_id, found.name, sheet_of(found), side_id)
    table.rely_on_roster()  # deleted or re-imported meanwhile (even in another process): run again
    return updated, creature_id


def _remove(who: Caller, encounter: Encounter, table: Table, name: str) -> tuple[Encounter, tuple[str, ...]]:
    """`/encounter remove`: a creature (or a whole squad) leaves; a roster hero's sheet takes their state."""
    entry = entry_named(encounter, name)
    action = f"remove {entry.id}"
    require_controls(who.actor, owner_of(encounter, entry), who.director, creature=entry.id, action=action)
    updated, gone = remove(encounter, entry.id)
    for hero_id, sheet in written_back(encounter, sheets_of(table), gone).items():
        put_sheet(table.heroes[hero_id], sheet)
    return updated, gone


def _surprise(encounter: Encounter, names: list[str]) -> tuple[Encounter, tuple[str, ...]]:
    """`/encounter surprise`: the named creatures are surprised (each once)."""
    state = encounter.turns
    marked: list[str] = []
    for n in names:
        entry = entry_named(encounter, n)
        if entry.id not in marked:
            state = turns.mark_surprised(state, entry.id).state
            marked.append(entry.id)
    return encounter.with_turns(state), tuple(marked)


def _begun(flow: Flow) -> str:
    text = begin_text(flow)
    return (text.splitlines()[0] if text else "Combat begins")[:300]


class EncounterCog(BotCog):
    """Running an encounter (/encounter).

    Who may (`bot.permissions`, the rules of docs/permissions.md): when the server has a Director role only
    server Directors start encounters (anyone otherwise); whoever starts one is its Director (so is every
    server Director); only the Director adds or removes Director creatures, marks surprise, begins, overrides
    the turn order and ends the encounter. A player adds creatures they control to a players' side, brings in
    their own roster hero (only they or a server Director bring in a roster hero), and removes their own
    creatures."""

    encounter = guild_group(
        "encounter",
        "Run an encounter in this channel or thread.",
        "/encounter start mode: draw-steel",
        "Run an encounter in this channel.",
    )

    @encounter.command(name="start", description="Start an encounter in this channel or thread.")
    @app_commands.choices(mode=MODE_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[Any],
        mode: str = Mode.DRAW_STEEL.value,
        name: Name = "Encounter",
        teams: app_commands.Transform[str, Text("teams list", LIST_MAX)] | None = None,
    ) -> None:
        """Start an encounter here; you become its Director. Modes: draw-steel, agility, teams, fast-slow.

        Example: /encounter start mode: teams name: Arena teams: Red, Blue

        Args:
            mode: Turn structure (default draw-steel)
            name: The encounter's name
            teams: Teams mode: team names in initiative order, e.g. Red, Blue, Green
        """
        try:
            chosen = Mode(mode)
        except ValueError:
            fail("Pick a mode: draw-steel, agility, teams or fast-slow.")
        sides = teams_of(teams, chosen)
        clean = clean_name(name)
        settings = await self.bot.store.get_settings(channel_key(interaction).guild_id)
        enforce = settings.enforce_action_economy
        state = new_encounter_state(chosen, sides, enforce_actions=enforce) if sides else (
            new_encounter_state(chosen, enforce_actions=enforce)
        )  # fmt: skip

        carried = await carried_malice(self.bot.store, channel_key(interaction))
        if carried is not None:  # a montage's close carried it into this fight: added when combat begins
            state = dataclasses.replace(state, carried_malice=carried.malice)

        def change(who: Member, table: Table) -> Change[None]:
            table.begin_encounter(clean, who.actor.user_id, codec.to_data(state))
            return Change(f"Encounter {clean} started ({chosen.value})", None)

        await apply(interaction, "encounter.start", change, rule="/encounter start")
        text = started_text(clean, chosen, [s.name for s in sides or ()])
        if carried is not None:
            text += (
                f"\n😈 {carried.malice} Malice carried over from the montage {inert(carried.montage)}: the "
                "Director gains it when combat begins."
            )
        await send(interaction, content=text)

    @encounter.command(name="add", description="Add creatures to the encounter.")
    @app_commands.autocomplete(side=sides, monster=bestiary.monster_choices)
    async def add(
        self,
        interaction: discord.Interaction[Any],
        name: Name | None = None,
        stamina: app_commands.Transform[int, Bounded("Stamina", 1, STAMINA_MAX)] | None = None,
        side: SideName | None = None,
        player: discord.Member | None = None,
        count: app_commands.Transform[int, Bounded("Count", 1, COUNT_MAX)] = 1,
        squad: app_commands.Transform[str, Text("squad name", 64)] | None = None,
        group: app_commands.Transform[str, Text("group name", 64)] | None = None,
        turns: app_commands.Transform[int, Bounded("Turns per round", 1, TURNS_MAX)] = 1,
        characteristics: app_commands.Transform[str, Text("characteristics", TEXT_MAX)] | None = None,
        immunity: app_commands.Transform[str, Text("immunity", TEXT_MAX)] | None = None,
        weakness: app_commands.Transform[str, Text("weakness", TEXT_MAX)] | None = None,
        recoveries: app_commands.Transform[int, Bounded("Recoveries", 0, RECOVERIES_MAX)] = 0,
        can_be_surprised: bool = True,
        monster: app_commands.Transform[str, Text("monster's name", 64)] | None = None,
        size: app_commands.Transform[str, Text("size", TEXT_MAX)] | None = None,
    ) -> None:
        """Add creatures (count numbers them; squad makes minions share a pool; player gives control; monster:
        a stat block from /monster).

        Example: /encounter add name: Goblin stamina: 10 side: director count: 3

        Args:
            name: Name (with count: numbered Goblin 1, Goblin 2...)
            stamina: Stamina maximum (each)
            side: heroes, director, or a team's name (default: heroes with a player, else director)
            player: The member who controls it
            count: How many (1-40)
            squad: Minion squad name: they share one Stamina pool and one turn
            group: Enemy group: its members act one after another
            turns: Turns per round (2 for solo creatures)
            characteristics: e.g. "M2 A1 R0 I-1 P1"
            immunity: e.g. "fire 5, all 2"
            weakness: e.g. "cold 3"
            recoveries: Recoveries (heroes)
            can_be_surprised: False for creatures that can't be surprised
            monster: A stat block from this server's bestiary (/monster): no Stamina needed
            size: Size, e.g. "1S", "2" (default 1M): a larger creature pushes a smaller one farther
        """
        if monster is not None:
            given = {"stamina": stamina, "player": player, "characteristics": characteristics}
            given |= {"immunity": immunity, "weakness": weakness, "size": size}
            replaced = [option for option, value in given.items() if value is not None]
            where = bestiary.Where(side=side, name=name, squad=squad, group=group)
            await bestiary.add_from_bestiary(interaction, self.bot, monster, count, where, replaced)
            return
        if name is None or stamina is None:
            fail("Give the creature's name and stamina, or pick a stat block with monster:.")
        spec = NewCreatures(
            name=name,
            stamina=stamina,
            side="",
            count=count,
            squad=squad,
            group=group,
            turns=turns,
            characteristics=Characteristics.parse(characteristics) if characteristics else Characteristics(),
            modifiers=DamageModifiers.parse(immunity or "", weakness or ""),
            recoveries=recoveries,
            can_be_surprised=can_be_surprised,
            size=Size.parse(size) if size else MEDIUM,
        )
        owner = player.id if player is not None else None
        rule = "/encounter add player:" if owner not in (None, interaction.user.id) else None
        played = await play(
            interaction,
            "encounter.add",
            lambda who, encounter, _table: _add(who, encounter, spec, side, owner),
            lambda added: bestiary.joined(added.names, added.label),
            rule=rule,
        )
        text = added_text(
            list(played.result.names), played.result.label, clean_name(squad) if squad else None
        )
        await reply_played(interaction, played, text)

    @encounter.command(name="import", description="Bring in a Forge Steel encounter's monsters.")
    @app_commands.autocomplete(side=sides)
    async def import_cmd(
        self,
        interaction: discord.Interaction[Any],
        file: discord.Attachment,
        group: discord.Attachment | None = None,
        side: SideName | None = None,
    ) -> None:
        """Director: bring in a Forge Steel encounter's monsters from the bestiary (or group:).

        Example: /encounter import file: Goblin Ambush.ds-encounter

        Args:
            file: A .ds-encounter file exported from Forge Steel
            group: Its monsters' .ds-monster-group, if the bestiary doesn't have them
            side: Their side (default the Director's)
        """
        await bestiary.import_encounter(interaction, self.bot, file, group, side)

    @encounter.command(name="hero", description="Bring a roster hero into the encounter.")
    @app_commands.autocomplete(name=roster, side=sides)
    async def hero(
        self, interaction: discord.Interaction[Any], name: Name, side: SideName | None = None
    ) -> None:
        """Bring a roster hero (from /hero) in.

        Example: /encounter hero name: Ash

        Args:
            name: The roster hero (see /hero show)
            side: Their side (default heroes)
        """
        played = await play(
            interaction,
            "encounter.hero",
            lambda who, encounter, table: _bring_hero(who, encounter, table, name, side),
            lambda creature_id: f"{creature_id} joined the encounter",
        )
        await send(interaction, content=f"➕ **{inert(played.result)}** joined the encounter.")

    @encounter.command(name="remove", description="Remove a creature (or a whole minion squad).")
    @app_commands.autocomplete(name=entries)
    async def remove_cmd(
        self, interaction: discord.Interaction[Any], name: app_commands.Transform[str, Text("name", TEXT_MAX)]
    ) -> None:
        """Remove a creature or a whole squad.

        Example: /encounter remove name: Goblin 2

        Args:
            name: The creature or squad
        """
        played = await play(
            interaction,
            "encounter.remove",
            lambda who, encounter, table: _remove(who, encounter, table, name),
            lambda gone: f"{', '.join(gone)} removed"[:300],
        )
        text = f"➖ {', '.join(inert(n) for n in played.result)} left the encounter."
        await reply_played(interaction, played, text)

    @encounter.command(name="surprise", description="Mark creatures surprised (before the encounter begins).")
    async def surprise(
        self,
        interaction: discord.Interaction[Any],
        combatants: app_commands.Transform[str, Text("list", LIST_MAX)],
    ) -> None:
        """Mark creatures surprised before the encounter begins.

        Example: /encounter surprise combatants: Goblin 1, Goblin 2

        Args:
            combatants: Names separated by commas, e.g. Goblin 1, Goblin 2
        """
        names = [n.strip() for n in combatants.split(",") if n.strip()]
        if not names:
            fail("Name the surprised combatants separated by commas, e.g. Goblin 1, Goblin 2.")
        played = await play(
            interaction,
            "encounter.surprise",
            lambda _who, encounter, _table: _surprise(encounter, names),
            lambda marked: f"Surprised: {', '.join(marked)}"[:300],
            rule="/encounter surprise",
        )
        await send(interaction, content=f"😲 Surprised: {', '.join(inert(n) for n in played.result)}.")

    @encounter.command(name="begin", description="Begin combat: who goes first, then round 1.")
    @app_commands.autocomplete(first=sides)
    async def begin_cmd(
        self,
        interaction: discord.Interaction[Any],
        first: SideName | None = None,
        order: app_commands.Transform[str, Text("order", LIST_MAX)] | None = None,
    ) -> None:
        """Roll the d10 for who goes first (or first: heroes) and start round 1.

        Example: /encounter begin

        Args:
            first: Director: set the side that goes first outright (no roll)
            order: Teams: the team order, e.g. Blue, Red (default: the order they were named)
        """
        dice = self.bot.dice
        team_order = [t.strip() for t in (order or "").split(",") if t.strip()]

        def step(who: Caller, encounter: Encounter, table: Table) -> tuple[Encounter, Flow]:
            if team_order and encounter.turns.mode is not Mode.TEAMS:
                fail("Only the teams mode takes an order: leave it out.")
            victories = {
                cid: sheet_of(table.heroes[hid]).progress.victories
                for cid, hid in encounter.roster.items()
                if hid in table.heroes
            }
            rounding = Rounding(who.settings.malice_rounding)
            flow = begin(
                encounter, dice, first=first, team_order=team_order, victories=victories, rounding=rounding
            )
            return flow.encounter, flow

        played = await play(interaction, "encounter.begin", step, _begun, rule="/encounter begin")
        await self._begun_reply(interaction, played)

    async def _begun_reply(self, interaction: discord.Interaction[Any], played: Played[Flow]) -> None:
        """The reply to `/encounter begin`: who picks the side that goes first (pinged), or round 1."""
        flow, who = played.result, played.caller
        state = flow.encounter.turns
        if state.phase is turns.Phase.SETUP and state.first is not None and state.first.chooser is not None:
            assert played.encounter_id is not None
            view = first_choice_view(played.encounter_id, played.version, flow.encounter)
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
    async def status(self, interaction: discord.Interaction[Any], private: bool = False) -> None:
        """Post the tracker again at the bottom; private: the Director's exact tracker and villain actions,
        only for you.

        Example: /encounter status private: True

        Args:
            private: Director: a tracker with every exact Stamina that only you see
        """
        await post_status(interaction, self.bot, private)

    @encounter.command(name="undo", description="Undo the newest change (players: only their own).")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        """Undo the newest change (players: only their own).

        Example: /encounter undo
        """
        await do_undo(interaction, self.bot)

    @encounter.command(name="log", description="The encounter's log as Markdown and JSON files.")
    async def log(self, interaction: discord.Interaction[Any], encounter: int | None = None) -> None:
        """The encounter's log as Markdown and JSON files.

        Example: /encounter log

        Args:
            encounter: An ended encounter's number (default: the one running here, else the last to end)
        """
        await post_log(interaction, self.bot, encounter)

    @encounter.command(name="end", description="End the encounter (after a confirmation).")
    async def end(self, interaction: discord.Interaction[Any], victory: bool = True) -> None:
        """End the encounter after a confirmation: Victories, Stamina written back to the roster.

        Example: /encounter end victory: True

        Args:
            victory: Was the heroes' objective achieved? (1 Victory each to the survivors)
        """
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
