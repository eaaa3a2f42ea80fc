"""The negotiation's glue between the commands, the store and `bot.rules.negotiation`: the hero who speaks
and their characteristic, the steps `bot.play.play_scene` runs, and the close that gives each roster hero
their Victories and ends the row."""

from __future__ import annotations

from dataclasses import dataclass

from bot.play import Caller, SceneStep, hero_of_member, put_scene, sheet_of
from bot.replies import fail
from bot.rules import negotiation as rules
from bot.rules.characteristics import Characteristic
from bot.rules.dice import ReplayDice
from bot.rules.hero import HeroSheet
from bot.rules.names import clean_name, name_key
from bot.rules.negotiation import Appeal, ArgueResult, DiscoverResult, Motivation, Negotiation, Trait
from bot.rules.power import PowerRoll
from bot.store import Table
from exts.heroes._progress import award_victories
from exts.negotiation._views import KIND, Scene

#: The event kinds a negotiation writes (the log, undo).
START, IMPORT, ARGUE, DISCOVER, REVEAL, LIE, OFFER, CLOSE = (
    "negotiation.start",
    "negotiation.import",
    "negotiation.argue",
    "negotiation.discover",
    "negotiation.reveal",
    "negotiation.lie",
    "negotiation.offer",
    "negotiation.close",
)


@dataclass(frozen=True, slots=True)
class Speaker:
    """The hero who argues or reads the NPC: a roster hero (with their sheet), or a name the Director
    gives."""

    name: str
    sheet: HeroSheet | None = None

    def score(self, trait: Characteristic) -> int:
        return self.sheet.characteristics.get(trait) if self.sheet is not None else 0


def speaker(table: Table, who: Caller, name: str | None, action: str) -> Speaker:
    """The roster hero named (else the caller's own), once the caller may act for them; the Director may
    also name a hero who isn't on the roster (their characteristic then counts 0: give bonus:)."""
    if name:
        hero = next((h for h in table.heroes.values() if name_key(h.name) == name_key(name)), None)
        if hero is None:
            if not who.director:
                fail(f"No hero called {name[:40]} on this channel's roster: /hero show lists them.")
            return Speaker(clean_name(name))
    else:
        hero = hero_of_member(table, who.actor.user_id)
        if hero is None:
            fail(
                "You have no hero on this channel's roster: name one with hero:, or make one (/hero create)."
            )
    who.require_controls(hero.owner_id, hero.name, f"{action} for {hero.name}")
    return Speaker(hero.name, sheet_of(hero))


def motivations(text: str | None, what: str) -> tuple[Motivation, ...]:
    """A comma-separated list of motivations as typed (`greed, higher authority`)."""
    found = [Motivation.from_text(part) for part in (text or "").split(",") if part.strip()]
    if not found:
        fail(f"Name at least one of the NPC's {what}: e.g. {what}:greed, legacy.")
    return tuple(found)


def start_scene(table: Table, director_id: int, negotiation: Negotiation, numbers: bool) -> None:
    """Begin the negotiation as the channel's running scene (an encounter row of kind negotiation)."""
    table.begin_encounter(negotiation.npc, director_id, {})
    put_scene(table, Scene(negotiation, numbers), KIND)


@dataclass(frozen=True, slots=True)
class Argued:
    """An argument made: the rules' result and the roll it read."""

    result: ArgueResult
    roll: PowerRoll


@dataclass(frozen=True, slots=True)
class Argument:
    """What `/negotiation argue` was given."""

    hero: str | None
    appeal: Appeal
    motivation: Motivation | None
    trait: Characteristic
    bonus: int = 0
    edges: int = 0
    banes: int = 0
    repeated: bool = False
    lie: bool = False


def argue_step(dice: ReplayDice, given: Argument) -> SceneStep[Scene, Argued]:
    def step(who: Caller, scene: Scene, table: Table) -> tuple[Scene, Argued]:
        dice.rewind()  # a retried change rolls the same
        speaking = speaker(table, who, given.hero, "argue")
        bonus = given.bonus + speaking.score(given.trait)
        roll = rules.roll_test(dice, bonus, given.edges, given.banes)
        result = rules.argue(
            scene.negotiation,
            speaking.name,
            given.appeal,
            given.motivation,
            roll,
            repeated=given.repeated,
            lie=given.lie,
        )
        return Scene(result.state, who.settings.negotiation_numbers), Argued(result, roll)

    return step


@dataclass(frozen=True, slots=True)
class Discovered:
    """A discovery test made: who, the rules' result and the roll."""

    hero: str
    result: DiscoverResult
    roll: PowerRoll


def discover_step(
    dice: ReplayDice, hero: str | None, trait: Characteristic, bonus: int, edges: int, banes: int
) -> SceneStep[Scene, Discovered]:
    def step(who: Caller, scene: Scene, table: Table) -> tuple[Scene, Discovered]:
        dice.rewind()
        speaking = speaker(table, who, hero, "read the NPC")
        roll = rules.roll_test(dice, bonus + speaking.score(trait), edges, banes)
        result = rules.discover(scene.negotiation, roll)
        return Scene(result.state, who.settings.negotiation_numbers), Discovered(speaking.name, result, roll)

    return step


def reveal_step(motivation: Motivation, pitfall: bool) -> SceneStep[Scene, Trait]:
    def step(who: Caller, scene: Scene, _table: Table) -> tuple[Scene, Trait]:
        after, trait = rules.reveal_owed(scene.negotiation, motivation, pitfall)
        return Scene(after, who.settings.negotiation_numbers), trait

    return step


def lie_step(who: Caller, scene: Scene, _table: Table) -> tuple[Scene, Negotiation]:
    after = rules.take_lie_interest(scene.negotiation)
    return Scene(after, who.settings.negotiation_numbers), after


def offer_step(who: Caller, scene: Scene, _table: Table) -> tuple[Scene, Negotiation]:
    after = rules.call_for_offer(scene.negotiation)
    return Scene(after, who.settings.negotiation_numbers), after


def close_step(victories: int) -> SceneStep[Scene, tuple[str, ...]]:
    """Close the negotiation: Victories to each hero of the channel's roster, the row ended."""

    def step(_who: Caller, scene: Scene, table: Table) -> tuple[Scene, tuple[str, ...]]:
        awarded = award_victories(table.heroes.values(), victories)
        table.end_encounter()
        return scene, awarded

    return step
