"""Cards, decks and their text notation.

A :class:`Card` is a small int code, the way python-chess codes squares: 4 × rank index + suit
index for the 52 natural cards (``2c`` is 0, ``As`` is 51) and 52 for the joker. Being an int keeps
cards immutable, hashable and cheap to look up in the evaluator's tables; being a subclass gives
them readable ``str``/``repr`` and ``rank``/``suit`` attributes.

>>> parse_cards("As, 10d jk")
(Card('As'), Card('Td'), Card('Jk'))
>>> " ".join(map(str, parse_cards(["K♠", "q♥"])))
'Ks Qh'
>>> len(deck()), len(deck(wild="bug")), len(deck(stripped=True)), len(deck(wild="rank"))
(52, 53, 32, 52)

Serialise cards with ``str(card)`` (or :func:`to_text`): ``json.dumps`` would write the int code.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from rules import CardError

__all__ = [
    "Card",
    "JOKER",
    "RANKS",
    "SUITS",
    "Wild",
    "WILD_MODES",
    "JOKER_MODES",
    "parse_card",
    "parse_cards",
    "to_text",
    "deck",
    "rank_name",
    "rank_plural",
    "parse_rank",
    "rank_text",
    "CARD_OF_TEXT",
]

#: Rank letters from the deuce up; a card's rank index is the position here (deuce 0, ace 12).
RANKS = "23456789TJQKA"
#: Suit letters in code order (clubs, diamonds, hearts, spades).
SUITS = "cdhs"


class Wild(StrEnum):
    """The wild modes (H2, H3, H4), the one definition of this vocabulary (:mod:`rules.hands`
    reads each; :mod:`rules.profiles` offers them as the ``wild`` option).

    - ``none``: the 52 natural cards.
    - ``bug``: the joker is in the deck as the bug (H2).
    - ``deuces``: the four deuces are fully wild (H4); no joker.
    - ``joker``: the joker is in the deck, fully wild as in the banked game (H3).
    - ``rank``: the four cards of an agreed rank are fully wild (H4), as the deuces are; no joker.
    - ``widow``: wild widow (H4): a card turned up during the deal makes the other three of its
      rank fully wild; no joker.

    A StrEnum: each member *is* its text, so ``Wild.BUG == "bug"`` and profiles, JSON and the
    evaluator's tables may use either.

    >>> Wild("rank"), Wild.WIDOW == "widow", [str(w) for w in Wild][:3]
    (<Wild.RANK: 'rank'>, True, ['none', 'bug', 'deuces'])
    """

    NONE = "none"
    BUG = "bug"
    DEUCES = "deuces"
    JOKER = "joker"
    RANK = "rank"
    WIDOW = "widow"


#: The wild modes, as texts in the order of :class:`Wild` (derived from it, not a second list).
WILD_MODES: tuple[str, ...] = tuple(w.value for w in Wild)
#: The modes that put the joker in the deck (53 cards, 33 stripped).
JOKER_MODES = frozenset({Wild.BUG, Wild.JOKER})

_JOKER_CODE = 52
_SUIT_OF = {
    "c": 0, "♣": 0, "♧": 0,
    "d": 1, "♦": 1, "♢": 1,
    "h": 2, "♥": 2, "♡": 2,
    "s": 3, "♠": 3, "♤": 3,
}
_RANK_OF = {ch.lower(): i for i, ch in enumerate(RANKS)}
_RANK_OF["10"] = RANKS.index("T")
_NAMES = ("deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "jack", "queen", "king", "ace")
_PLURALS = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
            "jacks", "queens", "kings", "aces")


class Card(int):
    """One card: a natural card or the joker. Immutable; compares and hashes as its int code.

    >>> c = Card.parse("td")
    >>> c, str(c), c.rank, c.suit, c.is_joker
    (Card('Td'), 'Td', 10, 'd', False)
    >>> JOKER.rank, JOKER.suit, JOKER.is_joker
    (0, '', True)
    >>> Card.of(14, "s")
    Card('As')
    """

    __slots__ = ()

    def __new__(cls, code: int) -> Card:
        if not 0 <= code <= _JOKER_CODE:
            raise CardError(f"unknown card code {code!r}")
        return int.__new__(cls, code)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card (``As``, ``10h``, ``q♠``, ``Jk``); raises :class:`rules.CardError`."""
        return parse_card(text)

    @classmethod
    def of(cls, rank: int, suit: str) -> Card:
        """The natural card of ``rank`` (2–14, ace 14) and ``suit`` (``c d h s``)."""
        if not 2 <= rank <= 14 or suit not in _SUIT_OF:
            raise CardError(f"unknown card: rank {rank!r}, suit {suit!r}")
        return _ALL[(rank - 2) * 4 + _SUIT_OF[suit]]

    @property
    def is_joker(self) -> bool:
        return int(self) == _JOKER_CODE

    @property
    def rank(self) -> int:
        """2–14 (ace 14) for a natural card, 0 for the joker."""
        return 0 if self.is_joker else (int(self) >> 2) + 2

    @property
    def suit(self) -> str:
        """``c``, ``d``, ``h`` or ``s``; the empty string for the joker."""
        return "" if self.is_joker else SUITS[int(self) & 3]

    def __str__(self) -> str:
        return _TEXT[int(self)]

    def __repr__(self) -> str:
        return f"Card({_TEXT[int(self)]!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


