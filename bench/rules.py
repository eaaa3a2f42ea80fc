"""Rules-core throughput: power rolls with per-target evaluation, the damage pipeline, /dice expressions.

Run: `.venv/bin/python bench/rules.py`. Prints operations per second (time.perf_counter over many
iterations, best of 3 runs).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.rules.characteristics import Characteristics
from bot.rules.damage import DamageModifiers, DamageType, TieredDamage, apply_damage
from bot.rules.dice import SeededDice, roll_expression
from bot.rules.power import evaluate_targets, roll_power
from bot.rules.squads import damage_squad, new_squad
from bot.rules.stamina import Vitals


def rate(fn: Callable[[], object], iterations: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(iterations):
            fn()
        best = min(best, time.perf_counter() - start)
    return iterations / best


def main() -> None:
    dice = SeededDice(1)
    targets = {"a": (0, 0), "b": (1, 0), "c": (0, 2), "d": (2, 1)}
    vitals = Vitals(60, 40, temporary=5, is_hero=True, recoveries=8, max_recoveries=8)
    mods = DamageModifiers.parse("fire 5, all 2", "cold 3")
    damage = TieredDamage.parse("2+M/5+M/7+M fire")
    squad = new_squad("s", [f"m{i}" for i in range(8)], 5)

    def power_4_targets() -> object:
        roll = roll_power(dice, bonus=2, main_action=True)
        return [r.tier for r in evaluate_targets(roll, targets).values()]

    def pipeline() -> object:
        return apply_damage(vitals, 12, DamageType.FIRE, mods, halved=True)

    def strike_4_targets() -> object:
        roll = roll_power(dice, bonus=2, main_action=True)
        chars = Characteristics(might=2)
        return [
            apply_damage(vitals, damage.amount(r.tier, chars), damage.dtype, mods)
            for r in evaluate_targets(roll, targets).values()
        ]

    rows = [
        ("power roll + 4 targets evaluated", rate(power_4_targets, 20_000)),
        ("damage pipeline (halved, weakness, immunity, temp)", rate(pipeline, 50_000)),
        ("strike: roll + 4 targets + 4 pipelines", rate(strike_4_targets, 5_000)),
        (
            "minion squad area damage (3 hit)",
            rate(lambda: damage_squad(squad, 4, ["m1", "m2", "m3"], area=True), 20_000),
        ),
        ("/dice '4d6kh3+2' (roll, parse kept)", rate(lambda: roll_expression(dice, "4d6kh3+2"), 20_000)),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"{'operation':<{width}}  {'per second':>12}  {'µs each':>9}")
    print(f"{'-' * width}  {'-' * 12}  {'-' * 9}")
    for name, per_second in rows:
        print(f"{name:<{width}}  {per_second:>12,.0f}  {1e6 / per_second:>9.1f}")


if __name__ == "__main__":
    main()
