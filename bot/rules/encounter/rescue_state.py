"""A hero-token rescue on offer, as the encounter keeps it (the rules are `bot.rules.encounter.rescue`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rescue:
    """An offer: the hero, their Stamina and temporary Stamina before the damage, the damage that got
    through, the recovery value they'd regain, the channel version the damage was committed as, whether it
    knocks out instead of killing, the round it was taken in, and its place among that damage's offers
    (`version` and `ordinal` name the offer: a button carries them)."""

    creature_id: str
    stamina: int
    temporary: int
    dealt: int
    regain: int
    version: int
    knock_out: bool = False
    round: int = 0
    ordinal: int = 0
