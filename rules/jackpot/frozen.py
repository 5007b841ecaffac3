"""Read-only plain data: a record the engine keeps and hands out as it is, with no copy.

A ruling is recorded once (:mod:`rules.jackpot.irregularities`) and then read by everyone: the
state's ``to_dict()``, the app that stores it as JSON, the reports. Handing out the state's own
dicts would let one reader change what every later state shows; copying them deeply on every
``to_dict()`` cost a sixth of a random walk's CPU (issue 34). :func:`freeze` turns a record into
values that refuse to change, so that they are shared, never copied.

:class:`FrozenDict` and :class:`FrozenList` are ``dict`` and ``list`` underneath: they compare
equal to the plain values, ``json.dumps`` writes them as it writes those, and ``dict(x)`` or
``list(x)`` gives a plain copy to change. Tuples stay tuples (their items frozen), scalars are left
as they are.

>>> record = freeze({"outcome": "OPENER_DEAD", "dead": [3], "facts": {"hands": {2: ["Ks"]}}})
>>> record == {"outcome": "OPENER_DEAD", "dead": [3], "facts": {"hands": {2: ["Ks"]}}}
True
>>> import json; json.dumps(record)
'{"outcome": "OPENER_DEAD", "dead": [3], "facts": {"hands": {"2": ["Ks"]}}}'
>>> record["facts"]["hands"][2].append("Qs")
Traceback (most recent call last):
...
TypeError: a recorded value is read-only: copy it (list(x), dict(x)) to change it
>>> mine = dict(record); mine["outcome"] = "REOPENED"; record["outcome"]
'OPENER_DEAD'
"""

from __future__ import annotations

import copy
from typing import Any, NoReturn

__all__ = ["FrozenDict", "FrozenList", "freeze"]

_SAY = "a recorded value is read-only: copy it (list(x), dict(x)) to change it"


def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError(_SAY)


class FrozenDict(dict[Any, Any]):
    """A ``dict`` that refuses to change (build it with :func:`freeze`). A copy, shallow or deep,
    or a pickle read back, is a plain ``dict``: whoever copies means to change their copy."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return dict, (dict(self),)

    def __copy__(self) -> dict[Any, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[Any, Any]:
        return {copy.deepcopy(k, memo): copy.deepcopy(v, memo) for k, v in self.items()}


class FrozenList(list[Any]):
    """A ``list`` that refuses to change (build it with :func:`freeze`); copies are plain lists."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = clear = extend = insert = pop = remove = reverse = sort = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return list, (list(self),)

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [copy.deepcopy(v, memo) for v in self]


#: What comes back as it is, by exact type: the scalars a record is mostly made of (one set lookup
#: each rather than the isinstance checks below: freezing a ruling's record was 3% of a random log's
#: CPU, issue 34) and what is frozen already.
_AS_THEY_ARE = frozenset({str, int, bool, float, type(None), FrozenDict, FrozenList})


def freeze(value: Any) -> Any:
    """``value`` with every dict and list in it read-only (:class:`FrozenDict`, :class:`FrozenList`),
    tuples kept as tuples; what is frozen already comes back as it is.

    >>> freeze({"returns": {4: 10}, "path": ({"answer": "yes"},)})["path"][0]["answer"]
    'yes'
    >>> type(freeze([1, (2, [3])])[1][1]).__name__
    'FrozenList'
    """
    kind = type(value)
    if kind in _AS_THEY_ARE:
        return value
    if isinstance(value, dict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return FrozenList([freeze(v) for v in value])
    if isinstance(value, tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, (set, bytearray)):
        raise TypeError(f"freeze: a {kind.__name__} is not plain data")  # pragma: no cover - an engine bug
    return value
