"""The glue every game cog shares: the channel an interaction plays in, reading and writing the encounter
aggregate inside a store change, and committing a change (then telling the tracker).

A cog's change function is pure over the `Table` working copy: load the encounter with `encounter_of`, call
the rules core, put it back with `put_encounter`, return a `Change`. `commit` runs it in one store
transaction and, when something changed, calls the bot's `commit_listeners` (the tracker refresh).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import discord
import orjson

from bot.channel import channel_key as channel_key  # the commands' import of it
from bot.in_time import InTime as InTime
from bot.permissions import (
    Actor,
    Standing,
    actor_from_interaction,
    is_director,
    require,
    require_controls,
    server_standing,
    standing,
    undo_rule,
)
from bot.replies import UserError, fail
from bot.rules import codec
from bot.rules.dice import Dice
from bot.rules.encounter import Encounter, heroic
from bot.rules.encounter.model import RoundNews
from bot.rules.encounter.rounds import news_since
from bot.rules.hero import HeroSheet
from bot.rules.montage import Montage
from bot.rules.resources import GainTrigger, ResourceGain, read_gain_trigger
from bot.rules.turns import Controller, current
from bot.store import (
    COMBAT,
    SCENE_KIND,
    Change,
    ChannelKey,
    Committed,
    Event,
    GuildSettings,
    Hero,
    Store,
    Table,
    scene_kind,
)
from bot.store.errors import NoEncounter
from bot.ui.format import gain_line, hidden_stamina

if TYPE_CHECKING:
    from bot.client import DrawSteelBot

T = TypeVar("T")
R = TypeVar("R")
log = logging.getLogger("bot.play")


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is acting in a channel's encounter: the member, whether they are a Director of it, the encounter's
    starter and the guild's settings."""

    actor: Actor
    director: bool
    director_id: int
    settings: GuildSettings

    @property
    def by(self) -> Controller:
        return Controller.DIRECTOR if self.director else Controller.PLAYERS

    def standing(self, *, owner_id: int | None = None, in_encounter: bool = False) -> Standing:
        """Where the caller stands in this encounter (`bot.permissions.standing`)."""
        return standing(
            self.actor,
            director_role_id=self.settings.director_role_id,
            encounter_director_id=self.director_id,
            owner_id=owner_id,
            in_encounter=in_encounter,
        )

    def require(
        self, key: str, *, owner_id: int | None = None, in_encounter: bool = False, action: str | None = None
    ) -> None:
        """`bot.permissions.require` for the caller: `Refused` unless they may do `RULES[key]` here."""
        at = self.standing(owner_id=owner_id, in_encounter=in_encounter)
        require(key, at, director_role_id=self.settings.director_role_id, action=action)

    def require_controls(self, owner_id: int | None, name: str, action: str) -> None:
        """`bot.permissions.require_controls` for the caller: `Refused` unless they control the creature
        `name` (its player's, `owner_id`; None: the Director's) and so may `action` it ("end Ash's turn")."""
        require_controls(self.actor, owner_id, self.director, creature=name, action=action)


#: Where `caller_of` leaves its judgement on the interaction, for `commit` to check.
CALLER = "caller"


class CallerMoved(UserError):
    """The encounter a caller was judged on is not the one a change would be committed against."""

    def __init__(self) -> None:
        super().__init__("This channel's encounter changed just now: check the tracker and try again.")


async def caller_of(interaction: discord.Interaction[Any], bot: DrawSteelBot) -> Caller:
    """Who is acting in this channel's encounter (`NoEncounter` when there is none).

    Judged on the store's memory of the channel without proving it fresh (`Store.view(fresh=False)`: no
    database read for a warm channel); `commit` then checks that the encounter it commits against has the
    same Director, so a permission is never granted on one encounter and used on another."""
    key = channel_key(interaction)
    table = await bot.store.view(key, shared=True, fresh=False)
    doc = table.require_encounter()
    settings = await bot.store.get_settings(key.guild_id)
    actor = actor_from_interaction(interaction)
    director = is_director(
        actor, encounter_director_id=doc.director_id, director_role_id=settings.director_role_id
    )
    caller = Caller(actor, director, doc.director_id, settings)
    interaction.extras[CALLER] = caller
    return caller


