"""`/montage`: a montage test run in the channel as its scene (`bot.play.play_scene`): the Director starts it
and describes the challenges, each hero tests or assists once a round, the bot counts and ends it, the
Director closes it with Victories and Malice for the next fight. Undo and the log are the encounter's."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.attachments import defer_for_file, download
from bot.client import BotCog, DrawSteelBot
from bot.content.forgesteel.montage import ImportedMontage, read_montage
from bot.help import guild_group, help_line
from bot.hero_tokens import spend_benefit
from bot.options import Bounded, Text
from bot.play import (
    Caller,
    InTime,
    Member,
    NoScene,
    SceneStep,
    Staged,
    apply,
    caller_of,
    channel_key,
    play_scene,
    scene_of,
)
from bot.replies import drop_buttons, fail, inert, send
from bot.rules import montage as rules
from bot.rules.characteristics import Characteristic
from bot.rules.montage import Challenge, Montage, MontageDifficulty, MontageOutcome
from bot.rules.names import clean_name, name_key
from bot.rules.power import Difficulty
from bot.rules.resources import TokenBenefit
from bot.store import Change, NoEncounter, Table
from bot.ui.persistent import number
from exts.encounter._controls import do_undo
from exts.encounter._record import post_log
from exts.montage import _service as service
from exts.montage._views import (
    KIND,
    MontageGone,
    assist_text,
    attempt_text,
    challenge_line,
    challenges_text,
    close_view,
    closed_text,
    count_text,
    gives_text,
    imported_text,
    progress_text,
    render_montage,
    secrets_text,
    test_reply_view,
    turn_ping,
)
from exts.tracker._service import tracker_for
from exts.turn._glue import Expect, pressed

MONTAGE_FILE = "a `.ds-montage` file exported from Forge Steel"
NAME_MAX = 80
CHOICES_MAX = 25
TEXT_MAX = 300
OUTCOME_MAX = 1000
Name = app_commands.Transform[str, Text("name", NAME_MAX)]
Words = app_commands.Transform[str, Text("text", TEXT_MAX)]
_DIFFICULTIES = [app_commands.Choice(name=d.value, value=d.value) for d in MontageDifficulty]
_TESTS = [app_commands.Choice(name=d.value, value=d.value) for d in Difficulty]
_TRAITS = [app_commands.Choice(name=c.value.capitalize(), value=c.value) for c in Characteristic]
_OUTCOMES = [app_commands.Choice(name=o.value, value=o.value) for o in MontageOutcome]


_TEST_HINT = "difficulty is easy, medium or hard"
_TRAIT_HINT = "characteristic is might, agility, reason, intuition or presence"
E = TypeVar("E", bound=enum.Enum)
R = TypeVar("R")


def _pick(kind: type[E], text: str, hint: str) -> E:
    """The choice typed (a client may send any text): refused in one line saying what to pick."""
    found = next((member for member in kind if member.value == text.strip().lower()), None)
    if found is None:
        fail(f"{hint}: pick one from the list.")
    return found


def _traits(text: str | None) -> tuple[Characteristic, ...]:
    found = []
    for part in (text or "").replace("/", ",").split(","):
        key = part.strip().lower()
        if not key:
            continue
        trait = next((c for c in Characteristic if key in (c.value, c.letter.lower())), None)
        if trait is None:
            fail("characteristics lists might, agility, reason, intuition or presence: e.g. Might, Agility.")
        found.append(trait)
    return tuple(dict.fromkeys(found))


def _mentions(user_ids: list[int]) -> discord.AllowedMentions:
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in user_ids])


def _pinged(before: Montage, after: Montage, mover: int) -> list[int]:
    """A new round pings the heroes' players (not the one who moved it on)."""
    if after.round == before.round or after.over:
        return []
    return [h.owner_id for h in after.waiting() if h.owner_id and h.owner_id != mover]


