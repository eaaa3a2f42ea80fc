"""`/negotiation`: a negotiation with an NPC run in the channel as its scene (`bot.play.play_scene`, kind
"negotiation"): the Director starts it (or imports a Forge Steel one) with the NPC's hidden motivations and
pitfalls, heroes argue and read the NPC, it ends by itself or when the heroes ask for the offer, and the
Director closes it with Victories. Undo and the log are the encounter's; players never get its state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot import autocomplete
from bot.attachments import defer_for_file, download
from bot.client import BotCog
from bot.content.forgesteel.negotiation import read_negotiation
from bot.help import guild_group
from bot.options import Text
from bot.permissions import actor_from_interaction, is_director
from bot.play import (
    Caller,
    InTime,
    Member,
    SceneStep,
    Staged,
    apply,
    caller_of,
    channel_key,
    hero_of_member,
    play_scene,
    scene_of,
)
from bot.replies import fail, send
from bot.rules import negotiation as rules
from bot.rules.characteristics import Characteristic
from bot.rules.dice import ReplayDice
from bot.rules.negotiation import Appeal, Attitude, Motivation, Negotiation
from bot.store import Change, Table
from exts.encounter._controls import do_undo
from exts.encounter._record import post_log
from exts.negotiation import _service as service
from exts.negotiation._views import (
    KIND,
    Scene,
    argue_reply,
    argue_summary,
    close_view,
    closed_text,
    director_embed,
    discover_reply,
    discover_summary,
    lie_text,
    lie_view,
    motivation_choices,
    offer_text,
    pick_view,
    public_embed,
    read_pick,
    reveal_reply,
    reveal_view,
    started_text,
)

NPC_MAX = rules.NPC_MAX
LIST_MAX = 300
R = TypeVar("R")
Npc = app_commands.Transform[str, Text("NPC's name", NPC_MAX)]
Words = app_commands.Transform[str, Text("list", LIST_MAX)]
HeroName = app_commands.Transform[str, Text("hero's name", 100)]
_ATTITUDES = [app_commands.Choice(name=a.value, value=a.value) for a in Attitude]
_APPEALS = [app_commands.Choice(name=a.value, value=a.value) for a in Appeal]
_TRAITS = [app_commands.Choice(name=c.value.capitalize(), value=c.value) for c in Characteristic]
NEGOTIATION_FILE = "negotiation file"


async def motivation_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """`motivation:` — the twelve motivations, the NPC's revealed ones first (marked); the Director also sees
    which of the rest are the NPC's (an autocomplete is seen by the one typing only). Never fails: with no
    negotiation here it offers the twelve, which hide nothing."""
    state, director = None, False
    try:
        bot = interaction.client
        key = channel_key(interaction)
        table = await bot.store.view(key, shared=True, fresh=False)
        state = scene_of(table, Scene, KIND).negotiation
        doc = table.require_encounter()
        role = (await bot.store.get_settings(key.guild_id)).director_role_id
        actor = actor_from_interaction(interaction)
        director = is_director(actor, encounter_director_id=doc.director_id, director_role_id=role)
    except Exception:
        state, director = None, False
    choices = motivation_choices(state, director, current)
    return [app_commands.Choice(name=label, value=value) for label, value in choices]


async def list_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """`motivations:` and `pitfalls:` of /negotiation start: the last name of the comma-separated list
    completed (the Director is typing them: nothing is hidden from them)."""
    head, _, last = current.rpartition(",")
    prefix = f"{head}, " if head else ""
    key = last.strip().casefold()
    names = [m.value for m in Motivation if key in m.value]
    return [app_commands.Choice(name=(prefix + n)[:100], value=(prefix + n)[:100]) for n in names]


async def _running(interaction: discord.Interaction[Any]) -> tuple[Table, Scene]:
    """The channel's table and its running negotiation (`NoScene` or `OtherScene` when there is none)."""
    table = await interaction.client.store.view(channel_key(interaction), shared=True)
    return table, scene_of(table, Scene, KIND)


def _appeal(appeals: str | None, motivation: str | None) -> tuple[Appeal, Motivation | None]:
    """What the argument appeals to: `appeals:` as given, else a motivation when one is named, else none."""
    named = Motivation.from_text(motivation) if motivation else None
    appeal = Appeal(appeals) if appeals else (Appeal.MOTIVATION if named else Appeal.NONE)
    if appeal is Appeal.MOTIVATION and named is None:
        fail("Name the motivation the argument appeals to: e.g. motivation:greed (or appeals:none).")
    return appeal, named