#: Channels whose last decoded encounter is kept (`encounter_of`).
DECODED_KEPT = 128


@dataclass(slots=True)
class _Channel:
    """A channel's last two encounter states with their decoded values, and its `codec.Reuse`."""

    states: tuple[tuple[dict[str, Any], Encounter], ...] = ()
    reuse: codec.Reuse = field(default_factory=codec.Reuse)


class _Decoded:
    """Each channel's last encounter states and their decoded values, so that a command, the tracker refresh
    after it and the next command don't decode the same state again (decoding is most of what a warm
    command spends outside discord.py). Two per channel: a tracker refresh may read the state just before
    the one a command is committing. An entry serves only a state *equal* to the one it was made from, and
    the rules core's values are immutable, so a hit is exactly what decoding would have returned.

    Each channel also keeps its `codec.Reuse`: encoding the next state reuses the data of the creatures
    and other parts a change kept, so the store validates and diffs only what changed."""

    def __init__(self) -> None:
        self._channels: OrderedDict[int, _Channel] = OrderedDict()

    def _channel(self, channel_id: int) -> _Channel:
        """The channel's memory, made the most recently used (the least recently used beyond
        `DECODED_KEPT` are forgotten)."""
        channel = self._channels.get(channel_id)
        if channel is None:
            channel = self._channels[channel_id] = _Channel()
        self._channels.move_to_end(channel_id)
        while len(self._channels) > DECODED_KEPT:
            self._channels.popitem(last=False)
        return channel

    def load(self, channel_id: int, state: dict[str, Any]) -> Encounter:
        channel = self._channel(channel_id)
        for kept_state, encounter in channel.states:
            if kept_state is state or kept_state == state:
                return encounter
        encounter = codec.load(Encounter, state)
        channel.states = ((state, encounter), *channel.states[:1])
        return encounter

    def encode(self, channel_id: int, encounter: Encounter) -> dict[str, Any]:
        """The state of `encounter`, remembered as decoding to it (shared data: the store keeps it as
        committed, so it is never changed in place afterwards)."""
        channel = self._channel(channel_id)
        state: dict[str, Any] = channel.reuse.encode(encounter)
        channel.states = ((state, encounter), *channel.states[:1])
        return state


_decoded = _Decoded()


class OtherScene(UserError):
    """The channel runs another kind of scene than the command is for (a montage, where `/encounter` asks)."""

    def __init__(self, kind: str) -> None:
        article = "An" if kind[:1] in "aeiou" else "A"
        super().__init__(f"{article} {kind} is running here: use /{kind} for it, or end it with /{kind} end.")


class NoScene(UserError):
    """The channel runs no scene of the kind asked for."""

    def __init__(self, kind: str) -> None:
        article = "an" if kind[:1] in "aeiou" else "a"
        super().__init__(f"No {kind} is running here: start {article} {kind} with /{kind} start.")


def encounter_of(table: Table) -> Encounter:
    """The channel's active encounter as the rules core's value (`NoEncounter` when there is none,
    `OtherScene` when a montage or another scene runs there)."""
    doc = table.require_encounter()
    if doc.kind != COMBAT:
        raise OtherScene(doc.kind)
    return _decoded.load(table.key.channel_id, doc.state)


def active_encounter(table: Table) -> Encounter | None:
    """The channel's active combat encounter, or None (none, only an ended one, or another scene)."""
    doc = table.encounter
    if doc is None or not doc.active or doc.kind != COMBAT:
        return None
    return _decoded.load(table.key.channel_id, doc.state)


S = TypeVar("S")


