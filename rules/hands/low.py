"""Ace-to-five low (H8; PAGAT's jacks back), the joker as the *fitter*.

As PAGAT describes it: aces count low and straights and flushes are ignored, so A-2-3-4-5 (the
bicycle) is the best hand; a pair loses to every unpaired hand, and a pair of aces is the best
pair. Played for low, the joker is the *fitter*: it stands for the lowest rank the hand lacks.

>>> evaluate_low("5c 4d 3h 2s Ac") < evaluate_low("6d 4c 3s 2h Ad")
True
>>> evaluate_low("Ac Ad 2c 3d 4h") < evaluate_low("2h 2d 3c 4s 5h")
True
>>> evaluate_low("Kc Qd Jh 9s 8c") < evaluate_low("Ac Ad 2c 3d 4h")
True

Decisions where PAGAT is silent:

- Paired hands rank as in every ace-to-five game: no pair, then one pair, two pair, three of a
  kind, full house, four of a kind, each worse than the one before; within a kind, the grouped
  ranks from the top (the pair first, then the kickers highest first).
- Wild cards in a game played for low (deuces or another rank wild, wild widow, the banked joker)
  are fitters too, one after the other: each is the lowest rank the hand still lacks.
- In the 32-card deck the fitter is the lowest card of that deck the hand lacks: the ace, then
  the seven, the eight, ... (the best low there is A-7-8-9-T).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules import RulesError
from rules.cards import Card, parse_cards, rank_name
from rules.hands.game import HandRules
from rules.hands.reading import grouped
from rules.hands.tables import hand_rules
from rules.hands.value import Ranked

__all__ = ["LowValue", "evaluate_low", "LOW_CATEGORIES", "low_ranks"]

_LOW_PATTERNS = ((1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1))
#: The kinds of low hands, best first.
LOW_CATEGORIES = ("no pair", "one pair", "two pair", "three of a kind", "full house", "four of a kind")


class LowValue(Ranked):
    """An ace-to-five low hand (H8). **Smaller is better**: ``a < b`` means ``a`` wins for low,
    so ``min(values)`` is the winning low hand.

    Aces are low, straights and flushes do not count; any hand without a pair beats any hand with
    one. ``ranks`` are grouped ranks, the ace as 1.

    >>> evaluate_low("Kc 9d 5h 3s Jk", wild="bug").describe()
    'king-nine-five-three-ace'
    >>> evaluate_low("Ac Ad 2c 3d 4h").describe()
    'one pair, ace-four-three-deuce'
    """

    __slots__ = ("key", "ranks", "pattern")
    _by = "key"

    key: tuple[int, ...]
    ranks: tuple[int, ...]
    pattern: int

    def __init__(self, ranks: Sequence[int]) -> None:
        order, counts = grouped(ranks)
        pattern = _LOW_PATTERNS.index(tuple(counts))
        object.__setattr__(self, "pattern", pattern)
        object.__setattr__(self, "ranks", tuple(order))
        object.__setattr__(self, "key", (pattern, *order))

    def __repr__(self) -> str:
        return f"<LowValue {self.describe()!r}>"

    @property
    def category(self) -> str:
        """``no pair``, ``one pair``, ... ``four of a kind``."""
        return LOW_CATEGORIES[self.pattern]

    def describe(self) -> str:
        names = "-".join(rank_name(14 if r == 1 else r) for r in self.ranks)
        return names if self.pattern == 0 else f"{self.category}, {names}"


def low_ranks(naturals: Iterable[int], fitters: int, rules: HandRules) -> list[int]:
    """The five low ranks (ace 1) of natural ranks (ace 14) and ``fitters`` wild cards, each
    fitter the lowest rank of the deck still missing."""
    ranks = [1 if r == 14 else r for r in naturals]
    ladder = (1,) + tuple(r for r in rules.deck_ranks if r != 14)
    for _ in range(fitters):
        ranks.append(next(r for r in ladder if r not in ranks))
    return ranks


def evaluate_low(cards: str | Iterable[str | Card], wild: str | HandRules = "bug", *,
                 wild_rank: int | str | None = None) -> LowValue:
    """Ace-to-five low value of five cards (H8); the joker is the *fitter*: the lowest card the
    hand does not already hold. ``wild`` is a wild mode or a HandRules, as for
    :func:`~rules.hands.evaluate`; with ``none`` the joker is refused.

    >>> evaluate_low("Jk 2c 3d 4h 5s").describe()
    'five-four-three-deuce-ace'
    >>> evaluate_low("Ac 2c 3d 4h Jk").describe()
    'five-four-three-deuce-ace'
    >>> evaluate_low("Ac 2c 2d 4h 7h", wild="deuces").describe()
    'seven-four-three-deuce-ace'
    """
    rules = hand_rules(wild, (), wild_rank)
    if rules.wild_ranked and rules.wild_rank is None:
        raise RulesError("wild widow: the wild rank is known once the widow card is turned up")
    hand = parse_cards(cards, count=5)
    naturals: list[int] = []
    fitters = 0
    for card in hand:
        rules.check_in_deck(card)
        if card.is_joker or rules.is_wild(card):
            fitters += 1
        else:
            naturals.append(card.rank)
    return LowValue(low_ranks(naturals, fitters, rules))
