"""The encounter aggregate: creatures, minion squads, the turn state and Malice, as one frozen value the store
keeps (codec data in `EncounterDoc.state`).

- `model`: `Encounter` and its lookups (ids are names, case-insensitive lookups).
- `roster`: adding creatures, squads and roster heroes; removing them.
- `flow`: beginning combat, taking turns, rounds (Malice, heroic resources) and ending it.
"""

from bot.rules.encounter.model import (
    CREATURES_MAX,
    Encounter,
    EncounterError,
    NameTaken,
    UnknownCreature,
    fold,
    new_encounter_state,
)
from bot.rules.encounter.roster import (
    COUNT_MAX,
    NewCreatures,
    add_creatures,
    add_hero,
    creature_of_hero,
    in_play,
    into_play,
    remove,
    rename_hero,
    written_back,
)

__all__ = [
    "COUNT_MAX",
    "CREATURES_MAX",
    "Encounter",
    "EncounterError",
    "NameTaken",
    "NewCreatures",
    "UnknownCreature",
    "add_creatures",
    "add_hero",
    "creature_of_hero",
    "fold",
    "in_play",
    "into_play",
    "new_encounter_state",
    "remove",
    "rename_hero",
    "written_back",
]
