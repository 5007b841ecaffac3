"""Benchmark: the banked game's numbers (rules.banked.strategy) against a naive loop over the
existing evaluator, in one run.

Not a test: run ``.venv/bin/python bench/bench_banked.py`` (``--quick`` for a short run). Prints:

1. the dealer's tables: simulated dealer hands per second (median of 3 runs);
2. the expected values of every decision for one hand (the dealer conditioned on its five cards):
   seconds per hand including the conditioning, cold (empty caches) and warm, medians over a set of hands;
3. the naive loop: the value of one decision ("bet") by dealing the dealer's cards from the real
   remaining deck, exchanging with ``dealer_exchange`` and paying with ``settle`` (the existing
   evaluator throughout): its speed, the time it would take to value all 33 decisions of a hand
   to ±0.1 ante, and its figures beside the model's: for the hand (exact removal of the five
   cards) and the cached tables the house edge uses (the joker and the count of high cards only);
4. the model's best exchange for a few hands played out with real cards by the same naive loop
   (the model's own continuation, real dealer, ``settle``), beside the model's value;
5. the house edge on both cores (two processes, different seeds) within a time budget, with its
   95% half-width, and the number of deals ±0.1% would take at that rate.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from rules.banked import banked_options, dealer_exchange, settle
from rules.banked.strategy import Model, dealer_sample, dealer_table, house_edge
from rules.cards import Card, deck, parse_cards

HANDS = ("As Kd 9h 6c 2d", "Ah Ad 9c 6s 2h", "Jk 9h 6h 3h Kc", "Ah Kh Qh Jh 2c", "7s 7d Kh 9c 2d", "Qs Jd Th 4c 2d")
DECK = deck("joker")


def naive_round(hand: tuple[Card, ...], rng: random.Random, model: Model | None, discards: tuple[Card, ...]) -> int:
    """One round with real cards: the box plays ``discards`` (then, if it exchanged, the model's
    continuation), the dealer is dealt from the real remaining deck and exchanges by B4. The net in
    the smallest unit, ante 3."""
    rest = [c for c in DECK if c not in hand]
    rng.shuffle(rest)
    dealer, rest = rest[:5], rest[5:]
    cards, box = list(hand), 3
    if discards:
        assert model is not None
        cards = [c for c in cards if c not in discards] + rest[:len(discards)]
        rest = rest[len(discards):]
        box += 3
        _, move, change = model.second_decision(cards)
        if move == "fold":
            return -box
        if move == "exchange":
            cards = [c for c in cards if c != change] + rest[:1]
            rest = rest[1:]
            box += 3
            if model.last_decision(cards) == "fold":
                return -box
    thrown = set(parse_cards(dealer_exchange(dealer)))
    final = [c for c in dealer if c not in thrown] + rest[:len(thrown)]
    return int(settle(cards, final, box, 2 * box)["player_net"])


def naive(hand: tuple[Card, ...], rounds: int, seed: int, model: Model | None = None,
          discards: tuple[Card, ...] = ()) -> tuple[float, float, float]:
    """(mean in antes, 95% half-width, seconds per round)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    nets = [naive_round(hand, rng, model, discards) / 3 for _ in range(rounds)]
    took = (time.perf_counter() - start) / rounds
    mean = statistics.fmean(nets)
    return mean, 1.96 * statistics.stdev(nets) / math.sqrt(rounds), took