_TEXT = tuple(r + s for r in RANKS for s in SUITS) + ("Jk",)
_ALL = tuple(int.__new__(Card, i) for i in range(_JOKER_CODE + 1))
#: The joker (the bug, or the banked game's wild card).
JOKER = _ALL[_JOKER_CODE]


def _spellings() -> dict[str, Card]:
    """Every way a card may be typed, already trimmed: each rank letter or ``10`` in either case,
    each suit as a letter (either case) or a symbol (with or without the emoji variation
    selector), and the joker as ``jk`` or ``joker`` in any case.

    >>> table = _spellings()
    >>> table["10h"], table["q♠"], table["Joker"], len(table)
    (Card('Th'), Card('Qs'), Card('Jk'), 492)
    """
    suits: dict[int, list[str]] = {}
    for spelling, index in _SUIT_OF.items():
        forms = {spelling, spelling.upper()}
        if not spelling.isascii():
            forms.add(spelling + "\ufe0f")
        suits.setdefault(index, []).extend(sorted(forms))
    ranks: dict[int, set[str]] = {}
    for spelling, index in _RANK_OF.items():
        ranks.setdefault(index, set()).update({spelling, spelling.upper()})
    table = {r + s: _ALL[rank * 4 + suit] for rank, rank_forms in ranks.items() for r in rank_forms
             for suit, suit_forms in suits.items() for s in suit_forms}
    for word in ("jk", "joker"):
        for mask in range(1 << len(word)):
            table["".join(ch.upper() if mask >> i & 1 else ch for i, ch in enumerate(word))] = JOKER
    return table


#: Card text to card, one dict lookup: the hot path of text input (:func:`parse_cards`, and
#: :func:`rules.hands.evaluate` given text). It holds trimmed tokens only; anything else (spaces
#: around, other separators) goes the long way through :func:`parse_card`, which accepts the same
#: cards, so this table is only a shortcut (``tests/test_cards.py`` checks they agree).
CARD_OF_TEXT: dict[str, Card] = _spellings()


def rank_name(rank: int) -> str:
    """The players' word for a rank: ``rank_name(2) == 'deuce'``, ``rank_name(14) == 'ace'``."""
    return _NAMES[rank - 2]


def rank_plural(rank: int) -> str:
    """``rank_plural(6) == 'sixes'``."""
    return _PLURALS[rank - 2]


def parse_rank(rank: str | int) -> int:
    """A rank as 2–14 from its text (``"5"``, ``"T"``, ``"10"``, ``"q"``) or from an int 2–14.

    >>> parse_rank("5"), parse_rank("10"), parse_rank("q"), parse_rank(14)
    (5, 10, 12, 14)
    >>> parse_rank("1")
    Traceback (most recent call last):
    ...
    rules.CardError: unknown rank '1'; a rank is one of 2 3 4 5 6 7 8 9 T J Q K A
    """
    if isinstance(rank, int) and not isinstance(rank, bool):
        if 2 <= rank <= 14:
            return rank
    elif isinstance(rank, str):
        index = _RANK_OF.get(rank.strip().lower())
        if index is not None:
            return index + 2
    raise CardError(f"unknown rank {rank!r}; a rank is one of {' '.join(RANKS)}")


