"""CPU per Forge Steel hero import: `read_hero` (bytes in: size check, JSON decode, the features that count,
Stamina and the other numbers, kits, resources, every ability card) and the roster sheet from it.

Run: `.venv/bin/python bench/import_hero.py [folder]`. Each `.ds-hero` of the folder (by default our own
fixtures, `tests/fixtures/forgesteel/`; give a folder of real Forge Steel exports for full-size heroes) is
imported many times; per import the process CPU time (`time.process_time_ns`) is recorded and p50 / p99 / max
printed per file, against the goal: ≤ 50 ms of CPU at p99.

Then the cost against the file's size, up to the 2 MB an upload may be, for the crafted files of
`tests/content/hero_bomb.py`: one whose features and abilities multiply (refused at a cap while it is read)
and the widest one the reader accepts. The CPU per MB stays level (the reading is linear); each must stay
within the reader's budget (`READ_CPU_SECONDS`).
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.content.forgesteel.files import MAX_BYTES, READ_CPU_SECONDS, ForgeSteelError
from bot.content.forgesteel.hero import read_hero
from bot.content.forgesteel.hero_sheet import read_upload, to_sheet
from tests.content.hero_bomb import multiplying, widest

GOAL_MS = 50.0
RUNS = 400
OWN = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "forgesteel"
#: The crafted files' sizes (MB; the last just under the upload cap) and the runs per size.
SIZES = (0.1, 0.5, 1.0, (MAX_BYTES - 4096) / (1024 * 1024))
CRAFTED_RUNS = 7


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


def crafted_cpu(data: bytes) -> tuple[float, str]:
    """The median CPU milliseconds of importing `data` (as the bot's reader does: `read_upload`), and
    whether it was stored or refused."""
    out, outcome = [], "stored"
    for _ in range(CRAFTED_RUNS):
        start = time.process_time_ns()
        try:
            read_upload(data)
        except ForgeSteelError as error:
            outcome = f"refused: {type(error).__name__}"
        out.append((time.process_time_ns() - start) / 1e6)
    return percentile(out, 0.5), outcome


def by_size() -> None:
    print(f"\n{'crafted file':<12} {'MB':>5} {'CPU ms':>7} {'ms/MB':>6}  outcome")
    worst = 0.0
    for make in (multiplying, widest):
        for mb in SIZES:
            data = make(int(mb * 1024 * 1024))
            cpu, outcome = crafted_cpu(data)
            worst = max(worst, cpu)
            size = len(data) / (1024 * 1024)
            print(f"{make.__name__:<12} {size:>5.2f} {cpu:>7.1f} {cpu / size:>6.1f}  {outcome}")
    verdict = "within" if worst <= READ_CPU_SECONDS * 1000 else "OVER"
    print(f"worst {worst:.1f} ms: {verdict} the reader's {READ_CPU_SECONDS * 1000:.0f} ms budget")


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
    by_size()


if __name__ == "__main__":
    main()
