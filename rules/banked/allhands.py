"""Every five-card hand of the banked game's 53-card deck at once: the evaluator, the dealer's
exchange (B4) and the settlement (B5, H3) over arrays, for the house's numbers.

The house edge needs tens of millions of rounds and a strategy for all 2,869,685 hands a box can
be dealt; a Python loop over :func:`rules.hands.evaluate` and :func:`~rules.banked.dealer_decision`
plays some twenty thousand rounds a second at best. Here NumPy does the same work a whole array at
a time.
Nothing is decided twice: every hand's value comes from the evaluator's own tables
(:func:`rules.hands.tables.table`), looked up once per rank multiset, and the dealer's exchange
from :func:`~rules.banked.dealer.dealer_decision` itself, called once per rank multiset; only the
two facts that depend on suits (a made flush, four cards of one suit) are read here. The tests hold
both against the Python functions on real shuffled hands.

A hand is a row of five card codes (:mod:`rules.cards`: 4 × rank index + suit, the joker 52),
sorted. Its *index* is its place in the combinatorial number system (``C(c0, 1) + C(c1, 2) + ... +
C(c4, 5)`` for the sorted codes), so a table over every hand is a plain array.

>>> hands = parse_hands(["Ah Kh Qh Jh Th", "Jk 9c 9d 4s 2h"])
>>> [v.describe() for v in evaluated(hands)]
['royal flush', 'three nines, four-deuce (with the joker)']
>>> [to_text(c) for c in keep_cards(hands, dealer_keeps(hands))]
['Th Jh Qh Kh Ah', '9c 9d Jk']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np
from numpy.typing import NDArray

from rules.banked.dealer import Item, dealer_decision
from rules.banked.options import BankedOptions, JokerTie, banked_options
from rules.cards import Card, parse_cards, to_text
from rules.hands import HandRules, HandValue
from rules.hands.tables import table

__all__ = ["HANDS", "all_hands", "hand_index", "subset_index", "subsets", "parse_hands", "HandTable", "hand_table",
           "evaluated", "dealer_keeps", "keep_cards", "popcount", "replace", "Settlement"]

#: How many five-card hands the 53-card deck holds.
HANDS = comb(53, 5)
_JOKER = 52
_JOKER_GAME = HandRules("joker")
#: C(n, k) for every card code n and subset size k (the index's terms).
_BINOM = np.array([[comb(n, k) for k in range(6)] for n in range(54)], dtype=np.int64)
#: The same by subset size: ``_TERMS[k][n]`` is C(n, k), a card's term at place ``k`` of a subset.
_TERMS = tuple(np.ascontiguousarray(_BINOM[:, k]) for k in range(6))
_POPCOUNT = np.array([bin(m).count("1") for m in range(32)], dtype=np.int64)

Hands = NDArray[np.uint8]
Ints = NDArray[np.int64]


def popcount(masks: NDArray[np.integer]) -> Ints:
    """How many of the five positions a 5-bit mask holds.

    >>> popcount(np.array([0, 5, 31])).tolist()
    [0, 2, 5]
    """
    counts: Ints = _POPCOUNT[masks]
    return counts


def subset_index(cards: NDArray[np.integer]) -> Ints:
    """The index of each row of sorted card codes among the subsets of its size (any size 0-5).

    >>> subset_index(np.array([[0, 1, 2, 3, 4], [48, 49, 50, 51, 52]], dtype=np.uint8)).tolist()
    [0, 2869684]
    """
    rows = np.asarray(cards)
    out = np.zeros(len(rows), dtype=np.int64)
    for j in range(rows.shape[1]):
        out += _TERMS[j + 1][rows[:, j]]
    return out


def subsets(hands: Hands) -> Iterator[tuple[int, Ints]]:
    """Every non-empty subset of the five positions, as its 5-bit mask and the index of each row's
    cards at those positions among the subsets of their size (:func:`subset_index` of those
    columns). A subset's index is its prefix's plus one term, so each costs one lookup and one
    sum; the subsets of one size come in the order of ``itertools.combinations`` (sums over them
    then add up in that order).

    >>> hands = parse_hands(["2c 2d 2h 2s 3c", "Jk Ah Kh Qh Jh"])
    >>> found = dict(subsets(hands))
    >>> len(found), list(found)[:6], found[0b11].tolist(), found[0b11111].tolist() == hand_index(hands).tolist()
    (31, [1, 3, 7, 15, 31, 23], [0, 899], True)
    """
    columns = [np.ascontiguousarray(hands[:, j]) for j in range(5)]

    def walk(mask: int, index: Ints | int, start: int, size: int) -> Iterator[tuple[int, Ints]]:
        for j in range(start, 5):
            here = index + _TERMS[size + 1][columns[j]]
            yield mask | 1 << j, here
            yield from walk(mask | 1 << j, here, j + 1, size + 1)

    return walk(0, 0, 0, 0)


def hand_index(hands: Hands) -> Ints:
    """The index of each five-card hand (rows of sorted codes) in :func:`all_hands`."""
    return subset_index(hands)


@lru_cache(maxsize=1)
def all_hands() -> Hands:
    """Every hand, row ``i`` the hand of index ``i`` (2,869,685 × 5 card codes, sorted; built once).

    In this order the hands of ``k`` cards whose highest card is ``c`` follow those below ``c``,
    each of them a hand of ``k - 1`` cards below ``c`` (in that same order) plus ``c``: five
    concatenations build the table.

    >>> rows = all_hands()
    >>> rows.shape, to_text(rows[0]), bool((hand_index(rows[::997]) == np.arange(0, HANDS, 997)).all())
    ((2869685, 5), '2c 2d 2h 2s 3c', True)
    """
    rows = np.zeros((1, 0), dtype=np.uint8)
    for k in range(1, 6):
        rows = np.concatenate([np.hstack([rows[:comb(c, k - 1)], np.full((comb(c, k - 1), 1), c, dtype=np.uint8)])
                               for c in range(k - 1, 53)])
    rows.flags.writeable = False
    return rows


def parse_hands(hands: Iterable[str | Iterable[str | Card]]) -> Hands:
    """Rows of sorted codes from hands in the usual notation (the one parser, :func:`parse_cards`)."""
    return np.array([sorted(int(c) for c in parse_cards(h, count=5)) for h in hands], dtype=np.uint8).reshape(-1, 5)


def _rank_slots(hands: Hands) -> Ints:
    """Each card's rank slot (deuce 0 ... ace 12, the joker 13), the evaluator's layout."""
    return np.where(hands == _JOKER, 13, hands >> 2).astype(np.int64)


#: Each card's share of the evaluator's rank field: one in its rank's 3-bit count.
_RANK_FIELD = np.array([1 << (3 * (13 if c == _JOKER else c >> 2)) for c in range(53)], dtype=np.int64)


def _rank_keys(hands: Hands) -> Ints:
    """The evaluator's rank field of each hand: a 3-bit count per rank slot."""
    keys: Ints = _RANK_FIELD[hands[:, 0]]
    for j in range(1, 5):  # column by column: NumPy sums along a row of five slowly
        keys = keys + _RANK_FIELD[hands[:, j]]
    return keys


