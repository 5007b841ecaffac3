"""Benchmark: the banked game's numbers (rules.banked.strategy) against a naive loop over the
existing evaluator, in one run.

Not a test: run ``.venv/bin/python bench/bench_banked.py`` (``--quick`` for a short run, ``--smoke`` for tiny counts). Prints:

1. the dealer's tables: simulated dealer hands per second (median of 3 runs);
2. the expected values of every decision for one hand (the dealer conditioned on its five cards):
   with every exchange averaged over every draw (``rules.banked.house.hand_choices``, NumPy), the
   one-off arrays of all hands, then seconds per hand including the conditioning (median over a
   set of hands); beside it the pure-Python model (``Model.choices``, large exchanges sampled);
3. the naive loop: the value of one decision ("bet") by dealing the dealer's cards from the real
   remaining deck, exchanging with ``dealer_exchange`` and paying with ``settle`` (the existing
   evaluator throughout): its speed, the time it would take to value all 33 decisions of a hand
   to ±0.1 ante, and its figures beside the model's: for the hand (exact removal of the five
   cards) and the cached tables the house edge uses (the joker and the count of high cards only);
4. the model's best exchange for a few hands played out with real cards by the same naive loop
   (the model's own continuation, real dealer, ``settle``), beside the model's value;
5. the house edge to ±0.1% of the ante (95%) on both cores: the model's best play of every deal
   (``strategy``), then real shuffled rounds played with it (``measure_edge``), with the rounds a
   second beside the naive loop's.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence

from rules.banked import banked_options, dealer_exchange, settle
from rules.banked.house import hand_choices, measure_edge, play, strategy
from rules.banked.strategy import Model, dealer_sample, dealer_table
from rules.cards import Card, deck, parse_cards

HANDS = ("As Kd 9h 6c 2d", "Ah Ad 9c 6s 2h", "Jk 9h 6h 3h Kc", "Ah Kh Qh Jh 2c", "7s 7d Kh 9c 2d", "Qs Jd Th 4c 2d")
#: The process's first hand, timed with the one-off arrays: not one of HANDS, whose timings would
#: otherwise read the arrays this hand's model left in hand_choices' cache.
FIRST = "Kc Kd 7h 4s 2c"
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


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small figures, about a minute")
    parser.add_argument("--edge-seconds", type=float, default=540.0, help="at most this long for the edge's rounds")
    parser.add_argument("--smoke", action="store_true", help="tiny counts: does it run to its end (make bench-smoke)")
    args = parser.parse_args(argv)
    quick = args.quick or args.smoke
    smoke = args.smoke
    rounds = 500 if smoke else 5_000 if quick else 40_000  # simulated dealer hands per table (11 tables)
    options = banked_options()

    times = []
    dealt = 200 if smoke else 5_000
    for seed in range(3):
        start = time.perf_counter()
        dealer_table(options, False, dealt, seed=seed, high=1)
        times.append((time.perf_counter() - start) / dealt)
    print(f"1. dealer tables: {1 / statistics.median(times):,.0f} simulated dealer hands/s (median of 3)")
    start = time.perf_counter()
    model = Model(options, dealer_rounds=rounds)
    model_built = time.perf_counter() - start
    print(f"   model with {rounds:,} dealer hands in each of its {len(model.tables)} tables built in "
          f"{time.perf_counter() - start:.1f} s")

    start = time.perf_counter()
    sample = dealer_sample(options, 2_000 if smoke else 30_000 if quick else 300_000)
    print(f"   one whole-deck sample of {len(sample.dealt):,} dealer hands (for single hands) in "
          f"{time.perf_counter() - start:.1f} s")

    per_hand = {}
    start = time.perf_counter()
    hand_choices(Model.for_hand(options, sample, parse_cards(FIRST)), FIRST)
    first = time.perf_counter() - start
    exact, python = [], []
    hands = HANDS[:1] if smoke else HANDS
    for text in hands:
        hand = parse_cards(text)
        start = time.perf_counter()
        per_hand[text] = Model.for_hand(options, sample, hand)  # the dealer given these five cards
        hand_choices(per_hand[text], hand)
        exact.append(time.perf_counter() - start)
        start = time.perf_counter()
        Model.for_hand(options, sample, hand).choices(hand, samples=100 if smoke else 3000)
        python.append(time.perf_counter() - start)
    print(f"2. every decision (33) for one hand, dealer conditioned on the hand, every exchange over every draw: "
          f"median {statistics.median(exact):.2f} s a hand (max {max(exact):.2f} s; {len(hands)} hands); the first "
          f"hand in a process {first:.2f} s (with the one-off arrays of all 2,869,685 hands)")
    print(f"   the pure-Python model (3,000 sampled draws per large exchange, ± up to 0.3 ante): median "
          f"{statistics.median(python):.2f} s a hand")

    n = 50 if smoke else 2_000 if quick else 20_000
    print(f"3. naive loop (deal the dealer from the real deck, dealer_exchange, settle), 'bet', {n:,} rounds each;")
    print("   beside it the model for the hand (exact removal of the five cards) and the cached tables (edge):")
    per_round = []
    for text in hands:
        hand = parse_cards(text)
        mean, hw, took = naive(hand, n, seed=7)
        per_round.append(took)
        print(f"   {text}: naive {mean:+.4f} ± {hw:.4f}   for the hand {per_hand[text].bet(hand):+.4f}   "
              f"cached tables {model.bet(hand):+.4f}")
    took = took_naive = statistics.median(per_round)
    print(f"   naive: {took * 1e6:.0f} us per round of 'bet' alone (exchanges cost more)")

    print("4. the model's best exchange played out with real cards (naive loop, the model's continuation):")
    spreads = []
    for text in hands[:4]:
        hand = parse_cards(text)
        exact = per_hand[text]
        best = next(c for c in exact.choices(hand, samples=100 if smoke else 3000) if c.move == "exchange")
        mean, hw, _ = naive(hand, n, seed=11, model=exact, discards=best.discards)
        spreads.append(hw / 1.96 * math.sqrt(n))
        print(f"   {text}: {best}   real cards {mean:+.4f} ± {hw:.4f}")
    spread = statistics.median(spreads)
    need = (1.96 * spread / 0.1) ** 2
    print(f"   a round's result spreads {spread:.1f} antes (median over these hands): the naive loop would need "
          f"{need:,.0f} rounds a decision for ±0.1 ante, about {33 * need * took_naive / 60:,.0f} min for a hand's 33")

    start = time.perf_counter()
    plan = strategy(model)
    built = time.perf_counter() - start
    play(plan, 1_000, seed=4)  # the dealer's arrays, built once
    start = time.perf_counter()
    played = 5_000 if smoke else 200_000
    play(plan, played, seed=5)
    one_core = played / (time.perf_counter() - start)
    target = 0.1 if smoke else 0.01 if quick else 0.001
    edge, tally, took = measure_edge(plan, target, seconds=2.0 if smoke else args.edge_seconds, workers=2, seed=1,
                                     pilot=5_000 if smoke else 200_000 if quick else 2_000_000)
    print(f"5. the model's best play of every deal in {built:.1f} s; {edge}")
    print(f"   {tally.rounds:,} rounds on 2 processes in {took:.0f} s (+ model {model_built:.0f} s, best play "
          f"{built:.0f} s, pilot); {one_core:,.0f} rounds/s on one core against the naive loop's "
          f"{1 / took_naive:,.0f} rounds/s of 'bet' alone (x{one_core * took_naive:,.0f}); ±{100 * edge.plain_half_width:.3f}% "
          f"without the control variate")


if __name__ == "__main__":
    main()
