"""Hand evaluation: natural cards, the bug, deuces wild, the banked game's joker; ace-to-five low.

>>> evaluate("9h 9c 7s 7d Jk", wild="bug").describe()
'two pair, nines and sevens, ace kicker'
>>> evaluate("As Ac Ad Ah Jk", wild="bug") > evaluate("9s 8s 7s 6s 5s")
True
>>> evaluate("Ah Kh Jh 4h 2h", wild="bug") > evaluate("As Ts 9s 8s Jk", wild="bug")
True

How the wild modes read a hand (rule ids of RULES.md):

- ``none``: the 52 natural cards (H5); A-2-3-4-5 is the lowest straight.
- ``bug`` (H2): the joker is an ace, or any card that completes a straight or a flush; in a flush
  it is the highest card of the suit the hand lacks. Four aces and the bug are five aces.
- ``deuces`` (H4): the four deuces are fully wild; outside five of a kind a wild card may not
  duplicate a card of the hand, which only matters for flushes.
- ``joker`` (H3): the joker is fully wild, except that in a plain flush it is the deuce; a hand with
  the joker beats the same hand without it.

Speed: every value is computed once per (rank multiset, flush or not) and kept in a table keyed on
the rank multiset, so evaluating a hand of :class:`~rules.cards.Card` objects is five list lookups,
a few int operations and one dict lookup. The tables are built lazily, once per mode.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, combinations_with_replacement
from typing import Any, Self

from rules import CardError, RulesError
from rules.cards import JOKER, WILD_MODES, Card, deck, parse_cards, rank_name, rank_plural

__all__ = [
    "CATEGORIES",
    "SOUTHERN_HANDS",
    "ALL_CATEGORIES",
    "HandValue",
    "LowValue",
    "evaluate",
    "evaluate_low",
    "categories",
    "best_of",
    "all_hands",
]

#: The standard categories, weakest first (H5, with five of a kind on top for the wild modes).
CATEGORIES = (
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
    "full_house", "four_of_a_kind", "straight_flush", "five_of_a_kind",
)
#: The optional southern hands (H7), recognised only when asked for.
SOUTHERN_HANDS = ("skip_straight", "tiger", "round_the_corner", "blaze")
#: Every category, weakest first. The southern hands sit where their odds in a 52-card deck put
#: them (FOSTER's "should rank" placement, which the exact counts of rules.odds confirm):
#: skip straight 6,120 hands (between straight 10,200 and flush 5,108), tiger 4,080 (between flush
#: and full house 3,744), round the corner 3,060 and blaze 768 (between full house and four of a
#: kind 624, the blaze being the rarer).
ALL_CATEGORIES = (
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "skip_straight",
    "flush", "tiger", "full_house", "round_the_corner", "blaze", "four_of_a_kind",
    "straight_flush", "five_of_a_kind",
)
_ORDER = {name: i for i, name in enumerate(ALL_CATEGORIES)}
_STRAIGHTS = ("straight", "straight_flush", "skip_straight", "round_the_corner")

# Each card maps to one int, the sum of three fields, so that the sum over a hand says all the
# evaluator needs (one list lookup per card, then a few int operations):
#   bits 0-52   one bit per card: five distinct cards sum without a carry, so a duplicate shows
#               as fewer than five bits set;
#   bits 53-64  a 3-bit count per suit (wild cards count in none): "all the natural cards share
#               a suit" is "one field non-zero";
#   bits 65-106 a 3-bit count per rank (the joker has its own slot): the rank multiset, which
#               keys the tables.
_SUIT_SHIFT = 53
_RANK_SHIFT = 65
_JOKER_SLOT = 13
_CARD_BITS = (1 << _SUIT_SHIFT) - 1
assert _CARD_BITS == 0x1FFFFFFFFFFFFF and _RANK_SHIFT == 65  # spelled out in evaluate()


def _card_word(code: int, suit_counts: bool) -> int:
    if code == 52:
        return (1 << (_RANK_SHIFT + 3 * _JOKER_SLOT)) | (1 << code)
    suit = (1 << (_SUIT_SHIFT + 3 * (code & 3))) if suit_counts else 0
    return (1 << (_RANK_SHIFT + 3 * (code >> 2))) | suit | (1 << code)


_WORD = [_card_word(code, True) for code in range(53)]
# With deuces wild a deuce belongs to no suit (it can be any of them).
_WORD_DEUCES = [_card_word(code, code >= 4) for code in range(53)]
# Suit fields of hands whose natural cards all share one suit (one to five of them).
_ONE_SUIT = frozenset(n << (3 * s) for s in range(4) for n in range(1, 6))

_ROUND_THE_CORNER = (
    (frozenset({11, 12, 13, 14, 2}), 2),
    (frozenset({12, 13, 14, 2, 3}), 3),
    (frozenset({13, 14, 2, 3, 4}), 4),
)


def categories(southern: Iterable[str] = ()) -> tuple[str, ...]:
    """The categories in play, weakest first: the standard ten plus any southern hands enabled.

    >>> categories(("blaze",))[-5:]
    ('full_house', 'blaze', 'four_of_a_kind', 'straight_flush', 'five_of_a_kind')
    """
    extra = _check_southern(southern)
    return tuple(c for c in ALL_CATEGORIES if c in CATEGORIES or c in extra)


class _Ranked:
    """An immutable value compared, hashed and equated by one attribute, named by ``_by``."""

    __slots__ = ()
    _by: str

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _rank(self) -> Any:
        return getattr(self, self._by)

    def __lt__(self, other: Self) -> bool:
        return bool(self._rank() < other._rank())

    def __le__(self, other: Self) -> bool:
        return bool(self._rank() <= other._rank())

    def __gt__(self, other: Self) -> bool:
        return bool(self._rank() > other._rank())

    def __ge__(self, other: Self) -> bool:
        return bool(self._rank() >= other._rank())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Ranked) and type(other) is type(self) and bool(self._rank() == other._rank())

    def __hash__(self) -> int:
        return hash(self._rank())


class HandValue(_Ranked):
    """The strength of a five-card hand: totally ordered, hashable, immutable.

    ``category`` is a name of :data:`CATEGORIES` (or of :data:`SOUTHERN_HANDS` when enabled);
    ``ranks`` are the ranks that break ties, most significant first (ace 14, the wheel's top is
    5); ``strength`` is the int the comparisons use; ``joker`` is true when the banked game's
    joker is in the hand, which wins an otherwise exact tie (H3).

    >>> v = evaluate("Kd Kh Jk 7c 3s", wild="bug")
    >>> v.category, v.ranks, v.describe()
    ('one_pair', (13, 14, 7, 3), 'pair of kings, ace-seven-three')
    >>> evaluate("As Kd 7c 5h 2h") == evaluate("Ac Kh 7d 5s 2c")
    True
    """

    __slots__ = ("strength", "category", "ranks", "joker")
    _by = "strength"

    strength: int
    category: str
    ranks: tuple[int, ...]
    joker: bool

    def __init__(self, category: str, ranks: tuple[int, ...], joker: bool = False) -> None:
        strength = _ORDER[category]
        for i in range(5):
            strength = strength * 16 + (ranks[i] if i < len(ranks) else 0)
        object.__setattr__(self, "strength", strength * 2 + joker)
        object.__setattr__(self, "category", category)
        object.__setattr__(self, "ranks", ranks)
        object.__setattr__(self, "joker", joker)

    def __repr__(self) -> str:
        return f"<HandValue {self.category} {self.describe()!r}>"

    def describe(self) -> str:
        """Plain words, as a dealer would call the hand.

        >>> evaluate("As Ac Ad Ah Jk", wild="bug").describe()
        'five aces'
        >>> evaluate("Ah Kh 9h 6h 3h").describe()
        'flush, ace-king high'
        >>> evaluate("Ts Js Qs Ks As").describe()
        'royal flush'
        """
        c, r = self.category, self.ranks
        text = _describe(c, r)
        return text + " (with the joker)" if self.joker else text


def _run(ranks: Iterable[int]) -> str:
    return "-".join(rank_name(x) for x in ranks)


def _describe(c: str, r: tuple[int, ...]) -> str:
    if c == "high_card":
        return f"{rank_name(r[0])} high, {_run(r[1:])}"
    if c == "one_pair":
        return f"pair of {rank_plural(r[0])}, {_run(r[1:])}"
    if c == "two_pair":
        return f"two pair, {rank_plural(r[0])} and {rank_plural(r[1])}, {rank_name(r[2])} kicker"
    if c == "three_of_a_kind":
        return f"three {rank_plural(r[0])}, {_run(r[1:])}"
    if c == "straight":
        return f"straight, {rank_name(r[0])} high"
    if c == "flush":
        return f"flush, {_run(r[:2])} high"
    if c == "full_house":
        return f"full house, {rank_plural(r[0])} full of {rank_plural(r[1])}"
    if c == "four_of_a_kind":
        return f"four {rank_plural(r[0])}, {rank_name(r[1])} kicker"
    if c == "straight_flush":
        return "royal flush" if r[0] == 14 else f"straight flush, {rank_name(r[0])} high"
    if c == "five_of_a_kind":
        return f"five {rank_plural(r[0])}"
    if c == "skip_straight":
        return f"skip straight, {rank_name(r[0])} high"
    if c == "tiger":
        return f"tiger, {_run(r)}"
    if c == "round_the_corner":
        return f"round-the-corner straight, {rank_name(r[0])} high"
    return f"blaze, {_run(r)}"  # blaze


# --- natural hands -------------------------------------------------------------------------


def _grouped(ranks: Sequence[int]) -> tuple[list[int], list[int]]:
    """Distinct ranks ordered by (count, rank) descending, and their counts."""
    counts = Counter(ranks)
    order = sorted(counts, key=lambda x: (counts[x], x), reverse=True)
    return order, [counts[x] for x in order]


def _straight_top(distinct: frozenset[int]) -> int:
    """The top card of a five-rank straight, the wheel's being the five; 0 if not a straight."""
    if len(distinct) != 5:
        return 0
    if distinct == {14, 2, 3, 4, 5}:
        return 5
    top = max(distinct)
    return top if top - min(distinct) == 4 else 0