class NegotiationCog(BotCog):
    """Negotiations (/negotiation)."""

    negotiation = guild_group(
        "negotiation", "Negotiations", "/negotiation status", "Negotiate with an NPC in this channel."
    )

    async def _play(
        self,
        interaction: discord.Interaction[Any],
        event: str,
        step: SceneStep[Scene, R],
        summary: Callable[[R], str],
        rule: str | None = None,
    ) -> Staged[Scene, R]:
        return await play_scene(interaction, KIND, Scene, event, step, summary, rule=rule)

    async def _start(self, interaction: discord.Interaction[Any], event: str, started: Negotiation) -> None:
        """Begin `started` as the channel's scene; the players see their view, the Director theirs."""
        guild_id = channel_key(interaction).guild_id
        numbers = (await self.bot.store.get_settings(guild_id)).negotiation_numbers

        def change(who: Member, table: Table) -> Change[None]:
            service.start_scene(table, who.actor.user_id, started, numbers)
            return Change(f"Negotiation with {started.npc} started", None)

        await apply(interaction, event, change, rule="/negotiation start")
        await send(interaction, content=started_text(started))  # the tracker shows the players' view
        await send(interaction, embed=director_embed(started), ephemeral=True)

    @negotiation.command(
        name="start", description="Director: start a negotiation with an NPC in this channel."
    )
    @app_commands.choices(attitude=_ATTITUDES)
    @app_commands.autocomplete(motivations=list_autocomplete, pitfalls=list_autocomplete)
    async def start(
        self,
        interaction: discord.Interaction[Any],
        npc: Npc,
        attitude: str,
        motivations: Words,
        pitfalls: Words,
    ) -> None:
        """Director: start a negotiation; the motivations and pitfalls stay hidden.

        Example: /negotiation start npc:Baron Vell attitude:neutral motivations:greed, legacy pitfalls:peace

        Args:
            npc: The NPC's name, e.g. Baron Vell
            attitude: The NPC's first attitude: sets Interest and Patience
            motivations: The NPC's motivations, hidden from players, e.g. greed, legacy
            pitfalls: The NPC's pitfalls, hidden from players, e.g. peace
        """
        wants = service.motivations(motivations, "motivations")
        fears = service.motivations(pitfalls, "pitfalls")
        started = rules.start(npc, Attitude(attitude), wants, fears)
        await self._start(interaction, service.START, started)

    @negotiation.command(name="import", description="Director: start a negotiation from a Forge Steel file.")
    async def import_cmd(self, interaction: discord.Interaction[Any], file: discord.Attachment) -> None:
        """Director: a Forge Steel negotiation.

        Example: /negotiation import file: Baron Vell.ds-negotiation

        Args:
            file: A .ds-negotiation file exported from Forge Steel
        """
        await defer_for_file(interaction)
        started = read_negotiation(await download(file, what=NEGOTIATION_FILE))
        await self._start(interaction, service.IMPORT, started)

    @negotiation.command(name="argue", description="Your hero makes an argument (a test, usually Presence).")
    @app_commands.choices(appeals=_APPEALS, characteristic=_TRAITS)
    @app_commands.autocomplete(motivation=motivation_autocomplete, hero=autocomplete.heroes)
    async def argue(
        self,
        interaction: discord.Interaction[Any],
        motivation: app_commands.Transform[str, Text("motivation", 40)] | None = None,
        appeals: str | None = None,
        hero: HeroName | None = None,
        characteristic: str = Characteristic.PRESENCE.value,
        bonus: app_commands.Range[int, -10, 10] = 0,
        edges: app_commands.Range[int, 0, 2] = 0,
        banes: app_commands.Range[int, 0, 2] = 0,
        repeated: bool = False,
        lie: bool = False,
    ) -> None:
        """Your hero makes an argument.

        Example: /negotiation argue motivation:greed

        Args:
            motivation: The motivation the argument appeals to, e.g. greed
            appeals: motivation, none, or pitfall (the Director's call); default: motivation when one is named
            hero: The hero who argues (default: yours)
            characteristic: Read from the hero (default Presence)
            bonus: Added to the roll, e.g. 2 for a skill
            edges: Edges
            banes: Banes
            repeated: True: the same argument again (counts as tier 1)
            lie: True: the argument is a lie (the Director may take 1 more Interest)
        """
        appeal, named = _appeal(appeals, motivation)
        given = service.Argument(
            hero, appeal, named, Characteristic(characteristic), bonus, edges, banes, repeated, lie
        )
        step = service.argue_step(ReplayDice(self.bot.dice), given)
        played = await self._play(interaction, service.ARGUE, step, lambda a: argue_summary(a.result))
        result = played.result.result
        numbers = played.after.numbers
        text = argue_reply(result, played.result.roll, numbers)
        liar = result.argument.lie and result.argument.interest <= 0
        view = lie_view(played.encounter_id or 0, played.version) if liar else None
        await send(interaction, content=text, view=view)
        await self._ended(interaction, played)

    async def _ended(self, interaction: discord.Interaction[Any], played: Staged[Scene, Any]) -> None:
        """When the step ended the negotiation: the offer, with the Director's close buttons."""
        if played.after.negotiation.ended and not played.before.negotiation.ended:
            view = close_view(played.encounter_id or 0, played.version)
            await send(
                interaction, content=offer_text(played.after.negotiation, played.after.numbers), view=view
            )

    @negotiation.command(
        name="discover", description="Your hero tries to learn a motivation or pitfall (a test)."
    )
    @app_commands.choices(characteristic=_TRAITS)
    @app_commands.autocomplete(hero=autocomplete.heroes)
    async def discover(
        self,
        interaction: discord.Interaction[Any],
        hero: HeroName | None = None,
        characteristic: str = Characteristic.INTUITION.value,
        bonus: app_commands.Range[int, -10, 10] = 0,
        edges: app_commands.Range[int, 0, 2] = 0,
        banes: app_commands.Range[int, 0, 2] = 0,
    ) -> None:
        """Your hero reads what moves the NPC.

        Example: /negotiation discover

        Args:
            hero: The hero who reads the NPC (default: yours)
            characteristic: Read from the hero (default Intuition)
            bonus: Added to the roll, e.g. 2 for a skill
            edges: Edges
            banes: Banes
        """
        dice = ReplayDice(self.bot.dice)
        step = service.discover_step(dice, hero, Characteristic(characteristic), bonus, edges, banes)
        played = await self._play(
            interaction, service.DISCOVER, step, lambda d: discover_summary(d.hero, d.result)
        )
        found = played.result
        eid = played.encounter_id or 0
        text = discover_reply(found.hero, found.result, found.roll, played.after.numbers)
        owed = bool(found.result.choices)
        await send(interaction, content=text, view=reveal_view(eid, played.version) if owed else None)
        if owed and played.caller.director:  # the Director asked: the pick at once, one click away
            await send(
                interaction,
                content="Reveal one:",
                view=pick_view(eid, played.version, found.result.choices),
                ephemeral=True,
            )
        await self._ended(interaction, played)

    @negotiation.command(name="offer", description="The heroes stop and ask for the NPC's offer.")
    async def offer(self, interaction: discord.Interaction[Any]) -> None:
        """Stop and ask for the NPC's offer.

        Example: /negotiation offer
        """

        def step(who: Caller, scene: Scene, table: Table) -> tuple[Scene, Negotiation]:
            who.require(
                "/negotiation offer", in_encounter=hero_of_member(table, who.actor.user_id) is not None
            )
            return service.offer_step(who, scene, table)

        played = await self._play(
            interaction, service.OFFER, step, lambda _n: "The heroes asked for the offer"
        )
        await self._ended(interaction, played)

    @negotiation.command(
        name="close", description="Director: close the negotiation, with Victories for each hero."
    )
    async def close(
        self, interaction: discord.Interaction[Any], victories: app_commands.Range[int, 0, 9] = 1
    ) -> None:
        """Director: close it, with Victories.

        Example: /negotiation close victories:1

        Args:
            victories: Victories for each hero on the roster (default 1; 0 for none)
        """
        await close_negotiation(interaction, victories)

    @negotiation.command(
        name="status", description="The negotiation as you may see it (the Director sees all)."
    )
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """The negotiation as you may see it.

        Example: /negotiation status
        """
        in_time = InTime(interaction)
        # the scene first: with nothing running the refusal names the negotiation, not an encounter
        _, scene = await in_time.run(_running(interaction))
        who = await in_time.run(caller_of(interaction, self.bot))
        embed = (
            director_embed(scene.negotiation)
            if who.director
            else public_embed(scene.negotiation, who.settings.negotiation_numbers)
        )
        await send(interaction, embed=embed, ephemeral=True)

    @negotiation.command(
        name="undo", description="Undo the negotiation's newest change (players: only their own)."
    )
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        """Undo the negotiation's newest change.

        Example: /negotiation undo
        """
        await InTime(interaction).run(_running(interaction))
        await do_undo(interaction, self.bot)

    @negotiation.command(name="log", description="The negotiation's log as Markdown and JSON files.")
    async def log(self, interaction: discord.Interaction[Any]) -> None:
        """The negotiation's log as files.

        Example: /negotiation log
        """
        await post_log(interaction, self.bot, None)


