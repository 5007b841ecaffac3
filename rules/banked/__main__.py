"""``python -m rules.banked``: the house's numbers for a banked profile (the only module here that prints).

    python -m rules.banked edge [--hands 400] [--seed 1] [--dealer-rounds 40000] [--exact-removal] [--profile JSON]
    python -m rules.banked hand "As Kd 9h 6c 2d" [--samples 3000] [--dealer-rounds 300000] [--profile JSON]
    python -m rules.banked strategy [--dealer-rounds 300000] [--profile JSON]

``hand`` and ``strategy`` condition the dealer on exactly the five cards dealt (one simulation,
:meth:`~rules.banked.strategy.Model.for_hand`); ``edge`` uses the faster cached tables (the box's
joker and count of high cards), whose difference from exact removal the bench measures.

``--profile`` is a JSON object of banked options, e.g. ``'{"paytable": {"flush": 4}, "no_game_pays": [1, 1]}'``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence

from rules.banked.options import BankedOptions, banked_options
from rules.banked.strategy import DealerSample, Model, dealer_sample, house_edge
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
    edge = sub.add_parser("edge", help="the house edge under the best play (a seeded estimate with its 95%% interval)")
    edge.add_argument("--hands", type=int, default=400)
    edge.add_argument("--seed", type=int, default=1)
    edge.add_argument("--exact-removal", action="store_true",
                      help="condition the dealer on each deal's five cards (slower; no card-removal bias)")
    hand = sub.add_parser("hand", help="every decision for five cards, with its expected value")
    hand.add_argument("cards")
    hand.add_argument("--samples", type=int, default=3000)
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
    if args.command == "edge" and not args.exact_removal:
        model = Model(options, dealer_rounds=args.dealer_rounds or 40_000)
    else:
        sample = dealer_sample(options, args.dealer_rounds or 300_000)
    _describe(options, model, sample, started)
    if args.command == "edge":
        started = time.perf_counter()
        source = model if model is not None else sample
        assert source is not None
        result = house_edge(source, args.hands, seed=args.seed)
        print(result, f"in {time.perf_counter() - started:.1f} s")
        print("best first decision: " + ", ".join(f"{k} {v}" for k, v in sorted(result.decisions.items())))
        print("values in initial antes; a negative edge means the player has the advantage")
    elif args.command == "hand":
        cards = parse_cards(args.cards, count=5)
        started = time.perf_counter()
        assert sample is not None
        choices = Model.for_hand(options, sample, cards).choices(cards, samples=args.samples)
        print(f"{args.cards}: {len(choices)} decisions in {time.perf_counter() - started:.2f} s (initial antes; "
              "± is the 95% half-width of sampled draws)")
        for choice in choices:
            print("  " + str(choice))
    else:
        print("strategy card (expected values in initial antes):")
        for name, text in STRATEGY_HANDS:
            cards = parse_cards(text, count=5)
            assert sample is not None
            best = Model.for_hand(options, sample, cards).choices(cards, samples=1500)[:2]
            print(f"  {name:28} {text:16} {best[0]}   (next: {best[1]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