#: Each card's suit as one bit (clubs 1 ... spades 8), the joker none.
_SUIT_BIT = np.array([0 if c == _JOKER else 1 << (c & 3) for c in range(53)], dtype=np.uint8)


def _suited(hands: Hands) -> NDArray[np.bool_]:
    """Whether the hand's natural cards all share one suit (the joker fits any)."""
    bits = _SUIT_BIT[hands[:, 0]]
    for j in range(1, 5):
        bits = bits | _SUIT_BIT[hands[:, j]]
    one_suit: NDArray[np.bool_] = (bits & (bits - 1)) == 0
    return one_suit


@dataclass(frozen=True, eq=False)
class HandTable:
    """The values of some hands as arrays, row for row (see :func:`evaluated` for the words).

    ``strength``: :attr:`HandValue.strength` (H3's joker bit last); ``position``: the category's
    place; ``pays``: the profile's paytable multiple; ``high``: how many natural cards rank at the
    qualifier or higher; ``qualifies``: a dealer holding it has a game (B4); ``value``: an index
    into ``values``, the distinct :class:`HandValue` objects.
    """

    strength: Ints
    pays: Ints
    high: Ints
    qualifies: NDArray[np.bool_]
    value: Ints
    values: tuple[HandValue, ...]

    def __len__(self) -> int:
        return len(self.strength)


