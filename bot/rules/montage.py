"""Montage tests: the limits, the rounds, each hero's test or assist, the count and the outcome.

Rules: Draw Steel Heroes ch. 11 "Tests", "Montage Tests", "Assist a Test"; Draw Steel, The Basics,
"Victories For Noncombat Challenges" (the award).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.rules.characteristics import Characteristic
from bot.rules.dice import Dice
from bot.rules.errors import RuleError
from bot.rules.names import name_key as fold
from bot.rules.power import Difficulty, PowerRoll, RollKind, TestOutcome, reroll, roll_power

#: "A montage runs for at most 2 rounds."
ROUNDS = 2
#: The limits table is written for this many heroes.
LIMITS_FOR_HEROES = 5
#: "Neither goes below 2."
LIMIT_FLOOR = 2
#: What the bot keeps in one montage (a channel's state stays small).
HEROES_MAX = 12
CHALLENGES_MAX = 25
USES_MAX = 20
#: A test a challenge doesn't give a difficulty for is medium (Heroes ch. 11, "Tests": the usual test).
DEFAULT_TEST = Difficulty.MEDIUM
#: The successes a partial success needs over the failures.
PARTIAL_MARGIN = 2


class MontageError(RuleError):
    """A montage request the rules refuse."""


class MontageDifficulty(enum.Enum):
    """A montage's difficulty, named by the Director."""

    EASY = "easy"
    MODERATE = "moderate"
    HARD = "hard"


class MontageOutcome(enum.Enum):
    """How a montage ended."""

    TOTAL_SUCCESS = "total success"
    PARTIAL_SUCCESS = "partial success"
    TOTAL_FAILURE = "total failure"


@dataclass(frozen=True, slots=True)
class Limits:
    """The successes that end a montage in total success, and the failures that end it."""

    successes: int
    failures: int


#: The limits for five heroes, by difficulty.
BASE_LIMITS: dict[MontageDifficulty, Limits] = {
    MontageDifficulty.EASY: Limits(5, 5),
    MontageDifficulty.MODERATE: Limits(6, 4),
    MontageDifficulty.HARD: Limits(7, 3),
}

_SUCCESSES = frozenset(
    {TestOutcome.SUCCESS_WITH_CONSEQUENCE, TestOutcome.SUCCESS, TestOutcome.SUCCESS_WITH_REWARD}
)


def limits(difficulty: MontageDifficulty, heroes: int) -> Limits:
    """Both limits for `heroes` heroes: the five-hero table, each limit 1 lower per hero fewer than 5 and 1
    higher per hero more, never below 2 ("Montage Tests")."""
    if heroes < 1:
        raise MontageError("A montage needs at least one hero: name them with heroes:, or add heroes first.")
    base = BASE_LIMITS[difficulty]
    shift = heroes - LIMITS_FOR_HEROES
    return Limits(max(LIMIT_FLOOR, base.successes + shift), max(LIMIT_FLOOR, base.failures + shift))


@dataclass(frozen=True, slots=True)
class Challenge:
    """What the heroes can try: its characteristics and skills, its test's difficulty, how many times it can
    be used (None: no limit), and the Director's description."""

    name: str
    characteristics: tuple[Characteristic, ...] = ()
    skills: tuple[str, ...] = ()
    uses: int | None = None
    difficulty: Difficulty | None = None
    description: str = ""


@dataclass(frozen=True, slots=True)
class MontageHero:
    """A hero in the montage: the name the montage knows them by, their player, their roster hero."""

    name: str
    owner_id: int = 0
    hero_id: str | None = None


@dataclass(frozen=True, slots=True)
class Attempt:
    """One hero's test against a challenge in a round: the roll (with its assists' edges and banes already
    in) and the difficulty it is read at; `assisted_by` names the assisting heroes."""

    hero: str
    challenge: str
    round: int
    roll: PowerRoll
    difficulty: Difficulty = DEFAULT_TEST
    assisted_by: tuple[str, ...] = ()
    rerolled: bool = False

    @property
    def outcome(self) -> TestOutcome:
        return self.roll.outcome(self.difficulty)

    @property
    def success(self) -> bool:
        """A success, with or without a consequence or a reward, counts 1 success; anything else 1 failure."""
        return self.outcome in _SUCCESSES