def rank_text(rank: int) -> str:
    """The rank letter of a rank 2–14: ``rank_text(10) == 'T'``."""
    return RANKS[rank - 2]


def parse_card(text: str) -> Card:
    """Read one card, case-insensitive, suits as letters or symbols.

    >>> parse_card("10♣"), parse_card("JK"), parse_card(" as ")
    (Card('Tc'), Card('Jk'), Card('As'))
    >>> parse_card("Zz")
    Traceback (most recent call last):
    ...
    rules.CardError: unknown card 'Zz'
    """
    found = CARD_OF_TEXT.get(text)
    if found is not None:
        return found
    token = text.strip().replace("\ufe0f", "")  # emoji suits may carry a variation selector
    low = token.lower()
    if low in ("jk", "joker"):
        return JOKER
    if len(low) >= 2:
        rank = _RANK_OF.get(low[:-1])
        suit = _SUIT_OF.get(low[-1])
        if rank is not None and suit is not None:
            return _ALL[rank * 4 + suit]
    raise CardError(f"unknown card {text.strip()!r}")


def parse_cards(cards: str | Iterable[str | Card], count: int | None = None) -> tuple[Card, ...]:
    """Read cards from text (spaces or commas between them) or from a list of strings or Cards.

    Duplicates, unknown cards and (when ``count`` is given) a wrong number of cards raise
    :class:`rules.CardError` with a message that names the card or the count.

    >>> parse_cards("Ah kh, 9C")
    (Card('Ah'), Card('Kh'), Card('9c'))
    >>> parse_cards(["As", "Ks", "As"])
    Traceback (most recent call last):
    ...
    rules.CardError: duplicate card: As
    >>> parse_cards("As Ks Qs Js", count=5)
    Traceback (most recent call last):
    ...
    rules.CardError: a hand has 5 cards, not 4
    """
    if isinstance(cards, str):
        tokens: Iterable[str | Card] = cards.replace(",", " ").split()
    elif isinstance(cards, Iterable):
        tokens = cards
    else:  # true, 7, an object: no cards (a JSON fact of the wrong kind)
        raise CardError(f"cards are a text like 'Ah Kd' or a list of cards, not {cards!r}")
    out: list[Card] = []
    seen: set[int] = set()
    for token in tokens:
        if isinstance(token, Card):
            card = token
        elif isinstance(token, str):
            card = CARD_OF_TEXT.get(token) or parse_card(token)
        else:
            raise CardError(f"unknown card {token!r}")
        if card in seen:
            raise CardError(f"duplicate card: {card}")
        seen.add(card)
        out.append(card)
    if count is not None and len(out) != count:
        raise CardError(f"a hand has {count} cards, not {len(out)}")
    return tuple(out)


def to_text(cards: Iterable[Card]) -> str:
    """Canonical text of cards, space separated; round-trips through :func:`parse_cards`.

    >>> to_text(parse_cards("10s jk 2H"))
    'Ts Jk 2h'
    """
    return " ".join(_TEXT[int(c)] for c in cards)


def deck(wild: str = "none", stripped: bool = False) -> tuple[Card, ...]:
    """The deck a game plays with, in code order (H1).

    ``wild="bug"`` or ``"joker"`` adds the joker (53 cards); ``stripped=True`` keeps the ace down
    to the seven (32 cards, 33 with the joker). The wild-rank modes (``deuces``, ``rank``,
    ``widow``) play the natural cards only: their wild cards are cards of the deck. In wild widow
    the widow card is turned up from this same deck.

    >>> deck(wild="bug")[-1], deck(stripped=True)[0], len(deck("bug", stripped=True))
    (Card('Jk'), Card('7c'), 33)
    """
    if wild not in WILD_MODES:
        raise ValueError(f"wild must be one of {', '.join(WILD_MODES)}, not {wild!r}")
    low = 7 if stripped else 2
    cards = tuple(c for c in _ALL[:_JOKER_CODE] if c.rank >= low)
    return cards + (JOKER,) if wild in JOKER_MODES else cards
