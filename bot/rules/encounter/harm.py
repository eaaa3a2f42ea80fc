"""Harm and help on the encounter aggregate, in one import for its callers: damage, healing, temporary
Stamina, a Director's Stamina correction, Catch Breath, strikes, conditions, saving throws, surges and Malice.

Every function is pure over `Encounter` (a new one, or a `RuleError` and nothing changed). Each concern lives
in its own module, with the rules it implements named there: `sync`, `stamina_changes`, `strikes`,
`condition_changes`, `malice` (docs/architecture.md, *The rules core*).
"""

from bot.rules.encounter.condition_changes import (
    CONDITIONS_MAX,
    SaveResult,
    add_condition,
    remove_condition,
)
from bot.rules.encounter.malice import MALICE_MAX, gain_malice, spend_malice
from bot.rules.encounter.stamina_changes import (
    Hit,
    catch_breath,
    damage,
    give_temporary,
    heal,
    set_stamina,
    wake,
)
from bot.rules.encounter.strikes import (
    STRIKE_TARGETS_MAX,
    SURGES_MAX,
    TOKEN_SURGES,
    StrikeResult,
    StrikeTarget,
    gain_surges,
    spend_surges,
    strike,
)
from bot.rules.encounter.sync import AMOUNT_MAX, HarmError, Healing, target

__all__ = [
    "AMOUNT_MAX",
    "CONDITIONS_MAX",
    "MALICE_MAX",
    "STRIKE_TARGETS_MAX",
    "SURGES_MAX",
    "TOKEN_SURGES",
    "HarmError",
    "Healing",
    "Hit",
    "SaveResult",
    "StrikeResult",
    "StrikeTarget",
    "add_condition",
    "catch_breath",
    "damage",
    "gain_malice",
    "gain_surges",
    "give_temporary",
    "heal",
    "remove_condition",
    "set_stamina",
    "spend_malice",
    "spend_surges",
    "strike",
    "target",
    "wake",
]
