"""Shared setup for the rules-core tests: a small mixed roster, and a Hypothesis strategy for `Vitals`."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from bot.rules.encounter import Encounter, NewCreatures, add_creatures, new_encounter_state
from bot.rules.stamina import Vitals


def mixed_roster() -> Encounter:
    """Ash (a hero of player 7), Goblin 1 and 2 (the group Raiders) and Rat 1..3 (the squad Pack)."""
    enc = new_encounter_state()
    for spec in (
        NewCreatures("Ash", 30, "heroes", is_hero=True, owner_id=7),
        NewCreatures("Goblin", 10, "director", count=2, group="Raiders"),
        NewCreatures("Rat", 4, "director", count=3, squad="Pack"),
    ):
        enc, _ = add_creatures(enc, spec)
    return enc


def vitals(**more: st.SearchStrategy[Any]) -> st.SearchStrategy[Vitals]:
    """Any `Vitals` with Stamina between -100 and its maximum (1..200), hero or not, knocked out or not;
    `more` draws further fields (the rest keep their defaults)."""
    return st.integers(1, 200).flatmap(
        lambda top: st.builds(
            Vitals,
            max_stamina=st.just(top),
            stamina=st.integers(-100, top),
            temporary=st.integers(0, 30),
            recoveries=st.integers(0, 10),
            max_recoveries=st.integers(0, 10),
            is_hero=st.booleans(),
            knocked_out=st.booleans(),
            **more,
        )
    )