@lru_cache(maxsize=1)
def _known_keys() -> tuple[Ints, Ints, tuple[HandValue, ...]]:
    """The evaluator's rank fields, sorted, of every hand and of the flushes; every value, the
    plain ones in the order of their keys, then the flushes."""
    plain, flush, _ = table(_JOKER_GAME)
    plain_keys, flush_keys = sorted(plain), sorted(flush)
    values = tuple(plain[k] for k in plain_keys) + tuple(flush[k] for k in flush_keys)
    return np.array(plain_keys, dtype=np.int64), np.array(flush_keys, dtype=np.int64), values


@lru_cache(maxsize=8)
def _per_value(options: BankedOptions) -> tuple[Ints, Ints, Ints, NDArray[np.bool_]]:
    """Strength, pays, high cards and qualification of each of :func:`_known_keys`' values."""
    plain_keys, flush_keys, values = _known_keys()
    keys = np.concatenate([plain_keys, flush_keys]).tolist()
    tops = [3 * slot for slot in range(options.qualifier - 2, 13)]
    qualifier = options.qualifier
    return (np.array([v.strength for v in values], dtype=np.int64),
            np.array([options.paytable.pays(v) for v in values], dtype=np.int64),
            np.array([sum((k >> s) & 7 for s in tops) for k in keys], dtype=np.int64),
            np.array([v.category != "high_card" and (v.category != "one_pair" or v.ranks[0] >= qualifier)
                      for v in values], dtype=np.bool_))


def hand_table(hands: Hands, options: BankedOptions) -> HandTable:
    """Evaluate rows of sorted hands under a banked profile (each distinct rank multiset once).

    >>> from rules.banked.options import banked_options
    >>> t = hand_table(parse_hands(["Jk Ah Kh Qh Jh", "Jc Jd 7s 4d 2c", "Tc Td As Kd Qc"]), banked_options())
    >>> t.pays.tolist(), t.qualifies.tolist(), t.high.tolist()
    ([100, 1, 1], [True, True, False], [4, 2, 3])
    """
    plain_keys, flush_keys, values = _known_keys()
    keys = _rank_keys(hands)
    suited = _suited(hands) & _distinct_naturals(keys)  # a flush: one suit, five ranks
    flush_row = len(plain_keys) + np.minimum(np.searchsorted(flush_keys, keys), len(flush_keys) - 1)
    value = np.where(suited, flush_row, np.searchsorted(plain_keys, keys)).astype(np.int64)
    strength, pays, high, qualifies = _per_value(options)
    return HandTable(strength=strength[value], pays=pays[value], high=high[value], qualifies=qualifies[value],
                     value=value, values=values)


def evaluated(hands: Hands) -> list[HandValue]:
    """The :class:`HandValue` of each row (for reading a few hands; the arrays are for many)."""
    t = hand_table(hands, banked_options())
    return [t.values[i] for i in t.value.tolist()]


@lru_cache(maxsize=8)
def _rank_decisions(options: BankedOptions) -> tuple[NDArray[np.uint8], NDArray[np.bool_]]:
    """B4 by rank multiset, for each of the sorted rank keys: the kept positions (a 5-bit mask
    over the sorted hand) that :func:`dealer_decision` gives a hand of those ranks with no four
    cards of one suit, and whether that item (a made hand, three of a kind) comes before four to
    a flush."""
    plain_keys, _, _ = _known_keys()
    masks: list[int] = []
    first: list[bool] = []
    for key in plain_keys.tolist():
        slots = [slot for slot in range(14) for _ in range((key >> (3 * slot)) & 7)]
        # Suits turn c, d, h, s, c over the sorted cards: no four of a suit, no two alike.
        codes = sorted(_JOKER if slot == 13 else 4 * slot + i % 4 for i, slot in enumerate(slots))
        decision = dealer_decision(tuple(Card(c) for c in codes), options)
        thrown = set(int(c) for c in decision.throw)
        masks.append(sum(1 << j for j, c in enumerate(codes) if c not in thrown))
        first.append(decision.item in (Item.MADE_HAND, Item.THREE_OF_A_KIND))
    return np.array(masks, dtype=np.uint8), np.array(first, dtype=np.bool_)


