"""Exact counts of five-card hands for every game (P1): by value, by category, hands that open,
ace-to-five low hands. :mod:`rules.reports.odds` re-exports these and prints them.

>>> counts = category_counts("none")
>>> counts["straight_flush"], counts["four_of_a_kind"], sum(counts.values())
(40, 624, 2598960)
>>> category_counts(HandRules("rank", "5"))["five_of_a_kind"]
672
>>> category_counts(HandRules(stripped=True))["flush"]
204

Counting works over rank multisets rather than hands: the suits of a multiset only matter for
"the natural cards share a suit or not", and the number of suit assignments of each kind is a
product of binomials. So the 2,869,685 hands of the 53-card deck are counted from under 8,000
table entries.

Wild widow (H4): the widow card is turned up from the deck and the other three of its rank are
wild, so a player's five cards come from the 51 others. With the widow's rank known
(``HandRules("widow", wild_rank=9)``) the counts are of those C(51, 5) = 2,349,060 hands; without
it (``HandRules("widow")``, what a profile says before any deal) they are over every (widow card,
hand) pair, 52 × 2,349,060 equally likely deals (32 × C(31, 5) in the stripped deck).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, prod

from rules.cards import Wild
from rules.hands import HandRules, HandValue, LowValue, categories
from rules.hands.low import LOW_CATEGORIES, low_ranks
from rules.hands.tables import rank_key, table
from rules.openers import beats_minimum

__all__ = [
    "game",
    "total_hands",
    "hand_classes",
    "value_counts",
    "category_counts",
    "opening_count",
    "low_value_counts",
    "low_counts",
]


def game(wild: str | HandRules = "bug", stripped: bool = False, southern: Iterable[str] = ()) -> HandRules:
    """The HandRules the counting functions' arguments name (a HandRules passes through)."""
    if isinstance(wild, HandRules):
        if stripped or tuple(southern):
            raise ValueError("give the deck and the southern hands inside the HandRules, not beside it")
        return wild
    return HandRules(wild, stripped=stripped, southern=southern)


def _widow_ranks(rules: HandRules) -> Iterable[HandRules] | None:
    """Wild widow with the rank not yet known: the game once each rank is turned up."""
    if rules.wild is Wild.WIDOW and rules.wild_rank is None:
        return [rules.with_wild_rank(r) for r in rules.deck_ranks]
    return None


def total_hands(wild: str | HandRules = "none", stripped: bool = False) -> int:
    """How many five-card hands the deck deals (wild widow: see the module notes).

    >>> total_hands("bug"), total_hands(stripped=True), total_hands(HandRules("widow", wild_rank=9))
    (2869685, 201376, 2349060)
    """
    rules = game(wild, stripped)
    n = rules.deck_size
    if rules.wild is Wild.WIDOW:
        return comb(n - 1, 5) * (1 if rules.wild_rank is not None else n)
    return comb(n, 5)


def _rank_multisets(ranks: Iterable[int], size: int) -> Iterable[tuple[int, ...]]:
    for combo in combinations_with_replacement(tuple(ranks), size):
        if max(Counter(combo).values(), default=0) <= 4:
            yield combo


def hand_classes(rules: HandRules) -> Iterable[tuple[tuple[int, ...], int, bool, int]]:
    """Every class of hands the deck deals: (natural ranks, wild cards, natural cards suited,
    number of hands). The wild cards are the bug or joker, or cards of the wild rank; wild
    widow's rank must be known."""
    if rules.wild_ranked:
        assert rules.wild_rank is not None
        pool = [r for r in rules.deck_ranks if r != rules.wild_rank]
        available = rules.wild_cards
    else:
        pool = list(rules.deck_ranks)
        available = rules.jokers
    for wilds in range(available + 1):
        ways_wild = comb(available, wilds)
        for combo in _rank_multisets(pool, 5 - wilds):
            counts = Counter(combo)
            ways = ways_wild * prod(comb(4, m) for m in counts.values())
            if len(counts) == len(combo):  # distinct ranks: 4 of the suit choices are one suit
                suited = ways_wild * 4
                yield combo, wilds, True, suited
                if ways - suited:
                    yield combo, wilds, False, ways - suited
            else:
                yield combo, wilds, False, ways


