"""The montage's glue between the commands, the store and `bot.rules.montage`: the heroes it starts with, the
hero a member acts with and their characteristic, the steps `bot.play.play_scene` runs, and the close that
gives each roster hero their Victories and ends the row."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from bot.content.forgesteel.montage import ImportedMontage
from bot.play import Caller, SceneStep, put_scene, sheet_of
from bot.replies import fail
from bot.rules import montage as rules
from bot.rules.characteristics import Characteristic
from bot.rules.dice import Dice
from bot.rules.montage import Montage, MontageHero
from bot.rules.names import clean_name, name_key
from bot.rules.power import Difficulty
from bot.store import Table
from exts.heroes._progress import award_victories
from exts.montage._views import KIND

R = TypeVar("R")

#: The event kinds a montage writes (the log, undo).
START, CHALLENGE, TEST, ASSIST, ROUND, OUTCOME, END, CLOSE = (
    "montage.start",
    "montage.challenge",
    "montage.test",
    "montage.assist",
    "montage.round",
    "montage.outcome",
    "montage.end",
    "montage.close",
)


def rules_step(change: Callable[[Montage], tuple[Montage, R]]) -> SceneStep[Montage, R]:
    """A step that is the rules core's change of the montage alone (the caller and the table take no part:
    the command's rule is checked before it)."""

    def step(_who: Caller, montage: Montage, _table: Table) -> tuple[Montage, R]:
        return change(montage)

    return step


def montage_step(change: Callable[[Montage], Montage]) -> SceneStep[Montage, Montage]:
    """`rules_step` of a change whose result is the montage after it."""

    def step(_who: Caller, montage: Montage, _table: Table) -> tuple[Montage, Montage]:
        after = change(montage)
        return after, after

    return step


def split_names(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def starting_heroes(table: Table, names: str | None) -> list[MontageHero]:
    """The heroes `names` lists, else every roster hero of this channel's campaign. A name not on the roster
    is a hero the Director plays (no player, no sheet: their tests take `bonus:`)."""
    roster = list(table.heroes.values())
    if not names:
        if not roster:
            fail("This channel has no heroes yet: create them with /hero create, or name them with heroes:.")
        return [MontageHero(h.name, h.owner_id, h.id) for h in roster]
    chosen = []
    for name in split_names(names):
        hero = next((h for h in roster if name_key(h.name) == name_key(name)), None)
        if hero is None:
            chosen.append(MontageHero(clean_name(name)))
        else:
            chosen.append(MontageHero(hero.name, hero.owner_id, hero.id))
    return chosen


def acting_hero(montage: Montage, who: Caller, name: str | None, action: str) -> MontageHero:
    """The montage hero named (else the caller's own), once the caller may act for them."""
    if name:
        hero = montage.hero(name)
    else:
        hero_or_none = next((h for h in montage.heroes if h.owner_id == who.actor.user_id), None)
        if hero_or_none is None:
            fail("You have no hero in this montage: name one with hero:, or ask the Director.")
        hero = hero_or_none
    who.require_controls(hero.owner_id or None, hero.name, f"{action} {hero.name}")
    return hero


def score(table: Table, hero: MontageHero, trait: Characteristic | None) -> int:
    """The hero's characteristic score, from their roster sheet (0 without a characteristic)."""
    if trait is None or hero.hero_id is None:  # a hero off the roster has no sheet: bonus: carries it
        return 0
    roster = table.heroes.get(hero.hero_id)
    if roster is None:
        fail(f"{hero.name} isn't on the roster any more: give bonus: instead of characteristic:.")
    return sheet_of(roster).characteristics.get(trait)


def pick_trait(challenge: rules.Challenge, text: str | None) -> Characteristic | None:
    """The characteristic named, else the challenge's only one (None when it names several or none)."""
    if text:
        return Characteristic.from_text(text)
    if len(challenge.characteristics) == 1:
        return challenge.characteristics[0]
    return None


@dataclass(frozen=True, slots=True)
class Tested:
    attempt: rules.Attempt
    trait: Characteristic | None


def trial_step(
    dice: Dice,
    hero: str | None,
    challenge: str,
    trait_text: str | None,
    bonus: int,
    edges: int,
    banes: int,
    difficulty: Difficulty | None,
) -> SceneStep[Montage, Tested]:
    def step(who: Caller, montage: Montage, table: Table) -> tuple[Montage, Tested]:
        acting = acting_hero(montage, who, hero, "test with")
        target = montage.challenge(challenge)
        trait = pick_trait(target, trait_text)
        if trait is None and target.characteristics and not bonus:
            names = " or ".join(c.value for c in target.characteristics)
            fail(f"{target.name} is tested with {names}: give characteristic:.")
        total = bonus + score(table, acting, trait)
        after, attempt = rules.try_challenge(
            montage,
            dice,
            acting.name,
            target.name,
            bonus=total,
            edges=edges,
            banes=banes,
            difficulty=difficulty,
        )
        return after, Tested(attempt, trait)

    return step


def close_step(victories: int, malice: int) -> SceneStep[Montage, tuple[str, ...]]:
    """Close the ended montage: Victories to each of its roster heroes, the Malice kept, the row ended."""

    def step(_who: Caller, montage: Montage, table: Table) -> tuple[Montage, tuple[str, ...]]:
        closed = rules.close(montage, victories, malice)
        on_roster = (table.heroes.get(hero.hero_id or "") for hero in closed.heroes)
        awarded = award_victories([hero for hero in on_roster if hero is not None], victories)
        table.end_encounter()
        return closed, awarded

    return step


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import added to the running montage, and what it couldn't."""

    added: tuple[str, ...]
    outcomes: tuple[str, ...]
    twists: int
    warnings: tuple[str, ...]


def imported(read: ImportedMontage, montage: Montage) -> tuple[Montage, Imported]:
    """`montage` with a Forge Steel montage's challenges, outcome texts and twists added (a challenge whose
    name is taken is left out, with a warning; the file's scene fills an empty description)."""
    warnings = list(read.warnings)
    added = []
    for challenge in read.challenges:
        try:
            montage = rules.add_challenge(montage, challenge)
        except rules.MontageError as error:
            warnings.append(f"{challenge.name} left out: {error}")
            continue
        added.append(challenge.name)
    for outcome in rules.MontageOutcome:
        text = read.outcomes.get(outcome.value)
        if text:
            montage = rules.write_outcome(montage, outcome, text)
    montage = dataclasses.replace(
        montage,
        twists=(*montage.twists, *read.twists),
        description=montage.description or read.scene,
    )
    return montage, Imported(tuple(added), tuple(read.outcomes), len(read.twists), tuple(warnings))


def import_step(read: ImportedMontage) -> SceneStep[Montage, Imported]:
    """Add a Forge Steel montage to the running montage (`imported`)."""
    return rules_step(lambda montage: imported(read, montage))


def start_scene(table: Table, name: str, director_id: int, montage: Montage) -> None:
    """Begin the montage as the channel's running scene (an encounter row of kind montage)."""
    table.begin_encounter(name, director_id, {})
    put_scene(table, montage, KIND)