def scene_of(table: Table, scene: type[S], kind: str) -> S:
    """The channel's running scene of `kind` (a montage...) as the rules core's value `scene`: `NoScene` when
    nothing runs here, `OtherScene` when something else does. A scene is an encounter row whose state data
    names its kind (`bot.store.SCENE_KIND`), so the store's undo, log, tracker id and reminders serve it."""
    doc = table.encounter
    if doc is None or not doc.active:
        raise NoScene(kind)
    if doc.kind != kind:
        raise OtherScene(doc.kind)
    return scene_data(doc.state, scene)


def scene_data(state: dict[str, Any], scene: type[S]) -> S:
    """A scene's state data (the row's, with its kind) as the rules core's value."""
    return codec.load(scene, {k: v for k, v in state.items() if k != SCENE_KIND})


def scene_state(value: object, kind: str) -> dict[str, Any]:
    """The state data a scene is kept as: its codec data and its kind."""
    return {**codec.to_data(value), SCENE_KIND: kind}


#: The scene kind whose close may carry Malice into the channel's next fight (`exts.montage`'s).
MONTAGE = "montage"
#: How many of the channel's newest rows a new fight looks through for a closed montage.
CARRY_LOOKBACK = 5


@dataclass(frozen=True, slots=True)
class Carried:
    """The Malice a closed montage (`montage`, its name) carries into the channel's next fight."""

    malice: int
    montage: str


async def carried_malice(store: Store, key: ChannelKey) -> Carried | None:
    """The Malice the channel's newest closed montage carried into the next fight, while no fight has started
    in the channel since (the fight that takes it is the newest row after it, so it is taken once); a scene of
    another kind in between (a negotiation) keeps it. None when there is none to carry."""
    found = await store.recent_encounters(key.channel_id, guild_id=key.guild_id, limit=CARRY_LOOKBACK)
    for info in found:
        kind = scene_kind(info.state)
        if kind == COMBAT:
            return None
        if kind == MONTAGE:
            montage = scene_data(info.state, Montage)
            carried = not info.active and montage.closed and montage.malice > 0
            return Carried(montage.malice, info.name) if carried else None
    return None


def put_scene(table: Table, value: object, kind: str) -> None:
    """Store `value` as the channel's scene of `kind` (active or just ended)."""
    doc = table.encounter
    if doc is None:
        raise NoScene(kind)
    doc.state = scene_state(value, kind)


def put_encounter(table: Table, encounter: Encounter) -> None:
    """Store `encounter` as the channel's active encounter state."""
    table.require_encounter().state = _decoded.encode(table.key.channel_id, encounter)


#: Roster sheets kept decoded (`sheet_of`): a few per channel of the most recently active ones.
SHEETS_KEPT = 1024


def sheet_of(hero: Hero) -> HeroSheet:
    """A roster hero's sheet. Commands read the same sheets again and again (each turn's start reads every
    roster hero's), and decoding one costs ten times encoding its data, so sheets are kept by their
    encoded data: a hit is exactly what decoding would return, whatever edited the data meanwhile."""
    return _sheet(orjson.dumps(hero.data))


@functools.lru_cache(maxsize=SHEETS_KEPT)
def _sheet(encoded: bytes) -> HeroSheet:
    return codec.load(HeroSheet, orjson.loads(encoded))


def put_sheet(hero: Hero, sheet: HeroSheet) -> None:
    hero.data = codec.to_data(sheet)


def sheets_of(table: Table) -> dict[str, HeroSheet]:
    """Every roster hero's sheet in this channel, by roster hero id."""
    return {hero_id: sheet_of(hero) for hero_id, hero in table.heroes.items()}


def resource_names(table: Table, encounter: Encounter) -> dict[str, str]:
    """What each roster hero of `encounter` calls their heroic resource (creature id -> "Ferocity")."""
    return {
        creature_id: sheet_of(table.heroes[hero_id]).resource_name
        for creature_id, hero_id in encounter.roster.items()
        if hero_id in table.heroes
    }


