"""Two remarks of FOSTER's (P1) that give no odds of their own, computed under a stated reading.

F19, the smaller pair: FOSTER says that a player holding two pair who throws the smaller pair away
draws about as well as one drawing three to a single pair. Reading: both keep the same pair and
draw three from a 52-card deck with their own discards out of it; the one pair's discards are three
odd cards, the two pair's the smaller pair and the odd card. :func:`smaller_pair` gives both draws.

F23, four-card straights and flushes: FOSTER closes by saying a four-card straight is dealt in far
more ways than a four-card flush ("about 800" against "112" in the OCR text, which garbles digits).
Reading: the number of five-card hands dealt from 52 cards, in thousands, that hold exactly four
cards of one suit (a four-card flush), and that hold four cards of a possible straight, open-ended
or inside, without a made straight (a four-card straight). The flush reading gives 111,540 hands,
FOSTER's 112 thousand to the nearest thousand; no reading found gives 800 for the straights (the
straight draws are 344,576, open-ended ones alone 69,632), so that figure is printed beside the
exact one and not claimed to agree. :func:`four_card_draws` gives the counts.

>>> pair, split = smaller_pair()
>>> round(pair.odds_improving, 2), round(split.odds_improving, 2)
(2.48, 2.45)
>>> four_card_draws()
FourCardDraws(flushes=111540, straights=344576, open_ended=69632, total=2598960)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, prod

from rules.reports.odds import draw, odds_against

__all__ = ["DrawFigures", "FourCardDraws", "smaller_pair", "four_card_draws", "FOSTER_F23"]

#: FOSTER's figures as the OCR text prints them ("Soo" and "'12"), read as 800 and 112.
FOSTER_F23 = {"straights": 800, "flushes": 112}

_ACE = 14
_WINDOWS = [frozenset(range(low, low + 5)) for low in range(2, 11)] + [frozenset({_ACE, 2, 3, 4, 5})]
_RUNS_OF_FOUR = [frozenset(range(low, low + 4)) for low in range(3, 11)]  # open at both ends


@dataclass(frozen=True)
class DrawFigures:
    """One draw of three to a pair: the cards kept and thrown, and the exact odds against improving."""

    held: str
    thrown: str
    improving: int
    total: int

    @property
    def odds_improving(self) -> float:
        return odds_against(self.improving, self.total)


@lru_cache(maxsize=1)
def smaller_pair() -> tuple[DrawFigures, DrawFigures]:
    """F19: drawing three to a pair of jacks (odd cards thrown), and drawing three to the jacks after
    throwing a pair of fives and an odd card; exact, 52 cards, the discards out of the deck."""
    out = []
    for held, thrown in (("Jh Js", "8c 5d 2h"), ("Jh Js", "5c 5d 8c")):
        d = draw(held, thrown)
        out.append(DrawFigures(held, thrown, d.improving, d.total))
    return out[0], out[1]


@dataclass(frozen=True)
class FourCardDraws:
    """F23: five-card hands (52 cards) holding four to a flush or four to a straight."""

    flushes: int      # exactly four cards of one suit
    straights: int    # four cards of a possible straight (open or inside), no made straight
    open_ended: int   # four in a row open at both ends, no made straight
    total: int


@lru_cache(maxsize=1)
def four_card_draws() -> FourCardDraws:
    """The counts of F23, by rank multisets (each counted with its number of suit choices)."""
    flushes = 4 * comb(13, 4) * 39  # the suit, four of its cards, a fifth of another suit
    straights = open_ended = 0
    for ranks in combinations_with_replacement(range(2, _ACE + 1), 5):
        counts = {r: ranks.count(r) for r in set(ranks)}
        if max(counts.values()) > 4:
            continue
        ways = prod(comb(4, m) for m in counts.values())
        held = frozenset(counts)
        if len(held) == 5 and held in _WINDOWS:
            continue  # a made straight is no draw
        if any(len(held & w) >= 4 for w in _WINDOWS):
            straights += ways
        if any(run <= held for run in _RUNS_OF_FOUR):
            open_ended += ways
    return FourCardDraws(flushes, straights, open_ended, comb(52, 5))
