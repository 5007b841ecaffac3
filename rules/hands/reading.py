"""Reading a rank multiset under one game: natural hands, southern hands, and wild cards.

Everything here works on ranks (2–14) and one "flush" flag: suits matter only through "the
natural cards all share a suit", which the tables look up separately. The functions build the
evaluator's tables (:mod:`rules.hands.tables`) once per game; they are not on the hot path.

How wild cards are read (rule ids of docs/rules.md):

- bug (H2): an ace, or any card of the deck that completes a straight (a skip or round-the-corner
  straight included) or a flush; in a flush the highest card of the suit the hand lacks.
- banked joker (H3): any card, except that in a plain flush it is the lowest card of the deck
  the hand lacks (the deuce in the full deck).
- a wild rank (H4: deuces, an agreed rank, wild widow): each wild card is any card of the deck;
  outside five of a kind it may not stand for a card the hand already holds, which only matters
  for flushes (a flush's five ranks are then all different). It is the same substitution for
  every wild rank: the deuces are the wild rank 2.

>>> from rules.hands.game import HandRules
>>> r = Reader(HandRules("rank", 5))
>>> r.wild((14, 13, 9), 2, True).describe()      # A-K-9 suited and two wild fives
'flush, ace-king high'
>>> r.wild((14, 13, 9), 2, True).ranks
(14, 13, 12, 11, 9)
>>> Reader(HandRules(stripped=True)).natural((14, 7, 8, 9, 10), False).describe()
'straight, ten high'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations_with_replacement

from rules.hands.game import HandRules
from rules.hands.ranking import Placement
from rules.hands.value import HandValue

__all__ = ["Reader", "STRAIGHTS", "reader"]

#: The categories the bug may complete ("any card that completes a straight").
STRAIGHTS = frozenset({"straight", "straight_flush", "skip_straight", "round_the_corner"})
_ROUND_THE_CORNER = (
    (frozenset({11, 12, 13, 14, 2}), 2),
    (frozenset({12, 13, 14, 2, 3}), 3),
    (frozenset({13, 14, 2, 3, 4}), 4),
)
_PICTURES = frozenset({11, 12, 13})


def grouped(ranks: Sequence[int]) -> tuple[list[int], list[int]]:
    """Distinct ranks ordered by (count, rank) descending, and their counts."""
    counts = Counter(ranks)
    order = sorted(counts, key=lambda x: (counts[x], x), reverse=True)
    return order, [counts[x] for x in order]


class Reader:
    """Reads rank multisets under one game's rules; remembers every natural value it computed
    (the wild substitutions meet the same multisets over and over), and every wild reading.

    A reading depends on the deck, the southern hands and where they rank, never on which cards
    are wild: :func:`reader` gives the games that read alike one Reader, so the tables of the
    bug, the deuces and every wild rank of one deck share its memory."""

    def __init__(self, rules: HandRules) -> None:
        self.position = rules.ranking.position
        self.southern = frozenset(rules.southern)
        self.as_played = rules.placement is Placement.AS_PLAYED
        low = rules.low
        self.ace_low = frozenset({14, low, low + 1, low + 2, low + 3})  # A-2-3-4-5, or A-7-8-9-T
        self.ace_low_top = low + 3
        self.deck_ranks = rules.deck_ranks
        self._memo: dict[tuple[tuple[int, ...], bool], HandValue] = {}
        self._wild: dict[tuple[tuple[int, ...], int, bool], HandValue] = {}

    def _value(self, category: str, ranks: tuple[int, ...]) -> HandValue:
        return HandValue(category, ranks, position=self.position[category])

    # --------------------------------------------------------------------------- natural
    def natural(self, ranks: Sequence[int], flush: bool) -> HandValue:
        """The value of five natural ranks (a rank may appear five times only when wild cards
        made it so); ``flush`` when the five cards share a suit."""
        key = (tuple(sorted(ranks)), flush)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._natural(key[0], flush)
        return found

    def straight_top(self, distinct: frozenset[int]) -> int:
        """The top card of a five-rank straight (the ace-low one's is its fourth card: the five,
        or the ten in the stripped deck); 0 if not a straight."""
        if len(distinct) != 5:
            return 0
        top = max(distinct)
        if top - min(distinct) == 4:
            return top
        return self.ace_low_top if distinct == self.ace_low else 0

    def _natural(self, ranks: tuple[int, ...], flush: bool) -> HandValue:
        order, counts = grouped(ranks)
        distinct = frozenset(order)
        desc = tuple(sorted(ranks, reverse=True))
        v = self._value
        if counts[0] == 5:
            return v("five_of_a_kind", (order[0],))
        top = self.straight_top(distinct)
        if top and flush:
            best = v("straight_flush", (top,))
        elif counts[0] == 4:
            best = v("four_of_a_kind", tuple(order))
        elif counts[:2] == [3, 2]:
            best = v("full_house", tuple(order))
        elif flush:
            best = v("flush", desc)
        elif top:
            best = v("straight", (top,))
        elif counts[0] == 3:
            best = v("three_of_a_kind", tuple(order))
        elif counts[:2] == [2, 2]:
            best = v("two_pair", tuple(order))
        elif counts[0] == 2:
            best = v("one_pair", tuple(order))
        else:
            best = v("high_card", desc)
        if not self.southern:
            return best
        # A southern hand counts only where it outranks what the cards already are.
        for extra in self._southern(distinct, desc, order, flush, top):
            if extra.strength > best.strength:
                best = extra
        return best

    def southern_readings(self, ranks: Sequence[int], flush: bool) -> list[HandValue]:
        """The southern hands (H7) five natural ranks make, whatever else they make (a declared
        hand's class may be one of them: :mod:`rules.hands.declared`)."""
        order, _ = grouped(ranks)
        distinct = frozenset(order)
        desc = tuple(sorted(ranks, reverse=True))
        return self._southern(distinct, desc, order, flush, self.straight_top(distinct))

    def _southern(self, distinct: frozenset[int], desc: tuple[int, ...], order: list[int],
                  flush: bool, top: int) -> list[HandValue]:
        southern, v = self.southern, self._value
        extra: list[HandValue] = []
        if len(distinct) == 5:
            if "skip_straight" in southern and not flush:
                low = sorted(1 if x == 14 and 3 in distinct else x for x in distinct)
                if all(b - a == 2 for a, b in zip(low, low[1:])):
                    extra.append(v("skip_straight", (low[-1],)))
            if "tiger" in southern and not flush and not top and desc[0] == 7 and 2 in distinct:
                extra.append(v("tiger", desc))
            if "round_the_corner" in southern:
                for ranks_set, high in _ROUND_THE_CORNER:
                    if distinct == ranks_set:
                        # as played: just above the five-high straight (H7), see rules.hands.ranking
                        extra.append(v("round_the_corner", (5, high) if self.as_played else (high,)))
        if "blaze" in southern and distinct <= _PICTURES:
            extra.append(v("blaze", tuple(order)))
        return extra

    # --------------------------------------------------------------------------- wild cards
    def bug(self, ranks: tuple[int, ...], flush: bool) -> HandValue:
        """H2: four natural ranks and the bug: an ace, or any card completing a straight or flush."""
        best = self.natural(ranks + (14,), False)
        for r in self.deck_ranks:
            v = self.natural(ranks + (r,), flush and r not in ranks)
            if v.category in STRAIGHTS and v.strength > best.strength:
                best = v
        if flush:
            missing = max(r for r in self.deck_ranks if r not in ranks)
            v = self.natural(ranks + (missing,), True)
            if v.strength > best.strength:
                best = v
        return best

    def joker(self, ranks: tuple[int, ...], flush: bool) -> HandValue:
        """H3: the banked joker is any card, except the lowest missing card in a plain flush; it
        wins exact ties."""
        best = max((self.natural(ranks + (r,), False) for r in self.deck_ranks), key=_strength)
        if flush:
            for r in self.deck_ranks:
                v = self.natural(ranks + (r,), r not in ranks)
                if v.category == "straight_flush" and v.strength > best.strength:
                    best = v
            # The deuce; if the hand holds the deuce of its suit already, the lowest card it lacks.
            low = min(r for r in self.deck_ranks if r not in ranks)
            v = self.natural(ranks + (low,), True)
            if v.strength > best.strength:
                best = v
        return best.with_joker()

    def wild(self, naturals: tuple[int, ...], wilds: int, flush: bool) -> HandValue:
        """H4: ``wilds`` fully wild cards with ``naturals``; in a flush no wild card copies a card
        the hand holds (so a flush's ranks are all different)."""
        key = (naturals, wilds, flush)
        best = self._wild.get(key)
        if best is not None:  # the same naturals beside another wild rank (its tables share this reader)
            return best
        for subs in combinations_with_replacement(self.deck_ranks, wilds):
            ranks = naturals + subs
            v = self.natural(ranks, flush and len(set(ranks)) == 5)
            if best is None or v.strength > best.strength:
                best = v
        assert best is not None
        self._wild[key] = best
        return best


_READERS: dict[tuple[object, ...], Reader] = {}


def reader(rules: HandRules) -> Reader:
    """The shared :class:`Reader` of every game that reads rank multisets as ``rules`` does (the
    same deck, southern hands and placement; the wild mode and rank do not matter).

    >>> from rules.hands.game import HandRules
    >>> reader(HandRules("deuces")) is reader(HandRules("bug")) is reader(HandRules("rank", 9))
    True
    >>> reader(HandRules(stripped=True)) is reader(HandRules())
    False
    """
    key = (rules.stripped, rules.southern, rules.placement)
    found = _READERS.get(key)
    if found is None:
        found = _READERS[key] = Reader(rules)
    return found


def _strength(value: HandValue) -> int:
    return value.strength
