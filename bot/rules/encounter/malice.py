"""The Director's Malice outside the start of a round: gaining it (a feature, a correction) and spending it.

Rules: Monsters, "Malice" (`bot.rules.resources.spend_malice`: never below 0); the Malice each round starts
with is `rounds`'.

Public API: `gain_malice`, `spend_malice`; `MALICE_MAX`.
"""

from __future__ import annotations

import dataclasses

from bot.rules.encounter.model import Encounter
from bot.rules.encounter.sync import HarmError
from bot.rules.resources import Malice
from bot.rules.resources import spend_malice as _spend_malice

MALICE_MAX = 999
"""Most Malice the Director can hold (a bound, not a rule)."""


def gain_malice(encounter: Encounter, amount: int) -> Encounter:
    """The Director gains Malice (a feature, or a correction), at most `MALICE_MAX` in all."""
    if amount < 1:
        raise HarmError("Gain at least 1 Malice: type a positive number.")
    if encounter.malice.value + amount > MALICE_MAX:
        raise HarmError(
            f"Malice can be at most {MALICE_MAX}: gain {MALICE_MAX - encounter.malice.value} at most."
        )
    return dataclasses.replace(encounter, malice=Malice(encounter.malice.value + amount))


def spend_malice(encounter: Encounter, amount: int) -> Encounter:
    """The Director spends Malice (`bot.rules.resources.spend_malice`: never below 0)."""
    if amount < 1:
        raise HarmError("Spend at least 1 Malice: type a positive number.")
    return dataclasses.replace(encounter, malice=_spend_malice(encounter.malice, amount))
