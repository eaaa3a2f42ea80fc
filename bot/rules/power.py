"""Power rolls: the natural roll, edges and banes, tiers, automatic tiers, criticals, downgrades, tests.

Rules: Draw Steel, The Basics, "Power Rolls" ("Making a Power Roll", "Power Roll Outcomes", "Downgrade a Power
Roll", "Natural Roll", "Edges and Banes", "Rolling With Edges and Banes", "Bonuses and Penalties", "Automatic
Tier Outcomes") and "Hero Tokens" (reroll a test). Test difficulties and opposed rolls follow Draw Steel
Heroes ch. 11 "Tests".
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.rules.dice import Dice, d10
from bot.rules.errors import RuleError

TIER1_MAX = 11
TIER3_MIN = 17
CRITICAL_NATURAL = 19


class PowerRollError(RuleError):
    """A power roll request the rules refuse."""


class RollKind(enum.Enum):
    """Ability roll or test (Draw Steel, The Basics, "Types of Power Rolls")."""

    ABILITY = "ability"
    TEST = "test"


class RollAction(enum.StrEnum):
    """What a power roll is made as: a critical hit needs a main action (Draw Steel, The Basics, "Natural
    Roll": "on certain types of power rolls, this is a critical hit"; Heroes ch. 7 "Critical Hit": an ability
    roll made as a main action), so a natural 19 or 20 on a maneuver, a triggered action or a free strike is
    tier 3 but no critical. Its values are `bot.rules.ability.ActionType`'s where both have one."""

    MAIN = "main"
    MANEUVER = "maneuver"
    TRIGGERED = "triggered"
    FREE_STRIKE = "free-strike"

    @classmethod
    def from_text(cls, text: str | None) -> RollAction:
        """`main` (the default, also for None), `maneuver`, `triggered`, `free-strike` / `free strike`."""
        if text is None or not text.strip():
            return cls.MAIN
        key = "-".join(text.strip().casefold().replace("_", " ").replace("-", " ").split())
        found = next((a for a in cls if a.value == key), None)
        if found is None:
            raise PowerRollError("action is main, maneuver, triggered or free strike: e.g. action:triggered.")
        return found

    @property
    def main_action(self) -> bool:
        return self is RollAction.MAIN


class Keep(enum.Enum):
    """Which dice make the natural roll: both of 2d10, or the highest / lowest two of 3d10."""

    ALL = "all"
    HIGHEST = "highest"
    LOWEST = "lowest"


class NetEdge(enum.Enum):
    """The edge/bane state after cancellation (Draw Steel, The Basics, "Rolling With Edges and Banes")."""

    DOUBLE_BANE = "double bane"
    BANE = "bane"
    NONE = "none"
    EDGE = "edge"
    DOUBLE_EDGE = "double edge"


class Difficulty(enum.Enum):
    """Test difficulty (Heroes ch. 11, "Tests")."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class TestOutcome(enum.Enum):
    """What a test's tier means at a difficulty (Heroes ch. 11, "Tests")."""

    __test__ = False  # not a pytest class

    FAILURE_WITH_CONSEQUENCE = "failure with a consequence"
    FAILURE = "failure"
    SUCCESS_WITH_CONSEQUENCE = "success with a consequence"
    SUCCESS = "success"
    SUCCESS_WITH_REWARD = "success with a reward"


_TEST_TABLE: dict[Difficulty, tuple[TestOutcome, TestOutcome, TestOutcome]] = {
    Difficulty.EASY: (
        TestOutcome.SUCCESS_WITH_CONSEQUENCE,
        TestOutcome.SUCCESS,
        TestOutcome.SUCCESS_WITH_REWARD,
    ),
    Difficulty.MEDIUM: (TestOutcome.FAILURE, TestOutcome.SUCCESS_WITH_CONSEQUENCE, TestOutcome.SUCCESS),
    Difficulty.HARD: (TestOutcome.FAILURE_WITH_CONSEQUENCE, TestOutcome.FAILURE, TestOutcome.SUCCESS),
}


def net_edge(edges: int, banes: int) -> NetEdge:
    """Resolve edges and banes (each capped at 2) per "Rolling With Edges and Banes".

    An edge and a bane cancel, as do a double edge and a double bane; a double edge and one bane leave one
    edge; a double bane and one edge leave one bane.
    """
    if edges < 0 or banes < 0:
        raise PowerRollError("Edges and banes can't be negative: give 0, 1 or 2 (more counts as 2).")
    e, b = min(edges, 2), min(banes, 2)
    if e == b:
        return NetEdge.NONE
    if e > b:
        return NetEdge.DOUBLE_EDGE if (e, b) == (2, 0) else NetEdge.EDGE
    return NetEdge.DOUBLE_BANE if (e, b) == (0, 2) else NetEdge.BANE


AUTO_TIERS_MAX = 4
"""Most automatic tiers one roll names (a bound, not a rule: they cancel once two differ)."""


