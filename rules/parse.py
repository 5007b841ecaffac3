"""Reading numbers at the edge: seats, chips and counts, one parser each, used everywhere.

Events, setups, rulings and the decision tree's facts all come from JSON or a form, where a seat may
arrive as ``3`` or ``"3"``. These functions read them once and say plainly what was wrong; the error
class is the caller's (an event the table refuses is an :class:`rules.IllegalAction`, a fact the tree
cannot read a :class:`rules.RulesError`).

>>> seat("07"), chips(" 25 ", "ante"), whole("5", "count")
(7, 25, 5)
>>> seat("four")
Traceback (most recent call last):
...
rules.IllegalAction: seat: 'four' is not a seat number
>>> chips(-5, "stack")
Traceback (most recent call last):
...
rules.IllegalAction: stack: a whole number of chips, 0 or more, not -5
"""

from __future__ import annotations

import re
from typing import Any

from rules import IllegalAction, RulesError

__all__ = ["seat", "chips", "whole", "signed"]

_DIGITS = re.compile(r"\s*\d+\s*")
_SIGNED = re.compile(r"\s*-?\d+\s*")


def whole(value: Any, what: str, error: type[RulesError] = IllegalAction) -> int:
    """A whole number, 0 or more, from an int or a string of digits.

    >>> whole(True, "count")
    Traceback (most recent call last):
    ...
    rules.IllegalAction: count: True is not a whole number
    """
    if isinstance(value, bool):
        raise error(f"{what}: {value!r} is not a whole number")
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        return int(value)
    raise error(f"{what}: {value!r} is not a whole number")


def signed(value: Any, what: str, error: type[RulesError] = IllegalAction) -> int:
    """A whole number that may be negative (a correction gives chips as well as taking them).

    >>> signed("-40", "amount"), signed(7, "amount")
    (-40, 7)
    """
    if isinstance(value, bool):
        raise error(f"{what}: {value!r} is not a whole number of chips")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _SIGNED.fullmatch(value):
        return int(value)
    raise error(f"{what}: {value!r} is not a whole number of chips")


def seat(value: Any, what: str = "seat", error: type[RulesError] = IllegalAction) -> int:
    """A seat number, from 1 up.

    >>> seat(0)
    Traceback (most recent call last):
    ...
    rules.IllegalAction: seat: seats are numbered from 1, not 0
    """
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise error(f"{what}: {value!r} is not a seat number")
    if isinstance(value, str) and not _DIGITS.fullmatch(value):
        raise error(f"{what}: {value!r} is not a seat number")
    number = int(value)
    if number < 1:
        raise error(f"{what}: seats are numbered from 1, not {number}")
    return number


def chips(value: Any, what: str, positive: bool = False, error: type[RulesError] = IllegalAction) -> int:
    """A number of chips: 0 or more, or above 0 when ``positive``.

    >>> chips(0, "small_bet", positive=True)
    Traceback (most recent call last):
    ...
    rules.IllegalAction: small_bet: a whole number of chips above 0, not 0
    """
    need = "a whole number of chips above 0" if positive else "a whole number of chips, 0 or more"
    if isinstance(value, bool):
        raise error(f"{what}: {need}, not {value!r}")
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        value = int(value)
    if not isinstance(value, int) or value < (1 if positive else 0):
        raise error(f"{what}: {need}, not {value!r}")
    return value
