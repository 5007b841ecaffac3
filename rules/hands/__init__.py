"""Hand evaluation: natural cards, the bug, any wild rank, wild widow, the banked game's joker,
the stripped deck, the southern hands; ace-to-five low.

>>> evaluate("9h 9c 7s 7d Jk", wild="bug").describe()
'two pair, nines and sevens, ace kicker'
>>> evaluate("As Ac Ad Ah Jk", wild="bug") > evaluate("9s 8s 7s 6s 5s")
True
>>> evaluate("Ah Kh Jh 4h 2h", wild="bug") > evaluate("As Ts 9s 8s Jk", wild="bug")
True
>>> fives = HandRules("rank", "5")
>>> evaluate("5s 5d Ah Ad Kc", fives).describe()
'four aces, king kicker'

How the wild modes read a hand (rule ids of docs/rules.md):

- ``none``: the 52 natural cards (H5); A-2-3-4-5 is the lowest straight.
- ``bug`` (H2): the joker is an ace, or any card that completes a straight or a flush; in a flush
  it is the highest card of the suit the hand lacks. Four aces and the bug are five aces.
- ``deuces``, ``rank``, ``widow`` (H4): the four cards of the wild rank (the deuce; an agreed
  rank, ``wild_rank``; the rank of the widow card turned up in the deal, whose other three cards
  are wild) are fully wild; five of a kind is top; outside five of a kind a wild card may not
  duplicate a card of the hand, which only matters for flushes.
- ``joker`` (H3): the joker is fully wild, except that in a plain flush it is the deuce; a hand with
  the joker beats the same hand without it.

The game is one value, :class:`HandRules` (wild mode and rank, full or stripped deck, southern
hands and their placement): ``evaluate(cards, rules)``. The loose arguments
``evaluate(cards, wild=..., southern=..., wild_rank=...)`` still work for the full deck.

The modules: :mod:`~rules.hands.ranking` (the order of the categories: standard, stripped deck,
southern placements), :mod:`~rules.hands.game` (:class:`HandRules`), :mod:`~rules.hands.value`
(:class:`HandValue`), :mod:`~rules.hands.reading` (reading ranks and wild cards),
:mod:`~rules.hands.tables` (the tables and :func:`evaluate`), :mod:`~rules.hands.low`
(ace-to-five low).
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.cards import Card, deck
from rules.hands.game import HandRules
from rules.hands.low import LOW_CATEGORIES, LowValue, evaluate_low
from rules.hands.ranking import (
    ALL_CATEGORIES,
    CATEGORIES,
    SOUTHERN_HANDS,
    Placement,
    Southern,
    check_southern,
    ranking,
)
from rules.hands.tables import evaluate, hand_rules
from rules.hands.declared import Declared, declarable, declare
from rules.hands.value import HandValue

__all__ = [
    "Declared",
    "declare",
    "declarable",
    "CATEGORIES",
    "SOUTHERN_HANDS",
    "ALL_CATEGORIES",
    "LOW_CATEGORIES",
    "Southern",
    "Placement",
    "HandRules",
    "hand_rules",
    "HandValue",
    "LowValue",
    "evaluate",
    "evaluate_low",
    "categories",
    "best_of",
    "all_hands",
    "at_least",
    "trips_or_better",
]


def categories(southern: Iterable[str] | HandRules = ()) -> tuple[str, ...]:
    """The categories in play, weakest first: the standard ten plus any southern hands enabled
    (placed where the odds put them), or those of a :class:`HandRules`.

    >>> categories(("blaze",))[-5:]
    ('full_house', 'blaze', 'four_of_a_kind', 'straight_flush', 'five_of_a_kind')
    >>> categories(HandRules(stripped=True))[4:7]
    ('straight', 'full_house', 'flush')
    """
    if isinstance(southern, HandRules):
        return southern.categories
    return ranking(southern=check_southern(southern)).order


def at_least(value: HandValue, category: str, wild: str | HandRules = "none") -> bool:
    """Whether ``value`` is at least as strong as every hand of ``category`` in the game: a
    southern hand counts by where the game ranks it.

    >>> at_least(evaluate("Kh Kd Qs Qc Jh", southern=["blaze"]), "three_of_a_kind")
    True
    >>> blaze = HandRules(southern=["blaze"], placement="as_played")
    >>> at_least(evaluate("Kh Kd Qs Qc Jh", blaze), "three_of_a_kind", blaze)
    False
    """
    rules = hand_rules(wild)
    floor = rules.ranking.position.get(category)
    if floor is None:
        raise ValueError(f"{category!r} is not a category of this game: {', '.join(rules.categories)}")
    return value.position >= floor


def trips_or_better(cards: str | Iterable[str | Card] | HandValue, wild: str | HandRules = "none") -> bool:
    """D9 (trips to win): whether a hand is three of a kind or better under the game.

    Any category the game ranks at or above three of a kind counts: straights, flushes, ...,
    and the southern hands placed there (all of them where the odds put them; as played, the
    tiger and the round-the-corner straight, not the skip straight or the blaze, which FOSTER
    has lose to triplets). With the bug, K-K-K-Jk is three kings (the bug is an ace kicker).

    >>> trips_or_better("Kh Kc Ks Jk 2s", "bug"), trips_or_better("Kh Kc Jk 7s 2s", "bug")
    (True, False)
    >>> trips_or_better("Kh 5c 5s 9d 2s", HandRules("rank", "5"))
    True
    """
    value = cards if isinstance(cards, HandValue) else evaluate(cards, hand_rules(wild))
    return at_least(value, "three_of_a_kind", wild)


def best_of(hands: Iterable[str | Iterable[str | Card]], wild: str | HandRules = "none") -> list[int]:
    """Indexes of the winning hands (several when the pot is split).

    >>> best_of(["As Kd 7c 5h 2h", "Ac Kh 7d 5s 2c", "Qs Qd 3c 4h 5d"])
    [2]
    """
    values = [evaluate(h, wild) for h in hands]
    top = max(values)
    return [i for i, v in enumerate(values) if v == top]


def all_hands(size: int = 5, wild: str = "none", stripped: bool = False) -> Iterable[tuple[Card, ...]]:
    """Every hand of ``size`` cards from the game's deck (used by exhaustive checks)."""
    from itertools import combinations

    return combinations(deck(wild, stripped), size)