def parse_auto_tiers(text: str | None) -> tuple[int, ...]:
    """Automatic tier outcomes as typed, one per effect granting one: `3`, `3,1`, `2, 2` ("Automatic Tier
    Outcomes": different ones cancel, identical ones apply — `PowerRoll.automatic_tier`)."""
    if text is None or not text.strip():
        return ()
    hint = "auto_tier is 1, 2 or 3, or one per effect separated by commas: e.g. auto_tier:3 or auto_tier:3,1."
    parts = [p.strip() for p in text.split(",")]
    if len(parts) > AUTO_TIERS_MAX or not all(p in ("1", "2", "3") for p in parts):
        raise PowerRollError(hint)
    return tuple(int(p) for p in parts)


_NET = {(e, b): net_edge(e, b) for e in range(3) for b in range(3)}
"""`net_edge` of every capped (edges, banes) pair: a power roll's counts are never negative."""
_EDGE_MODIFIER = {NetEdge.EDGE: 2, NetEdge.BANE: -2}
_TIER_SHIFT = {NetEdge.DOUBLE_EDGE: 1, NetEdge.DOUBLE_BANE: -1}


def tier_for_total(total: int) -> int:
    """Outcome tier for a total: ≤11 → 1, 12–16 → 2, ≥17 → 3 ("Power Roll Outcomes")."""
    if total <= TIER1_MAX:
        return 1
    if total < TIER3_MIN:
        return 2
    return 3


def _check_tier(tier: int, what: str) -> None:
    if not 1 <= tier <= 3:
        raise PowerRollError(f"{what} must be tier 1, 2 or 3.")


@dataclass(frozen=True, slots=True)
class PowerRoll:
    """One power roll, rolled: dice, bonus, edges, banes, automatic tiers, kind and chosen downgrade.

    Everything else is derived. Construct with `roll_power`; `with_target` and `downgrade` return new values.
    It stores the raw edge and bane counts (never negative); each is capped at 2 when counted. `bonus` is the
    characteristic plus all bonuses minus all penalties, with no limit (Draw Steel, The Basics, "Bonuses and
    Penalties").
    """

    dice: tuple[int, ...]
    bonus: int = 0
    edges: int = 0
    banes: int = 0
    auto_tiers: tuple[int, ...] = ()
    kind: RollKind = RollKind.ABILITY
    main_action: bool = False
    keep: Keep = Keep.ALL
    downgraded_to: int | None = None

    def __post_init__(self) -> None:
        wanted = 2 if self.keep is Keep.ALL else 3
        if len(self.dice) != wanted or not all(1 <= d <= 10 for d in self.dice):
            raise PowerRollError(f"A power roll needs {wanted} d10 results from 1 to 10.")
        if self.edges < 0 or self.banes < 0:
            raise PowerRollError("Edges and banes can't be negative: give 0, 1 or 2 (more counts as 2).")
        for t in self.auto_tiers:
            _check_tier(t, "An automatic outcome")
        if self.downgraded_to is not None:
            _check_tier(self.downgraded_to, "A downgrade")
            if self.downgraded_to >= self.undowngraded_tier:
                raise PowerRollError(
                    f"You can only downgrade below tier {self.undowngraded_tier}: pick a lower tier."
                )

    @property
    def kept(self) -> tuple[int, ...]:
        """The two dice that make the natural roll."""
        if self.keep is Keep.ALL:
            return self.dice
        ordered = sorted(self.dice, reverse=self.keep is Keep.HIGHEST)
        return tuple(ordered[:2])

    @property
    def natural(self) -> int:
        """The natural roll: the kept dice before any modifier ("Natural Roll")."""
        return sum(self.kept)

    @property
    def net(self) -> NetEdge:
        """Edge/bane state after cancellation (`net_edge`)."""
        return _NET[min(self.edges, 2), min(self.banes, 2)]

    @property
    def modifier(self) -> int:
        """+2 for an edge, −2 for a bane, 0 otherwise (double edge/bane shift the tier instead)."""
        return _EDGE_MODIFIER.get(self.net, 0)

    @property
    def total(self) -> int:
        """Natural roll + bonus + the edge/bane modifier."""
        return self._total(self.natural, self.net)

    def _total(self, natural: int, net: NetEdge) -> int:
        return natural + self.bonus + _EDGE_MODIFIER.get(net, 0)

    @property
    def base_tier(self) -> int:
        """Tier from the total alone."""
        return tier_for_total(self.total)

    @property
    def automatic_tier(self) -> int | None:
        """The automatic tier that applies: identical ones apply, different ones cancel ("Automatic Tier
        Outcomes")."""
        distinct = set(self.auto_tiers)
        return distinct.pop() if len(distinct) == 1 else None

    @property
    def undowngraded_tier(self) -> int:
        """The tier before any downgrade.

        Natural 19/20 is always tier 3 ("Natural Roll"); otherwise an automatic tier supersedes edges, banes,
        bonuses and penalties; otherwise a double edge raises and a double bane lowers the base tier by one.
        """
        natural = self.natural  # the derived values are worked out once here: tiers are read often
        if natural >= CRITICAL_NATURAL:
            return 3
        auto = self.automatic_tier
        if auto is not None:
            return auto
        net = self.net
        return max(1, min(3, tier_for_total(self._total(natural, net)) + _TIER_SHIFT.get(net, 0)))

    @property
    def tier(self) -> int:
        """The outcome tier: the chosen downgrade if any, else `undowngraded_tier`."""
        return self.downgraded_to if self.downgraded_to is not None else self.undowngraded_tier

    @property
    def critical(self) -> bool:
        """Critical hit: natural 19/20 on an ability roll made as a main action (an extra main action).

        A downgraded critical keeps its extra action ("Downgrade a Power Roll"); automatic tiers don't stop
        it.
        """
        return self.kind is RollKind.ABILITY and self.main_action and self.natural >= CRITICAL_NATURAL

    def outcome(self, difficulty: Difficulty) -> TestOutcome:
        """A test's outcome at `difficulty`; natural 19/20 is always a success with a reward, unless the roll
        was downgraded: then the lower tier's outcome is chosen ("Downgrade a Power Roll": "downgrade it to
        select the outcome of a lower tier"; only a critical hit keeps its extra action)."""
        if self.kind is not RollKind.TEST:
            raise PowerRollError("Only tests have a success or failure: make the roll as a test.")
        if self.natural >= CRITICAL_NATURAL and self.downgraded_to is None:
            return TestOutcome.SUCCESS_WITH_REWARD
        return _TEST_TABLE[difficulty][self.tier - 1]

    def with_target(self, edges: int, banes: int, auto_tiers: tuple[int, ...] | None = None) -> PowerRoll:
        """The same dice evaluated against one target with that target's total edges and banes.

        `auto_tiers` replaces the roll's automatic tiers when given. Any downgrade is cleared (it is chosen
        per target after seeing the tier).
        """
        return dataclasses.replace(
            self,
            edges=edges,
            banes=banes,
            auto_tiers=self.auto_tiers if auto_tiers is None else tuple(auto_tiers),
            downgraded_to=None,
        )

    def downgrade(self, tier: int) -> PowerRoll:
        """Choose the outcome of a tier lower than the current one ("Downgrade a Power Roll")."""
        _check_tier(tier, "A downgrade")
        if tier >= self.tier:
            raise PowerRollError(f"You can only downgrade below tier {self.tier}: pick a lower tier.")
        return dataclasses.replace(self, downgraded_to=tier)


