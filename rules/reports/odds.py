"""Exact counts of hands and exact draw odds (P1), with FOSTER's figures set beside them.

The library functions compute and return values; only ``python -m rules.reports.odds`` prints:

    python -m rules.reports.odds counts --wild bug [--stripped] [--southern blaze tiger ...] [--placement as_played]
    python -m rules.reports.odds counts --wild rank --wild-rank 5
    python -m rules.reports.odds counts --wild widow [--wild-rank 9]
    python -m rules.reports.odds low --wild bug [--stripped]
    python -m rules.reports.odds draws [--wild bug]
    python -m rules.reports.odds foster

The counts are those of :mod:`rules.reports.counts` (re-exported here), for any game: a wild mode, or a
:class:`~rules.hands.HandRules` for everything at once.

>>> counts = category_counts("none")
>>> counts["straight_flush"], counts["four_of_a_kind"], sum(counts.values())
(40, 624, 2598960)
>>> category_counts("bug")["five_of_a_kind"]
1
>>> round(odds_against(624, 2598960), 1)
4164.0

About FOSTER's figures (:func:`foster_table`): the source is an OCR text. Where a printed figure is
plainly garbled the entry keeps the printed text and states the figure read from it: a "½" comes
out as "1" (``21 to I`` is 2½ to 1, ``221`` is 22½, ``141`` is 14½, ``81`` is 8½, and so, most
likely, ``41`` for the four-card flush is 4½), and a capital I stands for 1 (``II`` is 11). The
skip straight's odds are missing from the text (only "to I" survives), and the closing remark
about four-card straights and flushes ("Soo", "'12") says too little about what it counts to be
checked here; :mod:`rules.reports.foster_remarks` computes it under a stated reading (and the remark on
throwing the smaller pair), and the skip straight is not compared. FOSTER's table of the number of hands of each class is not in the
text either; the ``counts`` command prints the exact ones. His "848 to 1" against a
round-the-corner straight is exactly the 3,060 such hands that are not also flushes
(``counts --wild none --southern round_the_corner --placement as_played``); the table compares it
with the 3,072 of the odds placement, where a suited one counts as round-the-corner (845 to 1).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb

from rules import RulesError
from rules.cards import WILD_MODES, Card, Wild, parse_cards, rank_name
from rules.reports.counts import (
    category_counts,
    game,
    low_counts,
    low_value_counts,
    opening_count,
    total_hands,
    value_counts,
)
from rules.hands import SOUTHERN_HANDS, HandRules, HandValue, Placement, categories, evaluate
from rules.openers import MINIMUMS

__all__ = [
    "category_counts",
    "value_counts",
    "opening_count",
    "total_hands",
    "low_counts",
    "low_value_counts",
    "odds_against",
    "format_odds",
    "Draw",
    "draw",
    "DRAWS",
    "FosterLine",
    "foster_table",
    "main",
]


def odds_against(count: int, total: int) -> float:
    """Odds against an event that ``count`` of ``total`` equally likely outcomes satisfy, as
    ``x`` in "x to 1".

    >>> odds_against(8, 47)
    4.875
    """
    return (total - count) / count if count else float("inf")


def format_odds(count: int, total: int) -> str:
    """``format_odds(8, 47) == '4.88 to 1'``; an impossible event reads ``'never'``."""
    if not count:
        return "never"
    x = odds_against(count, total)
    return f"{x:,.2f} to 1" if x < 100 else f"{x:,.0f} to 1"


# --- draws ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """Every way a draw can come out: final category → number of equally likely draws."""

    held: tuple[Card, ...]
    discards: tuple[Card, ...]
    counts: dict[str, int]
    total: int
    improving: int  # draws that end stronger than the best the held cards already made

    def count(self, wanted: Iterable[str]) -> int:
        return sum(self.counts.get(c, 0) for c in wanted)

    def odds(self, wanted: Iterable[str]) -> float:
        """Odds against ending in one of the ``wanted`` categories."""
        return odds_against(self.count(wanted), self.total)


def draw(held: str | Iterable[str | Card], discards: str | Iterable[str | Card] = (),
         wild: str | HandRules = "none", stripped: bool = False) -> Draw:
    """Exact outcomes of drawing ``5 - len(held)`` cards to ``held``, the discards being out of
    the deck as well (the other players' cards are unknown, so they are not). ``wild`` is a wild
    mode or a HandRules; "improving" reads the held cards as natural cards (the bug as an ace).

    >>> d = draw("Jh Js", "8c 5d 2h")
    >>> d.total, d.counts["four_of_a_kind"], round(d.odds(["four_of_a_kind"]), 1)
    (16215, 45, 359.3)
    """
    kept = parse_cards(held)
    thrown = parse_cards(discards)
    gone = set(kept) | set(thrown)
    if len(gone) != len(kept) + len(thrown):
        dup = next(c for c in thrown if c in kept)
        parse_cards([*kept, dup])  # raises the usual "duplicate card" error
    rules = game(wild, stripped)
    unseen = [c for c in rules.deck() if c not in gone]
    n = 5 - len(kept)
    counts: Counter[str] = Counter()
    base = _made(kept)
    improving = 0
    for extra in combinations(unseen, n):
        value = evaluate(kept + extra, rules)
        counts[value.category] += 1
        if _beats_made(value, base):
            improving += 1
    order = {c: i for i, c in enumerate(categories(rules))}
    return Draw(kept, thrown, dict(sorted(counts.items(), key=lambda kv: order[kv[0]])),
                comb(len(unseen), n), improving)


def _made(kept: Sequence[Card]) -> tuple[int, int] | None:
    """What the held cards already make, as (number of a kind, pairs); None for nothing."""
    ranks = Counter(14 if c.is_joker else c.rank for c in kept)
    shape = sorted(ranks.values(), reverse=True)
    if not shape or shape[0] < 2:
        return None
    return shape[0], sum(1 for n in shape if n >= 2)


_SHAPE = {"one_pair": (2, 1), "two_pair": (2, 2), "three_of_a_kind": (3, 1),
          "full_house": (3, 2), "four_of_a_kind": (4, 1)}


def _beats_made(value: HandValue, made: tuple[int, int] | None) -> bool:
    """Whether the final hand is better than what the held cards already made (a pair, two pair,
    ...; None: nothing, so any pair or better improves)."""
    if value.category in ("high_card",):
        return False
    shape = _SHAPE.get(value.category)
    return shape is None or made is None or shape > made


#: The usual draws of the game, as (name, held, discards) for the ``draws`` command.
DRAWS: tuple[tuple[str, str, str], ...] = (
    ("a pair, drawing three", "Jh Js", "8c 5d 2h"),
    ("a pair and an ace kicker, drawing two", "Jh Js Ac", "8c 5d"),
    ("two pair, drawing one", "Jh Js 5c 5d", "8c"),
    ("three of a kind, drawing two", "7c 7d 7h", "Kc 2d"),
    ("three of a kind and a kicker, drawing one", "7c 7d 7h Kc", "2d"),
    ("four to an open-ended straight", "9c 8d 7h 6s", "Kc"),
    ("four to an inside straight", "9c 8d 6h 5s", "Kc"),
    ("four to a flush", "Ah 9h 6h 3h", "Kc"),
    ("three to a flush, drawing two", "Ah 9h 6h", "Kc 2d"),
    ("two to a flush, drawing three", "Ah 9h", "Kc 7d 2s"),
    ("four to a royal flush", "As Ks Qs Js", "3c"),
)


# --- FOSTER's odds --------------------------------------------------------------------------

_ANY_IMPROVEMENT = "any improvement"
_FLUSH_OR_BETTER = ("flush", "straight_flush")
_STRAIGHT_OR_BETTER = ("straight", "straight_flush")


@dataclass(frozen=True)
class FosterLine:
    """One of FOSTER's figures, what he meant by it, and the exact value."""

    situation: str
    event: str
    printed: str           # the figure as the OCR text has it
    meant: float           # the figure read from it (see the module notes)
    exact: float
    count: int
    total: int
    note: str = ""

    @property
    def agrees(self) -> bool:
        """Whether FOSTER's figure is the exact one to his own precision (half a point, or 1%
        of large figures)."""
        return abs(self.exact - self.meant) <= max(0.5, self.meant / 100)


# (situation, held, discards, event, categories or "any improvement", printed, meant, note)
_FOSTER_DRAWS: tuple[tuple[str, str, str, str, tuple[str, ...] | str, str, float, str], ...] = (
    ("a pair, drawing three", "Jh Js", "8c 5d 2h", "four of a kind", ("four_of_a_kind",), "359 to I", 359, ""),
    ("a pair, drawing three", "Jh Js", "8c 5d 2h", "full house", ("full_house",), "97 to 1", 97, ""),
    ("a pair, drawing three", "Jh Js", "8c 5d 2h", "three of a kind", ("three_of_a_kind",), "8 to 1", 8, ""),
    ("a pair, drawing three", "Jh Js", "8c 5d 2h", "two pair", ("two_pair",), "5 to I", 5, ""),
    ("a pair, drawing three", "Jh Js", "8c 5d 2h", "any improvement", _ANY_IMPROVEMENT, "21 to I", 2.5,
     "printed 21: read as 2½"),
    ("a pair and an ace kicker, drawing two", "Jh Js Ac", "8c 5d", "any improvement", _ANY_IMPROVEMENT,
     "4 to I", 4, ""),
    ("two pair, drawing one", "Jh Js 5c 5d", "8c", "full house", ("full_house",), "II to I", 11,
     "printed II: read as 11"),
    ("four to an open-ended straight", "9c 8d 7h 6s", "Kc", "straight", _STRAIGHT_OR_BETTER, "5 to I", 5, ""),
    ("four to an inside straight", "9c 8d 6h 5s", "Kc", "straight", _STRAIGHT_OR_BETTER, "I I to I", 11,
     "printed I I: read as 11"),
    ("three of a kind, drawing two", "7c 7d 7h", "Kc 2d", "four of a kind", ("four_of_a_kind",),
     "221 to I", 22.5, "printed 221: read as 22½"),
    ("three of a kind, drawing two", "7c 7d 7h", "Kc 2d", "full house (a pair)", ("full_house",),
     "141 to", 14.5, "printed 141: read as 14½"),
    ("three of a kind, drawing two", "7c 7d 7h", "Kc 2d", "either", ("full_house", "four_of_a_kind"),
     "81 to I", 8.5, "printed 81: read as 8½"),
    ("three of a kind and a kicker, drawing one", "7c 7d 7h Kc", "2d", "four of a kind",
     ("four_of_a_kind",), "46 to I", 46, ""),
    ("three of a kind and a kicker, drawing one", "7c 7d 7h Kc", "2d", "full house (matching the kicker)",
     ("full_house",), "15 to I", 15, ""),
    ("three of a kind and a kicker, drawing one", "7c 7d 7h Kc", "2d", "either",
     ("full_house", "four_of_a_kind"), "II to I", 11, "printed II: read as 11"),
    ("four to a flush", "Ah 9h 6h 3h", "Kc", "flush", _FLUSH_OR_BETTER, "41 to I", 4.5,
     "printed 41: read as 4½ (could be 4¼)"),
    ("three to a flush, drawing two", "Ah 9h 6h", "Kc 2d", "flush", _FLUSH_OR_BETTER, "23 to I", 23, ""),
    ("two to a flush, drawing three", "Ah 9h", "Kc 7d 2s", "flush", _FLUSH_OR_BETTER, "96 to I", 96, ""),
)

# FOSTER's odds against being dealt each southern hand (H7), 52 cards.
_FOSTER_SOUTHERN = (
    ("tiger", "636 to I", 636.0, ""),
    ("round_the_corner", "848 to I", 848.0, ""),
    ("blaze", "3,008 to I", 3008.0, "FOSTER's figure matches no reading of 'five picture cards' "
                                   "(792 hands, or 768 without four of a kind)"),
)


@lru_cache(maxsize=1)
def foster_table() -> tuple[FosterLine, ...]:
    """FOSTER's odds (P1) with the exact values; see :attr:`FosterLine.agrees`.

    The draws are counted in a 52-card deck with the player's own discards out of it; the
    southern hands are counted among all 2,598,960 hands with every southern hand in play.
    """
    lines: list[FosterLine] = []
    draws: dict[tuple[str, str], Draw] = {}
    for situation, held, thrown, event, wanted, printed, meant, note in _FOSTER_DRAWS:
        d = draws.get((held, thrown))
        if d is None:
            d = draws[held, thrown] = draw(held, thrown)
        n = d.improving if wanted == _ANY_IMPROVEMENT else d.count(wanted)
        lines.append(FosterLine(f"{situation} ({held}, throwing {thrown})", event, printed, meant,
                                odds_against(n, d.total), n, d.total, note))
    southern = SOUTHERN_HANDS
    counts = category_counts("none", southern=southern)
    total = total_hands()
    for name, printed, meant, note in _FOSTER_SOUTHERN:
        n = counts[name]
        lines.append(FosterLine("dealt, five cards", name.replace("_", " "), printed, meant,
                                odds_against(n, total), n, total, note))
    return tuple(lines)


# --- the command ---------------------------------------------------------------------------


def _print_counts(rules: HandRules) -> None:
    counts = category_counts(rules)
    total = total_hands(rules)
    print(f"Five-card hands: {rules.describe()}: {total:,} "
          f"{_widow_note(rules) if rules.wild is Wild.WIDOW else 'hands'}")
    print(f"{'category':<18}{'hands':>14}{'probability':>14}{'odds against':>18}")
    for name in reversed(list(counts)):
        n = counts[name]
        print(f"{name:<18}{n:>14,}{n / total:>14.6f}{format_odds(n, total):>18}")
    print()
    for minimum in MINIMUMS:
        n = opening_count(rules, minimum=minimum)
        print(f"hands that open with {minimum}s or better: {n:,} ({n / total:.4f}, "
              f"{format_odds(n, total)})")


def _widow_note(rules: HandRules) -> str:
    if rules.wild_rank is not None:
        return "hands (the widow card on the table, its other three cards wild)"
    return f"deals (every widow card: {rules.deck_size} x {comb(rules.deck_size - 1, 5):,} hands)"


def _print_low(rules: HandRules) -> None:
    counts = low_counts(rules)
    total = total_hands(rules)
    print(f"Ace-to-five low (H8), the joker and wild cards as fitters: {rules.describe()}: {total:,}")
    print(f"{'kind (best first)':<18}{'hands':>14}{'probability':>14}")
    for name, n in counts.items():
        print(f"{name:<18}{n:>14,}{n / total:>14.6f}")
    print("\nhands without a pair, by their top card:")
    tops: Counter[int] = Counter()
    for value, n in low_value_counts(rules).items():
        if value.pattern == 0:
            tops[value.ranks[0]] += n
    for top, n in sorted(tops.items()):
        print(f"  {rank_name(14 if top == 1 else top):<8}low {n:>12,}  {format_odds(n, total)}")


def _print_draws(rules: HandRules) -> None:
    print(f"Exact draw odds, {rules.describe()} (the player's discards are out of the deck)")
    for name, held, thrown in DRAWS:
        if any(c not in rules.deck() or rules.is_wild(c) for c in parse_cards(f"{held} {thrown}")):
            continue  # the example needs cards this game lacks or makes wild
        d = draw(held, thrown, rules)
        print(f"\n{name}: holding {held}, throwing {thrown} ({d.total:,} draws)")
        for category, n in d.counts.items():
            print(f"  {category:<18}{n:>9,}  {format_odds(n, d.total)}")
        print(f"  {'any improvement':<18}{d.improving:>9,}  {format_odds(d.improving, d.total)}")


def _print_foster() -> None:
    print("FOSTER (1897) beside the exact odds against (52 cards)")
    print(f"{'situation':<62}{'event':<34}{'printed':>11}{'read as':>9}{'exact':>10}  ")
    for line in foster_table():
        flag = "" if line.agrees else "  DIFFERS"
        print(f"{line.situation:<62}{line.event:<34}{line.printed:>11}{line.meant:>9g}"
              f"{line.exact:>10.2f}{flag}{'  (' + line.note + ')' if line.note else ''}")
    print("\nNot compared: the skip straight (its figure is missing from the text) and the "
          "closing remark on four-card straights and flushes (what it counts is unclear).")
    skip = category_counts("none", southern=SOUTHERN_HANDS)
    n = skip["skip_straight"]
    print(f"Exact skip straight: {n:,} hands, {format_odds(n, total_hands())}.")


def _rules(args: argparse.Namespace) -> HandRules:
    return HandRules(args.wild, args.wild_rank, getattr(args, "stripped", False),
                     getattr(args, "southern", ()), getattr(args, "placement", Placement.ODDS))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m rules.reports.odds``."""
    parser = argparse.ArgumentParser(prog="python -m rules.reports.odds", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    def game_options(p: argparse.ArgumentParser, default: str, deck_options: bool = True) -> None:
        p.add_argument("--wild", default=default, choices=WILD_MODES)
        p.add_argument("--wild-rank", help="the wild rank with --wild rank (e.g. 5); with --wild widow, "
                       "the widow card's rank (leave out: every widow card)")
        if deck_options:
            p.add_argument("--stripped", action="store_true", help="32-card deck, ace down to seven")

    p_counts = sub.add_parser("counts", help="hands of each category, and hands that open")
    game_options(p_counts, "bug")
    p_counts.add_argument("--southern", nargs="*", default=[], choices=SOUTHERN_HANDS)
    p_counts.add_argument("--placement", default=Placement.ODDS, choices=tuple(Placement),
                          help="where the southern hands rank (H7)")
    p_low = sub.add_parser("low", help="ace-to-five low hands (H8), the joker as the fitter")
    game_options(p_low, "bug")
    p_draws = sub.add_parser("draws", help="exact odds of the usual draws")
    game_options(p_draws, "none", deck_options=False)
    sub.add_parser("foster", help="FOSTER's odds beside the exact ones")
    args = parser.parse_args(argv)
    try:
        if args.command == "counts":
            _print_counts(_rules(args))
        elif args.command == "low":
            _print_low(_rules(args))
        elif args.command == "draws":
            _print_draws(_rules(args))
        else:
            _print_foster()
    except RulesError as exc:
        parser.error(str(exc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
