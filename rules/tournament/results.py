"""Eliminations, places and prizes.

**Places.** A player with no chips and no claim once a pot is won is out (docs/contract.md,
"Tournaments"). Players out are listed in the order they went out, grouped by the hand that put them out
(:class:`Bust`). With ``n`` players in the event before a hand, the ``b`` players it puts out take
places ``n - b + 1`` to ``n``: the one who began that hand with more chips finishes higher; players
who began it with equal chips tie and share the places they span (each is given the best of
them). When one player is left, that player is first.

**Prizes.** The prize pool is every buy-in, rebuy and add-on paid (fees aside). The payout table's
percentages are applied to it in whole units: place ``i`` gets ``floor(pool * p_i / P)`` where ``P``
is the sum of the percentages of the places paid (a table that pays more places than there are
entries pays only as many places as entries, and their percentages are scaled up to the whole
pool). **Odd units**: what rounding down leaves over (fewer units than places paid) goes one unit
each to the places from first place down. So the prizes always sum to the pool exactly.
Players tied for places share the sum of those places' prizes equally; the odd units of that
share go one each to the tied players in the order they were listed (the app lists them in the order
they entered the event).

>>> pay(1000, [Fraction(50), Fraction(30), Fraction(20)])
(500, 300, 200)
>>> pay(101, [Fraction(50), Fraction(30), Fraction(20)])
(51, 30, 20)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules import IllegalAction

__all__ = ["Bust", "places", "pay", "prizes", "prize_pool"]


@dataclass(frozen=True)
class Bust:
    """The players one hand put out: (player, chips at the start of that hand), in the caller's order."""

    players: tuple[tuple[str, int], ...]
    #: Out in the same hand-for-hand round at different tables: they tie whatever their chips,
    #: sharing the places they span (the project's house rule: docs/tournament.md, "The tournament
    #: desk (issue 21)").
    shared: bool = False


def places(entries: Sequence[str], busts: Sequence[Bust]) -> dict[str, int]:
    """Place of every player decided so far (a player still in has none until one is left).

    >>> places(["A", "B", "C", "D"], [Bust((("D", 50),)), Bust((("B", 300), ("C", 200)))])
    {'D': 4, 'B': 2, 'C': 3, 'A': 1}
    >>> places(["A", "B", "C", "D"], [Bust((("B", 100), ("C", 100)))])
    {'B': 3, 'C': 3}
    >>> places(["A", "B", "C", "D"], [Bust((("B", 300), ("C", 100)), shared=True)])
    {'B': 3, 'C': 3}
    """
    left = len(entries)
    known = set(entries)
    out: dict[str, int] = {}
    for bust in busts:
        for player, _chips in bust.players:
            if player not in known:
                raise IllegalAction(f"eliminations: {player} is not an entry of the event")
            if player in out:
                raise IllegalAction(f"eliminations: {player} is already out")
        ordered = sorted(bust.players, key=lambda pc: -pc[1])
        worst = left - len(ordered) + 1  # the best place this hand's players can take
        place = worst
        for i, (player, chips) in enumerate(ordered):
            if i and chips != ordered[i - 1][1] and not bust.shared:
                place = worst + i
            out[player] = place
        left -= len(ordered)
    standing = [p for p in entries if p not in out]
    if len(standing) == 1 and busts:
        out[standing[0]] = 1
    return out


def pay(pool: int, percents: Sequence[Fraction], paid_places: int | None = None) -> tuple[int, ...]:
    """The prize of each place paid (first place first), summing to ``pool`` exactly.

    >>> pay(100, [Fraction(60), Fraction(30), Fraction(10)], paid_places=2)
    (67, 33)
    """
    if pool < 0:
        raise IllegalAction("payouts: the prize pool may not be negative")
    used = list(percents[:paid_places] if paid_places is not None else percents)
    if not used:
        return ()
    total = sum(used)
    base = [int(pool * p / total) for p in used]  # floor: every term is >= 0
    odd = pool - sum(base)
    for i in range(odd):
        base[i % len(base)] += 1
    return tuple(base)


def prizes(entries: Sequence[str], placed: Mapping[str, int], percents: Sequence[Fraction],
           pool: int) -> dict[str, int]:
    """Each placed player's prize (0 where the place is not paid); tied players share.

    >>> prizes(["A", "B", "C", "D"], {"A": 1, "B": 2, "C": 2, "D": 4}, [Fraction(50), Fraction(30), Fraction(20)], 101)
    {'A': 51, 'B': 25, 'C': 25, 'D': 0}
    """
    table = pay(pool, percents, paid_places=min(len(percents), len(entries)))
    by_place: dict[int, list[str]] = {}
    for player in entries:
        if player in placed:
            by_place.setdefault(placed[player], []).append(player)
    out: dict[str, int] = {}
    for place, players in sorted(by_place.items()):
        share = sum(table[i] for i in range(place - 1, place - 1 + len(players)) if i < len(table))
        each, odd = divmod(share, len(players))
        for i, player in enumerate(players):
            out[player] = each + (1 if i < odd else 0)
    return {p: out[p] for p in entries if p in out}


def prize_pool(buy_in: int, entries: int, rebuy_price: int = 0, rebuys: int = 0,
               add_on_price: int = 0, add_ons: int = 0) -> int:
    """Every buy-in, rebuy and add-on paid, in money units (the fee is the house's, not the pool's).

    >>> prize_pool(50, 20, rebuy_price=50, rebuys=3)
    1150
    """
    return buy_in * entries + rebuy_price * rebuys + add_on_price * add_ons
