"""Time ``rules.reports.history.table_history`` on a night's log (the per-table and per-player history pages
read it from the log every time). Target: a 3,000-event table under 1 s, median.

The log is a seeded random night (tests/test_history.py's: deals played out by legal taps, players
sitting down, rebuying, sitting out, changing seats, leaving, undos), read many times.

Run: ``.venv/bin/python bench/bench_history.py [--events 3000] [--runs 7] [--smoke]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/ is not installed

from rules.reports.history import table_history  # noqa: E402
from rules.jackpot import replay_state  # noqa: E402
from tests.test_history import random_night  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--smoke", action="store_true", help="tiny counts: does it run to its end (make bench-smoke)")
    args = parser.parse_args()
    if args.smoke:
        args.events, args.runs = 100, 1
    setup, events = random_night(random.Random(7), args.events)
    times, plain = [], []
    for _ in range(args.runs):
        started = time.perf_counter()
        table_history(setup, events)
        times.append(time.perf_counter() - started)
        started = time.perf_counter()
        replay_state(setup, events)
        plain.append(time.perf_counter() - started)
    print(f"history of a {len(events)}-event night: median {statistics.median(times) * 1000:.0f} ms "
          f"(a plain replay: {statistics.median(plain) * 1000:.0f} ms), {args.runs} runs")


if __name__ == "__main__":
    main()
