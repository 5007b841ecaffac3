"""Time ``rules.jackpot.replay`` on a 500-event log (target: median under 20 ms).

The log is played out once by a seeded random dealer that only logs legal actions (shows use cards
from a shuffled deck, so hands are real), then replayed from scratch many times. It logs the play
of hands only: the seating menus ``legal`` offers between deals (``{"type": "add_chips", "seats":
[...]}``: a menu of seats, not a move) are not chosen; ``bench_history.py`` times a night with
seating changes.

Run: ``.venv/bin/python bench/bench_replay.py [--events 500] [--runs 300] [--smoke]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from rules.cards import deck, to_text
from rules.jackpot import replay, start

SETUP: dict[str, Any] = {
    "profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
    "seats": [{"seat": s, "player": f"Player {s}", "stack": 100_000} for s in range(1, 7)],
}


def build_log(n: int, seed: int = 7) -> list[dict[str, Any]]:
    """A legal log of ``n`` events: opening, betting, draws, shows, throw-ins."""
    rng = random.Random(seed)
    table = start(SETUP)
    events: list[dict[str, Any]] = []
    cards: list[str] = []
    while len(events) < n:
        state = table.to_dict()
        move = rng.choice([m for m in state["legal"] if "seats" not in m])
        kind = move["type"]
        event: dict[str, Any] = {"type": kind}
        if kind == "deal":
            cards = [to_text([c]) for c in deck(wild="bug")]
            rng.shuffle(cards)
        else:
            event["seat"] = state["to_act"]
        if kind == "pass" and rng.random() < 0.3:
            event = {"type": "open", "seat": state["to_act"]}
        if kind == "fold" and rng.random() < 0.6:
            continue  # keep hands going to the showdown more often
        if kind == "draw":
            event["count"] = rng.randint(0, 3)
        if kind == "show":
            event["cards"] = " ".join(cards[:5])
            cards = cards[5:]
        if kind == "muck" and rng.random() < 0.7:
            continue
        table = table.apply(event)
        events.append(event)
    return events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--smoke", action="store_true", help="tiny counts: does it run to its end (make bench-smoke)")
    args = parser.parse_args()
    if args.smoke:
        args.events, args.runs = 60, 3
    events = build_log(args.events)
    replay(SETUP, events)  # warm up the evaluator's tables
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        state = replay(SETUP, events)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    p99 = times[min(len(times) - 1, int(round(0.99 * (len(times) - 1))))]
    deals = state["deal"]
    print(f"replay of {len(events)} events ({deals} deals, {len(state['rulings'])} rulings): "
          f"median {statistics.median(times):.2f} ms, p99 {p99:.2f} ms, best {times[0]:.2f} ms "
          f"over {args.runs} runs (target: median under 20 ms)")


if __name__ == "__main__":
    main()