def fighting_where(running: Iterable[tuple[int, dict[str, Any]]], hero_id: str) -> int | None:
    """The channel of the first of the `running` encounters (channel id, state data: the campaign's, as
    `Store.running_encounters` gives them) that has this roster hero, if any."""
    for channel_id, state in running:
        if scene_kind(state) == COMBAT and hero_id in codec.load(Encounter, state).roster.values():
            return channel_id
    return None


def idle_elsewhere(table: Table, hero_id: str, refusal: Callable[[int], str]) -> None:
    """Refuse the change `table` is for, as it commits, when this roster hero is in a running encounter of
    another channel of the campaign (`Table.check_campaign`: checked in the store's write transaction, so an
    encounter elsewhere bringing the hero in meanwhile can't slip past); `refusal(channel id)` says why."""

    def judge(running: Sequence[tuple[int, dict[str, Any]]]) -> None:
        where = fighting_where(running, hero_id)
        if where is not None:
            fail(refusal(where))

    table.check_campaign(judge)


def hero_of_member(table: Table, user_id: int) -> Hero | None:
    """The roster hero this member owns in this channel (the first one, when they own several)."""
    return next((h for h in table.heroes.values() if h.owner_id == user_id), None)


async def commit(
    interaction: discord.Interaction[Any],
    kind: str,
    change: Callable[[Table], Change[T]],
    *,
    once: str | None = None,
) -> Committed[T]:
    """Run `change` as one store transaction for this interaction's channel; on a real change, notify the
    bot's commit listeners (failures there are logged, never shown: the change is already committed).

    `change` gets the store's own memory of the channel (`Store.mutate`'s `shared`): like every change
    here, it replaces hero data and the encounter state (`put_encounter`, `put_sheet`), never edits them.
    When `caller_of` judged this interaction's caller, the change is refused (`CallerMoved`) if the table
    it would commit against has an encounter with another Director.

    The interaction's id is saved with the event, so it is applied at most once whichever process it reached
    (`AlreadyApplied`: another process did; the error hook then answers nothing); `once` is a key for
    something that may happen only once (`Store.mutate`; `AlreadyDone`)."""
    bot = interaction.client
    key = channel_key(interaction)
    caller = interaction.extras.get(CALLER)
    if isinstance(caller, Caller):
        change = _judged_on(caller, change)
    if kind not in CORRECTIONS:
        change = _with_resource_gains(bot.dice, change)
    change = _with_log_marks(change)
    result: Committed[T] = await bot.store.mutate(
        key, interaction.user.id, kind, change, shared=True, interaction_id=interaction.id, once=once
    )
    if result.seq is not None:
        for listener in getattr(bot, "commit_listeners", ()):
            try:
                await listener(key, result)
            except Exception:  # the change is committed; the tracker catches up later
                log.exception("commit listener failed for channel %s", key.channel_id)
    return result


@dataclass(frozen=True, slots=True)
class Played(Generic[R]):
    """What one command did to the channel's encounter, for its reply: the rules core's result, the encounter
    before and after, the Director creatures whose Stamina the players don't see (`hidden_stamina`), the
    rounds the change started (`news_since`: a turn ping is owed), the channel's version and encounter as
    committed (for the reply's buttons), who acted, what else it did (`observed`: natural rolls, forced
    movement) and the heroic resource gains the change brought (`gained`: the reply's lines)."""

    result: R
    before: Encounter
    after: Encounter
    hidden: frozenset[str]
    news: RoundNews | None
    version: int
    caller: Caller
    encounter_id: int | None = None
    observed: heroic.Observed = field(default_factory=heroic.Observed)
    gained: tuple[str, ...] = ()

    @property
    def gains_said(self) -> str:
        """The heroic resource gains the change brought by itself, a line each after the reply's text."""
        return "".join(f"\n{line}" for line in self.gained)