@lru_cache(maxsize=None)
def _value_counts(rules: HandRules) -> tuple[tuple[HandValue, int], ...]:
    out: Counter[HandValue] = Counter()
    each = _widow_ranks(rules)
    if each is not None:
        for turned in each:
            for value, n in _value_counts(turned):
                out[value] += 4 * n  # four widow cards of each rank
        return tuple(sorted(out.items()))
    plain, flush, _ = table(rules)
    wild_rank = rules.wild_rank if rules.wild_ranked else None
    for ranks, wilds, suited, n in hand_classes(rules):
        key = rank_key(ranks + (wild_rank,) * wilds) if wild_rank else rank_key(ranks, wilds)
        out[(flush if suited else plain)[key]] += n
    return tuple(sorted(out.items()))


def value_counts(wild: str | HandRules = "bug", stripped: bool = False,
                 southern: Iterable[str] = ()) -> dict[HandValue, int]:
    """How many hands of the deck have each exact value (weakest first).

    >>> from rules.hands import evaluate
    >>> v = value_counts("none")
    >>> v[evaluate("As Ks Qs Js Ts")], len(v)
    (4, 7462)
    """
    return dict(_value_counts(game(wild, stripped, southern)))


def category_counts(wild: str | HandRules = "bug", stripped: bool = False,
                    southern: Iterable[str] = ()) -> dict[str, int]:
    """How many five-card hands of the deck fall in each category (cached; weakest first as the
    game ranks them).

    >>> category_counts("none", stripped=True)["four_of_a_kind"]
    224
    >>> category_counts("deuces")["five_of_a_kind"]
    672
    """
    rules = game(wild, stripped, southern)
    out = dict.fromkeys(categories(rules), 0)
    for value, n in _value_counts(rules):
        out[value.category] += n
    return out


def opening_count(wild: str | HandRules = "bug", stripped: bool = False, minimum: str = "J") -> int:
    """How many hands qualify to open (O1, O5): a pair of ``minimum`` or better.

    >>> opening_count("none"), opening_count(HandRules("rank", 5), minimum="A")
    (536100, 786780)
    """
    return sum(n for v, n in _value_counts(game(wild, stripped)) if beats_minimum(v, minimum))


# --- ace-to-five low (H8) ---------------------------------------------------------------------


@lru_cache(maxsize=None)
def _low_counts(rules: HandRules) -> tuple[tuple[LowValue, int], ...]:
    out: Counter[LowValue] = Counter()
    each = _widow_ranks(rules)
    if each is not None:
        for turned in each:
            for value, n in _low_counts(turned):
                out[value] += 4 * n
        return tuple(sorted(out.items()))
    for ranks, wilds, suited, n in hand_classes(rules):
        out[LowValue(low_ranks(ranks, wilds, rules))] += n  # suits do not count for low
    return tuple(sorted(out.items()))


def low_value_counts(wild: str | HandRules = "bug", stripped: bool = False) -> dict[LowValue, int]:
    """How many hands of the deck have each ace-to-five low value, best first.

    >>> from rules.hands import evaluate_low
    >>> low_value_counts("none")[evaluate_low("5c 4d 3h 2s Ac")]
    1024
    """
    return dict(_low_counts(game(wild, stripped)))


def low_counts(wild: str | HandRules = "bug", stripped: bool = False) -> dict[str, int]:
    """Hands of each kind of ace-to-five low (H8), best first: ``no pair`` ... ``four of a kind``.

    >>> low_counts("none")["no pair"], low_counts("bug")["no pair"]
    (1317888, 1500928)
    """
    out = dict.fromkeys(LOW_CATEGORIES, 0)
    for value, n in _low_counts(game(wild, stripped)):
        out[value.category] += n
    return out