def _expect(table: Table, encounter_id: int | None) -> None:
    """A button's negotiation must be the one running here."""
    doc = table.require_encounter()
    if encounter_id is not None and doc.id != encounter_id:
        fail("That negotiation isn't the one running here: use the /negotiation commands.")


async def close_negotiation(
    interaction: discord.Interaction[Any], victories: int, eid: int | None = None
) -> None:
    """Close the negotiation (the command, or a button of the negotiation `eid` once it is over)."""

    def step(who: Caller, scene: Scene, table: Table) -> tuple[Scene, tuple[str, ...]]:
        _expect(table, eid)
        if eid is not None and not scene.negotiation.ended:
            fail("The negotiation isn't over any more (undone?): close it with /negotiation close.")
        if victories:  # Victories are the campaign's: a server Director gives them, as after combat
            who.require("/negotiation close victories:")
        return service.close_step(victories)(who, scene, table)

    played = await play_scene(
        interaction,
        KIND,
        Scene,
        service.CLOSE,
        step,
        lambda names: f"Negotiation closed: {victories} Victories each to {', '.join(names) or 'nobody'}",
        rule="/negotiation close",
    )
    await send(interaction, content=closed_text(played.after.negotiation, victories, played.result))


async def on_close(interaction: discord.Interaction[Any], eid: int, _ver: int, arg: str) -> None:
    await close_negotiation(interaction, 1 if arg == "1" else 0, eid)


