"""The chip race (colour-up): when a structure's ``color_up`` level begins, the smallest chip
(``chip``) leaves the tables. How the card rooms run it, as the project applies it to stack totals:

* Each player's chips worth less than the next chip in play (``to``) are the odd chips: the stack
  modulo ``to``. The rest is exchanged as it is.
* The odd chips of everyone at the table add up to a number of new chips: ``total // to``, one
  more when what is left over is half a new chip or more (rounded half up).
* The race: each odd chip is dealt a card, face up; the highest card wins one new chip for its
  owner, then the next highest of another player, and so on: a player wins at most one chip in the
  race, until the new chips are given. The cards are a random order of the odd chips (the caller's
  random source: the app's is cryptographic).
* Nobody is raced out: a player whose only chips were odd chips and who wins none is given one new
  chip (the card rooms' rule: a player with chips keeps a stake).

The table's chips change by the rounding: the app logs each change as a floor ``correction``
against the house, so the conservation law holds.

>>> import random
>>> r = race({"Ann": 1005, "Bob": 990, "Cy": 20}, chip=5, to=25, rng=random.Random(7))
>>> r.odd, r.new_chips
({'Ann': 5, 'Bob': 15, 'Cy': 20}, 2)
>>> sorted(r.winners), r.stacks["Cy"] > 0, all(v % 25 == 0 for v in r.stacks.values())
(['Bob', 'Cy'], True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import reduce

from rules import IllegalAction

__all__ = ["Race", "race", "next_chip"]


@dataclass(frozen=True)
class Race:
    """The race at one table: each player's odd chips (in value), how many new chips the race gave,
    who won one, who was given one so as not to be raced out, and the stacks after."""

    chip: int
    to: int
    odd: dict[str, int]
    new_chips: int
    winners: tuple[str, ...]
    kept_in: tuple[str, ...]
    stacks: dict[str, int]

    def changes(self, before: Mapping[str, int]) -> dict[str, int]:
        """Each player's change of stack (only those that change)."""
        return {p: self.stacks[p] - before[p] for p in before if self.stacks[p] != before[p]}


def next_chip(chip: int, ante: int, small_bet: int, big_bet: int) -> int:
    """The chip the odd chips race for: the unit the level's stakes are counted in (the greatest
    common divisor of the ante, the small and big bets), which must be a multiple of the chip
    leaving and above it.

    >>> next_chip(5, 25, 50, 100), next_chip(25, 100, 200, 400)
    (25, 100)
    >>> next_chip(25, 30, 60, 120)
    Traceback (most recent call last):
    ...
    rules.IllegalAction: colour-up: the level's stakes (30/60/120) are not counted in chips of more than 25
    """
    unit = reduce(math.gcd, [x for x in (ante, small_bet, big_bet) if x])
    if unit <= chip or unit % chip:
        raise IllegalAction(f"colour-up: the level's stakes ({ante}/{small_bet}/{big_bet}) are not counted in "
                            f"chips of more than {chip}")
    return unit


def race(stacks: Mapping[str, int], chip: int, to: int, rng: random.Random) -> Race:
    """The race among ``stacks`` (player -> chips) as the module describes."""
    if to <= chip or to % chip:
        raise IllegalAction(f"colour-up: the new chip ({to}) is a multiple of the one leaving ({chip})")
    odd = {p: s % to for p, s in stacks.items()}
    total = sum(odd.values())
    new_chips = total // to + (1 if 2 * (total % to) >= to and total % to else 0)
    cards = [p for p, v in odd.items() for _ in range(math.ceil(v / chip))]
    rng.shuffle(cards)  # the order of the cards dealt, highest first
    winners: list[str] = []
    for p in cards:
        if len(winners) == new_chips:
            break
        if p not in winners:
            winners.append(p)
    after = {p: s - odd[p] + (to if p in winners else 0) for p, s in stacks.items()}
    kept_in = tuple(p for p, s in stacks.items() if s > 0 and after[p] == 0)
    for p in kept_in:
        after[p] = to
    return Race(chip, to, odd, new_chips, tuple(winners), kept_in, after)
