"""Per-mode policy: the only place the four turn structures differ. The transition core and the queries
consult these flags; there is one engine, not four.

Rules (each mode's, on `POLICIES`): Draw Steel, Combat, "Alternative Turn Order"; Teams Combat, "Initiative
and Rounds", "Surprise"; Shadow of the Demon Lord, Combat, "Anatomy of a Round".
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.turns.model import Mode


@dataclass(frozen=True, slots=True)
class Policy:
    rotates_sides: bool
    """Sides (teams) take picks in rotation and an enemy group is one pick; otherwise (fast/slow) players'
    creatures act first in each part and groups play no part."""
    rolls_first: bool
    """Who goes first comes from the Draw Steel d10 roll (else: the side order, or none)."""
    ordered_within_side: bool
    """Agility totals fix the order within a side."""
    fast_slow_parts: bool
    surprise_round: bool
    """A surprise gives a round 0 to the creatures who aren't surprised."""
    surprised_cant_act_in_round: int | None
    """The round in which surprised creatures can't start turns (None: they can)."""


POLICIES: dict[Mode, Policy] = {
    Mode.DRAW_STEEL: Policy(True, True, False, False, False, None),
    Mode.AGILITY: Policy(True, True, True, False, False, None),
    Mode.TEAMS: Policy(True, False, False, False, True, 0),
    Mode.FAST_SLOW: Policy(False, False, False, True, False, 1),
}
"""Each turn structure's flags:

- DRAW_STEEL (Draw Steel, Combat): two sides alternate picks, starting with the side chosen after the d10
  roll; a group is one pick; surprised creatures act but can't take triggered actions until round 1 ends.
- AGILITY (Draw Steel, Combat, "Alternative Turn Order"): as Draw Steel, but within a side the next unit is
  fixed by the Agility test totals, highest first.
- TEAMS (Teams Combat, "Initiative and Rounds", "Surprise"): any number of teams pick in initiative order
  (the order of `TurnState.sides`), skipping a team with no one left; a surprise gives round 0 to the
  creatures who aren't surprised.
- FAST_SLOW (Shadow of the Demon Lord, Combat, "Anatomy of a Round"): a round is a fast part then a slow
  part; in each the players' creatures act first in any order, then the GM's; the surprised can't act in
  round 1.
"""


def policy(mode: Mode) -> Policy:
    return POLICIES[mode]
