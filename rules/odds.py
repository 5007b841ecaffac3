"""Exact counts of hands and exact draw odds (P1), with FOSTER's figures set beside them.

The library functions compute and return values; only ``python -m rules.odds`` prints:

    python -m rules.odds counts --wild bug [--stripped] [--southern blaze tiger ...]
    python -m rules.odds draws [--wild bug]
    python -m rules.odds foster

>>> counts = category_counts("none")
>>> counts["straight_flush"], counts["four_of_a_kind"], sum(counts.values())
(40, 624, 2598960)
>>> category_counts("bug")["five_of_a_kind"]
1
>>> round(odds_against(624, 2598960), 1)
4164.0

Counting works over rank multisets rather than hands: the suits of a multiset only matter for
"flush or not", and the number of suit assignments of each kind is a product of binomials. So
the 2,869,685 hands of the 53-card deck are counted from under 8,000 table entries.

About FOSTER's figures (:func:`foster_table`): the source is an OCR text. Where a printed figure is
plainly garbled the entry keeps the printed text and states the figure read from it: a "½" comes
out as "1" (``21 to I`` is 2½ to 1, ``221`` is 22½, ``141`` is 14½, ``81`` is 8½, and so, most
likely, ``41`` for the four-card flush is 4½), and a capital I stands for 1 (``II`` is 11). The
skip straight's odds are missing from the text (only "to I" survives), and the closing remark
about four-card straights and flushes ("Soo", "'12") says too little about what it counts to be
checked; neither is compared. FOSTER's table of the number of hands of each class is not in the
text either; the ``counts`` command prints the exact ones.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb, prod

from rules.cards import Card, deck, parse_cards
from rules.hands import HandValue, _key, _table, categories, evaluate
from rules.openers import MINIMUMS, beats_minimum

__all__ = [
    "category_counts",
    "value_counts",
    "opening_count",
    "total_hands",
    "odds_against",
    "format_odds",
    "Draw",
    "draw",
    "DRAWS",
    "FosterLine",
    "foster_table",
    "main",
]



def total_hands(wild: str = "none", stripped: bool = False) -> int:
    """How many five-card hands the deck deals.

    >>> total_hands("bug"), total_hands(stripped=True)
    (2869685, 201376)
    """
    return comb(len(deck(wild, stripped)), 5)


def _classes(wild: str, stripped: bool) -> Iterable[tuple[int, bool, int]]:
    """(table key, flush flag, number of hands) for every class of hands the deck deals."""
    low = 7 if stripped else 2
    jokers = 1 if wild in ("bug", "joker") else 0
    wild_deuces = wild == "deuces" and not stripped
    for wilds in range(5 if wild_deuces else 1 + jokers):
        if wild_deuces:
            ways_wild, deuces, jokers, first = comb(4, wilds), (2,) * wilds, 0, 3
        else:
            ways_wild, deuces, jokers, first = 1, (), wilds, low
        size = 5 - wilds
        ranks = range(first, 15)
        for combo in _rank_multisets(ranks, size):
            counts = Counter(combo)
            ways = ways_wild * prod(comb(4, m) for m in counts.values())
            key = _key(combo + deuces, jokers)
            if len(counts) == size:  # distinct ranks: 4 of the suit choices are one suit
                suited = ways_wild * 4
                yield key, True, suited
                if ways - suited:
                    yield key, False, ways - suited
            else:
                yield key, False, ways


def _rank_multisets(ranks: Sequence[int], size: int) -> Iterable[tuple[int, ...]]:
    from itertools import combinations_with_replacement

    for combo in combinations_with_replacement(ranks, size):
        if max(Counter(combo).values()) <= 4:
            yield combo


@lru_cache(maxsize=None)
def _value_counts(wild: str, stripped: bool, southern: frozenset[str]) -> tuple[tuple[HandValue, int], ...]:
    plain, flush, _ = _table(wild, southern)
    out: Counter[HandValue] = Counter()
    for key, is_flush, n in _classes(wild, stripped):
        out[(flush if is_flush else plain)[key]] += n
    return tuple(sorted(out.items()))


def value_counts(wild: str = "bug", stripped: bool = False,
                 southern: Iterable[str] = ()) -> dict[HandValue, int]:
    """How many hands of the deck have each exact value (weakest first).

    >>> v = value_counts("none")
    >>> v[evaluate("As Ks Qs Js Ts")], len(v)
    (4, 7462)
    """
    return dict(_value_counts(wild, stripped, frozenset(southern)))


def category_counts(wild: str = "bug", stripped: bool = False,
                    southern: Iterable[str] = ()) -> dict[str, int]:
    """How many five-card hands of the deck fall in each category (cached; weakest first).

    >>> category_counts("none", stripped=True)["flush"]
    208
    >>> category_counts("deuces")["five_of_a_kind"]
    672
    """
    chosen = frozenset(southern)
    out = dict.fromkeys(categories(chosen), 0)
    for value, n in _value_counts(wild, stripped, chosen):
        out[value.category] += n
    return out


def opening_count(wild: str = "bug", stripped: bool = False, minimum: str = "J") -> int:
    """How many hands qualify to open (O1, O5).

    >>> opening_count("none")
    536100
    """
    return sum(n for v, n in _value_counts(wild, stripped, frozenset()) if beats_minimum(v, minimum))


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
         wild: str = "none", stripped: bool = False) -> Draw:
    """Exact outcomes of drawing ``5 - len(held)`` cards to ``held``, the discards being out of
    the deck as well (the other players' cards are unknown, so they are not).

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
    unseen = [c for c in deck(wild, stripped) if c not in gone]
    n = 5 - len(kept)
    counts: Counter[str] = Counter()
    base = _made(kept, wild)
    improving = 0
    for extra in combinations(unseen, n):
        value = evaluate(kept + extra, wild)
        counts[value.category] += 1
        if base is None or _beats_made(value, base):
            improving += 1
    order = {c: i for i, c in enumerate(categories(("skip_straight", "tiger", "round_the_corner", "blaze")))}
    return Draw(kept, thrown, dict(sorted(counts.items(), key=lambda kv: order[kv[0]])),
                comb(len(unseen), n), improving)


def _made(kept: Sequence[Card], wild: str) -> tuple[int, int] | None:
    """What the held cards already make, as (number of a kind, pairs); None for nothing."""
    ranks = Counter(14 if c.is_joker else c.rank for c in kept)
    shape = sorted(ranks.values(), reverse=True)
    if not shape or shape[0] < 2:
        return None
    return shape[0], sum(1 for n in shape if n >= 2)


_SHAPE = {"one_pair": (2, 1), "two_pair": (2, 2), "three_of_a_kind": (3, 1),
          "full_house": (3, 2), "four_of_a_kind": (4, 1)}


def _beats_made(value: HandValue, made: tuple[int, int]) -> bool:
    if value.category in ("high_card",):
        return False
    shape = _SHAPE.get(value.category)
    return shape is None or shape > made


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
    southern = ("skip_straight", "tiger", "round_the_corner", "blaze")
    counts = category_counts("none", southern=southern)
    total = total_hands()
    for name, printed, meant, note in _FOSTER_SOUTHERN:
        n = counts[name]
        lines.append(FosterLine("dealt, five cards", name.replace("_", " "), printed, meant,
                                odds_against(n, total), n, total, note))
    return tuple(lines)


# --- the command ---------------------------------------------------------------------------


def _print_counts(wild: str, stripped: bool, southern: Sequence[str]) -> None:
    counts = category_counts(wild, stripped, southern)
    total = total_hands(wild, stripped)
    print(f"Five-card hands, wild={wild}, {'32-card stripped' if stripped else 'full'} deck"
          f"{' + joker' if wild in ('bug', 'joker') else ''}: {total:,} hands")
    print(f"{'category':<18}{'hands':>12}{'probability':>14}{'odds against':>18}")
    for name in reversed(list(counts)):
        n = counts[name]
        print(f"{name:<18}{n:>12,}{n / total:>14.6f}{format_odds(n, total):>18}")
    print()
    for minimum in MINIMUMS:
        n = opening_count(wild, stripped, minimum)
        print(f"hands that open with {minimum}s or better: {n:,} ({n / total:.4f}, "
              f"{format_odds(n, total)})")


def _print_draws(wild: str) -> None:
    print(f"Exact draw odds, wild={wild} (the player's discards are out of the deck)")
    for name, held, thrown in DRAWS:
        d = draw(held, thrown, wild)
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
    skip = category_counts("none", southern=("skip_straight", "tiger", "round_the_corner", "blaze"))
    n = skip["skip_straight"]
    print(f"Exact skip straight: {n:,} hands, {format_odds(n, total_hands())}.")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m rules.odds``."""
    parser = argparse.ArgumentParser(prog="python -m rules.odds", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_counts = sub.add_parser("counts", help="hands of each category, and hands that open")
    p_counts.add_argument("--wild", default="bug", choices=("none", "bug", "deuces", "joker"))
    p_counts.add_argument("--stripped", action="store_true", help="32-card deck, ace down to seven")
    p_counts.add_argument("--southern", nargs="*", default=[],
                          choices=("skip_straight", "tiger", "round_the_corner", "blaze"))
    p_draws = sub.add_parser("draws", help="exact odds of the usual draws")
    p_draws.add_argument("--wild", default="none", choices=("none", "bug", "deuces", "joker"))
    sub.add_parser("foster", help="FOSTER's odds beside the exact ones")
    args = parser.parse_args(argv)
    if args.command == "counts":
        _print_counts(args.wild, args.stripped, args.southern)
    elif args.command == "draws":
        _print_draws(args.wild)
    else:
        _print_foster()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
