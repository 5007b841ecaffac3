"""The evaluation context: :class:`HandRules`, the rules one game reads hands by.

One small immutable value says everything the evaluator and the counts need: the wild mode and
its rank, the deck (full or stripped), the southern hands and their placement. Callers build it
once (``HandRules.from_profile(profile)``, or ``profile.hand_rules``) and pass it where a wild
mode goes: ``evaluate(cards, rules)``, ``category_counts(rules)``.

>>> HandRules("rank", "5")
HandRules(wild='rank', wild_rank=5)
>>> HandRules("widow").with_widow("9d")
HandRules(wild='widow', wild_rank=9)
>>> HandRules("bug", stripped=True).deck_size, HandRules("deuces").wild_rank
(33, 2)
>>> HandRules("rank")
Traceback (most recent call last):
...
rules.RulesError: wild='rank' needs wild_rank: the rank whose four cards are wild, such as '5'

Decisions written here (H1, H4):

- ``deuces`` is the wild rank 2 under its old name: ``HandRules("deuces")`` and
  ``HandRules("rank", 2)`` read every hand alike (and share one table), but stay distinct values.
- A wild card stands for any card of the deck in play: in the stripped deck, a seven to an ace.
- Wild widow (``widow``): the widow card is turned up from the same deck and stays on the table;
  the other three of its rank are wild. Until it is turned up the rank is unknown
  (``wild_rank=None``) and a hand cannot be read: :meth:`HandRules.with_widow` gives the rules
  once it is. The widow's own suit is not kept: whoever deals knows the widow card is not in a
  hand.
- The joker is in the deck only with ``bug`` and ``joker``: the wild-rank modes play the 52 (or
  32) natural cards. The stripped deck with the bug or the banked joker has 33 cards; there the
  banked joker in a plain flush is the lowest card of the deck the hand lacks (the seven when it
  can be), as it is the deuce in the full deck.
- The stripped deck has no deuce to six: deuces wild, another wild rank below the seven, and the
  southern hands that need those cards (skip straight, tiger, round-the-corner straight) are
  refused with it; the blaze can be made and is played.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from rules import CardError, RulesError
from rules.cards import JOKER_MODES, Card, Wild, deck, parse_card, parse_rank, rank_plural, rank_text
from rules.hands.ranking import SOUTHERN_HANDS, Placement, Ranking, Southern, check_southern, ranking

__all__ = ["HandRules", "ProfileLike", "STRIPPED_LOW"]

#: The lowest rank of the stripped deck (H1: ace down to seven).
STRIPPED_LOW = 7
_WILD_RANK_MODES = frozenset({Wild.DEUCES, Wild.RANK, Wild.WIDOW})


class ProfileLike(Protocol):
    """What :meth:`HandRules.from_profile` reads of a profile (:class:`rules.profiles.Profile`)."""

    @property
    def wild(self) -> str: ...

    @property
    def stripped_deck(self) -> bool: ...

    @property
    def southern_hands(self) -> Iterable[str]: ...


class HandRules:
    """How one game reads five cards: wild mode and rank, deck, southern hands and placement.

    Immutable and hashable; equal when every reading is equal (one object per reading: the
    constructor hands back the value already made). It checks the combination and raises
    :class:`rules.RulesError` naming what does not fit.

    - ``wild``: a :class:`~rules.cards.Wild` mode (or its text).
    - ``wild_rank``: 2–14 or a rank text (``"5"``, ``"T"``); required with ``rank``, the deuce
      with ``deuces``, the widow card's rank (or None, not yet turned up) with ``widow``, and
      refused with the other modes.
    - ``stripped``: the 32-card deck, ranked as stripped-deck poker ranks it (flush above full
      house; A-7-8-9-T the lowest straight; see :mod:`rules.hands.ranking`).
    - ``southern`` and ``placement``: the southern hands played (H7) and where they rank.

    >>> r = HandRules("rank", 5, southern=["tiger"], placement="as_played")
    >>> r.categories[3:7], r.is_wild(parse_card("5h"))
    (('three_of_a_kind', 'straight', 'tiger', 'flush'), True)
    >>> r.describe()
    'the four fives wild; 52 cards; southern hands (tiger) where they were played'
    >>> HandRules("deuces", stripped=True)
    Traceback (most recent call last):
    ...
    rules.RulesError: the 32-card deck has no deuces: a wild rank there is a seven to an ace
    """

    __slots__ = ("wild", "wild_rank", "stripped", "southern", "placement")

    wild: Wild
    wild_rank: int | None
    stripped: bool
    southern: tuple[Southern, ...]
    placement: Placement

    def __new__(cls, wild: str = Wild.NONE, wild_rank: int | str | None = None,
                stripped: bool = False, southern: Iterable[str] = (),
                placement: str = Placement.ODDS) -> HandRules:
        fields = _checked(wild, wild_rank, stripped, southern, placement)
        found = _INTERNED.get(fields)
        if found is None:
            made = object.__new__(cls)
            for name, value in zip(_FIELDS, fields):
                object.__setattr__(made, name, value)
            found = _INTERNED.setdefault(fields, made)  # one value per reading, even when racing
        return found

    # ------------------------------------------------------------------ value semantics
    # Values are interned: equal readings are one object, so identity is equality and the
    # inherited hash (a C function) keeps the evaluator's look-up by HandRules as fast as by text.
    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("HandRules is immutable")

    def __copy__(self) -> HandRules:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> HandRules:
        return self

    def __repr__(self) -> str:
        parts = [f"wild={self.wild.value!r}"]
        if self.wild_rank is not None and self.wild is not Wild.DEUCES:
            parts.append(f"wild_rank={self.wild_rank}")
        if self.stripped:
            parts.append("stripped=True")
        if self.southern:
            parts.append(f"southern={tuple(s.value for s in self.southern)!r}")
            parts.append(f"placement={self.placement.value!r}")
        return f"HandRules({', '.join(parts)})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (HandRules, (self.wild, self.wild_rank, self.stripped, self.southern, self.placement))

    # ------------------------------------------------------------------ building
    @classmethod
    def from_profile(cls, profile: ProfileLike) -> HandRules:
        """The rules of a house-rule profile (:class:`rules.profiles.Profile`); for wild widow
        the rank is unknown until the widow is turned up (:meth:`with_widow`)."""
        return cls(profile.wild, getattr(profile, "wild_rank", None), profile.stripped_deck,
                   profile.southern_hands, getattr(profile, "southern_placement", Placement.ODDS))

    def with_wild_rank(self, rank: int | str) -> HandRules:
        """The same rules with the wild rank known (wild widow, once its card is turned up).

        >>> HandRules("widow").with_wild_rank("T").wild_rank
        10
        """
        return HandRules(self.wild, rank, self.stripped, self.southern, self.placement)

    def with_widow(self, card: Card | str) -> HandRules:
        """Wild widow (H4): the rules once the widow card is turned up; its rank is wild."""
        if self.wild is not Wild.WIDOW:
            raise RulesError(f"a widow card is turned up only in wild widow, not with wild={self.wild.value!r}")
        turned = parse_card(card) if isinstance(card, str) else card
        if turned.is_joker:
            raise RulesError("the widow card is a natural card, not the joker")
        return self.with_wild_rank(turned.rank)

    # ------------------------------------------------------------------ reading
    @property
    def ranking(self) -> Ranking:
        """The order of the categories in this game."""
        return ranking(self.stripped, self.southern, self.placement)

    @property
    def categories(self) -> tuple[str, ...]:
        """The categories in play, weakest first."""
        return self.ranking.order

    @property
    def low(self) -> int:
        """The lowest rank of the deck: 2, or 7 in the stripped deck."""
        return STRIPPED_LOW if self.stripped else 2

    @property
    def deck_ranks(self) -> tuple[int, ...]:
        """The natural ranks of the deck, lowest first (what a wild card may stand for)."""
        return tuple(range(self.low, 15))

    @property
    def jokers(self) -> int:
        """1 when the joker is in the deck (bug or banked joker), else 0."""
        return 1 if self.wild in JOKER_MODES else 0

    @property
    def wild_ranked(self) -> bool:
        """Whether a rank of natural cards is wild (deuces, rank, widow)."""
        return self.wild in _WILD_RANK_MODES

    @property
    def wild_cards(self) -> int:
        """How many natural wild cards can be in the players' hands: four (deuces, a wild rank),
        three in wild widow (the fourth is the widow card on the table), else none."""
        if not self.wild_ranked:
            return 0
        return 3 if self.wild is Wild.WIDOW else 4

    @property
    def deck_size(self) -> int:
        """Cards in the deck (the widow card included: it is turned up from the deck)."""
        return (32 if self.stripped else 52) + self.jokers

    def deck(self) -> tuple[Card, ...]:
        """The cards of the deck, in code order."""
        return deck(self.wild, self.stripped)

    def is_wild(self, card: Card) -> bool:
        """Whether ``card`` is fully wild: the banked joker, or a card of the wild rank. The bug
        is not (it is an ace, or fills a straight or a flush)."""
        if card.is_joker:
            return self.wild is Wild.JOKER
        return self.wild_ranked and card.rank == self.wild_rank

    def counts_as(self, card: Card) -> int | None:
        """The rank a card counts as when pairing up cards (fewer than five, as the split-openers
        checks see them): None for a fully wild card (any rank), 14 for the bug (an ace: H2, O1
        "bug + ace is a pair of aces"), else its own rank. A card the deck lacks raises
        :class:`rules.CardError`.

        >>> from rules.cards import JOKER
        >>> fives = HandRules("rank", 5)
        >>> fives.counts_as(parse_card("5d")), fives.counts_as(parse_card("Kd")), HandRules("bug").counts_as(JOKER)
        (None, 13, 14)
        """
        self.check_in_deck(card)
        if self.is_wild(card):
            return None
        return 14 if card.is_joker else card.rank

    def check_in_deck(self, card: Card) -> None:
        """Raise :class:`rules.CardError` for a card the game's deck lacks (the joker, a six in
        the stripped deck), naming it."""
        cards = _DECKS.get((self.wild, self.stripped))
        if cards is None:
            cards = _DECKS[self.wild, self.stripped] = frozenset(self.deck())
        if card not in cards:
            if card.is_joker:
                raise CardError(f"no joker in this game (wild={self.wild.value!r}): Jk")
            raise CardError(f"no {card} in the 32-card deck (ace down to seven)")

    def describe(self) -> str:
        """Plain words for a rule summary.

        >>> HandRules("bug", stripped=True).describe()
        'the joker as the bug; 33 cards, the stripped deck (ace down to seven)'
        """
        words = {
            Wild.NONE: "no wild cards", Wild.BUG: "the joker as the bug",
            Wild.JOKER: "the joker fully wild (the banked game's joker)",
        }.get(self.wild)
        if words is None:
            if self.wild_rank is None:
                words = "wild widow: the rank of the widow card is wild"
            elif self.wild is Wild.WIDOW:
                words = f"wild widow: the other three {rank_plural(self.wild_rank)} wild"
            else:
                words = f"the four {rank_plural(self.wild_rank)} wild"
        deck_words = f"{self.deck_size} cards" + (", the stripped deck (ace down to seven)" if self.stripped else "")
        text = f"{words}; {deck_words}"
        if self.southern:
            where = "where the odds put them" if self.placement is Placement.ODDS else "where they were played"
            text += f"; southern hands ({', '.join(s.replace('_', ' ') for s in self.southern)}) {where}"
        return text

    @property
    def wild_rank_text(self) -> str | None:
        """The wild rank as its letter (``"5"``, ``"T"``), or None."""
        return None if self.wild_rank is None else rank_text(self.wild_rank)


_FIELDS = ("wild", "wild_rank", "stripped", "southern", "placement")
_DECKS: dict[tuple[Wild, bool], frozenset[Card]] = {}
_Fields = tuple[Wild, int | None, bool, tuple[Southern, ...], Placement]
_INTERNED: dict[_Fields, HandRules] = {}


def _checked(wild: str, wild_rank: int | str | None, stripped: bool, southern: Iterable[str],
             placement: str) -> _Fields:
    """HandRules' fields, normalised and checked together (RulesError names what does not fit)."""
    try:
        mode = Wild(wild)
    except ValueError:
        raise RulesError(f"wild must be one of {', '.join(Wild)}, not {wild!r}") from None
    rank = None if wild_rank is None else parse_rank(wild_rank)
    if mode is Wild.DEUCES:
        if rank not in (None, 2):
            raise RulesError(f"deuces wild: the wild rank is the deuce, not {wild_rank!r}")
        rank = 2
    elif mode is Wild.RANK:
        if rank is None:
            raise RulesError("wild='rank' needs wild_rank: the rank whose four cards are wild, such as '5'")
    elif mode is not Wild.WIDOW and rank is not None:
        raise RulesError(f"wild_rank goes only with wild='rank' or 'widow', not with wild={mode.value!r}")
    if not isinstance(stripped, bool):
        raise RulesError(f"stripped must be true or false, not {stripped!r}")
    chosen = check_southern(southern)
    if stripped:
        if rank is not None and rank < STRIPPED_LOW:
            raise RulesError(f"the 32-card deck has no {rank_plural(rank)}: "
                             "a wild rank there is a seven to an ace")
        lacking = sorted(chosen - {Southern.BLAZE}, key=SOUTHERN_HANDS.index)
        if lacking:
            raise RulesError(f"southern hand {lacking[0].value!r} needs cards below the seven, which the "
                             "32-card deck lacks: only the blaze is played with it")
    try:
        place = Placement(placement)
    except ValueError:
        raise RulesError(f"southern placement must be one of {', '.join(Placement)}, "
                         f"not {placement!r}") from None
    return mode, rank, stripped, tuple(s for s in Southern if s in chosen), place