@dataclass(frozen=True, slots=True)
class Assist:
    """One hero's assist to another's test in a round: their own test, whose tier decides what the assisted
    test takes (Heroes ch. 11, "Assist a Test": tier 1 a bane, tier 2 an edge, tier 3 a double edge).
    `used` once the assisted hero has tested."""

    hero: str
    helped: str
    round: int
    roll: PowerRoll
    used: bool = False

    @property
    def edges(self) -> int:
        """The edges the assisted test takes (2: a double edge), 0 on a bane."""
        return {1: 0, 2: 1, 3: 2}[self.roll.tier]

    @property
    def bane(self) -> bool:
        return self.roll.tier == 1


@dataclass(frozen=True, slots=True)
class Montage:
    """A montage test running in a channel (the state the store keeps). `round` runs 1..ROUNDS, and is
    ROUNDS + 1 once the rounds are over; `stopped` when the Director ended it before a limit or the rounds'
    end; `closed` once the Director gave the Victories (`victories`) and any Malice carried to the next
    fight (`malice`). `outcomes` are the Director's texts by `MontageOutcome` value."""

    name: str
    difficulty: MontageDifficulty
    heroes: tuple[MontageHero, ...]
    challenges: tuple[Challenge, ...] = ()
    round: int = 1
    attempts: tuple[Attempt, ...] = ()
    assists: tuple[Assist, ...] = ()
    outcomes: dict[str, str] = field(default_factory=dict)
    description: str = ""
    twists: tuple[str, ...] = ()
    stopped: bool = False
    closed: bool = False
    victories: int = 0
    malice: int = 0

    @property
    def limits(self) -> Limits:
        return limits(self.difficulty, len(self.heroes))

    @property
    def successes(self) -> int:
        return sum(1 for a in self.attempts if a.success)

    @property
    def failures(self) -> int:
        return sum(1 for a in self.attempts if not a.success)

    @property
    def outcome(self) -> MontageOutcome | None:
        """How it ended, or None while it runs: total success as soon as the successes reach their limit;
        at the failure limit, after the two rounds (or the Director's end), a partial success when the
        successes are at least 2 more than the failures, else a total failure (Heroes ch. 11, "Montage
        Tests")."""
        successes, failures, cap = self.successes, self.failures, self.limits
        if successes >= cap.successes:
            return MontageOutcome.TOTAL_SUCCESS
        if failures >= cap.failures or self.round > ROUNDS or self.stopped:
            if successes >= failures + PARTIAL_MARGIN:
                return MontageOutcome.PARTIAL_SUCCESS
            return MontageOutcome.TOTAL_FAILURE
        return None

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def acted(self) -> tuple[str, ...]:
        """The heroes who tested or assisted in this round, in the montage's order."""
        names = {a.hero for a in self.attempts if a.round == self.round}
        names |= {a.hero for a in self.assists if a.round == self.round}
        return tuple(h.name for h in self.heroes if h.name in names)

    def waiting(self) -> tuple[MontageHero, ...]:
        """The heroes who may still act this round (none once the montage is over)."""
        if self.over:
            return ()
        done = set(self.acted())
        return tuple(h for h in self.heroes if h.name not in done)

    def uses_left(self, challenge: Challenge) -> int | None:
        if challenge.uses is None:
            return None
        return challenge.uses - sum(1 for a in self.attempts if a.challenge == challenge.name)

    def hero(self, name: str) -> MontageHero:
        key = fold(name)
        found = next((h for h in self.heroes if fold(h.name) == key), None)
        if found is None:
            names = ", ".join(h.name for h in self.heroes)
            raise MontageError(f"{name} isn't in this montage: pick one of {names}.")
        return found

    def challenge(self, name: str) -> Challenge:
        key = fold(name)
        found = next((c for c in self.challenges if fold(c.name) == key), None)
        if found is None:
            raise MontageError(f"No challenge called {name}: /montage challenge list shows them.")
        return found


