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

**Bounties in a deal** (:func:`deal_bounties`; docs/money.md). A bounty already won stays with its
winner: the deal never touches it. The bounties not yet won are those on the heads of the players
in the deal (nobody knocked them out) and those nobody won (a player busted out by the floor). The
deal says what becomes of them (:class:`BountyRule`):

* ``kept`` (the default): each player in the deal takes the bounty on their own head, as the players
  left keep theirs when the event is played out; the bounties nobody won, which the champion would
  have taken, are shared by the chips: a player's chance of being champion is its share of the chips
  in the chip chop's and ICM's reading alike (adding a sum to first place adds that share of it to
  each equity), so the chips are the deal's own measure of it.
* ``shared``: every bounty not yet won, the players' own too, is shared by the chips.
* ``custom``: the players name each amount; the amounts add up to the bounties not yet won.

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

__all__ = ["ChopMethod", "BountyRule", "icm_equities", "icm_chop", "chip_chop", "chop", "whole_units",
           "deal_bounties"]


class ChopMethod(StrEnum):
    CHIP = "chip"
    ICM = "icm"


class BountyRule(StrEnum):
    """What a deal does with the bounties not yet won (see the module's docstring)."""

    KEPT = "kept"
    SHARED = "shared"
    CUSTOM = "custom"


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


def by_chips(total: int, stacks: Mapping[str, int]) -> dict[str, int]:
    """``total`` shared in proportion to the chips, in whole units (:func:`whole_units`).

    >>> by_chips(10, {"A": 5000, "B": 3000, "C": 2000})
    {'A': 5, 'B': 3, 'C': 2}
    """
    chips = sum(stacks.values())
    return whole_units({p: Fraction(total * s, chips) for p, s in stacks.items()}, total, stacks)


def deal_bounties(stacks: Mapping[str, int], bounty: int, unclaimed: int, rule: str = BountyRule.KEPT,
                  custom: Mapping[str, object] | None = None) -> dict[str, int]:
    """The bounties a deal pays each player in it (``stacks``: the players and their chips), besides
    the bounties they have already won: ``bounty`` is on each of their heads, ``unclaimed`` is what
    nobody won. The amounts sum to ``bounty * len(stacks) + unclaimed``.

    >>> deal_bounties({"Ann": 6000, "Bob": 4000}, 20, 10)
    {'Ann': 26, 'Bob': 24}
    >>> deal_bounties({"Ann": 6000, "Bob": 4000}, 20, 10, "shared")
    {'Ann': 30, 'Bob': 20}
    >>> deal_bounties({"Ann": 6000, "Bob": 4000}, 20, 10, "custom", {"Ann": 25, "Bob": 20})
    Traceback (most recent call last):
    ...
    rules.IllegalAction: deal: the bounties add up to 45; the bounties not yet won are 50
    """
    _check(stacks, [0] * len(stacks))
    if bounty < 0 or unclaimed < 0:
        raise IllegalAction("deal: a bounty may not be negative")
    total = bounty * len(stacks) + unclaimed
    if rule == BountyRule.KEPT:
        shared = by_chips(unclaimed, stacks)
        return {p: bounty + shared[p] for p in stacks}
    if rule == BountyRule.SHARED:
        return by_chips(total, stacks)
    if rule == BountyRule.CUSTOM:
        given = dict(custom or {})
        out: dict[str, int] = {}
        for p in stacks:
            value = given.get(p)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise IllegalAction(f"deal: {p}'s bounty is a whole amount, 0 or more, not {value!r}")
            out[p] = value
        if sum(out.values()) != total:
            raise IllegalAction(f"deal: the bounties add up to {sum(out.values())}; the bounties not yet won are {total}")
        return out
    raise IllegalAction(f"deal: bounties {rule!r} is not one of {', '.join(BountyRule)}")