def dealer_keeps(hands: Hands, options: BankedOptions | None = None) -> NDArray[np.uint8]:
    """B4 for each row: the dealer's kept positions as a 5-bit mask over the sorted hand.

    The seed's list in order: a made hand stands (the profile's ``dealer_made_hand``), three of a
    kind keeps the three, four cards of one suit (the joker any suit) keep those four, and the
    rest go by ranks alone, as :func:`dealer_decision` decides them.

    >>> dealer_keeps(parse_hands(["7h 7d 7s Kc 2d", "Ah 9h 5h 2h 2c", "Ks Qd 8h 5c 3c"])).tolist()
    [14, 30, 0]
    """
    opts = options or banked_options()
    masks, first = _rank_decisions(opts)
    keys = _rank_keys(hands)
    row = np.searchsorted(_known_keys()[0], keys)
    rank_mask, before_flush = masks[row], first[row]
    # Column by column (NumPy reduces along a row of five slowly): each suit's count, the joker
    # its own "suit" 4; the first suit of the most cards; the positions of that suit or the joker.
    suit = [np.where(hands[:, j] == _JOKER, 4, hands[:, j] & 3) for j in range(5)]
    counts = [sum((s == k).astype(np.uint8) for s in suit) for k in range(5)]
    most, best = counts[0], np.zeros(len(hands), dtype=np.uint8)
    for k in range(1, 4):
        more = counts[k] > most
        best[more] = k
        most = np.maximum(most, counts[k])
    made_flush = _suited(hands) & _distinct_naturals(keys)  # a flush stands, whatever the option
    draw = (most + counts[4] >= 4) & ~made_flush
    flush_mask = sum(((s == best) | (s == 4)).astype(np.uint8) << j for j, s in enumerate(suit))
    out = np.where(draw & ~before_flush, flush_mask, rank_mask)
    return np.where(made_flush, np.uint8(31), out).astype(np.uint8)


#: In the rank field, the bits that say a natural rank's count is two or more.
_PAIRED = sum(0b110 << (3 * slot) for slot in range(13))


def _distinct_naturals(keys: Ints) -> NDArray[np.bool_]:
    """No two natural cards of one rank (a flush needs five ranks), from the rank fields."""
    distinct: NDArray[np.bool_] = (keys & _PAIRED) == 0
    return distinct


def keep_cards(hands: Hands, masks: NDArray[np.uint8]) -> list[tuple[Card, ...]]:
    """The kept cards of each row, for reading (``masks`` as :func:`dealer_keeps` gives them)."""
    return [tuple(Card(int(c)) for j, c in enumerate(row) if m >> j & 1) for row, m in zip(hands, masks.tolist())]


def replace(hands: Hands, keep: NDArray[np.uint8], deck: Hands, start: Ints) -> Hands:
    """Each row with the positions not in ``keep`` replaced by the next cards of its ``deck`` row
    from column ``start`` on (in position order), then sorted: a draw."""
    take = ((keep[:, None] >> np.arange(5, dtype=np.uint8)) & 1) == 0
    order = np.cumsum(take, axis=1) - 1 + start[:, None]
    drawn = np.take_along_axis(deck, np.where(take, order, 0).astype(np.int64), axis=1)
    out: Hands = np.where(take, drawn, hands)
    out.sort(axis=1)
    return out


@dataclass(frozen=True)
class Settlement:
    """B5 and H3 over arrays: what a box that bet with ``box`` initial antes in its ante box nets,
    in units of ``1 / no_game_pays[1]`` of an initial ante (so the 2-to-3 no game stays an int)."""

    options: BankedOptions

    @property
    def unit(self) -> int:
        """How many units make one initial ante."""
        return self.options.no_game_pays[1]

    def bet(self, box: Ints, values: HandTable, rows: Ints, dealer_rows: Ints) -> Ints:
        """The net of each box that bet: its hand and the dealer's final hand are rows of ``values``."""
        win, staked = self.options.no_game_pays
        p = values.strength[rows]
        d = values.strength[dealer_rows]
        if self.options.joker_tie is JokerTie.PUSH:
            p, d = p >> 1, d >> 1
        lower = box * (1 + 2 * values.pays[rows]) * staked
        out = np.where(d > p, -3 * box * staked, np.where(d < p, lower, 0))
        return np.where(values.qualifies[dealer_rows], out, box * win)
