"""The order of the categories: standard (H5), the stripped deck (H1), the southern hands (H7).

>>> ranking().order[-5:]
('flush', 'full_house', 'four_of_a_kind', 'straight_flush', 'five_of_a_kind')
>>> ranking(stripped=True).order[-5:]
('full_house', 'flush', 'four_of_a_kind', 'straight_flush', 'five_of_a_kind')
>>> ranking(southern=("blaze", "skip_straight"), placement="as_played").order[:6]
('high_card', 'one_pair', 'two_pair', 'skip_straight', 'blaze', 'three_of_a_kind')

**The stripped deck** (H1; PAGAT's "32-Card Poker"). The seed's copy of PAGAT's section stops where
its list of differences from ordinary five card draw would begin, and the list is lost; the issue
and the given rule catalogue (its H1; docs/rules.md) carry the two differences every stripped-deck
game plays, and they are what this module does: a flush beats a full house, and A-7-8-9-T is a
straight, the lowest (the ace plays low below the seven, as it plays low in A-2-3-4-5 in the full
deck). What the seed leaves out was
checked against the exact counts of the 32-card deck (``python -m rules.reports.odds counts --wild none
--stripped``) and decided here:

- Straight flush (20 hands) against four of a kind (224): the straight flush is still the rarer,
  so it stays on top; no reordering.
- Flush (204 hands) against four of a kind (224): by the odds alone a flush would beat four of
  a kind too. The seed says nothing; the stripped-deck games as commonly played (the Italian
  style of 32-card poker among them) move the flush above the full house only, and so does the
  issue's wording; it stays below four of a kind. With the bug (33 cards) the flush is 296 hands against 256 for four of a
  kind, so there the odds agree.
- Straight (5,100 hands) against three of a kind (10,752): the straight is still the rarer and
  stays above; the "trips beat a straight" rule of some short-deck games is not played.
- No suit ranks above another (some Italian rooms break ties by suit): an exact tie splits the
  pot, as H5 says for every game of the project.

**Southern hands** (H7) have two placements (:class:`Placement`), both read from FOSTER's text:

- ``odds``: where FOSTER says they *should* rank, "by the calculated odds": skip straight between
  a straight and a flush; tiger above a flush and below a full hand; round-the-corner straight
  between a full hand and four of a kind; blaze "just below four-of-a-kind" (above the round
  the corner, which is the more frequent of the two). The exact 52-card counts agree
  (:mod:`rules.reports.odds`). This order is kept in every deck and wild mode; in the stripped deck only
  the blaze can be made (see :class:`~rules.hands.HandRules`) and it stays just below four of a
  kind, above the flush that the stripped deck moves up.
- ``as_played``: where FOSTER says they were played in the South, each sentence read literally:

  * skip straight "played to beat two pairs": above every two pair and below three of a kind.
  * tiger (FOSTER gives it two more names, big dog and little dog: seven high, deuce low, no
    pair): above every straight and below every flush.
  * round-the-corner straight (FOSTER: it beats only the lowest straight, five high): a straight that beats A-2-3-4-5 and loses to 6-5-4-3-2. FOSTER does not rank the
    three round-the-corner straights among themselves; they rank by the card that ends the run
    (K-A-2-3-4 over Q-K-A-2-3 over J-Q-K-A-2), as in the odds placement.
  * blaze "played to beat two pairs and lose to triplets": between two pair and three of a kind.
  * FOSTER puts both the skip straight and the blaze above two pairs and says nothing of one
    against the other; the blaze, the rarer (768 hands to 6,120), ranks above the skip straight,
    as his odds order has it.

A southern hand counts only where it outranks what the same cards already make (a blaze of
K-K-K-Q-Q is a full house when blazes rank below it).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from rules import RulesError

__all__ = [
    "CATEGORIES",
    "SOUTHERN_HANDS",
    "ALL_CATEGORIES",
    "Southern",
    "Placement",
    "Ranking",
    "ranking",
    "check_southern",
]

#: The standard categories, weakest first (H5, with five of a kind on top for the wild modes).
CATEGORIES = (
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
    "full_house", "four_of_a_kind", "straight_flush", "five_of_a_kind",
)


class Southern(StrEnum):
    """The optional southern hands (H7), the one definition of this vocabulary."""

    SKIP_STRAIGHT = "skip_straight"
    TIGER = "tiger"
    ROUND_THE_CORNER = "round_the_corner"
    BLAZE = "blaze"


class Placement(StrEnum):
    """Where the southern hands rank (H7; the ``southern_placement`` option)."""

    ODDS = "odds"
    AS_PLAYED = "as_played"


#: The southern hands as texts, in the order of :class:`Southern`.
SOUTHERN_HANDS: tuple[str, ...] = tuple(s.value for s in Southern)
#: Every category, weakest first, the southern hands where the odds put them in a 52-card deck
#: (FOSTER's "should rank" placement, which the exact counts of rules.reports.odds confirm): skip
#: straight 6,120 hands (between straight 10,200 and flush 5,108), tiger 4,080 (between flush and
#: full house 3,744), round the corner 3,072 and blaze 768 (between full house and four of a kind
#: 624, the blaze being the rarer). A HandValue made without a ranking is placed by this order.
ALL_CATEGORIES = (
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "skip_straight",
    "flush", "tiger", "full_house", "round_the_corner", "blaze", "four_of_a_kind",
    "straight_flush", "five_of_a_kind",
)
_AS_PLAYED = (
    "high_card", "one_pair", "two_pair", "skip_straight", "blaze", "three_of_a_kind", "straight",
    "round_the_corner", "tiger", "flush", "full_house", "four_of_a_kind", "straight_flush",
    "five_of_a_kind",
)


def check_southern(southern: Iterable[str]) -> frozenset[Southern]:
    """The southern hands named, checked: an unknown name raises :class:`rules.RulesError`.

    >>> check_southern(["tiger", "blaze"]) == {Southern.TIGER, Southern.BLAZE}
    True
    """
    if isinstance(southern, str):
        southern = (southern,)
    chosen: set[Southern] = set()
    for name in southern:
        try:
            chosen.add(Southern(name))
        except ValueError:
            raise RulesError(f"unknown southern hand {name!r}; known: {', '.join(SOUTHERN_HANDS)}") from None
    return frozenset(chosen)


class Ranking:
    """The categories of one game in order, and the position each gives to a HandValue.

    ``order`` lists the categories in play weakest first. ``position[name]`` is the number a
    HandValue's strength starts with: positions follow ``order`` except that a round-the-corner
    straight played ``as_played`` shares the straights' position (its tie-break ranks put it
    just above the five-high straight).
    """

    __slots__ = ("order", "position", "stripped", "placement")

    order: tuple[str, ...]
    position: dict[str, int]
    stripped: bool
    placement: Placement

    def __init__(self, stripped: bool, southern: frozenset[Southern], placement: Placement) -> None:
        base = ALL_CATEGORIES if placement is Placement.ODDS else _AS_PLAYED
        order = [c for c in base if c in CATEGORIES or c in southern]
        if stripped:  # H1: a flush beats a full house (and stays below four of a kind)
            flush, full = order.index("flush"), order.index("full_house")
            order[flush], order[full] = order[full], order[flush]
        self.order = tuple(order)
        # Positions are those of the unrestricted order, so that every game of the project
        # without southern hands and without the stripped deck gives the same strengths.
        universe = list(base)
        if stripped:
            a, b = universe.index("flush"), universe.index("full_house")
            universe[a], universe[b] = universe[b], universe[a]
        self.position = {c: universe.index(c) for c in order}
        if placement is Placement.AS_PLAYED and "round_the_corner" in self.position:
            self.position["round_the_corner"] = self.position["straight"]
        self.stripped = stripped
        self.placement = placement

    def __repr__(self) -> str:
        return f"<Ranking {' < '.join(self.order)}>"


_RANKINGS: dict[tuple[bool, frozenset[Southern], Placement], Ranking] = {}


def ranking(stripped: bool = False, southern: Iterable[str] = (),
            placement: str = Placement.ODDS) -> Ranking:
    """The (cached) ranking of a deck, its southern hands and their placement.

    >>> r = ranking(southern=["round_the_corner"], placement="as_played")
    >>> r.position["round_the_corner"] == r.position["straight"]
    True
    """
    chosen = check_southern(southern)
    # Without southern hands the placement changes nothing: one ranking (and one table) serves.
    key = (bool(stripped), chosen, Placement(placement) if chosen else Placement.ODDS)
    found = _RANKINGS.get(key)
    if found is None:
        found = _RANKINGS[key] = Ranking(*key)
    return found
