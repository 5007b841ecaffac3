"""Side pots by contribution, and splitting a pot between tied hands.

A jackpot can live through several deals (O3, O4). What each seat has put into it over all those
deals (antes and bets, after any chips a ruling handed back) is its *claim*: a seat competes for a
layer of the pot only up to what it put in. A player all in for the ante keeps a claim on what the
ante bought (O6), nothing more.

>>> [p.to_dict() for p in side_pots({1: 5, 2: 25, 3: 25}, contenders=(1, 2, 3), all_in=(1,))]
[{'amount': 15, 'eligible': [1, 2, 3]}, {'amount': 40, 'eligible': [2, 3]}]

Only an all-in seat caps a layer: a bet the others have not called yet is no side pot, they may
still call it.

>>> [p.to_dict() for p in side_pots({1: 5, 2: 25, 3: 25}, contenders=(1, 2, 3))]
[{'amount': 55, 'eligible': [1, 2, 3]}]

Chips of seats that no longer contend (folded, dead, barred) stay in the layers they reached:

>>> [p.to_dict() for p in side_pots({1: 25, 2: 5, 3: 25}, contenders=(2, 3), all_in=(2,))]
[{'amount': 15, 'eligible': [2, 3]}, {'amount': 40, 'eligible': [3]}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Pot", "side_pots", "split_amount"]


@dataclass(frozen=True)
class Pot:
    """One pot: its chips and the seats that may win it (in seat order)."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {"amount": self.amount, "eligible": list(self.eligible)}


def side_pots(put: Mapping[int, int], contenders: Iterable[int], all_in: Iterable[int] = ()) -> list[Pot]:
    """The main pot and side pots, layered at what each all-in contender put in.

    A contender who is not all in may still put in more, so only the all-in seats' claims (and the
    largest contender's, at the top) bound a layer.

    Chips above the largest contender's claim (a dead or folded seat that put in more) join the
    last layer, so the pots always add up to everything put in.

    >>> side_pots({1: 10, 2: 10}, contenders=())
    [Pot(amount=20, eligible=())]
    >>> side_pots({}, contenders=(1, 2))
    []
    >>> [p.amount for p in side_pots({1: 30, 2: 10, 3: 20}, contenders=(2,))]
    [60]
    >>> [p.to_dict() for p in side_pots({1: 15, 2: 5, 3: 5}, contenders=(1, 2, 3))]  # a carried pot
    [{'amount': 25, 'eligible': [1, 2, 3]}]
    >>> [p.to_dict() for p in side_pots({1: 10, 2: 20, 3: 30}, contenders=(1, 2, 3), all_in=(1, 2))]
    [{'amount': 30, 'eligible': [1, 2, 3]}, {'amount': 20, 'eligible': [2, 3]}, {'amount': 10, 'eligible': [3]}]
    """
    total = sum(put.values())
    if total == 0:
        return []
    order = sorted(set(contenders))
    capped = set(all_in) & set(order)
    if not capped and min(put.values()) >= 0:
        # nobody all in: the one layer below, up to the largest contender's claim, with what is above it
        return [Pot(total, tuple(order))]
    top = max((put.get(s, 0) for s in order), default=0)
    levels = sorted({put.get(s, 0) for s in capped if put.get(s, 0) > 0} | ({top} if top > 0 else set()))
    if not levels:
        return [Pot(total, tuple(order))]
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(p, level) - min(p, previous) for p in put.values())
        # A contender who is not all in can still match any layer; an all-in one only reaches its own.
        eligible = tuple(s for s in order if s not in capped or put.get(s, 0) >= level)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        previous = level
    above = sum(max(0, p - previous) for p in put.values())
    if above:
        pots[-1] = Pot(pots[-1].amount + above, pots[-1].eligible)
    return pots


def split_amount(amount: int, winners: Sequence[int], clockwise_from_button: Sequence[int]) -> dict[int, int]:
    """Share ``amount`` between tied ``winners``; odd chips go one each to the winners nearest the
    button's left (the project's choice: the sources are silent).

    ``clockwise_from_button`` lists the seats starting left of the button.

    >>> split_amount(25, [4, 2], clockwise_from_button=[3, 4, 1, 2])
    {4: 13, 2: 12}
    >>> split_amount(30, [1], clockwise_from_button=[2, 1])
    {1: 30}
    """
    order = [s for s in clockwise_from_button if s in winners] + [s for s in winners if s not in clockwise_from_button]
    share, odd = divmod(amount, len(order))
    return {s: share + (1 if i < odd else 0) for i, s in enumerate(order)}