#: A command's step: the caller and the channel's encounter (and its `Table`, for the roster and the
#: hero-token pool) in; the encounter after and the rules core's result out. Refusals raise (`fail`).
Step = Callable[[Caller, Encounter, Table], tuple[Encounter, R]]


async def play(
    interaction: discord.Interaction[Any],
    kind: str,
    step: Step[R],
    summary: Callable[[R], str],
    *,
    rule: str | None = None,
    details: Callable[[Encounter, R], dict[str, Any]] | None = None,
    once: str | None = None,
    in_time: InTime | None = None,
    observed: Callable[[R], heroic.Observed] | None = None,
    ends: bool = False,
) -> Played[R]:
    """The one way a command changes the channel's encounter: load who is acting (`caller_of`), check `rule`
    (`Caller.require`, for a rule that needs no particular creature), change the encounter with `step` and
    commit it as one store transaction of `kind` whose event says `summary(result)` (`commit`), all within
    Discord's time (`InTime`; `in_time` when the command already started its clock). `once` is
    `commit`'s; `observed(result)` what the step did that the encounter doesn't keep (the natural rolls of
    its power rolls, the creatures it force moved: heroic resource gains answer them); `ends`, the change
    ends the encounter (its final state kept with its log). The caller replies from the `Played` it
    returns."""
    in_time = in_time or InTime(interaction)
    who = await in_time.run(caller_of(interaction, interaction.client))
    if rule is not None:
        who.require(rule)

    def change(table: Table) -> Change[Played[R]]:
        before = encounter_of(table)
        after, result = step(who, before, table)
        put_encounter(table, after)
        if ends:
            table.end_encounter()
        hidden = hidden_stamina(after, who.settings.show_monster_stamina)
        seen = observed(result) if observed is not None else heroic.Observed()
        news = news_since(before, after)
        played = Played(result, before, after, hidden, news, table.version + 1, who, observed=seen)
        return Change(summary(result), played, details(after, result) if details is not None else {})

    committed = await in_time.run(commit(interaction, kind, change, once=once))
    return dataclasses.replace(
        committed.value, version=committed.version, encounter_id=committed.encounter_id
    )


@dataclass(frozen=True, slots=True)
class Staged(Generic[S, R]):
    """What one command did to the channel's scene (a montage...), for its reply: the rules core's result,
    the scene before and after, the channel's version and the scene's row as committed, and who acted."""

    result: R
    before: S
    after: S
    version: int
    caller: Caller
    encounter_id: int | None = None


#: A scene command's step: the caller and the channel's scene (and its `Table`) in; the scene after and the
#: rules core's result out. Refusals raise. A step that ends the scene calls `Table.end_encounter`.
SceneStep = Callable[[Caller, S, Table], tuple[S, R]]


async def play_scene(
    interaction: discord.Interaction[Any],
    kind: str,
    scene: type[S],
    event: str,
    step: SceneStep[S, R],
    summary: Callable[[R], str],
    *,
    rule: str | None = None,
    in_time: InTime | None = None,
) -> Staged[S, R]:
    """`play` for the channel's running scene of `kind` (value type `scene`): load who is acting, check
    `rule`, change the scene with `step` and commit it as one store transaction of `event` whose log line is
    `summary(result)`, within Discord's time. Its row is an encounter row, so undo and the log serve it as
    they serve an encounter."""
    in_time = in_time or InTime(interaction)
    try:
        who = await in_time.run(caller_of(interaction, interaction.client))
    except NoEncounter:
        raise NoScene(kind) from None
    if rule is not None:
        who.require(rule)

    def change(table: Table) -> Change[Staged[S, R]]:
        before = scene_of(table, scene, kind)
        after, result = step(who, before, table)
        put_scene(table, after, kind)
        return Change(summary(result), Staged(result, before, after, table.version + 1, who))

    committed = await in_time.run(commit(interaction, event, change))
    return dataclasses.replace(
        committed.value, version=committed.version, encounter_id=committed.encounter_id
    )


