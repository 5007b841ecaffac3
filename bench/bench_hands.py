"""Benchmark: rules.hands.evaluate against treys, side by side in one process.

Not a test: run ``.venv/bin/python bench/bench_hands.py``. treys is a bench-only dependency (the
``bench`` extra of pyproject). The same 200,000 random hands (fixed seed) go through every
evaluator; each figure is the median of several runs. The tables of rules.hands are built before
timing (they are built once per process, lazily).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from itertools import combinations

from treys import Card as TreysCard  # type: ignore[import-untyped]
from treys import Evaluator

from rules.cards import deck
from rules.hands import HandRules, evaluate
from rules.reports.odds import category_counts

SOUTHERN = ("skip_straight", "tiger", "round_the_corner", "blaze")
#: The variants' games, each given to evaluate() as one HandRules, with the deck its hands come from.
VARIANTS = {
    "fives wild (52 cards)": HandRules("rank", 5),
    "wild widow, nines (52)": HandRules("widow", 9),
    "stripped (32 cards)": HandRules(stripped=True),
    "stripped + bug (33 cards)": HandRules("bug", stripped=True),
    "southern, odds (52)": HandRules(southern=SOUTHERN),
    "southern, as played (52)": HandRules(southern=SOUTHERN, placement="as_played"),
}


def rates(runs: dict[str, Callable[[], object]], n: int, repeats: int) -> dict[str, float]:
    """Hands per second of each run, median of ``repeats``; the runs take turns within each
    repeat so that a busy machine slows them all alike."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: n / statistics.median(t) for name, t in times.items()}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20240501)
    parser.add_argument("--smoke", action="store_true", help="tiny counts: does it run to its end (make bench-smoke)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.hands, args.repeats = 500, 1

    rng = random.Random(args.seed)
    natural = list(deck())
    with_bug = list(deck("bug"))
    hands52 = [tuple(rng.sample(natural, 5)) for _ in range(args.hands)]
    hands53 = [tuple(rng.sample(with_bug, 5)) for _ in range(args.hands)]
    # treys takes its own int cards; a 5-card hand is given as 2 "hole" cards and a 3-card board.
    to_treys = {c: TreysCard.new(str(c)) for c in natural}
    treys_hands = [([to_treys[c] for c in h[:2]], [to_treys[c] for c in h[2:]]) for h in hands52]
    treys = Evaluator()

    for wild in ("none", "bug", "deuces"):
        evaluate(hands53[0] if wild == "bug" else hands52[0], wild)  # build the table first
    variant_hands = {}
    for name, rules in VARIANTS.items():
        cards = list(rules.deck())
        variant_hands[name] = [tuple(rng.sample(cards, 5)) for _ in range(args.hands)]
        start = time.perf_counter()
        evaluate(variant_hands[name][0], rules)  # build the table first
        print(f"table of {name}: built in {time.perf_counter() - start:.2f} s")

    def run_treys() -> None:
        ev = treys.evaluate
        for hole, board in treys_hands:
            ev(hole, board)

    def runner(hands: list[tuple[object, ...]], wild: str | HandRules) -> Callable[[], None]:
        def run() -> None:
            for h in hands:
                evaluate(h, wild)  # type: ignore[arg-type]
        return run

    measured = rates({
        "treys (52 cards)": run_treys,
        "rules none (52 cards)": runner(hands52, "none"),  # type: ignore[arg-type]
        "rules bug (53 cards)": runner(hands53, "bug"),  # type: ignore[arg-type]
        "rules deuces (52 cards)": runner(hands52, "deuces"),  # type: ignore[arg-type]
        **{f"rules {name}": runner(variant_hands[name], rules)  # type: ignore[arg-type]
           for name, rules in VARIANTS.items()},
    }, args.hands, args.repeats)
    base = measured["treys (52 cards)"]
    print(f"{args.hands:,} hands, seed {args.seed}, median of {args.repeats} runs")
    print(f"{'evaluator':<34}{'hands/s':>14}{'vs treys':>10}")
    for name, rate in measured.items():
        print(f"{name:<34}{rate:>14,.0f}{rate / base:>10.2f}")

    start = time.perf_counter()
    from rules.reports import counts as counting
    counting._value_counts.cache_clear()
    counts = category_counts("bug")
    combinatorial = time.perf_counter() - start
    if args.smoke:  # every one of the 2,869,685 hands takes seconds: a smoke run counts them only
        print(f"53-card category count ({sum(counts.values()):,} hands): {combinatorial:.3f} s over rank multisets")
        return
    start = time.perf_counter()
    seen: dict[str, int] = {}
    for h in combinations(with_bug, 5):
        c = evaluate(h, "bug").category
        seen[c] = seen.get(c, 0) + 1
    exhaustive = time.perf_counter() - start
    assert seen == {k: v for k, v in counts.items() if v}
    print(f"53-card category count ({sum(counts.values()):,} hands): "
          f"{combinatorial:.3f} s over rank multisets, {exhaustive:.2f} s evaluating every hand")


if __name__ == "__main__":
    main()