async def on_lie(interaction: discord.Interaction[Any], eid: int, _ver: int, _arg: str) -> None:
    def step(who: Caller, scene: Scene, table: Table) -> tuple[Scene, Negotiation]:
        _expect(table, eid)
        return service.lie_step(who, scene, table)

    played = await play_scene(
        interaction,
        KIND,
        Scene,
        service.LIE,
        step,
        lambda _n: "The Director took 1 more Interest for a lie",
        rule="neg:lie",
    )
    await send(interaction, content=lie_text(played.after.negotiation, played.after.numbers))
    if played.after.negotiation.ended:  # the offer follows Interest: a lie at the end changes it
        view = close_view(played.encounter_id or 0, played.version)
        await send(interaction, content=offer_text(played.after.negotiation, played.after.numbers), view=view)


async def on_reveal(interaction: discord.Interaction[Any], eid: int, ver: int, _arg: str) -> None:
    """The Director opens the pick of what a tier 3 discovery reveals (seen by them alone)."""
    in_time = InTime(interaction)
    who = await in_time.run(caller_of(interaction, interaction.client))
    who.require("neg:reveal")
    table, scene = await in_time.run(_running(interaction))
    _expect(table, eid)
    if not scene.negotiation.owed:
        fail("Nothing is owed a reveal now: it was picked already, or the discovery was undone.")
    await send(
        interaction,
        content="Reveal one:",
        view=pick_view(eid, ver, scene.negotiation.hidden()),
        ephemeral=True,
    )


async def on_pick(interaction: discord.Interaction[Any], eid: int, _ver: int, arg: str) -> None:
    """The Director's one click: that motivation or pitfall is revealed to everyone."""
    motivation, pitfall = read_pick(arg)

    def step(who: Caller, scene: Scene, table: Table) -> tuple[Scene, Any]:
        _expect(table, eid)
        return service.reveal_step(motivation, pitfall)(who, scene, table)

    what = "a pitfall" if pitfall else "a motivation"  # the log names none: an undo hides it again
    played = await play_scene(
        interaction,
        KIND,
        Scene,
        service.REVEAL,
        step,
        lambda _t: f"The Director revealed {what}",
        rule="neg:pick",
    )
    await send(interaction, content=reveal_reply(played.after.negotiation, motivation, pitfall))