@dataclass(frozen=True, slots=True)
class Member:
    """Who changes the campaign outside an encounter (the roster, the hero-token pool, progress): the member,
    where they stand at server level (`bot.permissions.server_standing`: no encounter's Director counts) and
    the server's Director role."""

    actor: Actor
    at: Standing
    role: int | None

    @property
    def server_director(self) -> bool:
        return self.at.server_director

    def require(
        self, key: str, *, owner_id: int | None = None, action: str | None = None, whose: str | None = None
    ) -> None:
        """`bot.permissions.require` for the member: `Refused` unless they may do `RULES[key]`, as the owner
        of the thing when `owner_id` is theirs."""
        at = dataclasses.replace(self.at, owner=owner_id is not None and owner_id == self.actor.user_id)
        require(key, at, director_role_id=self.role, action=action, whose=whose)


#: A campaign change: the member and the channel's `Table` in; the event (`Change`) whose value is the
#: command's result out. Refusals raise (`fail`, `Member.require`).
Alteration = Callable[[Member, Table], Change[T]]


async def apply(
    interaction: discord.Interaction[Any],
    kind: str,
    change: Alteration[T],
    *,
    rule: str | None = None,
    once: str | None = None,
    in_time: InTime | None = None,
) -> T:
    """The one way a command changes the campaign outside the running encounter (heroes, hero tokens,
    Victories): load who is acting (`server_standing`), check `rule` (`Member.require`), run `change` as one
    store transaction of `kind` (`commit`), all within Discord's time (`in_time`, or a fresh `InTime`).
    Returns the change's result, for the reply."""
    in_time = in_time if in_time is not None else InTime(interaction)
    actor, at, role = await in_time.run(server_standing(interaction, interaction.client.store))
    member = Member(actor, at, role)
    if rule is not None:
        member.require(rule)
    committed = await in_time.run(commit(interaction, kind, functools.partial(change, member), once=once))
    return committed.value


def may_undo(caller: Caller) -> Callable[[Table, Event], None]:
    """`Store.undo`'s `allowed`: undoing a change needs the authority the change needed
    (`bot.permissions.undo_rule`: the encounter's Director or the change's maker; a hero-token spend, its
    spender or a server Director); and the encounter must still be the one `caller` was judged on. The store
    runs it on the event it is about to undo, in the same check-and-act, so the change judged is the change
    undone."""

    def allowed(table: Table, target: Event) -> None:
        doc = table.encounter
        if doc is not None and doc.director_id != caller.director_id:
            raise CallerMoved()
        caller.require(undo_rule(target.kind) or "/encounter undo", owner_id=target.user_id)

    return allowed


def outside_encounter(event: Event) -> bool:
    """`Store.undo`'s `outside`: a campaign change (`bot.permissions.undo_rule` gives it no rule) is not the
    encounter's to undo, even where it followed a hero into the fight."""
    return undo_rule(event.kind) is None


#: Changes that fix a mistake rather than happen in the fight: they bring no heroic resource gains.
CORRECTIONS = frozenset({"stamina.set", "resource.set"})


def _gains_of(table: Table, encounter: Encounter) -> dict[str, tuple[ResourceGain, ...]]:
    """Each roster hero's gains by creature id; a gain a sheet kept as OTHER is read again from its words (a
    hero imported before the bot knew that trigger)."""
    out = {}
    for creature_id, hero_id in encounter.roster.items():
        hero = table.heroes.get(hero_id)
        if hero is not None:
            out[creature_id] = tuple(
                dataclasses.replace(g, trigger=read_gain_trigger(g.text))
                if g.trigger is GainTrigger.OTHER and g.text
                else g
                for g in sheet_of(hero).resource_gains
            )
    return out


