"""``python -m rules.banked``: the house's numbers for a banked profile (the only module here that prints).

    python -m rules.banked edge [--half-width 0.1] [--seconds 540] [--workers 2] [--seed 1] [--profile JSON]
    python -m rules.banked hand "As Kd 9h 6c 2d" [--dealer-rounds 300000] [--profile JSON]
    python -m rules.banked strategy [--dealer-rounds 300000] [--profile JSON]

``edge`` finds the best play of every deal under the model (:func:`rules.banked.house.strategy`),
then plays real shuffled rounds with it on ``--workers`` processes until the house edge is known
to ``--half-width`` percent of the ante (95%), and prints it beside the model's own figure.
``hand`` and ``strategy`` value every decision exactly over every draw, the dealer conditioned
on exactly the five cards dealt (:meth:`~rules.banked.strategy.Model.for_hand`).

``--profile`` is a JSON object of banked options, e.g. ``'{"paytable": {"flush": 4}, "no_game_pays": [1, 1]}'``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence

from rules.banked.options import BankedOptions, banked_options
from rules.banked.house import hand_choices, measure_edge, strategy
from rules.banked.strategy import DealerSample, Model, dealer_sample
from rules.cards import parse_cards

#: One hand of each kind a strategy card lists (the player's usual questions).
STRATEGY_HANDS: tuple[tuple[str, str], ...] = (
    ("nothing, ace high", "As Kd 9h 6c 2d"),
    ("nothing, jack high", "Js 8d 6h 4c 2d"),
    ("small pair", "4s 4d Kh 9c 2d"),
    ("pair of aces", "As Ad Kh 9c 2d"),
    ("the joker alone", "Jk Kd 9h 6c 2d"),
    ("two pair", "Ks Kd 7h 7c 2d"),
    ("three of a kind", "8s 8d 8h Kc 2d"),
    ("four to a flush", "As Js 8s 4s 2d"),
    ("four to an open straight", "9s 8d 7h 6c 2d"),
    ("four to an inside straight", "9s 8d 6h 5c Kd"),
    ("straight", "9s 8d 7h 6c 5d"),
    ("flush", "As Js 8s 4s 2s"),
)


def _options(text: str | None) -> BankedOptions:
    return banked_options(json.loads(text) if text else None)


def _describe(options: BankedOptions, model: Model | None, sample: DealerSample | None, started: float) -> None:
    print(f"paytable (to 1): {', '.join(f'{k} {v}' for k, v in options.paytable.items())}")
    win, staked = options.no_game_pays
    print(f"no game pays {win} to {staked}; exchange payment: {options.exchange_payment}; dealer two pair: "
          f"{options.dealer_two_pair}; made hands: {options.dealer_made_hand}; fold loses: {options.fold_loses}; "
          f"joker tie: {options.joker_tie}")
    if sample is not None:
        print(f"dealer: {len(sample.dealt):,} simulated hands, conditioned on each box's five cards "
              f"(built in {time.perf_counter() - started:.1f} s)")
        return
    assert model is not None
    for held in (False, True):
        rates = [100 * t.no_game / t.rounds for (h, _), t in sorted(model.tables.items()) if h == held]
        print(f"dealer, box {'holding' if held else 'without'} the joker: no game {rates[0]:.1f}% (box without "
              f"high cards) to {rates[-1]:.1f}% (all high), {model.dealer_rounds:,} simulated hands a table")
    print(f"(dealer tables built in {time.perf_counter() - started:.1f} s)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.banked", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    edge = sub.add_parser("edge", help="the house edge of the best play, from real shuffled rounds, with its 95%% interval")
    edge.add_argument("--half-width", type=float, default=0.1, help="the 95%% half-width wanted, in percent of the ante")
    edge.add_argument("--seconds", type=float, default=540.0, help="at most this long for the rounds played")
    edge.add_argument("--workers", type=int, default=2, help="processes playing rounds (one per core)")
    edge.add_argument("--pilot", type=int, default=2_000_000, help="rounds per worker that measure the spread first")
    edge.add_argument("--seed", type=int, default=1)
    hand = sub.add_parser("hand", help="every decision for five cards, with its expected value")
    hand.add_argument("cards")
    sub.add_parser("strategy", help="a strategy card: the best decision for the usual hands")
    for p in (edge, hand, sub.choices["strategy"]):
        p.add_argument("--dealer-rounds", type=int, default=None,
                       help="simulated dealer hands: per table for edge (11 tables, default 40,000), in the one "
                            "sample otherwise (default 300,000)")
        p.add_argument("--profile", help="banked options as a JSON object")
    args = parser.parse_args(argv)
    options = _options(args.profile)
    started = time.perf_counter()
    model: Model | None = None
    sample: DealerSample | None = None
    if args.command == "edge":
        model = Model(options, dealer_rounds=args.dealer_rounds or 40_000)
    else:
        sample = dealer_sample(options, args.dealer_rounds or 300_000)
    _describe(options, model, sample, started)
    if args.command == "edge":
        assert model is not None
        started = time.perf_counter()
        plan = strategy(model)
        counts = ", ".join(f"{k} {v:,}" for k, v in plan.first_counts().items() if v)
        print(f"best play of all 2,869,685 deals in {time.perf_counter() - started:.1f} s; first decisions: {counts}")
        result, tally, took = measure_edge(plan, args.half_width / 100, args.seconds, args.workers, args.seed,
                                           pilot=args.pilot)
        print(f"{result}, in {took:.1f} s on {args.workers} processes ({tally.rounds / took:,.0f} rounds/s)")
        print("values in initial antes; a negative edge means the player has the advantage")
    elif args.command == "hand":
        cards = parse_cards(args.cards, count=5)
        started = time.perf_counter()
        assert sample is not None
        choices = hand_choices(Model.for_hand(options, sample, cards), cards)
        print(f"{args.cards}: {len(choices)} decisions in {time.perf_counter() - started:.2f} s (initial antes; "
              "every exchange averaged over every draw)")
        for choice in choices:
            print("  " + str(choice))
    else:
        print("strategy card (expected values in initial antes):")
        for name, text in STRATEGY_HANDS:
            cards = parse_cards(text, count=5)
            assert sample is not None
            best = hand_choices(Model.for_hand(options, sample, cards), cards)[:2]
            print(f"  {name:28} {text:16} {best[0]}   (next: {best[1]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
