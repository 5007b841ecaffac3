"""A deliberately naive evaluator for the tests, written independently of rules.hands.

The slow and obvious way: count the ranks, look for a straight and a flush, and for the bug try it
as an ace and as every card of the deck that could complete a straight or a flush (H2).
"""

from __future__ import annotations

from collections import Counter

from rules.cards import Card, deck
from rules.hands import CATEGORIES

NAIVE_ORDER = list(CATEGORIES)


def naive_natural(ranks: list[int], flush: bool) -> tuple[int, tuple[int, ...]]:
    """(category index, tie-break ranks) of five natural ranks, the slow and obvious way."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0]))
    shape = [n for _, n in groups]
    tie = tuple(r for r, _ in groups)
    desc = tuple(sorted(ranks, reverse=True))
    straight_top = 0
    if len(counts) == 5:
        if desc[0] - desc[4] == 4:
            straight_top = desc[0]
        elif desc == (14, 5, 4, 3, 2):
            straight_top = 5
    if shape == [5]:
        return NAIVE_ORDER.index("five_of_a_kind"), tie
    if straight_top and flush:
        return NAIVE_ORDER.index("straight_flush"), (straight_top,)
    if shape == [4, 1]:
        return NAIVE_ORDER.index("four_of_a_kind"), tie
    if shape == [3, 2]:
        return NAIVE_ORDER.index("full_house"), tie
    if flush:
        return NAIVE_ORDER.index("flush"), desc
    if straight_top:
        return NAIVE_ORDER.index("straight"), (straight_top,)
    if shape == [3, 1, 1]:
        return NAIVE_ORDER.index("three_of_a_kind"), tie
    if shape == [2, 2, 1]:
        return NAIVE_ORDER.index("two_pair"), tie
    if shape == [2, 1, 1, 1]:
        return NAIVE_ORDER.index("one_pair"), tie
    return NAIVE_ORDER.index("high_card"), desc


def naive_cards(cards: list[Card]) -> tuple[int, tuple[int, ...]]:
    return naive_natural([c.rank for c in cards], len({c.suit for c in cards}) == 1)


def naive_bug(cards: list[Card]) -> tuple[int, tuple[int, ...]]:
    """H2 by substitution: the bug as an ace of any suit, or as any card of the deck that makes a
    straight, flush or straight flush."""
    if not any(c.is_joker for c in cards):
        return naive_cards(cards)
    rest = [c for c in cards if not c.is_joker]
    best = naive_natural([c.rank for c in rest] + [14], False)
    for sub in deck():
        if sub in rest:
            continue
        value = naive_cards(rest + [sub])
        if NAIVE_ORDER[value[0]] in ("straight", "flush", "straight_flush"):
            best = max(best, value)
    return best
