"""The evaluator's tables and :func:`evaluate`, the hot path.

Every value is computed once per (rank multiset, flush or not) and kept in a table keyed on the
rank multiset, so evaluating a hand of :class:`~rules.cards.Card` objects is five list lookups, a
few int operations and one dict lookup. The tables are built lazily, once per game
(:class:`~rules.hands.game.HandRules`; games that read hands alike share one: deuces and the
wild rank 2, a wild rank and wild widow of that rank).

Each card maps to one int, the sum of three fields, so that the sum over a hand says all the
evaluator needs (one list lookup per card, then a few int operations):

- bits 0-52: one bit per card: five distinct cards sum without a carry, so a duplicate shows as
  fewer than five bits set;
- bits 53-64: a 3-bit count per suit (wild cards count in none): "all the natural cards share a
  suit" is "one field non-zero";
- bits 65-106: a 3-bit count per rank (the joker has its own slot): the rank multiset, which
  keys the tables. A wild rank's cards count in their own rank's slot, which then holds the
  number of wild cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations_with_replacement

from rules import RulesError
from rules.cards import CARD_OF_TEXT, Card, Wild, parse_cards
from rules.hands.game import HandRules
from rules.hands.reading import reader
from rules.hands.value import HandValue

__all__ = ["evaluate", "hand_rules", "table", "rank_key", "Table", "SUIT_SHIFT", "RANK_SHIFT"]

SUIT_SHIFT = 53
RANK_SHIFT = 65
JOKER_SLOT = 13
_CARD_BITS = (1 << SUIT_SHIFT) - 1
assert _CARD_BITS == 0x1FFFFFFFFFFFFF and RANK_SHIFT == 65  # spelled out in evaluate()

#: plain values, flush values (both keyed on the rank field), and the card words.
Table = tuple[dict[int, HandValue], dict[int, HandValue], list[int]]


def _card_word(code: int, suit_counts: bool) -> int:
    if code == 52:
        return (1 << (RANK_SHIFT + 3 * JOKER_SLOT)) | (1 << code)
    suit = (1 << (SUIT_SHIFT + 3 * (code & 3))) if suit_counts else 0
    return (1 << (RANK_SHIFT + 3 * (code >> 2))) | suit | (1 << code)


_WORD = [_card_word(code, True) for code in range(53)]
# With a wild rank, its cards belong to no suit (each can be any of them).
_WILD_WORDS = {rank: [_card_word(code, code >> 2 != rank - 2) for code in range(53)] for rank in range(2, 15)}
# Suit fields of hands whose natural cards all share one suit (one to five of them).
_ONE_SUIT = frozenset(n << (3 * s) for s in range(4) for n in range(1, 6))


def rank_key(ranks: Iterable[int], jokers: int = 0) -> int:
    """The rank field of a hand: a 3-bit count per rank (deuce first), then the joker's."""
    key = jokers << (3 * JOKER_SLOT)
    for r in ranks:
        key += 1 << (3 * (r - 2))
    return key


def _multisets(ranks: Iterable[int], size: int) -> Iterable[tuple[int, ...]]:
    """Rank multisets of ``size`` natural cards (no rank more than four times).

    A combination repeats a rank in adjacent places, so a rank held five times is a first and
    fifth place alike (the hands here have five cards at most).

    >>> len(list(_multisets(range(2, 15), 5)))  # 13 ranks: every multiset of five but five of a kind
    6175
    """
    assert size <= 5
    for combo in combinations_with_replacement(tuple(ranks), size):
        if size < 5 or combo[0] != combo[4]:
            yield combo


def _build(rules: HandRules) -> Table:
    read = reader(rules)
    plain: dict[int, HandValue] = {}
    flush: dict[int, HandValue] = {}
    if rules.wild_ranked:
        wild = rules.wild_rank
        assert wild is not None
        others = [r for r in rules.deck_ranks if r != wild]
        for wilds in range(5):
            for naturals in _multisets(others, 5 - wilds):
                key = rank_key(naturals + (wild,) * wilds)
                plain[key] = read.wild(naturals, wilds, False)
                if len(set(naturals)) == len(naturals):
                    flush[key] = read.wild(naturals, wilds, True)
        return plain, flush, _WILD_WORDS[wild]
    for ranks in _multisets(rules.deck_ranks, 5):
        key = rank_key(ranks)
        plain[key] = read.natural(ranks, False)
        if len(set(ranks)) == 5:
            flush[key] = read.natural(ranks, True)
    if rules.jokers:
        value = read.bug if rules.wild is Wild.BUG else read.joker
        for ranks in _multisets(rules.deck_ranks, 4):
            key = rank_key(ranks, jokers=1)
            plain[key] = value(ranks, False)
            if len(set(ranks)) == 4:
                flush[key] = value(ranks, True)
    return plain, flush, _WORD