def _with_resource_gains(dice: Dice, change: Callable[[Table], Change[T]]) -> Callable[[Table], Change[T]]:
    """`change`, then the heroic resource gains it brought about by itself: what the roster heroes' sheets'
    `resource_gains` say for the damage, Malice, winded and dead heroes and natural rolls it brought
    (`heroic.triggered_gains`); the event's summary says so, and so does a `Played` value (`gained`), for
    the reply."""

    def gained(table: Table) -> Change[T]:
        before = active_encounter(table)
        result = change(table)
        after = active_encounter(table)
        if before is None or after is None or after is before or not after.roster:
            return result
        gains = _gains_of(table, after)
        if not any(gains.values()):
            return result
        played = result.value if isinstance(result.value, Played) else None
        seen = played.observed if played is not None else heroic.Observed()
        updated, got = heroic.triggered_gains(before, after, gains, dice, seen)
        if not got:
            return result
        put_encounter(table, updated)
        names = resource_names(table, after)
        said = [(g, names.get(g.hero, "heroic resource")) for g in got]
        note = "; ".join(gain_line(*one, bold=False) for one in said)
        if played is not None:
            value: Any = dataclasses.replace(played, after=updated, gained=tuple(gain_line(*o) for o in said))
            return dataclasses.replace(result, summary=f"{result.summary}; {note}", value=value)
        return dataclasses.replace(result, summary=f"{result.summary}; {note}")

    return gained


#: An event's details: the creatures the change touched (Stamina, conditions, heroic resource, surges) and
#: those whose turn it ended, by creature id (the "My hero" card reads the log by them).
TOUCHED = "creatures"
TURN_ENDED = "turn_ended"


def _touched(before: Encounter, after: Encounter) -> list[str]:
    """The creatures `after` differs from `before` in: the creature itself, its conditions, its heroic
    resource or surges (in the encounter's order)."""
    was = {c.id: c for c in before.creatures}
    conditions_moved = before.turns.conditions != after.turns.conditions
    out = []
    for creature in after.creatures:
        old, cid = was.get(creature.id), creature.id
        if (
            (old is not creature and old != creature)
            or (conditions_moved and before.turns.conditions_of(cid) != after.turns.conditions_of(cid))
            or before.resources.get(cid, 0) != after.resources.get(cid, 0)
            or before.surges.get(cid, 0) != after.surges.get(cid, 0)
        ):
            out.append(cid)
    return out


def _turn_ended(before: Encounter, after: Encounter) -> list[str]:
    """The creatures whose turn was in progress before the change and isn't after it."""
    turn = current(before.turns)
    if turn is None:
        return []
    now = current(after.turns)
    if now is not None and now.entry == turn.entry and len(after.turns.turns) == len(before.turns.turns):
        return []
    entry = next((e for e in before.turns.entries if e.id == turn.entry), None)
    return list(entry.creature_ids) if entry is not None else []


def _with_log_marks(change: Callable[[Table], Change[T]]) -> Callable[[Table], Change[T]]:
    """`change`, its event's details naming the creatures it touched and whose turn it ended (`TOUCHED`,
    `TURN_ENDED`)."""

    def marked(table: Table) -> Change[T]:
        before = active_encounter(table)
        result = change(table)
        after = active_encounter(table)
        if before is None or after is None or after is before:
            return result
        marks = {TOUCHED: _touched(before, after), TURN_ENDED: _turn_ended(before, after)}
        marks = {key: ids for key, ids in marks.items() if ids}
        if not marks:
            return result
        return dataclasses.replace(result, details={**result.details, **marks})

    return marked


def _judged_on(caller: Caller, change: Callable[[Table], Change[T]]) -> Callable[[Table], Change[T]]:
    """`change`, refused when the table's encounter is not one `caller` was judged on (another Director)."""

    def checked(table: Table) -> Change[T]:
        doc = table.encounter
        if doc is not None and doc.director_id != caller.director_id:
            raise CallerMoved()
        return change(table)

    return checked
