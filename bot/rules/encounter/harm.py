"""Harm and help on the encounter aggregate, in one place for its callers: damage, healing, temporary
Stamina, a Director's Stamina correction, Catch Breath, strikes, conditions, saving throws, surges and Malice.

Every function is pure over `Encounter` (returns a new one, or raises a `RuleError` and changes nothing) and
keeps the turn engine's entry flags in step with Stamina (`sync`). Each concern lives in its own module, with
the rules it implements named there:
- `sync` — the harm error, looking a creature up, the turn entry's flags kept in step with Stamina (a round
  that ends because of it gives way to the next), an action used on the creature's own turn;
- `stamina_changes` — damage (draw-steel-combat.txt "Damage", "Dying and Death", "Knocking Creatures Out";
  minions' squad pools), healing, waking, temporary Stamina, the Director's correction, Catch Breath;
- `strikes` — strikes with per-target tiers (draw-steel-basics.md "Power Rolls"), their cost on the
  striker's turn, surges;
- `condition_changes` — conditions and saving throws;
- `malice` — Malice gained or spent outside the start of a round (Monsters, "Malice").

Public API: `Hit`, `StrikeTarget`, `StrikeResult`, `Healing`, `SaveResult`, `target`, `damage`, `heal`,
`wake`, `give_temporary`, `set_stamina`, `catch_breath`, `strike`, `add_condition`, `remove_condition`,
`gain_surges`, `spend_surges`, `gain_malice`, `spend_malice`, `HarmError`; `TOKEN_SURGES`; limits
`STRIKE_TARGETS_MAX`, `AMOUNT_MAX`, `MALICE_MAX`, `SURGES_MAX`, `CONDITIONS_MAX`.
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