def _edge_worker(args: tuple[int, int, float]) -> tuple[list[float], float, int]:
    seed, rounds, budget = args
    model = Model(banked_options(), dealer_rounds=rounds)
    start = time.perf_counter()
    values: list[float] = []
    batch = 20
    i = 0
    while time.perf_counter() - start < budget:
        e = house_edge(model, batch, seed=seed * 100_000 + i)
        values.append(-e.edge)  # the mean of a batch; batches are equal-sized, so the mean of means is the mean
        i += 1
    return values, time.perf_counter() - start, batch * len(values)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small figures, about a minute")
    parser.add_argument("--edge-seconds", type=float, default=480.0, help="wall time for the house edge")
    args = parser.parse_args(argv)
    quick = args.quick
    rounds = 5_000 if quick else 40_000  # simulated dealer hands per table (11 tables)
    options = banked_options()

    times = []
    for seed in range(3):
        start = time.perf_counter()
        dealer_table(options, False, 5_000, seed=seed, high=1)
        times.append((time.perf_counter() - start) / 5_000)
    print(f"1. dealer tables: {1 / statistics.median(times):,.0f} simulated dealer hands/s (median of 3)")
    start = time.perf_counter()
    model = Model(options, dealer_rounds=rounds)
    print(f"   model with {rounds:,} dealer hands in each of its {len(model.tables)} tables built in "
          f"{time.perf_counter() - start:.1f} s")

    start = time.perf_counter()
    sample = dealer_sample(options, 30_000 if quick else 300_000)
    print(f"   one whole-deck sample of {len(sample.dealt):,} dealer hands (for single hands) in "
          f"{time.perf_counter() - start:.1f} s")

    cold, warm, per_hand = [], [], {}
    for text in HANDS:
        hand = parse_cards(text)
        start = time.perf_counter()
        exact = per_hand[text] = Model.for_hand(options, sample, hand)  # the dealer given these five cards
        exact.choices(hand, samples=3000)
        cold.append(time.perf_counter() - start)
        start = time.perf_counter()
        exact.choices(hand, samples=3000, seed=1)
        warm.append(time.perf_counter() - start)
    print(f"2. every decision (33) for one hand, 3,000 draws per large exchange, dealer conditioned on the hand: "
          f"median {statistics.median(cold):.2f} s cold, {statistics.median(warm):.2f} s warm "
          f"(max cold {max(cold):.2f} s; {len(HANDS)} hands)")

    n = 2_000 if quick else 20_000
    print(f"3. naive loop (deal the dealer from the real deck, dealer_exchange, settle), 'bet', {n:,} rounds each;")
    print("   beside it the model for the hand (exact removal of the five cards) and the cached tables (edge):")
    per_round = []
    for text in HANDS:
        hand = parse_cards(text)
        mean, hw, took = naive(hand, n, seed=7)
        per_round.append(took)
        print(f"   {text}: naive {mean:+.4f} ± {hw:.4f}   for the hand {per_hand[text].bet(hand):+.4f}   "
              f"cached tables {model.bet(hand):+.4f}")
    took = statistics.median(per_round)
    need = (1.96 * 3.0 / 0.1) ** 2  # rounds for ±0.1 ante with a spread of about 3 antes per round
    print(f"   naive: {took * 1e6:.0f} us per round; valuing 33 decisions to ±0.1 ante would take about "
          f"{33 * need * took:.0f} s per hand (a spread of 3 antes; exchanges cost more per round)")

    print("4. the model's best exchange played out with real cards (naive loop, the model's continuation):")
    for text in HANDS[:4]:
        hand = parse_cards(text)
        exact = per_hand[text]
        best = next(c for c in exact.choices(hand, samples=3000) if c.move == "exchange")
        mean, hw, _ = naive(hand, n, seed=11, model=exact, discards=best.discards)
        print(f"   {text}: {best}   real cards {mean:+.4f} ± {hw:.4f}")

    budget = 30.0 if quick else args.edge_seconds
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_edge_worker, [(1, rounds, budget), (2, rounds, budget)]))
    batches = [v for r, _, _ in results for v in r]
    deals = sum(d for _, _, d in results)
    wall = max(t for _, t, _ in results)
    mean = statistics.fmean(batches)
    hw = 1.96 * statistics.stdev(batches) / math.sqrt(len(batches))
    spread = statistics.stdev(batches) * math.sqrt(20)
    need = (1.96 * spread / 0.001) ** 2
    print(f"5. house edge {-100 * mean:+.2f}% ± {100 * hw:.2f}% (95%) from {deals:,} deals on 2 cores in {wall:.0f} s "
          f"(+ table build); ±0.1% would take about {need:,.0f} deals, {need / deals * wall / 3600:.1f} h at this rate")


if __name__ == "__main__":
    main()
