"""The turn engine: one pure model for Draw Steel, its Agility variant, teams, and fast/slow turns.

`model` holds the state, `policy` the per-mode differences, `queries` everything derived, the transitions
(`steps` shared by `entries`, `order`, `rounds`, `taking_turns`, `condition_changes`), `actions` the per-turn
action economy, `events` and `errors` what transitions report (docs/architecture.md, *The turn engine*).
Typical flow: `new_encounter` -> `add_entry`... -> `mark_surprised` -> `determine_first`/`choose_first`
(Draw Steel, Agility) or `set_team_order` (teams) -> `next_round` -> (`start_turn` -> `end_turn`)... ->
automatic `RoundEnded` -> `next_round` ... -> `end_encounter`.
"""

from bot.rules.turns.actions import ACTION_NAMES, ActionBudget, budget, main_kind, maneuver_kind, use_action
from bot.rules.turns.condition_changes import add_condition, remove_condition, roll_save, succeed_save
from bot.rules.turns.entries import add_entry, remove_entry, set_flags
from bot.rules.turns.events import Transition
from bot.rules.turns.model import (
    DEFAULT_SIDES,
    ActionKind,
    Controller,
    Entry,
    EntryKind,
    FirstTurn,
    Initiative,
    Mode,
    Phase,
    Side,
    Speed,
    TurnRecord,
    TurnState,
    new_encounter,
)
from bot.rules.turns.order import (
    choose_first,
    determine_first,
    first_turn_threshold,
    mark_surprised,
    record_agility,
    roll_agility,
    set_team_order,
    swap_agility,
)
from bot.rules.turns.queries import (
    Pick,
    acted,
    agility_order,
    current,
    eligible,
    fast_slow_part,
    picking,
    picking_side,
    power_roll_modifiers,
    remaining_turns,
    round_over,
    turns_taken,
    waiting,
)
from bot.rules.turns.rounds import end_encounter, end_round, next_round, skip_side
from bot.rules.turns.taking_turns import end_turn, pass_part, set_speed, start_turn

__all__ = [
    "ACTION_NAMES",
    "DEFAULT_SIDES",
    "ActionBudget",
    "ActionKind",
    "Controller",
    "Entry",
    "EntryKind",
    "FirstTurn",
    "Initiative",
    "Mode",
    "Phase",
    "Pick",
    "Side",
    "Speed",
    "Transition",
    "TurnRecord",
    "TurnState",
    "acted",
    "add_condition",
    "add_entry",
    "agility_order",
    "budget",
    "choose_first",
    "current",
    "determine_first",
    "eligible",
    "end_encounter",
    "end_round",
    "end_turn",
    "fast_slow_part",
    "first_turn_threshold",
    "main_kind",
    "maneuver_kind",
    "mark_surprised",
    "new_encounter",
    "next_round",
    "pass_part",
    "picking",
    "picking_side",
    "power_roll_modifiers",
    "record_agility",
    "remaining_turns",
    "remove_condition",
    "remove_entry",
    "roll_agility",
    "roll_save",
    "round_over",
    "set_flags",
    "set_speed",
    "set_team_order",
    "skip_side",
    "start_turn",
    "succeed_save",
    "swap_agility",
    "turns_taken",
    "use_action",
    "waiting",
]