def _natural(ranks: Sequence[int], flush: bool, southern: frozenset[str]) -> HandValue:
    """The value of five natural cards of these ranks (a rank may appear five times only when
    wild cards made it so)."""
    order, counts = _grouped(ranks)
    distinct = frozenset(order)
    desc = tuple(sorted(ranks, reverse=True))
    if counts[0] == 5:
        return HandValue("five_of_a_kind", (order[0],))
    top = _straight_top(distinct)
    if top and flush:
        best = HandValue("straight_flush", (top,))
    elif counts[0] == 4:
        best = HandValue("four_of_a_kind", tuple(order))
    elif counts[:2] == [3, 2]:
        best = HandValue("full_house", tuple(order))
    elif flush:
        best = HandValue("flush", desc)
    elif top:
        best = HandValue("straight", (top,))
    elif counts[0] == 3:
        best = HandValue("three_of_a_kind", tuple(order))
    elif counts[:2] == [2, 2]:
        best = HandValue("two_pair", tuple(order))
    elif counts[0] == 2:
        best = HandValue("one_pair", tuple(order))
    else:
        best = HandValue("high_card", desc)
    if not southern:
        return best
    # A southern hand counts only where it outranks what the cards already are.
    extra: list[HandValue] = []
    if len(distinct) == 5:
        if "skip_straight" in southern and not flush:
            low = sorted(1 if x == 14 and 3 in distinct else x for x in distinct)
            if all(b - a == 2 for a, b in zip(low, low[1:])):
                extra.append(HandValue("skip_straight", (low[-1],)))
        if "tiger" in southern and not flush and not top and max(distinct) == 7 and 2 in distinct:
            extra.append(HandValue("tiger", desc))
        if "round_the_corner" in southern:
            for ranks_set, high in _ROUND_THE_CORNER:
                if distinct == ranks_set:
                    extra.append(HandValue("round_the_corner", (high,)))
    if "blaze" in southern and distinct <= {11, 12, 13}:
        extra.append(HandValue("blaze", tuple(order)))
    return max([best, *extra])