def _table_key(rules: HandRules) -> tuple[object, ...]:
    """What the table depends on: a wild rank's cards read alike whether the rank was agreed,
    is the deuce, or was turned up as the widow."""
    kind = "wild" if rules.wild_ranked else rules.wild.value
    return (kind, rules.wild_rank, rules.stripped, rules.southern, rules.placement if rules.southern else None)


_TABLES: dict[tuple[object, ...], Table] = {}
# Tables by what callers pass as ``wild``: the texts of the plain modes, and HandRules values
# (whose hash is computed once). The hot path looks here first.
_FAST: dict[object, Table] = {}


def table(rules: HandRules) -> Table:
    """The (cached) tables of a game; wild widow needs its rank known."""
    if rules.wild is Wild.WIDOW and rules.wild_rank is None:
        raise RulesError("wild widow: the wild rank is known once the widow card is turned up; "
                         "give wild_rank (or HandRules.with_widow(card))")
    key = _table_key(rules)
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = _build(rules)
    _FAST[rules] = found
    return found


def hand_rules(wild: str | HandRules = Wild.NONE, southern: Iterable[str] = (),
               wild_rank: int | str | None = None) -> HandRules:
    """The game that ``evaluate``'s arguments name (a HandRules passes through unchanged)."""
    if isinstance(wild, HandRules):
        if southern or wild_rank is not None:
            raise RulesError("give the southern hands and the wild rank inside the HandRules, not beside it")
        return wild
    return HandRules(wild, wild_rank, southern=southern)


def evaluate(cards: str | Iterable[str | Card], wild: str | HandRules = "none",
             southern: Iterable[str] = (), wild_rank: int | str | None = None) -> HandValue:
    """The value of a five-card hand under a game.

    ``wild`` is a wild mode (``none``, ``bug``, ``deuces``, ``joker``, ``rank``, ``widow``) or a
    :class:`~rules.hands.HandRules` (everything at once: the stripped deck and the placement of
    the southern hands are given only that way). ``wild_rank`` is the wild rank of ``rank`` and
    ``widow``; ``southern`` lists the southern hands (H7) the table plays, e.g.
    ``("blaze", "tiger")``.

    ``cards`` is text (``"As Kd ..."``) or a sequence of Cards or card strings. Duplicates, a wrong
    count, or a card the game's deck lacks (the joker, a six in the stripped deck) raise
    :class:`rules.CardError`; an inconsistent game raises :class:`rules.RulesError`.

    (``wild_rank`` is an ordinary parameter, not keyword-only: CPython calls a function with a
    keyword-only default about 4% slower, and this is the hot path.)

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
    >>> evaluate("5h 5c Ks Kd 9h", wild="rank", wild_rank=5).describe()
    'four kings, nine kicker'
    >>> evaluate("Ah 7d 8c 9s Td", HandRules(stripped=True)).describe()
    'straight, ten high'
    """
    if not southern and wild_rank is None:
        try:
            plain, flush, word = _FAST[wild]
            a, b, c, d, e = cards.split() if cards.__class__ is str else cards
            if a.__class__ is str:  # text: one dict lookup per card (CARD_OF_TEXT)
                of = CARD_OF_TEXT
                a, b, c, d, e = of[a], of[b], of[c], of[d], of[e]  # type: ignore[index]
            total = word[a] + word[b] + word[c] + word[d] + word[e]  # type: ignore[index]
            # Literal shifts and masks (the _CARD_BITS, SUIT_SHIFT, RANK_SHIFT layout): this
            # is the hot path, where even a global lookup shows.
            if (total & 0x1FFFFFFFFFFFFF).bit_count() == 5:
                return (flush if (total >> 53) & 0xFFF in _ONE_SUIT else plain)[total >> 65]
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # other separators, a wrong count, a card the game lacks, a table not built yet: see below
    rules = hand_rules(wild, southern, wild_rank)
    value = evaluate_checked(cards, rules)
    if isinstance(wild, str) and not southern and wild_rank is None:
        _FAST[wild] = table(rules)
    return value


def evaluate_checked(cards: str | Iterable[str | Card], rules: HandRules) -> HandValue:
    """:func:`evaluate` the slow way, with every check and a message for every refusal."""
    plain, flush, word = table(rules)
    hand = parse_cards(cards, count=5)
    for card in hand:
        rules.check_in_deck(card)
    total = sum(word[card] for card in hand)
    return (flush if (total >> SUIT_SHIFT) & 0xFFF in _ONE_SUIT else plain)[total >> RANK_SHIFT]
