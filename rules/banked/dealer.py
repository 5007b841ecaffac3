"""The dealer's hand in the banked game: the single exchange by the seed's strict priority (B4),
and the qualifying hand, a pair of jacks (B4).

The seed's list (BANKED, the dealer's showdown), in its order, in our words (each item is an
:class:`Item`):

1. Three of a kind: the two odd cards are changed.
2. Four cards of one suit: the fifth is changed to draw at the flush, even if that breaks a pair.
3. Four cards that two different ranks would make a straight (open-ended): the fifth is changed.
4. A pair: the three cards beside it are changed.
5. Four cards that one rank would make a straight (inside): the fifth is changed.
6. None of these: all five cards are changed.

Where the list is silent the profile decides (:class:`~rules.banked.options.BankedOptions`):
two pair (``dealer_two_pair``) and a straight or better (``dealer_made_hand``).

Decisions taken here, in the seed's spirit (the joker stands for whatever card makes the best hand,
H3), written down because the list does not spell them out:

- the joker counts as a card of any suit and rank in items 2, 3 and 5: the joker and three hearts
  are four to a flush; the joker and 6-7-9 are four cards that two different ranks (the five and
  the eight, ...) make a straight, so item 3 (a gutshot with the joker is
  open by the seed's own definition, which counts completing ranks);
- the joker and a natural card are "a pair" (item 4): the joker pairs the dealer's highest card
  (the pair the evaluator reads), and the other three are changed;
- where two sets of four cards satisfy item 3 or item 5 and leave different cards, the dealer keeps
  the four whose straight is the higher (the choice the list leaves open); between cards of one
  rank the choice changes nothing and the lower card code (clubs first) goes.

>>> dealer_exchange("7h 7d 7s Kc 2d")
('Kc', '2d')
>>> dealer_exchange("Ah 9h 5h 2h 2c")
('2c',)
>>> dealer_exchange("Jk 9c 9d 4s 2h")
('4s', '2h')
>>> dealer_exchange("Ks Qd 8h 5c 3c")
('Ks', 'Qd', '8h', '5c', '3c')
>>> dealer_decision("9c 8d 7h 6s Kc").item.value, dealer_decision("9c 8d 7h 6s Kc").rule
('open_straight_draw', 'B4')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from rules.banked.options import BankedOptions, MadeHand, TwoPair, banked_options
from rules.cards import Card, parse_cards
from rules.hands import HandValue, evaluate

__all__ = [
    "Item",
    "ITEM_WORDS",
    "DealerExchange",
    "dealer_decision",
    "dealer_exchange",
    "dealer_qualifies",
    "straight_completions",
]

#: Straight windows as rank sets, the wheel (ace low) first, then six-high up to ace-high.
_WINDOWS: tuple[frozenset[int], ...] = (frozenset({14, 2, 3, 4, 5}),) + tuple(
    frozenset(range(low, low + 5)) for low in range(2, 11))
_WINDOW_TOP = {w: (5 if 14 in w and 2 in w else max(w)) for w in _WINDOWS}


class Item(StrEnum):
    """Which item of the dealer's list (B4) decided the exchange."""

    MADE_HAND = "made_hand"
    THREE_OF_A_KIND = "three_of_a_kind"
    FLUSH_DRAW = "flush_draw"
    OPEN_STRAIGHT_DRAW = "open_straight_draw"
    PAIR = "pair"
    TWO_PAIR = "two_pair"
    INSIDE_STRAIGHT_DRAW = "inside_straight_draw"
    NOTHING = "nothing"


#: The words a dealer's tablet shows for each item (the seed's, shortened).
ITEM_WORDS: dict[Item, str] = {
    Item.MADE_HAND: "a straight or better: no card is changed (house rule dealer_made_hand)",
    Item.THREE_OF_A_KIND: "three of a kind: change the other two cards",
    Item.FLUSH_DRAW: "four cards of one suit: change the fifth, even holding a pair",
    Item.OPEN_STRAIGHT_DRAW: "four to a straight that two ranks complete: change the fifth card",
    Item.PAIR: "a pair: change the other three cards",
    Item.TWO_PAIR: "two pair (house rule dealer_two_pair)",
    Item.INSIDE_STRAIGHT_DRAW: "four to a straight that one rank completes: change the fifth card",
    Item.NOTHING: "no hand and no draw: change all five cards",
}


