"""One reading of a whole number a client sends, wherever it comes from (issue 30).

A number reaches the app as JSON (an int, or a float such as ``1e999``: infinity), as text in a
query string, a form or a path. Python's own readings accept more than a card room's numbers are:
``"³".isdigit()`` is true (and ``int("³")`` then fails), ``int("١")`` is 1 (an Arabic-Indic digit),
``int(1e999)`` overflows, and a number beyond 64 bits overflows the database driver. Each of those
answered 500 somewhere. :func:`whole` reads them all one way: ASCII digits only (an optional sign
where negatives are allowed), within bounds the caller names, and never more than a 64-bit column
holds; anything else is :class:`BadNumber` (a ``ValueError``) naming the field, answered 4xx.

>>> whole("12", "seat", 1, 20), whole(7, "seat", 1, 20)
(12, 7)
>>> whole("³", "deal")
Traceback (most recent call last):
...
floor.inputs.BadNumber: deal must be a whole number from 0 to 9223372036854775807, not '³'
>>> whole("١", "deal", 1)
Traceback (most recent call last):
...
floor.inputs.BadNumber: deal must be a whole number from 1 to 9223372036854775807, not '١'
>>> whole(1e999, "seats")
Traceback (most recent call last):
...
floor.inputs.BadNumber: seats must be a whole number from 0 to 9223372036854775807, not inf
>>> whole(str(2**63), "table", 1)
Traceback (most recent call last):
...
floor.inputs.BadNumber: table must be a whole number from 1 to 9223372036854775807, not '9223372036854775808'
>>> whole("-3", "change", -10)
-3
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = ["ID_MAX", "BadNumber", "whole", "whole_or_none", "is_whole", "ascii_int", "select_choices"]

#: What a 64-bit database column (an id, a version, a sequence number) holds.
ID_MAX = 2**63 - 1

_DIGITS = re.compile(r"[+-]?[0-9]{1,19}")


class BadNumber(ValueError):
    """A number that is not a whole number within its bounds (the message names the field)."""


def whole(raw: Any, what: str, low: int = 0, high: int = ID_MAX) -> int:
    """``raw`` (an int, or text of ASCII digits) as a whole number from ``low`` to ``high``, else
    :class:`BadNumber`. A boolean is no number; ``high`` never exceeds :data:`ID_MAX`."""
    high = min(high, ID_MAX)
    value: int | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw
    elif isinstance(raw, str) and _DIGITS.fullmatch(raw.strip()) and (low < 0 or not raw.strip().startswith("-")):
        value = int(raw.strip())
    if value is None or not low <= value <= high:
        shown = raw[:40] if isinstance(raw, str) else raw
        raise BadNumber(f"{what} must be a whole number from {low} to {high}, not {shown!r}")
    return value


def whole_or_none(raw: Any, what: str, low: int = 0, high: int = ID_MAX) -> int | None:
    """:func:`whole`, or None when ``raw`` is absent (None or empty text)."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    return whole(raw, what, low, high)


def is_whole(text: Any, low: int = 0, high: int = ID_MAX) -> bool:
    """Whether :func:`whole` reads ``text``.

    >>> is_whole("42"), is_whole("³"), is_whole("١"), is_whole(""), is_whole(str(2**64))
    (True, False, False, False, False)
    """
    try:
        whole(text, "", low, high)
    except BadNumber:
        return False
    return True


def ascii_int(value: Any) -> int:
    """A form's ``coerce`` for a select of ids: :func:`whole` (a ``ValueError`` WTForms reports)."""
    return whole(value, "choice", 0)


def select_choices(pairs: Iterable[tuple[Any, str]]) -> list[Any]:
    """(value, label) pairs as a form's SelectField takes them: WTForms 3.3 wants SelectChoice (its
    tuples are deprecated), an older WTForms the tuples."""
    try:
        from wtforms.fields.choices import SelectChoice
    except ImportError:  # pragma: no cover - WTForms before 3.3
        return list(pairs)
    return [SelectChoice(value, label) for value, label in pairs]
