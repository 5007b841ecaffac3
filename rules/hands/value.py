"""Hand values: what the evaluator returns (:class:`HandValue`), and how a dealer calls them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Self

from rules.cards import rank_name, rank_plural
from rules.hands.ranking import ALL_CATEGORIES

__all__ = ["HandValue", "Ranked"]

_DEFAULT_POSITION = {name: i for i, name in enumerate(ALL_CATEGORIES)}
# strength = ((position * 16 + r0) * 16 + r1 ... r4) * 2 + joker: the position sits above bit 21.
_POSITION_SHIFT = 21


class Ranked:
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
        return isinstance(other, Ranked) and type(other) is type(self) and bool(self._rank() == other._rank())

    def __hash__(self) -> int:
        return hash(self._rank())


class HandValue(Ranked):
    """The strength of a five-card hand: totally ordered, hashable, immutable.

    ``category`` is a name of :data:`~rules.hands.CATEGORIES` (or of the southern hands when
    enabled); ``ranks`` are the ranks that break ties, most significant first (ace 14, the
    wheel's top is 5, the stripped deck's A-7-8-9-T's is 10; a round-the-corner straight played
    ``as_played`` has (5, its end card), which puts it just above the five-high straight);
    ``strength`` is the int the comparisons use; ``joker`` is true when the banked game's joker
    is in the hand, which wins an otherwise exact tie (H3).

    ``position`` places the category: the evaluator gives the one of the game's ranking
    (:mod:`rules.hands.ranking`); by default it is the category's place in
    :data:`~rules.hands.ALL_CATEGORIES`. Values of one game compare; values of games ranked
    differently (a stripped deck against a full one) do not mean anything against each other.

    >>> from rules.hands import evaluate
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

    def __init__(self, category: str, ranks: tuple[int, ...], joker: bool = False,
                 position: int | None = None) -> None:
        strength = _DEFAULT_POSITION[category] if position is None else position
        for i in range(5):
            strength = strength * 16 + (ranks[i] if i < len(ranks) else 0)
        object.__setattr__(self, "strength", strength * 2 + joker)
        object.__setattr__(self, "category", category)
        object.__setattr__(self, "ranks", ranks)
        object.__setattr__(self, "joker", joker)

    @property
    def position(self) -> int:
        """The category's place in the game's ranking (what the strength starts with)."""
        return self.strength >> _POSITION_SHIFT

    def with_joker(self) -> HandValue:
        """The same value held with the banked game's joker (H3: it wins an exact tie)."""
        return HandValue(self.category, self.ranks, True, self.position)

    def __repr__(self) -> str:
        return f"<HandValue {self.category} {self.describe()!r}>"

    def describe(self) -> str:
        """Plain words, as a dealer would call the hand.

        >>> from rules.hands import evaluate
        >>> evaluate("As Ac Ad Ah Jk", wild="bug").describe()
        'five aces'
        >>> evaluate("Ah Kh 9h 6h 3h").describe()
        'flush, ace-king high'
        >>> evaluate("Ts Js Qs Ks As").describe()
        'royal flush'
        """
        text = _describe(self.category, self.ranks)
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
        return f"round-the-corner straight, {rank_name(r[-1])} high"
    return f"blaze, {_run(r)}"  # blaze