@dataclass(frozen=True)
class DealerExchange:
    """The dealer's exchange: the cards thrown and kept (in the order given) and the item that
    decided it, with the rule id (always B4)."""

    throw: tuple[Card, ...]
    keep: tuple[Card, ...]
    item: Item
    rule: str = "B4"

    @property
    def words(self) -> str:
        return ITEM_WORDS[self.item]


def straight_completions(four: Iterable[Card]) -> frozenset[int]:
    """The ranks (2-14) of which one more card makes a straight of these four cards; the joker is any
    card (B4 items 3 and 5, with H3).

    >>> sorted(straight_completions(parse_cards("9c 8d 7h 6s")))
    [5, 10]
    >>> sorted(straight_completions(parse_cards("Ac Kd Qh Js"))), sorted(straight_completions(parse_cards("2c 3d 4h 5s")))
    ([10], [6, 14])
    >>> sorted(straight_completions(parse_cards("Jk 6d 7h 9s")))
    [5, 8, 10]
    """
    cards = tuple(four)
    naturals = {c.rank for c in cards if not c.is_joker}
    if len(naturals) != sum(1 for c in cards if not c.is_joker):
        return frozenset()  # a pair among them: no straight
    out: set[int] = set()
    for window in _WINDOWS:
        if naturals <= window:
            out |= window - naturals
    return frozenset(out)


def _straight_draws(cards: tuple[Card, ...], open_ended: bool) -> tuple[Card, ...] | None:
    """The card to throw for the best four to a straight (open: two ranks or more complete it;
    inside: exactly one), or None. The choice depends on the ranks only (cached by them); of two
    cards of the rank to throw, the lower card code goes."""
    ranks = [0 if c == 52 else (c >> 2) + 2 for c in cards]  # Card.rank, from the codes (rules.cards)
    rank = _straight_rank(tuple(sorted(ranks)), open_ended)
    if rank is None:
        return None
    return (min(c for c, r in zip(cards, ranks) if r == rank),)


@lru_cache(maxsize=None)
def _straight_rank(ranks: tuple[int, ...], open_ended: bool) -> int | None:
    """The rank to throw (the joker is rank 0) for the best four to a straight among five ranks."""
    best: tuple[int, int] | None = None
    for i in range(5):
        kept = ranks[:i] + ranks[i + 1:]
        naturals = [r for r in kept if r]
        if len(set(naturals)) != len(naturals):
            continue  # a pair among the four: no straight
        rest = set(naturals)
        needs = [w - rest for w in _WINDOWS if rest <= w]
        completing = set().union(*needs) if needs else set()
        if not completing or (len(completing) >= 2) != open_ended:
            continue
        top = max(_WINDOW_TOP[w] for w in _WINDOWS if rest <= w)
        key = (top, -ranks[i])  # the higher straight first; then the lower card goes
        if best is None or key > best:
            best = key
    return None if best is None else -best[1]


