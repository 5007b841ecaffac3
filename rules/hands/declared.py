"""Declared hands (H9, PAGAT's deuces wild "cards do not speak"): a hand is worth the class its
holder declares, and within that class the best hand of it that the cards make.

The survey (PAGAT) has the players of deuces wild name their hands at the show, the cards not
speaking by themselves. The project reads a declaration as a claim the cards must back: the hand plays as
the best hand *of the declared class* that its cards make, never as more. Four nines declared as
three of a kind are three nines (the fourth nine a kicker), and lose to three kings declared the
same; a wild card stands for whatever makes the declared hand best (K-K-K-2-9 with deuces wild,
declared as three of a kind, is three kings with an ace kicker). A class the cards cannot make at
all is refused: four nines are not a straight, even though a straight ranks below them.

How each class is found in five cards (ranks, and whether they share a suit), wild cards tried as
:mod:`rules.hands.reading` tries them (H2 the bug: an ace, or any card for a straight, the highest
missing card of the suit for a flush; H3 the banked joker: any card, the lowest missing in a plain
flush; H4 a wild rank: any card, never a copy in a flush):

- one pair, two pair, three of a kind, four of a kind: the highest such group(s) of one rank
  (two pair: two ranks), the other cards as kickers, highest first;
- full house: three of one rank and two of another;
- straight, flush, straight flush, five of a kind, and the southern hands (H7): as the evaluator
  reads them;
- high card: the five ranks, highest first (any five cards make it).

>>> from rules.hands import HandRules
>>> deuces = HandRules("deuces")
>>> declare("9c 9d 9h 2s 4h", "three_of_a_kind", deuces).describe()
'three nines, ace-four as declared (the cards make four nines, four kicker)'
>>> declare("9c 9d 9h 2s 4h", "three_of_a_kind", deuces) < declare("Kc Kd Kh 5s 7h", "three_of_a_kind", deuces)
True
>>> declare("9c 9d 9h 9s 4h", "straight", HandRules())
Traceback (most recent call last):
...
ValueError: the cards cannot make straight (they make four nines, four kicker)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import combinations_with_replacement

from rules.cards import Card, Wild, parse_cards
from rules.hands.game import HandRules
from rules.hands.reading import STRAIGHTS, Reader, reader
from rules.hands.tables import evaluate
from rules.hands.value import HandValue

__all__ = ["Declared", "declare", "declarable", "best_of_class"]

_Reading = tuple[tuple[int, ...], bool]  # five ranks and whether they share a suit


@dataclass(frozen=True, order=True)
class Declared:
    """H9: a hand as declared. Ordered by the declared class's place in the game's ranking
    (``rank``), then by the best hand of that class the cards make (``value``); ``declared`` and the
    hand the cards make (``made``) are kept for the words, not compared. Build it with
    :func:`declare`, the one check of a declaration, for the table at the show and the floor's tree.
    """

    rank: int
    value: HandValue
    declared: str = field(compare=False)
    made: HandValue = field(compare=False)

    def describe(self) -> str:
        if self.value == self.made:
            return f"{self.made.describe()} (declared)"
        return f"{self.value.describe()} as declared (the cards make {self.made.describe()})"


def declare(cards: str | Iterable[str | Card], declared: str, rules: HandRules) -> Declared:
    """The five ``cards`` as declared under ``rules``. Raises ValueError saying why when the class is
    not one of the game's or the cards cannot make it.

    >>> declare("Kc Kd Kh 2s 9h", "three_of_a_kind", HandRules("deuces")).value.describe()
    'three kings, ace-nine'
    >>> declare("Qc Qd 7h 7s 2h", "full_house", HandRules("deuces")).describe()
    'full house, queens full of sevens (declared)'
    """
    order = rules.categories
    if declared not in order:
        raise ValueError(f"this game's hands are {', '.join(order)}")
    hand = parse_cards(cards, count=5)
    made = evaluate(hand, rules)
    value = best_of_class(hand, declared, rules)
    if value is None:
        raise ValueError(f"the cards cannot make {declared.replace('_', ' ')} (they make {made.describe()})")
    return Declared(order.index(declared), value, declared, made)


def declarable(cards: str | Iterable[str | Card], rules: HandRules) -> tuple[str, ...]:
    """The classes the cards can be declared as, weakest first (what a dealer may offer at the show).

    >>> declarable("9c 9d 9h 9s 4h", HandRules())
    ('high_card', 'one_pair', 'three_of_a_kind', 'four_of_a_kind')
    """
    hand = parse_cards(cards, count=5)
    return tuple(c for c in rules.categories if best_of_class(hand, c, rules) is not None)


def best_of_class(cards: str | Iterable[str | Card], category: str, rules: HandRules) -> HandValue | None:
    """The best hand of ``category`` the five cards make under ``rules``, or None if they make none.

    >>> best_of_class("9c 9d 9h 9s 4h", "three_of_a_kind", HandRules()).ranks
    (9, 9, 4)
    >>> best_of_class("Ah Kd Qh Jc Jk", "straight", HandRules("bug")).describe()
    'straight, ace high'
    """
    hand = parse_cards(cards, count=5)
    for card in hand:
        rules.check_in_deck(card)
    wilds = [c for c in hand if rules.is_wild(c) or c.is_joker]
    naturals = [c for c in hand if c not in wilds]
    suited = len({c.suit for c in naturals}) <= 1
    read = reader(rules)
    position = rules.ranking.position[category]
    best: HandValue | None = None
    for ranks, flush in _readings(rules, category, tuple(c.rank for c in naturals), len(wilds), suited):
        found = _as_class(read, category, ranks, flush)
        if found is not None:
            value = HandValue(category, found, position=position)
            if best is None or value > best:
                best = value
    if best is not None and rules.wild is Wild.JOKER and wilds:
        best = best.with_joker()  # H3: the hand with the joker wins an exact tie
    return best


def _readings(rules: HandRules, category: str, ranks: tuple[int, ...], wilds: int, suited: bool) -> Iterator[_Reading]:
    """Every way the wild cards may be read for this class (see the module's docstring)."""
    if not wilds:
        yield ranks, suited and len(ranks) == 5
        return
    deck = rules.deck_ranks
    if rules.wild is Wild.BUG:  # H2
        yield ranks + (14,), False
        if category in STRAIGHTS:
            for r in deck:
                yield ranks + (r,), suited and r not in ranks
        if category == "flush" and suited:
            yield ranks + (max(r for r in deck if r not in ranks),), True
        return
    if rules.wild is Wild.JOKER:  # H3
        for r in deck:
            yield ranks + (r,), category == "straight_flush" and suited and r not in ranks
        if category == "flush" and suited:
            yield ranks + (min(r for r in deck if r not in ranks),), True
        return
    for subs in combinations_with_replacement(deck, wilds):  # H4: any card, no copy in a flush
        full = ranks + subs
        yield full, suited and len(set(full)) == 5


def _as_class(reader: Reader, category: str, ranks: tuple[int, ...], flush: bool) -> tuple[int, ...] | None:
    """The tie-break ranks of the best ``category`` in five concrete ranks, or None."""
    counts = Counter(ranks)
    desc = tuple(sorted(ranks, reverse=True))

    def groups(size: int, how_many: int) -> tuple[int, ...] | None:
        tops = sorted((r for r, n in counts.items() if n >= size), reverse=True)[:how_many]
        if len(tops) < how_many:
            return None
        rest = list(desc)
        for r in tops:
            for _ in range(size):
                rest.remove(r)
        return (*tops, *rest)

    if category == "high_card":
        return desc
    if category == "one_pair":
        return groups(2, 1)
    if category == "two_pair":
        return groups(2, 2)
    if category == "three_of_a_kind":
        return groups(3, 1)
    if category == "four_of_a_kind":
        return groups(4, 1)
    if category == "five_of_a_kind":
        return groups(5, 1)
    if category == "full_house":
        trips = groups(3, 1)
        if trips is None:
            return None
        pair = [r for r, n in counts.items() if n >= 2 and r != trips[0]]
        return (trips[0], pair[0]) if pair else None
    top = reader.straight_top(frozenset(ranks))
    if category == "straight":
        return (top,) if top else None
    if category == "flush":
        return desc if flush else None
    if category == "straight_flush":
        return (top,) if top and flush else None
    found = [v.ranks for v in reader.southern_readings(ranks, flush) if v.category == category]
    return max(found) if found else None