def start(name: str, difficulty: MontageDifficulty, heroes: Sequence[MontageHero]) -> Montage:
    """A new montage in round 1 with its heroes (at least one, each named once)."""
    if not heroes:
        raise MontageError("A montage needs at least one hero: name them with heroes:, or add heroes first.")
    if len(heroes) > HEROES_MAX:
        raise MontageError(f"A montage takes at most {HEROES_MAX} heroes: name fewer with heroes:.")
    if len({fold(h.name) for h in heroes}) != len(heroes):
        raise MontageError("Name each hero once in heroes:.")
    return Montage(name, difficulty, tuple(heroes))


def _running(montage: Montage) -> None:
    if montage.over:
        raise MontageError("This montage is over: the Director closes it with /montage award.")


def add_challenge(montage: Montage, challenge: Challenge) -> Montage:
    """The Director describes one more challenge (names are unique, any case)."""
    if montage.closed:
        raise MontageError("This montage is closed: start a new one with /montage start.")
    if any(fold(c.name) == fold(challenge.name) for c in montage.challenges):
        raise MontageError(f"{challenge.name} is a challenge already: give this one another name.")
    if len(montage.challenges) >= CHALLENGES_MAX:
        raise MontageError(f"A montage holds at most {CHALLENGES_MAX} challenges: remove one first.")
    if challenge.uses is not None and not 1 <= challenge.uses <= USES_MAX:
        raise MontageError(f"uses runs from 1 to {USES_MAX}: leave it out for no limit.")
    return dataclasses.replace(montage, challenges=(*montage.challenges, challenge))


def remove_challenge(montage: Montage, name: str) -> tuple[Montage, Challenge]:
    """The Director takes a challenge away (the tests already made against it still count)."""
    gone = montage.challenge(name)
    kept = tuple(c for c in montage.challenges if c is not gone)
    return dataclasses.replace(montage, challenges=kept), gone


def _may_act(montage: Montage, name: str) -> MontageHero:
    """The hero, if they may still act: one test or assist per hero a round (Heroes ch. 11, "Montage
    Tests")."""
    _running(montage)
    hero = montage.hero(name)
    if hero.name in montage.acted():
        raise MontageError(
            f"{hero.name} has already acted in round {montage.round}: each hero acts once a round."
        )
    return hero


def _after_act(montage: Montage) -> Montage:
    """A round in which every hero acted gives way to the next (after the last round: the montage ends)."""
    if not montage.over and not montage.waiting():
        return dataclasses.replace(montage, round=montage.round + 1)
    return montage


def try_challenge(
    montage: Montage,
    dice: Dice,
    hero: str,
    challenge: str,
    *,
    bonus: int = 0,
    edges: int = 0,
    banes: int = 0,
    difficulty: Difficulty | None = None,
) -> tuple[Montage, Attempt]:
    """A hero's test against a challenge: rolled as any test, with the hero's bonus (their characteristic),
    the edges and banes named plus one of each the assists this round gave them; counted 1 success or 1
    failure. The test is read by its difficulty as `bot.rules.power` reads any test (Heroes ch. 11,
    "Tests"). The challenge's difficulty applies unless one is named; a challenge's uses run out."""
    who = _may_act(montage, hero)
    target = montage.challenge(challenge)
    if montage.uses_left(target) == 0:
        raise MontageError(f"{target.name} has been used up: pick another challenge.")
    helping = [a for a in montage.assists if a.helped == who.name and a.round == montage.round and not a.used]
    edges += sum(a.edges for a in helping)
    banes += sum(1 for a in helping if a.bane)
    roll = roll_power(dice, bonus=bonus, edges=edges, banes=banes, kind=RollKind.TEST)
    attempt = Attempt(
        who.name,
        target.name,
        montage.round,
        roll,
        difficulty or target.difficulty or DEFAULT_TEST,
        tuple(a.hero for a in helping),
    )
    assists = tuple(dataclasses.replace(a, used=True) if a in helping else a for a in montage.assists)
    after = dataclasses.replace(montage, attempts=(*montage.attempts, attempt), assists=assists)
    return _after_act(after), attempt