# --- the tables ----------------------------------------------------------------------------

_Table = tuple[dict[int, HandValue], dict[int, HandValue], list[int]]  # plain, flush, card words
_TABLES: dict[tuple[str, frozenset[str]], _Table] = {}


def _key(ranks: Iterable[int], jokers: int = 0) -> int:
    """The rank field of a hand: a 3-bit count per rank (deuce first), then the joker's."""
    key = jokers << (3 * _JOKER_SLOT)
    for r in ranks:
        key += 1 << (3 * (r - 2))
    return key


def _multisets(size: int, low: int = 2) -> Iterable[tuple[int, ...]]:
    """Rank multisets of ``size`` natural cards (no rank more than four times)."""
    for combo in combinations_with_replacement(range(low, 15), size):
        if max(Counter(combo).values(), default=0) <= 4:
            yield combo


def _bug_value(ranks: tuple[int, ...], flush: bool, southern: frozenset[str]) -> HandValue:
    """H2: the bug is an ace, or any card that completes a straight (or flush)."""
    best = _natural(ranks + (14,), False, southern)
    for r in range(2, 15):
        v = _natural(ranks + (r,), flush, southern)
        if v.category in _STRAIGHTS and v > best:
            best = v
    if flush:
        missing = max(r for r in range(2, 15) if r not in ranks)
        best = max(best, _natural(ranks + (missing,), True, southern))
    return best


