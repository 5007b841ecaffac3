"""Deal-making among the players left: the chip chop and the ICM chop (issue 21).

What is shared is what is left to pay: the prizes of the places not yet given (the places of the
players still in). The players agree a deal; the app then pays what was agreed instead of those
places (the results show it).

* **Chip chop** (``chip``): each player is first given the smallest prize still to pay (a player
  is never offered less than the place already locked up), and the rest is shared in proportion
  to the chips. This is the chip chop as card rooms write it on the deal sheet; a pure
  proportional split can pay a short stack less than the place it has made.
* **ICM** (``icm``, the Malmuth-Harville model): a player's chance of finishing first is the
  share of the chips; given who finished above, the chance of the next place is the share of the
  chips of those left. A player's equity is the sum over the places of the chance of that place
  times its prize. Computed exactly (fractions), over every order of finish.

Both give whole units summing exactly to what is left to pay: each is rounded down, then the units
left over go one each to the largest remainders (ties: the bigger stack, then the order given).

>>> chip_chop({"Ann": 6000, "Bob": 4000}, [700, 300])
{'Ann': 540, 'Bob': 460}
>>> icm_chop({"Ann": 5000, "Bob": 3000, "Cy": 2000}, [50, 30, 20])
{'Ann': 38, 'Bob': 33, 'Cy': 29}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from fractions import Fraction
from functools import cache

from rules import IllegalAction

__all__ = ["ChopMethod", "icm_equities", "icm_chop", "chip_chop", "chop", "whole_units"]


class ChopMethod(StrEnum):
    CHIP = "chip"
    ICM = "icm"


def _check(stacks: Mapping[str, int], prizes: Sequence[int]) -> None:
    if len(stacks) < 2:
        raise IllegalAction("deal: a deal needs two players or more still in")
    if any(s <= 0 for s in stacks.values()):
        raise IllegalAction("deal: every player in the deal has chips")
    if len(prizes) != len(stacks):
        raise IllegalAction(f"deal: {len(stacks)} players share the {len(stacks)} places left, not {len(prizes)}")
    if any(p < 0 for p in prizes):
        raise IllegalAction("deal: a prize may not be negative")


def icm_equities(stacks: Mapping[str, int], prizes: Sequence[int]) -> dict[str, Fraction]:
    """Each player's exact ICM equity (prizes: first place first, one per player).

    >>> e = icm_equities({"A": 1, "B": 1}, [3, 1]); e["A"], e["B"]
    (Fraction(2, 1), Fraction(2, 1))
    """
    _check(stacks, prizes)
    names = list(stacks)
    chips = [Fraction(stacks[n]) for n in names]
    pay = [Fraction(p) for p in prizes]

    @cache
    def equity(left: frozenset[int], place: int) -> tuple[Fraction, ...]:
        """Equity of each player (by index) among ``left`` for places ``place`` onwards."""
        out = [Fraction(0)] * len(names)
        if not left:
            return tuple(out)
        total = sum(chips[i] for i in left)
        for i in left:
            p = chips[i] / total
            out[i] += p * pay[place]
            rest = equity(left - {i}, place + 1)
            for j in left - {i}:
                out[j] += p * rest[j]
        return tuple(out)

    result = equity(frozenset(range(len(names))), 0)
    return {n: result[i] for i, n in enumerate(names)}


def whole_units(shares: Mapping[str, Fraction], total: int, stacks: Mapping[str, int]) -> dict[str, int]:
    """Exact shares to whole units summing to ``total``: round down, then one unit each to the
    largest remainders (ties: the bigger stack, then the order given).

    >>> whole_units({"A": Fraction(10, 3), "B": Fraction(10, 3), "C": Fraction(10, 3)}, 10, {"A": 1, "B": 3, "C": 2})
    {'A': 3, 'B': 4, 'C': 3}
    """
    base = {n: int(v) for n, v in shares.items()}  # floor: shares are >= 0
    odd = total - sum(base.values())
    order = sorted(shares, key=lambda n: (-(shares[n] - base[n]), -stacks[n], list(shares).index(n)))
    for n in order[:odd]:
        base[n] += 1
    return base


def icm_chop(stacks: Mapping[str, int], prizes: Sequence[int]) -> dict[str, int]:
    """The ICM deal in whole units, summing to the prizes left."""
    return whole_units(icm_equities(stacks, prizes), sum(prizes), stacks)


def chip_chop(stacks: Mapping[str, int], prizes: Sequence[int]) -> dict[str, int]:
    """The chip chop: the smallest prize left to each, the rest by chips, in whole units.

    >>> chip_chop({"A": 1, "B": 1, "C": 8}, [50, 30, 20])
    {'A': 24, 'B': 24, 'C': 52}
    """
    _check(stacks, prizes)
    floor_ = min(prizes)
    rest = sum(prizes) - floor_ * len(prizes)
    total = sum(stacks.values())
    shares = {n: floor_ + Fraction(rest * s, total) for n, s in stacks.items()}
    return whole_units(shares, sum(prizes), stacks)


def chop(method: str, stacks: Mapping[str, int], prizes: Sequence[int]) -> dict[str, int]:
    """The deal by ``method`` (``chip`` or ``icm``)."""
    if method == ChopMethod.CHIP:
        return chip_chop(stacks, prizes)
    if method == ChopMethod.ICM:
        return icm_chop(stacks, prizes)
    raise IllegalAction(f"deal: method {method!r} is not one of chip, icm")
