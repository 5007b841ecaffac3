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
>>> chips(2**63, "starting_chips")
Traceback (most recent call last):
...
rules.IllegalAction: starting_chips: at most 1000000000 chips, not 9223372036854775808
>>> seat("\u0661")  # an Arabic-Indic one: int() reads it, a card room's numbers are ASCII
Traceback (most recent call last):
...
rules.IllegalAction: seat: '١' is not a seat number
"""

from __future__ import annotations

import re
from typing import Any

from rules import IllegalAction, RulesError
from rules.bounds import CHIPS_MAX, WHOLE_MAX

__all__ = ["seat", "chips", "whole", "signed", "player", "NAME_MAX"]

#: The longest player name a seat takes (names in any script; the pages wrap them).
NAME_MAX = 80

# ASCII digits only: re's \d (and int()) also read "١", and a number no column holds
_DIGITS = re.compile(r"\s*[0-9]{1,19}\s*")
_SIGNED = re.compile(r"\s*-?[0-9]{1,19}\s*")


def whole(value: Any, what: str, error: type[RulesError] = IllegalAction) -> int:
    """A whole number, 0 or more, from an int or a string of digits.

    >>> whole(True, "count")
    Traceback (most recent call last):
    ...
    rules.IllegalAction: count: True is not a whole number
    """
    if isinstance(value, bool):
        raise error(f"{what}: {value!r} is not a whole number")
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        value = int(value)
    if isinstance(value, int) and 0 <= value <= WHOLE_MAX:
        return value
    raise error(f"{what}: {value!r:.40} is not a whole number")


def signed(value: Any, what: str, error: type[RulesError] = IllegalAction) -> int:
    """A whole number that may be negative (a correction gives chips as well as taking them).

    >>> signed("-40", "amount"), signed(7, "amount")
    (-40, 7)
    """
    if isinstance(value, bool):
        raise error(f"{what}: {value!r} is not a whole number of chips")
    if isinstance(value, str) and _SIGNED.fullmatch(value):
        value = int(value)
    if isinstance(value, int):
        if abs(value) > CHIPS_MAX:
            raise error(f"{what}: at most {CHIPS_MAX} chips either way, not {value}")
        return value
    raise error(f"{what}: {value!r:.40} is not a whole number of chips")


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
        raise error(f"{what}: {value!r:.40} is not a seat number")
    number = int(value)
    if number < 1:
        raise error(f"{what}: seats are numbered from 1, not {number}")
    if number > WHOLE_MAX:
        raise error(f"{what}: {number} is not a seat number")
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
        raise error(f"{what}: {need}, not {value!r:.40}")
    if value > CHIPS_MAX:
        raise error(f"{what}: at most {CHIPS_MAX} chips, not {value}")
    return value


def player(value: Any, player_id: Any, what: str) -> tuple[str, int | None]:
    """A seat's player: a name, or ``{"id": n, "name": ...}`` (the card room's player record, issue
    31), with the record's id also taken as a separate ``player_id``; the name (spaces folded) and
    the id, or None for a name alone. A record named by its id alone is called "player #n" (the app
    writes the record's name in before the rules read it).

    >>> player(" Ann  Lee ", None, "sit"), player({"id": "7", "name": "Bo"}, None, "sit")
    (('Ann Lee', None), ('Bo', 7))
    >>> player({"id": 3}, None, "sit"), player("Cy", 4, "sit")
    (('player #3', 3), ('Cy', 4))
    >>> player("", None, "sit")
    Traceback (most recent call last):
    ...
    rules.IllegalAction: sit: give the player's name (player) or their record ({"id": n})
    """
    if isinstance(value, dict):
        if value.get("id") is None:
            raise IllegalAction(f'{what}: a player given as a record is {{"id": n}}')
        player_id = value["id"]
        value = value.get("name") or f"player #{whole(player_id, f'{what}: player id')}"
    if not isinstance(value, str) or not value.strip():
        raise IllegalAction(f'{what}: give the player\'s name (player) or their record ({{"id": n}})')
    if len(value.strip()) > NAME_MAX:
        raise IllegalAction(f"{what}: a player's name is at most {NAME_MAX} characters")
    if player_id is None:
        return " ".join(value.split()), None
    number = whole(player_id, f"{what}: player id")
    if number < 1:
        raise IllegalAction(f"{what}: a player id is 1 or more, not {number}")
    return " ".join(value.split()), number