def _joker_value(ranks: tuple[int, ...], flush: bool, southern: frozenset[str]) -> HandValue:
    """H3: the joker is any card, except the deuce in a plain flush; it wins exact ties."""
    best = max(_natural(ranks + (r,), False, southern) for r in range(2, 15))
    if flush:
        for r in range(2, 15):
            v = _natural(ranks + (r,), True, southern)
            if v.category == "straight_flush" and v > best:
                best = v
        # The deuce; if the hand holds the deuce of its suit already, the lowest card it lacks.
        low = min(r for r in range(2, 15) if r not in ranks)
        best = max(best, _natural(ranks + (low,), True, southern))
    return HandValue(best.category, best.ranks, joker=True)


def _deuces_value(naturals: tuple[int, ...], wilds: int, flush: bool,
                  southern: frozenset[str]) -> HandValue:
    """H4: each deuce is any card; in a flush it may not copy a card the hand already holds."""
    best: HandValue | None = None
    for subs in combinations_with_replacement(range(2, 15), wilds):
        ranks = naturals + subs
        as_flush = flush and len(set(ranks)) == 5
        v = _natural(ranks, as_flush, southern)
        if best is None or v > best:
            best = v
    assert best is not None
    return best


def _build(wild: str, southern: frozenset[str]) -> _Table:
    plain: dict[int, HandValue] = {}
    flush: dict[int, HandValue] = {}
    if wild == "deuces":
        for wilds in range(5):
            for naturals in _multisets(5 - wilds, low=3):
                key = _key(naturals + (2,) * wilds)
                plain[key] = _deuces_value(naturals, wilds, False, southern)
                if len(set(naturals)) == len(naturals):
                    flush[key] = _deuces_value(naturals, wilds, True, southern)
        return plain, flush, _WORD_DEUCES
    for ranks in _multisets(5):
        key = _key(ranks)
        plain[key] = _natural(ranks, False, southern)
        if len(set(ranks)) == 5:
            flush[key] = _natural(ranks, True, southern)
    if wild in ("bug", "joker"):
        value = _bug_value if wild == "bug" else _joker_value
        for ranks in _multisets(4):
            key = _key(ranks, jokers=1)
            plain[key] = value(ranks, False, southern)
            if len(set(ranks)) == 4:
                flush[key] = value(ranks, True, southern)
    return plain, flush, _WORD


def _check_southern(southern: Iterable[str]) -> frozenset[str]:
    chosen = frozenset(southern)
    unknown = chosen - set(SOUTHERN_HANDS)
    if unknown:
        raise RulesError(f"unknown southern hand {sorted(unknown)[0]!r}; "
                         f"known: {', '.join(SOUTHERN_HANDS)}")
    return chosen


def _table(wild: str, southern: Iterable[str] = ()) -> _Table:
    chosen = _check_southern(southern)
    table = _TABLES.get((wild, chosen))
    if table is None:
        if wild not in WILD_MODES:
            raise RulesError(f"wild must be one of {', '.join(WILD_MODES)}, not {wild!r}")
        table = _TABLES[wild, chosen] = _build(wild, chosen)
        if not chosen:
            _FAST[wild] = table
    return table


_FAST: dict[str, _Table] = {}


def evaluate(cards: str | Iterable[str | Card], wild: str = "none",
             southern: Iterable[str] = ()) -> HandValue:
    """The value of a five-card hand under ``wild`` (``none``, ``bug``, ``deuces``, ``joker``).

    ``cards`` is text (``"As Kd ..."``) or a sequence of Cards or card strings. Duplicates, a wrong
    count, or a joker where the mode has none raise :class:`rules.CardError`. ``southern`` lists
    the southern hands (H7) the table plays, e.g. ``("blaze", "tiger")``.

    >>> evaluate("Ah Ac 5d 4s 3s").describe()
    'pair of aces, five-four-three'
    >>> evaluate("5c 4d 3h 2s Ac") < evaluate("6c 5d 4h 3s 2d")
    True
    >>> evaluate("As Ah Kd 7s 7c Qh")
    Traceback (most recent call last):
    ...
    rules.CardError: a hand has 5 cards, not 6
    >>> evaluate("Kh Kd Qs Qc Jh", southern=["blaze"]).describe()
    'blaze, king-queen-jack'
    >>> evaluate("Kh Kd Qs Qc Jh", southern=["blaze"]) > evaluate("Ah Ad As Kc Kd")
    True
    """
    if not southern:
        try:
            plain, flush, word = _FAST[wild]
            a, b, c, d, e = cards  # type: ignore[str-unpack]
            total = word[a] + word[b] + word[c] + word[d] + word[e]  # type: ignore[index]
            # Literal shifts and masks (the _CARD_BITS, _SUIT_SHIFT, _RANK_SHIFT layout): this
            # is the hot path, where even a global lookup shows.
            if (total & 0x1FFFFFFFFFFFFF).bit_count() == 5:
                return (flush if (total >> 53) & 0xFFF in _ONE_SUIT else plain)[total >> 65]
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # text, a wrong count, a card the mode lacks, a table not built yet: see below
    return _evaluate_checked(cards, wild, southern)


