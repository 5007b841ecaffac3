"""The bounds of a house-rules file: values no card room plays are refused, naming the bound.

A profile's type checks (:func:`rules.profiles._check`) say what kind of value an option takes; the
bounds here say how far a card room goes. They are one block of data so that a new option adds a
line, and one check, :func:`check`, that :func:`rules.profiles.get_profile` calls on the options a
profile sets. Decisions (the seed texts give no upper limits; these are generous for any room):

- ``raise_cap``: 1 to 10 raises in a betting round (the survey's "a bet and four raises" is the
  usual; ``none`` is the no-limit of a heads-up pot). A million raises is a typing slip.
- ``ante_deals``: 1 to 10 deals of one pot take an ante (the cardroom's cap is three).
- ``pot_limit``: antes stop at 1 to 1,000,000 chips in the pot.
- ``blinds``: each blind 1 to 1,000,000 chips.
- ``max_draw``: 0 to 5 cards (a hand has five); ``draw_rounds``: 1 to 3 draws (the players' guide).
- ``straddle``: 0 to 8 re-straddles after the straddle (O7: each twice the last, so the eighth is
  already 512 big blinds).
- ``spread``: a bet of a spread limit is 1 to 1,000 chips (D17: the tablet offers every amount of
  the spread, so a spread of a million chips would be a million choices on every tap).
- ``rake`` (issue 32): 1 to 10 percent (card rooms rake 5 or 10), a cap of 1 to 1,000,000 chips, a
  minimum pot of 0 to 1,000,000; ``time_charge``: 1 to 1,000,000 chips for a period of 5 to 240
  minutes (rooms collect every half hour or hour); ``drop``: 1 to 1,000,000 chips a pot; ``kill``:
  after 2 to 5 pots won in a row, the bets 2 to 4 times (a full kill doubles them).

>>> check({"raise_cap": 4, "max_draw": 3})
>>> check({"raise_cap": 1_000_000})
Traceback (most recent call last):
...
rules.ProfileError: raise_cap: 1000000 is more than any card room plays; at most 10 raises in a betting round (or "none" for no cap)
>>> check({"rake": {"percent": 25, "cap": 5}})
Traceback (most recent call last):
...
rules.ProfileError: rake.percent: 25 is more than any card room plays; at most 10 percent of a pot taken by the house
>>> check({"max_draw": 9})
Traceback (most recent call last):
...
rules.ProfileError: max_draw: 9 is more than any card room plays; at most 5 cards drawn (a hand has five)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from rules import ProfileError

__all__ = ["Bound", "BOUNDS", "CHIPS_MAX", "check", "words", "choices"]

#: The most chips one number of a setup, an event, a structure or a count may hold (issue 30): a
#: billion. A card room's biggest tournament stacks are millions; a day's ledger of such numbers
#: stays far inside a 64-bit column, where 2**63 chips overflowed it (a player who could never be
#: busted out).
CHIPS_MAX = 1_000_000_000
#: The largest whole number any other count read at the edge may be: what a 64-bit column holds.
WHOLE_MAX = 2**63 - 1


class Bound(NamedTuple):
    """The lowest and highest value a card room plays, and what the number counts (for the message)."""

    low: int
    high: int
    counts: str


#: option -> its bounds; a capped option's ``none`` (no cap) is not a number and not bounded.
BOUNDS: Mapping[str, Bound] = {
    "raise_cap": Bound(1, 10, 'raises in a betting round (or "none" for no cap)'),
    "ante_deals": Bound(1, 10, 'deals of one pot that take an ante (or "none": every deal antes)'),
    "pot_limit": Bound(1, 1_000_000, 'chips in the pot before the antes stop (or "none")'),
    "blinds": Bound(1, 1_000_000, "chips for a blind"),
    "max_draw": Bound(0, 5, "cards drawn (a hand has five)"),
    "draw_rounds": Bound(1, 3, "draws in one hand"),
    "straddle": Bound(0, 8, "re-straddles after the straddle (true: a straddle and none)"),
    "spread": Bound(1, 1_000, "chips for one bet of a spread limit (the least and the most)"),
    "rake.percent": Bound(1, 10, "percent of a pot taken by the house"),
    "rake.cap": Bound(1, 1_000_000, "chips the rake takes from one pot at most"),
    "rake.min_pot": Bound(0, 1_000_000, "chips in a pot before it is raked"),
    "time_charge.amount": Bound(1, 1_000_000, "chips a seat pays for a period of time"),
    "time_charge.minutes": Bound(5, 240, "minutes in a period of time collection"),
    "drop.amount": Bound(1, 1_000_000, "chips set aside from a pot for a promotion"),
    "kill.after": Bound(2, 5, "pots won in a row before a kill pot"),
    "kill.times": Bound(2, 4, "times the bets in a kill pot (2: a full kill)"),
}


def check(options: Mapping[str, Any]) -> None:
    """Refuse any option of ``options`` outside its bounds, naming the option and the bound."""
    for name, bound in BOUNDS.items():
        head, _, part = name.partition(".")
        value = options.get(head)
        if part and value is not None:  # a field of an option's table ({percent, cap, min_pot})
            value = value.get(part) if isinstance(value, Mapping) else getattr(value, part, None)
        if value is None:
            continue
        for number in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(number, bool) or not isinstance(number, int):
                continue  # the option's own type check names a value of the wrong kind
            if number > bound.high:
                raise ProfileError(f"{name}: {number} is more than any card room plays; at most {bound.high} "
                                   f"{bound.counts}")
            if number < bound.low:
                raise ProfileError(f"{name}: {number} is less than any card room plays; at least {bound.low} "
                                   f"{bound.counts}")


def words(name: str) -> str:
    """The option's bounds in words, for a rule's text or a type check's message.

    >>> words("draw_rounds")
    '1 to 3'
    """
    bound = BOUNDS[name]
    return f"{bound.low} to {bound.high}"


def choices(name: str) -> tuple[int, ...]:
    """Every value a card room plays of a short-ranged option (a form's menu offers these).

    >>> choices("draw_rounds")
    (1, 2, 3)
    """
    bound = BOUNDS[name]
    return tuple(range(bound.low, bound.high + 1))
