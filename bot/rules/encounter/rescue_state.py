"""A hero-token rescue on offer, as the encounter keeps it (the rules are `bot.rules.encounter.rescue`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rescue:
    """An offer: the hero, their Stamina and temporary Stamina before the damage, the damage that got
    through, whether it knocks out instead of killing, the recovery value they'd regain, and the channel
    version the offer is good for."""

    creature_id: str
    stamina: int
    temporary: int
    dealt: int
    regain: int
    version: int
    knock_out: bool = False
