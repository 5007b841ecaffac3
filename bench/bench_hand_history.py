"""Time a table's history: ``rules.reports.hand_history.hands`` (the log cut into hands, one replay) and
``rules.reports.hand_text.hands_text`` (the PokerStars-style export) on a long day's log.

The floor's hands pages and the export replay the whole log on each request (they are read now and
then, never on a dealer's tap); the target is a median under a second for 3,000 events.

Run: ``.venv/bin/python bench/bench_hand_history.py [--events 3000] [--runs 5] [--smoke]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from rules import RulesError
from rules.cards import deck
from rules.reports.hand_history import hands
from rules.reports.hand_text import hands_text
from rules.jackpot import start

SETUP: dict[str, Any] = {
    "profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
    "seats": [{"seat": s, "player": f"Player {s}", "stack": 1_000_000} for s in range(1, 7)],
}


def build_log(n: int, seed: int = 7) -> list[dict[str, Any]]:
    """A legal log of about ``n`` events, whole deals played by a seeded random dealer: passes,
    openings, calls, raises, draws, and shows of real cards from a shuffled deck."""
    rng = random.Random(seed)
    state, log = start(SETUP), []
    while len(log) < n:
        state = state.apply({"type": "deal"})
        log.append({"type": "deal"})
        cards = [str(c) for c in deck(wild="bug")]
        rng.shuffle(cards)
        while state.phase.value != "between_deals":
            moves = {m["type"]: m for m in state.legal()}
            seat = state.to_act
            if "show" in moves:
                event = {"type": "show", "seat": seat, "cards": cards[:5]}
                cards = cards[5:]
                try:
                    state = state.apply(event)
                except RulesError:  # these cards do not prove the openers: the hand is mucked
                    event = {"type": "muck", "seat": seat}
                    state = state.apply(event)
            else:
                if "draw" in moves:
                    event = {"type": "draw", "seat": seat, "count": rng.randint(0, 3)}
                else:
                    kind = rng.choice([k for k in ("pass", "open", "call", "check", "bet", "raise") if k in moves]
                                      or ["fold"])
                    event = {"type": kind, "seat": seat}
                state = state.apply(event)
            log.append(event)
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="tiny counts: does it run to its end (make bench-smoke)")
    args = parser.parse_args()
    if args.smoke:
        args.events, args.runs = 100, 1
    log = build_log(args.events)
    cut, text = [], ""
    cutting, writing = [], []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        cut = hands(SETUP, log)
        t1 = time.perf_counter()
        text = hands_text(cut, "Table 1", 1)
        t2 = time.perf_counter()
        cutting.append(t1 - t0)
        writing.append(t2 - t1)
    print(f"history of {len(log)} events, {len(cut)} hands, {len(text.splitlines())} lines of text "
          f"(median of {args.runs}): cut into hands {statistics.median(cutting) * 1000:.0f} ms, "
          f"written as text {statistics.median(writing) * 1000:.0f} ms (target: under 1000 ms together)")


if __name__ == "__main__":
    main()