def assist(montage: Montage, dice: Dice, hero: str, helped: str, *, bonus: int = 0) -> tuple[Montage, Assist]:
    """A hero assists another hero's test this round, before it is made: their own test gives that test a
    bane on tier 1, an edge on tier 2, a double edge on tier 3 ("Assist a Test"). An assist counts no
    success or failure by itself."""
    who = _may_act(montage, hero)
    other = montage.hero(helped)
    if other.name == who.name:
        raise MontageError("A hero assists another hero's test: name someone else with hero:.")
    if any(a.hero == other.name and a.round == montage.round for a in montage.attempts):
        raise MontageError(f"{other.name} has already made this round's test: assist someone who hasn't.")
    if any(a.hero == other.name and a.round == montage.round for a in montage.assists):
        raise MontageError(f"{other.name} assists someone else this round: assist someone who tests.")
    roll = roll_power(dice, bonus=bonus, kind=RollKind.TEST)
    given = Assist(who.name, other.name, montage.round, roll)
    return _after_act(dataclasses.replace(montage, assists=(*montage.assists, given))), given


def reroll_last(montage: Montage, dice: Dice, hero: str) -> tuple[Montage, Attempt]:
    """A hero token rerolls the hero's test (the new roll must be used): only the montage's newest test, so
    nothing counted since depends on the old one, once per test, and not after the Director closed it. The
    count, and so the end, follow the new roll."""
    if montage.closed:
        raise MontageError("This montage is closed: its tests can't be rerolled any more.")
    last = montage.attempts[-1] if montage.attempts else None
    if last is None or fold(last.hero) != fold(hero):
        raise MontageError("Only the montage's newest test can be rerolled, right after it is made.")
    if last.rerolled:
        raise MontageError("This test was already rerolled: a hero can use one hero-token benefit per test.")
    fresh = dataclasses.replace(last, roll=reroll(dice, last.roll), rerolled=True)
    # a round that moved on with the old roll stays moved on (the same heroes acted); a limit follows the
    # roll, and a round the old roll ended the montage in moves on once the new one reopens it
    return _after_act(dataclasses.replace(montage, attempts=(*montage.attempts[:-1], fresh))), fresh


def next_round(montage: Montage) -> Montage:
    """The Director ends the round: the heroes who haven't acted do nothing this round."""
    _running(montage)
    return dataclasses.replace(montage, round=montage.round + 1)


def end_early(montage: Montage) -> Montage:
    """The Director ends the montage before a limit: it is read as if the rounds were over."""
    _running(montage)
    return dataclasses.replace(montage, stopped=True)


def write_outcome(montage: Montage, outcome: MontageOutcome, text: str) -> Montage:
    """The Director writes what an outcome means for the story (shown when the montage ends that way)."""
    if montage.closed:
        raise MontageError("This montage is closed: start a new one with /montage start.")
    return dataclasses.replace(montage, outcomes={**montage.outcomes, outcome.value: text})


def close(montage: Montage, victories: int, malice: int = 0) -> Montage:
    """The Director closes an ended montage: each hero's Victories (0 for none; Draw Steel, The Basics,
    "Victories For Noncombat Challenges") and the Malice carried into the next fight."""
    if not montage.over:
        raise MontageError("The montage is still running: end it with /montage end first.")
    if montage.closed:
        raise MontageError("This montage is closed already.")
    if victories < 0 or malice < 0:
        raise MontageError("Victories and Malice can't be negative: give 0 or more.")
    return dataclasses.replace(montage, closed=True, victories=victories, malice=malice)
