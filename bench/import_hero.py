"""CPU per Forge Steel hero import: `read_hero` (bytes in: size check, JSON decode, the features that count,
Stamina and the other numbers, kits, resources, every ability card) and the roster sheet from it.

Run: `.venv/bin/python bench/import_hero.py [folder]`. Each `.ds-hero` of the folder (by default our own
fixtures, `tests/fixtures/forgesteel/`; give a folder of real Forge Steel exports for full-size heroes) is
imported many times; per import the process CPU time (`time.process_time_ns`) is recorded and p50 / p99 / max
printed per file, against the goal of issue 20: ≤ 50 ms of CPU at p99.
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.content.forgesteel.hero import read_hero
from bot.content.forgesteel.hero_sheet import to_sheet

GOAL_MS = 50.0
RUNS = 400
OWN = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "forgesteel"


def fixtures() -> Path:
    return Path(sys.argv[1]) if len(sys.argv) > 1 else OWN


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(data: bytes) -> list[float]:
    """CPU milliseconds of each of `RUNS` imports (a few first runs warm the caches and are dropped)."""
    for _ in range(5):
        to_sheet(read_hero(data))
    out = []
    for _ in range(RUNS):
        start = time.process_time_ns()
        to_sheet(read_hero(data))
        out.append((time.process_time_ns() - start) / 1e6)
    return out


def main() -> None:
    folder = fixtures()
    gc.collect()
    print(f"{'hero':<16} {'KB':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    worst = 0.0
    files = sorted(folder.glob("*.ds-hero"))
    if not files:
        raise SystemExit(f"No .ds-hero files in {folder}.")
    for path in files:
        name, data = path.name, path.read_bytes()
        times = measure(data)
        p99 = percentile(times, 0.99)
        worst = max(worst, p99)
        p50, kb = percentile(times, 0.5), len(data) / 1024
        print(f"{name:<16} {kb:>6.0f} {p50:>8.2f} {p99:>8.2f} {max(times):>8.2f}")
    verdict = "within" if worst <= GOAL_MS else "OVER"
    print(f"worst p99 {worst:.2f} ms: {verdict} the {GOAL_MS:.0f} ms goal")


if __name__ == "__main__":
    main()
