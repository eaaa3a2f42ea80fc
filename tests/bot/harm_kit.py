"""Setup helpers for the combat-action tests (/strike, /stamina, /recover, /condition, /save, /malice): an
encounter written straight into the store (the Director `dana` started it), reading it back, and a /strike
whose public reply a test reads.

The party: Ash (alice's hero, Stamina 30, 2 Recoveries, M2 A3), Bree (bob's hero, Stamina 24); the Director's
Goblin 1 and Goblin 2 (Stamina 10), Ogre (Stamina 20, fire immunity 5, cold weakness 3) and the minion squad
Pack (Minion 1..3, Stamina 4 each).
"""

from __future__ import annotations

from simcord import ChannelHandle, MemberActor

from bot.play import encounter_of
from bot.rules import codec
from bot.rules.characteristics import Characteristics
from bot.rules.damage import DamageModifiers
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, new_encounter_state
from bot.rules.turns import Entry
from bot.store import Change, ChannelKey, Table
from tests.bot.conftest import Table as Harness
from tests.bot.encounter_kit import ok


def party(harness: Harness) -> tuple[NewCreatures, ...]:
    return (
        NewCreatures(
            "Ash",
            30,
            "heroes",
            is_hero=True,
            owner_id=harness.alice.id,
            recoveries=2,
            characteristics=Characteristics.parse("M2 A3 R0 I0 P1"),
        ),
        NewCreatures("Bree", 24, "heroes", is_hero=True, owner_id=harness.bob.id, recoveries=1),
        NewCreatures("Goblin", 10, "director", count=2),
        NewCreatures("Ogre", 20, "director", modifiers=DamageModifiers.parse("fire 5", "cold 3")),
        NewCreatures("Minion", 4, "director", count=3, squad="Pack"),
    )


def key(harness: Harness, channel: ChannelHandle | None = None) -> ChannelKey:
    return ChannelKey(harness.guild.id, (channel or harness.channel).id)


async def start(
    harness: Harness,
    specs: tuple[NewCreatures, ...] | None = None,
    channel: ChannelHandle | None = None,
    encounter: Encounter | None = None,
) -> None:
    """Start an encounter in `channel` (default: #combat) with `specs` (default: the party above)."""
    state = encounter if encounter is not None else new_encounter_state()
    for spec in specs if specs is not None else party(harness):
        state, _ = add_creatures(state, spec)

    def change(table: Table) -> Change[None]:
        table.begin_encounter("Goblin ambush", harness.director.id, codec.to_data(state))
        return Change("Encounter started", None)

    await harness.store.mutate(key(harness, channel), harness.director.id, "encounter.start", change)


async def edit(harness: Harness, fn: object, channel: ChannelHandle | None = None) -> None:
    """Replace the stored encounter with `fn(encounter)` (a test's setup step)."""
    assert callable(fn)

    def change(table: Table) -> Change[None]:
        doc = table.require_encounter()
        doc.state = codec.to_data(fn(encounter_of(table)))
        return Change("setup", None)

    await harness.store.mutate(key(harness, channel), harness.director.id, "setup", change)


async def current(harness: Harness, channel: ChannelHandle | None = None) -> Encounter:
    """The stored encounter now."""
    return encounter_of(await harness.store.view(key(harness, channel)))


async def entry(harness: Harness, name: str) -> Entry:
    """`name`'s turn entry in the stored encounter (it must have one)."""
    found = (await current(harness)).turns.entry(name)
    assert found is not None, name
    return found


def member(harness: Harness, who: str) -> MemberActor:
    """The table's member `who` ("director", "alice", "bob"), or a new player "carol" for "stranger"."""
    return harness.add_player("carol") if who == "stranger" else getattr(harness, who)


async def strike(harness: Harness, by: MemberActor, **options: object) -> str:
    """`/strike options` in #combat by `by`: the public reply's text (fails the test on a refusal)."""
    return ok(await by.slash(harness.channel, "strike", **options))


async def refused_unchanged(
    harness: Harness, command: str, by: MemberActor | None = None, **options: object
) -> str:
    """`/command options` by `by` (default: the Director): a one-line ephemeral refusal that leaves the stored
    encounter as it was; the refusal's text."""
    before = await current(harness)
    result = await (by or harness.director).slash(harness.channel, command, **options)
    assert result.ephemeral and result.response is not None
    assert "\n" not in result.response.content
    assert await current(harness) == before
    return result.response.content
