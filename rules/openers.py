"""The opening requirement (O1, O5), the proof of openers (F1, S1–S3) and the split-openers checks.

The proof of openers has one home, :func:`proof` (and :func:`proves_openers`): the engine asks it
when the opener shows, whether called or left alone, and the floor's decision tree asks it for a
dispute. It reads only what the table sees: the final hand, how many cards the opener drew and the
escrow. The kept cards are (5 − drawn) cards of the final hand; a hand that draws to a straight,
a flush or trips proves nothing by what the draw brought.

>>> proves_openers("7c 8d 9h Ts Jc", drawn=1)   # opened 7-8-9-T-K, drew the jack: dead
False
>>> proves_openers("9c 9d 9h 4s 2c", drawn=3)   # drew three to 9-9 and made trips: dead
False
>>> proves_openers("Jc Jd 9h 4s 2c", drawn=3)   # kept the jacks
True

>>> qualifies("5c 5d 3h 3s 6c")
True
>>> qualifies("Tc Td Ah Ks Qc")
False
>>> qualifies("Ah Jk 9c 6d 2s", wild="bug")
True
>>> could_have_opened("Qs 8d 7h 6c 2d", discards="Qd Td")
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations, product

from rules import CardError, RulesError
from rules.cards import Card, parse_cards
from rules.hands import HandRules, HandValue, evaluate, hand_rules
from rules.profiles import MINIMUMS

__all__ = [
    "MINIMUMS",
    "proof",
    "proves_openers",
    "qualifies",
    "beats_minimum",
    "holds_openers",
    "could_have_opened",
    "opening_hands",
    "keeps_openers",
    "splits_openers",
]

#: The rank of the lowest pair each opening minimum names (O1; O5 climbs through them), for the
#: minimums of :data:`rules.profiles.MINIMUMS`, defined there once.
_PAIR_RANK = {minimum: 11 + i for i, minimum in enumerate(MINIMUMS)}

_Cards = str | Iterable[str | Card]


def _minimum_rank(minimum: str) -> int:
    """The lowest pair that opens; 0 when no openers are needed (California, O1 'none')."""
    if isinstance(minimum, str) and minimum.lower() == "none":
        return 0
    try:
        return _PAIR_RANK[minimum.upper()]
    except (KeyError, AttributeError):
        raise RulesError(f"opening minimum must be one of J, Q, K, A or none, not {minimum!r}") from None


def beats_minimum(value: HandValue, minimum: str = "J") -> bool:
    """Whether a hand's value opens: any hand that beats the pair just below the minimum (O1).

    >>> beats_minimum(evaluate("Qc Qd 7h 4s 2c"), "K")
    False
    """
    low = _minimum_rank(minimum)
    if low == 0:
        return True  # nothing to prove where no openers are needed
    if value.category == "high_card":
        return False
    if value.category == "one_pair":
        return value.ranks[0] >= low
    return True  # two pair and every higher category, southern ones included


def qualifies(cards: _Cards, wild: str | HandRules = "bug", minimum: str = "J",
              southern: Iterable[str] = ()) -> bool:
    """Whether five cards are openers: a pair of ``minimum`` or any better hand (O1, O5).

    >>> qualifies("Kd Kh 7c 4s 2h", minimum="A"), qualifies("Kd Jk 7c 4s 2h", minimum="A")
    (False, False)
    >>> qualifies("Ad Jk 7c 4s 2h", minimum="A")
    True
    """
    return beats_minimum(evaluate(cards, wild, southern), minimum)


def holds_openers(cards: _Cards, wild: str | HandRules = "bug", minimum: str = "J") -> bool:
    """Whether these cards, however few, already hold openers by themselves.

    Fewer than five cards cannot hold a straight or a flush, so what counts is a pair of the
    minimum or better, two pair, or more of a kind (the bug counting as an ace, a wild card as
    any rank). Five cards are judged by :func:`qualifies`.

    >>> holds_openers("As Jk", wild="bug"), holds_openers("Ks Jk", wild="bug")
    (True, False)
    >>> holds_openers("5s 5d 3c 3h")
    True
    """
    hand = parse_cards(cards)
    if len(hand) > 5:
        raise CardError(f"a hand has at most 5 cards, not {len(hand)}")
    if len(hand) == 5:
        return qualifies(hand, wild, minimum)
    low = _minimum_rank(minimum)
    if low == 0:
        return True  # nothing to prove where no openers are needed
    rules = hand_rules(wild)
    fixed: list[int] = []
    wilds = 0
    for card in hand:
        rank = rules.counts_as(card)  # None: fully wild; the bug counts as an ace
        if rank is None:
            wilds += 1
        else:
            fixed.append(rank)
    for subs in product(range(2, 15), repeat=wilds):
        counts = Counter(fixed + list(subs))
        pairs = sorted((r for r, n in counts.items() if n >= 2), reverse=True)
        if any(n >= 3 for n in counts.values()) or len(pairs) >= 2 or (pairs and pairs[0] >= low):
            return True
    return False


def opening_hands(final_hand: _Cards, discards: _Cards) -> list[tuple[Card, ...]]:
    """Every five-card hand the player may have held before the draw.

    The escrowed discards were all in the opening hand (S1: every discard goes under the chip);
    the rest of it is the cards kept, which are some ``5 - len(discards)`` cards of the final hand.

    >>> len(opening_hands("As Kd Qh Jc Tc", "2c 3c"))
    10
    """
    final = parse_cards(final_hand, count=5)
    thrown = parse_cards(discards)
    if len(thrown) > 5:
        raise CardError(f"at most 5 discards, not {len(thrown)}")
    for card in thrown:
        if card in final:
            raise CardError(f"card both discarded and in the final hand: {card}")
    return [kept + thrown for kept in combinations(final, 5 - len(thrown))]


def could_have_opened(final_hand: _Cards, discards: _Cards, wild: str | HandRules = "bug",
                      minimum: str = "J") -> bool:
    """S2: could some cards of the final hand, with the escrowed discards, have been openers?

    The escrow holds every discard (S1), so this is :func:`proves_openers` with as many cards
    drawn as there are discards.

    >>> could_have_opened("Ah Kh 9h 6h 3h", discards="Jc")
    False
    >>> could_have_opened("Ah Kh 9h 6h 3h", discards="Jc Jd")
    True
    >>> could_have_opened("Ah Kh 9h 6h 3h", discards="Ac")
    True
    """
    escrow = parse_cards(discards)
    return proves_openers(final_hand, len(escrow), escrow, wild, minimum)


def proof(final_hand: _Cards, drawn: int, escrow: _Cards = (), wild: str | HandRules = "bug",
          minimum: str = "J", southern: Iterable[str] = ()) -> tuple[Card, ...] | None:
    """The cards that prove openers (F1, S1, S2), or None when the hand cannot prove them.

    The opening hand was the cards kept, some ``5 - drawn`` cards of the final hand, and the
    cards thrown. Without a split the thrown cards are gone, so the kept cards must hold openers
    by themselves (a pat hand must qualify as it stands). A split puts every discard under the
    chip (S1): ``escrow`` is then all ``drawn`` cards, and the kept cards with the escrow must
    make a qualifying five-card hand (S2); a final hand that happens to qualify proves nothing by
    itself. With several draws (D13) ``drawn`` counts them all and the escrow holds the first
    draw's discards: the cards known to be from the opening hand are fewer than five, and must
    hold openers by themselves. The cards returned are the kept cards found, then the escrow.

    >>> " ".join(map(str, proof("Js Jh 8h 7h 2h", drawn=3)))      # kept the jacks
    'Js Jh'
    >>> proof("Js 8h 7h 6h 2h", drawn=1, escrow="Jd") is not None  # split a pair of jacks
    True
    >>> proof("Js 8h 7h 6h 2h", drawn=1, escrow="Td") is None      # S2: could not have opened
    True
    >>> proof("As Jk Ks Qs 4d", drawn=3)                           # S3: ace and bug kept
    (Card('As'), Card('Jk'))
    >>> proof("Js 8h 7h 6h 2h", drawn=2, escrow="Jd Td 9d")
    Traceback (most recent call last):
    ...
    rules.RulesError: split openers: 3 cards in escrow, but only 2 drawn
    """
    final = parse_cards(final_hand, count=5)
    thrown = parse_cards(escrow)
    if len(thrown) > 5:
        raise CardError(f"at most 5 discards, not {len(thrown)}")
    for card in thrown:
        if card in final:
            raise CardError(f"card both discarded and in the final hand: {card}")
    if isinstance(drawn, bool) or not isinstance(drawn, int) or not 0 <= drawn <= 5:
        raise RulesError(f"drawn: a number of cards from 0 to 5, not {drawn!r}")
    if len(thrown) > drawn:
        raise RulesError(f"split openers: {len(thrown)} cards in escrow, but only {drawn} drawn")
    extra = tuple(southern)
    for kept in combinations(final, 5 - drawn):
        known = kept + thrown
        if len(known) == 5:
            if qualifies(known, wild, minimum, extra):
                return known
        elif holds_openers(known, wild, minimum):
            return known
    return None


def proves_openers(final_hand: _Cards, drawn: int, escrow: _Cards = (), wild: str | HandRules = "bug",
                   minimum: str = "J", southern: Iterable[str] = ()) -> bool:
    """Whether the opener proves openers with this final hand (see :func:`proof`).

    >>> proves_openers("Kd Kh 7c 4s 2h", drawn=0), proves_openers("Kd 7h 7c 4s 2h", drawn=0)
    (True, False)
    """
    return proof(final_hand, drawn, escrow, wild, minimum, southern) is not None


def keeps_openers(opening_hand: _Cards, discards: _Cards, wild: str | HandRules = "bug",
                  minimum: str = "J") -> bool:
    """S3: whether the cards kept after the discard still hold openers (then it is no split).

    >>> keeps_openers("As Jk Ks Qs Tc", "Tc")
    True
    >>> keeps_openers("Qs Qh Ts 7s 6s", "Qh")
    False
    """
    hand = parse_cards(opening_hand, count=5)
    thrown = parse_cards(discards)
    for card in thrown:
        if card not in hand:
            raise CardError(f"discard not in the opening hand: {card}")
    return holds_openers([c for c in hand if c not in thrown], wild, minimum)


def splits_openers(opening_hand: _Cards, discards: _Cards, wild: str | HandRules = "bug",
                   minimum: str = "J") -> bool:
    """S1/S3: the opener held openers and threw away part of them (so must declare and escrow).

    >>> splits_openers("Qs Qh Ts 7s 6s", "Qh"), splits_openers("As Jk Ks Qs Tc", "Tc")
    (True, False)
    """
    return qualifies(opening_hand, wild, minimum) and not keeps_openers(
        opening_hand, discards, wild, minimum)