def _evaluate_checked(cards: str | Iterable[str | Card], wild: str,
                      southern: Iterable[str]) -> HandValue:
    plain, flush, word = _table(wild, southern)
    hand = parse_cards(cards, count=5)
    if JOKER in hand and wild not in ("bug", "joker"):
        raise CardError(f"no joker in this game (wild={wild!r}): Jk")
    total = sum(word[card] for card in hand)
    table = flush if (total >> _SUIT_SHIFT) & 0xFFF in _ONE_SUIT else plain
    return table[total >> _RANK_SHIFT]


# --- ace-to-five low -----------------------------------------------------------------------

_LOW_PATTERNS = ((1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1))
_LOW_NAMES = ("no pair", "one pair", "two pair", "three of a kind", "full house", "four of a kind")


class LowValue(_Ranked):
    """An ace-to-five low hand (H8). **Smaller is better**: ``a < b`` means ``a`` wins for low,
    so ``min(values)`` is the winning low hand.

    Aces are low, straights and flushes do not count; any hand without a pair beats any hand with
    one. ``ranks`` are grouped ranks, the ace as 1.

    >>> evaluate_low("5c 4d 3h 2s Ac") < evaluate_low("6d 4c 3s 2h Ad")
    True
    >>> evaluate_low("Ac Ad 2c 3d 4h") < evaluate_low("2h 2d 3c 4s 5h")
    True
    >>> evaluate_low("Kc 9d 5h 3s Jk", wild="bug").describe()
    'king-nine-five-three-ace'
    """

    __slots__ = ("key", "ranks", "pattern")
    _by = "key"

    key: tuple[int, ...]
    ranks: tuple[int, ...]
    pattern: int

    def __init__(self, ranks: Sequence[int]) -> None:
        order, counts = _grouped(ranks)
        pattern = _LOW_PATTERNS.index(tuple(counts))
        object.__setattr__(self, "pattern", pattern)
        object.__setattr__(self, "ranks", tuple(order))
        object.__setattr__(self, "key", (pattern, *order))

    def __repr__(self) -> str:
        return f"<LowValue {self.describe()!r}>"

    @property
    def category(self) -> str:
        """``no pair``, ``one pair``, ... ``four of a kind``."""
        return _LOW_NAMES[self.pattern]

    def describe(self) -> str:
        names = "-".join(rank_name(14 if r == 1 else r) for r in self.ranks)
        return names if self.pattern == 0 else f"{self.category}, {names}"


def evaluate_low(cards: str | Iterable[str | Card], wild: str = "bug") -> LowValue:
    """Ace-to-five low value of five cards (H8); the joker is the *fitter*: the lowest card the
    hand does not already hold. ``wild`` is ``bug`` (or ``joker``: the same fitter) or ``none``.

    >>> evaluate_low("Jk 2c 3d 4h 5s").describe()
    'five-four-three-deuce-ace'
    >>> evaluate_low("Ac 2c 3d 4h Jk").describe()
    'five-four-three-deuce-ace'
    """
    if wild not in ("none", "bug", "joker"):
        raise RulesError(f"ace-to-five low plays wild 'none' or 'bug', not {wild!r}")
    hand = parse_cards(cards, count=5)
    ranks = [1 if c.rank == 14 else c.rank for c in hand if not c.is_joker]
    if len(ranks) < 5:
        if wild == "none":
            raise CardError("no joker in this game (wild='none'): Jk")
        ranks.append(min(r for r in range(1, 14) if r not in ranks))
    return LowValue(ranks)


def best_of(hands: Iterable[str | Iterable[str | Card]], wild: str = "none") -> list[int]:
    """Indexes of the winning hands (several when the pot is split).

    >>> best_of(["As Kd 7c 5h 2h", "Ac Kh 7d 5s 2c", "Qs Qd 3c 4h 5d"])
    [2]
    """
    values = [evaluate(h, wild) for h in hands]
    top = max(values)
    return [i for i, v in enumerate(values) if v == top]


def all_hands(size: int = 5, wild: str = "none", stripped: bool = False) -> Iterable[tuple[Card, ...]]:
    """Every hand of ``size`` cards from the game's deck (used by exhaustive checks)."""
    return combinations(deck(wild, stripped), size)
