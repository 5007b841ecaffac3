"""``python -m rules.banked``: the house's numbers for a banked profile (the only module here that prints).

    python -m rules.banked edge [--hands 400] [--seed 1] [--dealer-rounds 200000] [--profile JSON]
    python -m rules.banked hand "As Kd 9h 6c 2d" [--samples 3000] [--profile JSON]
    python -m rules.banked strategy [--profile JSON]

``--profile`` is a JSON object of banked options, e.g. ``'{"paytable": {"flush": 4}, "no_game_pays": [1, 1]}'``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence

from rules.banked.options import BankedOptions, banked_options
from rules.banked.strategy import Model, house_edge
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


def _describe(options: BankedOptions, model: Model, started: float) -> None:
    print(f"paytable (to 1): {', '.join(f'{k} {v}' for k, v in options.paytable.items())}")
    win, staked = options.no_game_pays
    print(f"no game pays {win} to {staked}; dealer two pair: {options.dealer_two_pair}; "
          f"made hands: {options.dealer_made_hand}; fold loses: {options.fold_loses}; joker tie: {options.joker_tie}")
    for held, t in model.tables.items():
        print(f"dealer, box {'holding' if held else 'without'} the joker: no game {100 * t.no_game / t.rounds:.2f}% "
              f"of {t.rounds} simulated hands")
    print(f"(dealer tables built in {time.perf_counter() - started:.1f} s)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.banked", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    edge = sub.add_parser("edge", help="the house edge under the best play (a seeded estimate with its 95%% interval)")
    edge.add_argument("--hands", type=int, default=400)
    edge.add_argument("--seed", type=int, default=1)
    hand = sub.add_parser("hand", help="every decision for five cards, with its expected value")
    hand.add_argument("cards")
    hand.add_argument("--samples", type=int, default=3000)
    sub.add_parser("strategy", help="a strategy card: the best decision for the usual hands")
    for p in (edge, hand, sub.choices["strategy"]):
        p.add_argument("--dealer-rounds", type=int, default=200_000)
        p.add_argument("--profile", help="banked options as a JSON object")
    args = parser.parse_args(argv)
    options = _options(args.profile)
    started = time.perf_counter()
    model = Model(options, dealer_rounds=args.dealer_rounds)
    _describe(options, model, started)
    if args.command == "edge":
        started = time.perf_counter()
        result = house_edge(model, args.hands, seed=args.seed)
        print(result, f"in {time.perf_counter() - started:.1f} s")
        print("best first decision: " + ", ".join(f"{k} {v}" for k, v in sorted(result.decisions.items())))
        print("values in initial antes; a negative edge means the player has the advantage")
    elif args.command == "hand":
        cards = parse_cards(args.cards, count=5)
        started = time.perf_counter()
        choices = model.choices(cards, samples=args.samples)
        print(f"{args.cards}: {len(choices)} decisions in {time.perf_counter() - started:.2f} s (initial antes; "
              "± is the 95% half-width of sampled draws)")
        for choice in choices:
            print("  " + str(choice))
    else:
        print("strategy card (expected values in initial antes):")
        for name, text in STRATEGY_HANDS:
            best = model.choices(text, samples=1500)[:2]
            print(f"  {name:28} {text:16} {best[0]}   (next: {best[1]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