async def _moved(
    interaction: discord.Interaction[Any],
    played: Staged[Montage, Any],
    said: str | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """The reply to a change that moves the montage on: what happened (`said`), then the count and the round;
    a new round pings the heroes' players (not the one who moved it on). A change that leaves the montage
    over offers the Director's close (`close_view`) unless `view` already does."""
    if view is None and played.after.over:
        view = close_view(played.encounter_id or 0, played.version)
    text = progress_text(played.before, played.after)
    ping = _pinged(played.before, played.after, interaction.user.id)
    content = f"{said}\n{text}" if said else text
    await send(interaction, content=content, mentions=_mentions(ping) if ping else None, view=view)


async def _caller(interaction: discord.Interaction[Any], bot: DrawSteelBot) -> Caller:
    """Who acts in the channel's montage (`NoScene` when nothing runs here)."""
    try:
        return await caller_of(interaction, bot)
    except NoEncounter:
        raise NoScene(KIND) from None


async def _running(interaction: discord.Interaction[Any]) -> Montage | None:
    try:
        table = await interaction.client.store.view(channel_key(interaction), shared=True, fresh=False)
        return scene_of(table, Montage, KIND)
    except Exception:  # an autocomplete offers nothing rather than failing
        return None


def _choices(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    typed = name_key(current)
    return [app_commands.Choice(name=n, value=n) for n in names if typed in name_key(n)][:CHOICES_MAX]


async def challenge_names(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The running montage's challenges."""
    montage = await _running(interaction)
    return _choices([c.name for c in montage.challenges], current) if montage else []


async def hero_names(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """The running montage's heroes still to act this round."""
    montage = await _running(interaction)
    return _choices([h.name for h in montage.waiting()], current) if montage else []


async def any_hero_names(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The running montage's heroes."""
    montage = await _running(interaction)
    return _choices([h.name for h in montage.heroes], current) if montage else []


class MontageCog(BotCog):
    """Montage tests (/montage)."""

    montage = guild_group(
        "montage", "Montage tests", "/montage start name: Flood difficulty: easy", "Run a montage test here."
    )
    challenge = app_commands.Group(
        name="challenge",
        description="The montage's challenges",
        parent=montage,
        extras=help_line("/montage challenge list", "The challenges the heroes can try."),
    )

    async def _scene(self, interaction: discord.Interaction[Any]) -> Montage:
        table = await self.bot.store.view(channel_key(interaction), shared=True)
        return scene_of(table, Montage, KIND)

    async def _play(
        self,
        interaction: discord.Interaction[Any],
        event: str,
        step: SceneStep[Montage, R],
        summary: Callable[[R], str],
        rule: str | None = None,
    ) -> Staged[Montage, R]:
        return await play_scene(interaction, KIND, Montage, event, step, summary, rule=rule)

    async def _move_on(
        self,
        interaction: discord.Interaction[Any],
        event: str,
        move: Callable[[Montage], Montage],
        summary: Callable[[Montage], str],
        rule: str,
    ) -> None:
        """A change that moves the whole montage on (a round's end, the end): the rules' `move`, then the
        reply saying where it stands (`_moved`)."""
        played = await self._play(interaction, event, service.montage_step(move), summary, rule)
        await _moved(interaction, played)

    @montage.command(name="start", description="Start a montage test in this channel.")
    @app_commands.choices(difficulty=_DIFFICULTIES)
    async def start(
        self,
        interaction: discord.Interaction[Any],
        name: Name,
        difficulty: str = MontageDifficulty.MODERATE.value,
        heroes: Words | None = None,
        description: Words | None = None,
    ) -> None:
        """Start a montage; its limits follow the difficulty and the number of heroes.

        Example: /montage start name: Flood difficulty: moderate heroes: Ash, Bree

        Args:
            name: The montage's name, e.g. Escape the flood
            difficulty: easy, moderate or hard: sets both limits with the number of heroes
            heroes: The heroes taking part, e.g. Ash, Brin (default: this channel's; others: the Director's)
            description: What the montage is about, shown on the tracker
        """
        clean = clean_name(name)
        level = _pick(MontageDifficulty, difficulty, "difficulty is easy, moderate or hard")

        def change(who: Member, table: Table) -> Change[Montage]:
            started = rules.start(clean, level, service.starting_heroes(table, heroes))
            if description:
                started = dataclasses.replace(started, description=description)
            service.start_scene(table, clean, who.actor.user_id, started)
            return Change(f"Montage {clean} started ({level.value})", started)

        started = await apply(interaction, service.START, change, rule="/montage start")
        await announce_start(
            interaction, started, "Director: describe the challenges with /montage challenge add."
        )

    @challenge.command(name="add", description="Director: describe a challenge the heroes can try.")
    @app_commands.choices(difficulty=_TESTS)
    async def challenge_add(
        self,
        interaction: discord.Interaction[Any],
        name: Name,
        characteristics: Words | None = None,
        skills: Words | None = None,
        uses: app_commands.Transform[int, Bounded("uses", 1, rules.USES_MAX)] | None = None,
        difficulty: str | None = None,
        description: Words | None = None,
    ) -> None:
        """Director: describe a challenge (its characteristics, skills, uses, difficulty).

        Example: /montage challenge add name: Climb characteristics: Might skills: Climb uses: 2

        Args:
            name: The challenge, e.g. Climb the cliff
            characteristics: What it's tested with, e.g. Might, Agility
            skills: Skills that help, e.g. Climb, Athletics
            uses: How many tests it takes at most (default no limit)
            difficulty: Its tests' difficulty (default medium)
            description: What the heroes see
        """
        made = Challenge(
            clean_name(name),
            _traits(characteristics),
            tuple(service.split_names(skills)),
            uses,
            _pick(Difficulty, difficulty, _TEST_HINT) if difficulty else None,
            description or "",
        )
        played = await self._play(
            interaction,
            service.CHALLENGE,
            service.montage_step(lambda montage: rules.add_challenge(montage, made)),
            lambda _m: f"Challenge {made.name} added",
            "/montage challenge add",
        )
        await send(interaction, content=f"➕ {challenge_line(played.after, made)}")

    @challenge.command(name="remove", description="Director: take a challenge away.")
    @app_commands.autocomplete(name=challenge_names)
    async def challenge_remove(self, interaction: discord.Interaction[Any], name: Name) -> None:
        """Director: remove one.

        Example: /montage challenge remove name: Climb

        Args:
            name: The challenge
        """
        played = await self._play(
            interaction,
            service.CHALLENGE,
            service.rules_step(lambda montage: rules.remove_challenge(montage, name)),
            lambda gone: f"Challenge {gone.name} removed",
            "/montage challenge remove",
        )
        await send(interaction, content=f"➖ Challenge **{inert(played.result.name)}** removed.")

    @challenge.command(name="list", description="The challenges the heroes can try.")
    async def challenge_list(self, interaction: discord.Interaction[Any]) -> None:
        """List the challenges and uses left.

        Example: /montage challenge list
        """
        montage = await InTime(interaction).run(self._scene(interaction))
        await send(interaction, content=challenges_text(montage), ephemeral=True)

    @montage.command(name="test", description="Your hero tries a challenge (once a round).")
    @app_commands.choices(characteristic=_TRAITS, difficulty=_TESTS)
    @app_commands.autocomplete(challenge=challenge_names, hero=hero_names)
    async def test(
        self,
        interaction: discord.Interaction[Any],
        challenge: Name,
        characteristic: str | None = None,
        difficulty: str | None = None,
        edges: app_commands.Range[int, 0, 2] = 0,
        banes: app_commands.Range[int, 0, 2] = 0,
        bonus: app_commands.Range[int, -10, 10] = 0,
        hero: Name | None = None,
    ) -> None:
        """Your hero's test this round: counted as a success or a failure.

        Example: /montage test challenge: Climb characteristic: might

        Args:
            challenge: The challenge (see /montage challenge list)
            characteristic: Read from your hero (default: the challenge's only one)
            difficulty: The test's difficulty (default: the challenge's, else medium)
            edges: Edges from elsewhere (an assist's is added by itself)
            banes: Banes from elsewhere
            bonus: Added to the roll, e.g. 2 for a skill
            hero: The hero who tests (default: yours)
        """
        chosen = _pick(Difficulty, difficulty, _TEST_HINT) if difficulty else None
        step = service.trial_step(self.bot.dice, hero, challenge, characteristic, bonus, edges, banes, chosen)
        played = await self._play(interaction, service.TEST, step, lambda t: _tested_summary(t.attempt))
        tested = played.result
        trait = tested.trait.value.capitalize() if tested.trait else None
        said = attempt_text(played.after, tested.attempt, trait)
        view = test_reply_view(played.encounter_id or 0, played.version, played.after, tested.attempt)
        await _moved(interaction, played, said, view)

    @montage.command(name="assist", description="Your hero assists another hero's test this round.")
    @app_commands.choices(characteristic=_TRAITS)
    @app_commands.autocomplete(hero=hero_names, helper=hero_names)
    async def assist(
        self,
        interaction: discord.Interaction[Any],
        hero: Name,
        characteristic: str | None = None,
        bonus: app_commands.Range[int, -10, 10] = 0,
        helper: Name | None = None,
    ) -> None:
        """Assist another hero's test: an edge or a bane.

        Example: /montage assist hero: Ash

        Args:
            hero: The hero you assist (before their test)
            characteristic: Your assisting test's characteristic, read from your hero
            bonus: Added to your assisting test, e.g. 2 for a skill
            helper: The assisting hero (default: yours)
        """
        dice = self.bot.dice
        trait = _pick(Characteristic, characteristic, _TRAIT_HINT) if characteristic else None

        def step(who: Caller, montage: Montage, table: Table) -> tuple[Montage, rules.Assist]:
            acting = service.acting_hero(montage, who, helper, "assist with")
            total = bonus + service.score(table, acting, trait)
            return rules.assist(montage, dice, acting.name, hero, bonus=total)

        played = await self._play(
            interaction, service.ASSIST, step, lambda a: f"{a.hero} assists {a.helped} ({gives_text(a)})"
        )
        await _moved(interaction, played, assist_text(played.result))

    @montage.command(name="reroll", description="Spend a hero token to reroll your hero's newest test.")
    @app_commands.autocomplete(hero=any_hero_names)
    async def reroll(self, interaction: discord.Interaction[Any], hero: Name | None = None) -> None:
        """Spend a hero token to reroll your newest test.

        Example: /montage reroll

        Args:
            hero: The hero whose test is rerolled (default: yours)
        """
        await reroll_test(interaction, hero)

    @montage.command(
        name="next", description="Director: end the round (heroes who haven't acted do nothing)."
    )
    async def next_round(self, interaction: discord.Interaction[Any]) -> None:
        """Director: end the round; who hasn't acted does nothing.

        Example: /montage next
        """
        await self._move_on(interaction, service.ROUND, rules.next_round, _round_ended, "/montage next")

    @montage.command(
        name="outcome", description="Director: what an outcome means for the story (kept secret)."
    )
    @app_commands.choices(result=_OUTCOMES)
    async def outcome(
        self,
        interaction: discord.Interaction[Any],
        result: str,
        text: app_commands.Transform[str, Text("outcome text", OUTCOME_MAX)],
    ) -> None:
        """Director: what an outcome means (secret until the montage ends that way).

        Example: /montage outcome result: total success text: You reach the pass.

        Args:
            result: The outcome
            text: What it means, shown when the montage ends that way
        """
        chosen = _pick(MontageOutcome, result, "result is total success, partial success or total failure")
        # the log says which outcome was written, never its text: players may read the log
        await self._play(
            interaction,
            service.OUTCOME,
            service.rules_step(lambda montage: (rules.write_outcome(montage, chosen, text), chosen)),
            lambda o: f"Outcome text for {o.value} written",
            "/montage outcome",
        )
        await send(interaction, content=f"📝 Kept for a {chosen.value}: {inert(text)}", ephemeral=True)

    @montage.command(
        name="end", description="Director: end the montage now (read as if the rounds were over)."
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Director: end the montage now.

        Example: /montage end
        """
        await self._move_on(interaction, service.END, rules.end_early, _montage_ended, "/montage end")

    @montage.command(name="award", description="Director: close the ended montage with Victories and Malice.")
    async def award(
        self,
        interaction: discord.Interaction[Any],
        victories: app_commands.Range[int, 0, 9] = 1,
        malice: app_commands.Range[int, 0, 99] = 0,
    ) -> None:
        """Director: close it (Victories, Malice).

        Example: /montage award victories: 1 malice: 2

        Args:
            victories: Victories for each hero (default 1; 0 for none)
            malice: Malice carried into the next fight (default 0)
        """
        await close_montage(interaction, victories, malice)

    @montage.command(
        name="status", description="The montage as it stands (the Director also sees the secrets)."
    )
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """The montage as it stands (only you see it).

        Example: /montage status
        """
        in_time = InTime(interaction)
        who = await in_time.run(_caller(interaction, self.bot))
        table = await in_time.run(self.bot.store.view(channel_key(interaction), shared=True))
        montage = scene_of(table, Montage, KIND)
        doc = table.require_encounter()
        content = secrets_text(montage) if who.director else None
        tracker_for(self.bot).schedule(channel_key(interaction))
        await send(interaction, content=content, embed=render_montage(doc.name, montage), ephemeral=True)

    @montage.command(name="import", description="Director: bring in a Forge Steel montage's challenges.")
    async def import_cmd(self, interaction: discord.Interaction[Any], file: discord.Attachment) -> None:
        """Director: a Forge Steel montage's challenges, uses, twists and outcome texts (where none runs, the
        file starts one).

        Example: /montage import file: Flooded Causeway.ds-montage

        Args:
            file: A .ds-montage file exported from Forge Steel
        """
        try:
            who = await InTime(interaction).run(_caller(interaction, self.bot))
        except NoScene:  # nothing runs here: the file starts a montage of its own
            await defer_for_file(interaction)
            await import_new(interaction, read_montage(await download(file, what=MONTAGE_FILE)))
            return
        who.require("/montage import")
        await defer_for_file(interaction)
        read = read_montage(await download(file, what=MONTAGE_FILE))
        played = await self._play(
            interaction,
            service.CHALLENGE,
            service.import_step(read),
            lambda done: f"Imported {len(done.added)} challenges from Forge Steel",
            "/montage import",
        )
        await send(interaction, content=imported_text(played.after, played.result))
        if played.result.outcomes or played.result.twists:  # the Director's secrets: only they see them
            await send(interaction, content=secrets_text(played.after), ephemeral=True)

    @montage.command(name="undo", description="Undo the montage's newest change (players: only their own).")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        """Undo the montage's newest change.

        Example: /montage undo
        """
        await self._scene(interaction)
        await do_undo(interaction, self.bot)

    @montage.command(name="log", description="The montage's log as Markdown and JSON files.")
    async def log(self, interaction: discord.Interaction[Any]) -> None:
        """The montage's log as files.

        Example: /montage log
        """
        await post_log(interaction, self.bot, None)


async def announce_start(interaction: discord.Interaction[Any], started: Montage, next_step: str) -> None:
    """The public reply to a montage's start: its heroes, both limits, the rounds, and the first ping."""
    cap = started.limits
    names = ", ".join(inert(h.name) for h in started.heroes)
    off_roster = [inert(h.name) for h in started.heroes if h.hero_id is None]
    if off_roster:
        names += f" ({', '.join(off_roster)}: not on the roster, the Director tests for them with bonus:)"
    await send(
        interaction,
        content=(
            f"🏔️ Montage **{inert(started.name)}** ({started.difficulty.value}) with {names}: success limit "
            f"{cap.successes}, failure limit {cap.failures}, at most {rules.ROUNDS} rounds.\n{next_step}\n"
            + turn_ping(started, started.waiting())
        ),
        mentions=_mentions(
            [h.owner_id for h in started.heroes if h.owner_id not in (0, interaction.user.id)]
        ),
    )


async def import_new(interaction: discord.Interaction[Any], read: ImportedMontage) -> None:
    """`/montage import` where nothing runs: a montage of the file's name starts (moderate, with the
    channel's heroes: `/montage start` names others) with the file's challenges, in one change."""

    def change(who: Member, table: Table) -> Change[tuple[Montage, service.Imported]]:
        begun = rules.start(read.name, MontageDifficulty.MODERATE, service.starting_heroes(table, None))
        started, done = service.imported(read, begun)
        service.start_scene(table, started.name, who.actor.user_id, started)
        return Change(
            f"Montage {started.name} started ({started.difficulty.value}) from Forge Steel, "
            f"{len(done.added)} challenges",
            (started, done),
        )

    started, done = await apply(interaction, service.START, change, rule="/montage start")
    await announce_start(interaction, started, imported_text(started, done))
    if done.outcomes or done.twists:  # the Director's secrets: only they see them
        await send(interaction, content=secrets_text(started), ephemeral=True)


async def close_montage(
    interaction: discord.Interaction[Any], victories: int, malice: int, expect: tuple[int, int] | None = None
) -> None:
    """Close the ended montage (the command, or the button with the `expect`ed encounter id and version)."""

    def step(who: Caller, montage: Montage, table: Table) -> tuple[Montage, tuple[str, ...]]:
        doc = table.require_encounter()
        if expect is not None and doc.id != expect[0]:
            raise MontageGone("That montage is over: close the running one with /montage award.")
        if expect is not None and table.version != expect[1]:
            fail("The montage changed since: check the tracker, or use /montage award.")
        if victories:  # Victories are the campaign's: a server Director gives them, as after combat
            who.require("/montage award victories:")
        return service.close_step(victories, malice)(who, montage, table)

    played = await play_scene(
        interaction,
        KIND,
        Montage,
        service.CLOSE,
        step,
        lambda names: f"Montage closed: {victories} Victories each to {', '.join(names) or 'nobody'}",
        rule="/montage award",
    )
    await send(interaction, content=closed_text(played.after, played.result))
    if expect is not None:  # the button's message offers nothing any more
        await drop_buttons(interaction)


async def reroll_test(
    interaction: discord.Interaction[Any],
    hero: str | None,
    eid: int | None = None,
    tested: int | None = None,
) -> None:
    """A hero token rerolls the montage's newest test: `hero`'s (default: the caller's own; from the button,
    `eid` the montage and `tested` the number of the test it was under: that test's hero, if it is still the
    newest test and the presser controls them)."""
    dice = interaction.client.dice

    def step(who: Caller, montage: Montage, table: Table) -> tuple[Montage, rules.Attempt]:
        if eid is not None and table.require_encounter().id != eid:
            raise MontageGone("That montage is over: reroll with /montage reroll in the running one.")
        if tested is not None and tested != len(montage.attempts):
            fail("That test isn't the montage's newest any more: only the newest test can be rerolled.")
        name = hero if eid is None or not montage.attempts else montage.attempts[-1].hero
        acting = service.acting_hero(montage, who, name, "reroll for")
        after, attempt = rules.reroll_last(montage, dice, acting.name)
        if table.tokens < TokenBenefit.REROLL.cost:
            fail("The party has no hero tokens left: the Director can award one with /tokens award.")
        spend_benefit(table, acting.name, TokenBenefit.REROLL)
        return after, attempt

    played = await play_scene(
        interaction, KIND, Montage, "montage.reroll", step, lambda a: f"Hero token: {_tested_summary(a)}"
    )
    said = f"🪙 Hero token spent. {attempt_text(played.after, played.result, None)}"
    await _moved(interaction, played, said)
    if eid is not None:  # the rerolled test's buttons are spent: this reply carries the close, if any
        await drop_buttons(interaction)


async def on_close(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    await close_montage(interaction, number(arg), 0, (eid, ver))


async def on_reroll(interaction: discord.Interaction[Any], eid: int, _ver: int, arg: str) -> None:
    await reroll_test(interaction, None, eid, number(arg) if arg else None)


async def on_undo(interaction: discord.Interaction[Any], eid: int, ver: int, _arg: str) -> None:
    """The tracker's Undo: only while it shows the newest state (as the encounter's)."""
    bot = interaction.client
    await pressed(interaction, bot, do_undo(interaction, bot, Expect(eid, ver)))


def _tested_summary(attempt: rules.Attempt) -> str:
    return f"{attempt.hero} tried {attempt.challenge}: {attempt.outcome.value}"


def _ended(montage: Montage) -> str:
    outcome = montage.outcome
    return outcome.value if outcome is not None else "still running"


def _round_ended(montage: Montage) -> str:
    """The log's line for `/montage next`."""
    return f"Round ended (now {count_text(montage)})"


def _montage_ended(montage: Montage) -> str:
    """The log's line for `/montage end`."""
    return f"Montage ended: {_ended(montage)}"
