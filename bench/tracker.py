"""Tracker cost per refresh, without Discord: decoding the stored encounter (`codec.load`) and rendering the
embed (`render_tracker`) for 12, 40 and 100 creatures, plus the embed's JSON payload (what discord.py sends).

Run: `.venv/bin/python bench/tracker.py`. Prints microseconds per operation (best of 3 runs).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.rules import rate
from bot.rules import codec
from bot.rules.conditions import Condition, Duration
from bot.rules.dice import FixedDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, new_encounter_state
from bot.rules.turns import Controller, add_condition, choose_first, determine_first, next_round
from exts.tracker._views import TrackerView, render_tracker


def encounter(count: int) -> Encounter:
    state = new_encounter_state()
    for n in range(1, 5):
        state, _ = add_creatures(state, NewCreatures(f"Hero {n}", 30, "heroes", is_hero=True, owner_id=n))
    left = count - 4
    batch = 0
    while left > 0:
        size = min(left, 40)
        batch += 1
        state, _ = add_creatures(state, NewCreatures(f"Goblin {batch}", 10, "director", count=size))
        left -= size
    turns = determine_first(state.turns, FixedDice([9])).state
    turns = next_round(choose_first(turns, "heroes", Controller.PLAYERS).state).state
    for creature in state.creatures[::3]:
        turns = add_condition(turns, creature.id, Condition.BLEEDING, Duration.SAVE, source_id="Hero 1").state
    return state.with_turns(turns)


def micros(fn: Callable[[], object], iterations: int) -> float:
    """Microseconds per call, best of 3 runs (`bench/rules.py`'s timer)."""
    return 1e6 / rate(fn, iterations)


def main() -> None:
    view = TrackerView("Goblin ambush", tokens=3, show_monster_stamina=True)
    print(f"{'creatures':>9} {'decode us':>10} {'render us':>10} {'payload us':>11} {'embed chars':>12}")
    for count in (12, 40, 100):
        state = encounter(count)
        data = codec.to_data(state)
        embed = render_tracker(state, view)
        decode = micros(partial(codec.load, Encounter, data), 200)
        render = micros(partial(render_tracker, state, view), 200)
        payload = micros(embed.to_dict, 2000)
        print(f"{count:>9} {decode:>10.0f} {render:>10.0f} {payload:>11.0f} {len(embed):>12}")


if __name__ == "__main__":
    main()