def roll_power(
    dice: Dice,
    bonus: int = 0,
    edges: int = 0,
    banes: int = 0,
    auto_tiers: tuple[int, ...] = (),
    kind: RollKind = RollKind.ABILITY,
    main_action: bool = False,
    keep: Keep = Keep.ALL,
) -> PowerRoll:
    """Roll 2d10 (or 3d10 keeping the highest / lowest two) and build the `PowerRoll`."""
    count = 2 if keep is Keep.ALL else 3
    rolled = tuple(d10(dice) for _ in range(count))
    return PowerRoll(
        dice=rolled,
        bonus=bonus,
        edges=edges,
        banes=banes,
        auto_tiers=tuple(auto_tiers),
        kind=kind,
        main_action=main_action,
        keep=keep,
    )


def evaluate_targets(roll: PowerRoll, targets: Mapping[str, tuple[int, int]]) -> dict[str, PowerRoll]:
    """Evaluate one roll against several targets, each with its own (edges, banes): one result per target,
    so targets may land on different tiers."""
    return {target: roll.with_target(e, b) for target, (e, b) in targets.items()}


def shared_roll(roll: PowerRoll, per_target: Sequence[PowerRoll]) -> PowerRoll:
    """The roll with the edges and banes that apply to every target ("Power Rolls": one roll, each target its
    own edges and banes): the fewest edges and the fewest banes any target's roll has, so an edge or bane
    every target shares (a restrained attacker's bane) is the roll's own. `roll` itself without targets."""
    if not per_target:
        return roll
    return roll.with_target(min(r.edges for r in per_target), min(r.banes for r in per_target))


def capped(roll: PowerRoll, tier: int | None) -> PowerRoll:
    """The roll downgraded to `tier` when it reached a higher one ("Downgrade a Power Roll": the outcome of a
    lower tier chosen); unchanged at or below it, or without a `tier`."""
    if tier is None or roll.tier <= tier:
        return roll
    return roll.downgrade(tier)


def reroll(dice: Dice, roll: PowerRoll) -> PowerRoll:
    """Hero token: reroll a test; the new roll must be used (Draw Steel, The Basics, "Spending Hero
    Tokens")."""
    if roll.kind is not RollKind.TEST:
        raise PowerRollError("A hero token rerolls a test, not an ability roll.")
    rolled = tuple(d10(dice) for _ in roll.dice)
    return dataclasses.replace(roll, dice=rolled, downgraded_to=None)


def opposed_total(roll: PowerRoll) -> int:
    """Total of an opposed roll: no tiers, so a double edge is +4 and a double bane −4 (edge +2, bane −2)
    (Heroes ch. 11, "Tests")."""
    extra = {NetEdge.DOUBLE_EDGE: 4, NetEdge.EDGE: 2, NetEdge.BANE: -2, NetEdge.DOUBLE_BANE: -4}
    return roll.natural + roll.bonus + extra.get(roll.net, 0)