def _flush_draw(cards: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """The cards to throw for four to a flush (the joker any suit; suits in the order c d h s),
    or None. Read from the card codes (4 x rank index + suit, the joker 52: rules.cards), as the
    house's simulations call this for every dealer hand they deal."""
    suits = [-1 if c == 52 else c & 3 for c in cards]
    jokers = suits.count(-1)
    for suit in range(4):
        if suits.count(suit) + jokers >= 4:
            return tuple(c for c, s in zip(cards, suits) if s != suit and s != -1)
    return None


def _keeping(cards: tuple[Card, ...], ranks: Iterable[int]) -> tuple[Card, ...]:
    """The cards to throw when keeping the joker and the cards of ``ranks``."""
    keep = set(ranks)
    return tuple(c for c in cards if not c.is_joker and c.rank not in keep)


def dealer_decision(cards: str | Iterable[str | Card], options: BankedOptions | None = None) -> DealerExchange:
    """The dealer's exchange (B4) with the item of the list that decides it.

    ``cards``: the dealer's five cards from the 53-card deck (duplicates, unknown cards and a
    wrong count raise :class:`rules.CardError`).

    >>> d = dealer_decision("Jk 8h 8c 3s 3d")
    >>> d.item.value, [str(c) for c in d.throw]
    ('made_hand', [])
    >>> d = dealer_decision("Jk 8h 8c 3s 3d", banked_options({"dealer_made_hand": "trips_rule"}))
    >>> d.item.value, [str(c) for c in d.throw]
    ('three_of_a_kind', ['3s', '3d'])
    """
    opts = options or _DEFAULT
    hand = parse_cards(cards, count=5)
    value = evaluate(hand, "joker")
    category = value.category
    if category == "full_house" and opts.dealer_made_hand is MadeHand.TRIPS_RULE:
        return _decided(hand, _keeping(hand, (value.ranks[0],)), Item.THREE_OF_A_KIND)
    if value.position >= _straight():
        return _decided(hand, (), Item.MADE_HAND)
    if category == "three_of_a_kind":
        return _decided(hand, _keeping(hand, (value.ranks[0],)), Item.THREE_OF_A_KIND)
    flush = _flush_draw(hand)
    if flush is not None:
        return _decided(hand, flush, Item.FLUSH_DRAW)
    straight = _straight_draws(hand, open_ended=True)
    if straight is not None:
        return _decided(hand, straight, Item.OPEN_STRAIGHT_DRAW)
    if category == "one_pair":
        pair = value.ranks[0]
        if any(c.is_joker for c in hand):  # the joker pairs the highest card: keep only one of it
            top = max((c for c in hand if c.rank == pair), key=int)
            return _decided(hand, tuple(c for c in hand if not c.is_joker and c != top), Item.PAIR)
        return _decided(hand, _keeping(hand, (pair,)), Item.PAIR)
    if category == "two_pair":
        if opts.dealer_two_pair is TwoPair.CHANGE_KICKER:
            return _decided(hand, _keeping(hand, value.ranks[:2]), Item.TWO_PAIR)
        return _decided(hand, _keeping(hand, value.ranks[:1]), Item.TWO_PAIR)
    inside = _straight_draws(hand, open_ended=False)
    if inside is not None:
        return _decided(hand, inside, Item.INSIDE_STRAIGHT_DRAW)
    return _decided(hand, hand, Item.NOTHING)


def _decided(hand: tuple[Card, ...], throw: tuple[Card, ...], item: Item) -> DealerExchange:
    thrown = set(throw)
    return DealerExchange(tuple(c for c in hand if c in thrown), tuple(c for c in hand if c not in thrown), item)


def dealer_exchange(cards: str | Iterable[str | Card], options: BankedOptions | None = None) -> tuple[str, ...]:
    """The cards the dealer throws (B4), as text in the order given: the contract's function.

    >>> dealer_exchange("Qs Qd 9h 5c 3c"), dealer_exchange("Ks Qs 8s 5s As")
    (('9h', '5c', '3c'), ())
    >>> dealer_exchange("Qs Qd 9h 9c 3c"), dealer_exchange("Qs Qd 9h 9c 3c", banked_options({"dealer_two_pair": "keep_higher_pair"}))
    (('3c',), ('9h', '9c', '3c'))
    """
    return tuple(str(c) for c in dealer_decision(cards, options).throw)


def dealer_qualifies(value: HandValue | str | Iterable[str | Card], options: BankedOptions | None = None) -> bool:
    """B4: whether the dealer's final hand is a game: a pair of jacks (``qualifier``) or better.

    >>> dealer_qualifies("Jh Jc 7s 4d 2c"), dealer_qualifies("Th Tc As Kd Qc"), dealer_qualifies("Jk Jc 7s 4d 2c")
    (True, False, True)
    >>> dealer_qualifies("Jk Tc 7s 4d 2c")
    False
    """
    opts = options or _DEFAULT
    if not isinstance(value, HandValue):
        value = evaluate(parse_cards(value, count=5), "joker")
    if value.category == "high_card":
        return False
    return value.category != "one_pair" or value.ranks[0] >= opts.qualifier


_DEFAULT = banked_options()


@lru_cache(maxsize=1)
def _straight() -> int:
    """The lowest straight's place in the joker deck's order (made on the first decision, not at
    import: it builds that deck's table, a fifth of a second every process that imports the app paid)."""
    return evaluate("9c 8d 7h 6s 5c", "joker").position
