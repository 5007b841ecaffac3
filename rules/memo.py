"""What a pure function of plain data gave, remembered, by a key of the data that keeps its types.

A table's setup names its profile as a mapping of options (the app stores it as JSON, the walks
write every option). Reading one checks every option (:func:`rules.profiles.get_profile`): a fifth
of a millisecond that every replay, every snapshot resumed and every random walk paid again for the
same few mappings (issue 34). A profile is an immutable value, so the one read first is the one
every later reading would give; a refusal is not remembered (it is said again each time).

The key of two values is the same only when they are equal with the same types throughout, in the
same order: ``True`` is not ``1`` nor a tuple a list, where Python's equality would let them pass.
Floats are not remembered (``-0.0 == 0.0``, but they print apart), nor anything but texts, whole
numbers, true and false, None, and lists, tuples and mappings of them.

>>> plain_key({"blinds": [5, 10], "straddle": True}) == plain_key({"blinds": [5, 10], "straddle": True})
True
>>> plain_key({"ante_deals": 1}) == plain_key({"ante_deals": True}), plain_key([5, 10]) == plain_key((5, 10))
(False, False)
>>> plain_key({"rake": {"percent": 2.5}}) is None
True
>>> memory: dict = {}
>>> remembered(memory, [1, 2], sum), remembered(memory, [1, 2], len), remembered(memory, [1.0, 2], len)
(3, 3, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

__all__ = ["plain_key", "remembered"]

_V = TypeVar("_V")
_SCALARS = frozenset({str, int, bool, type(None)})
#: How many values one memory keeps; full, it starts again (a process meets a few profiles).
SIZE = 256


def plain_key(value: Any) -> Hashable | None:
    """A hashable key of ``value``, the same for two values only when they are equal with the
    same types throughout; None when ``value`` holds something else than plain data (see above)."""
    try:
        return _key(value)
    except TypeError:
        return None


def _key(value: Any) -> Hashable:
    kind = type(value)
    if kind in _SCALARS:
        return kind, value
    if isinstance(value, Mapping):
        return kind, tuple((_key(k), _key(v)) for k, v in value.items())
    if kind is list or kind is tuple:
        return kind, tuple(_key(v) for v in value)
    raise TypeError(f"not remembered: a {kind.__name__}")


def remembered(memory: dict[Hashable, _V], value: Any, compute: Callable[[Any], _V]) -> _V:
    """``compute(value)``, or what it gave for the same plain data before (kept in ``memory``).
    ``compute`` must be pure and its result immutable: every caller shares it."""
    key = plain_key(value)
    if key is None:
        return compute(value)
    found = memory.get(key)
    if found is None:
        if len(memory) >= SIZE:
            memory.clear()
        found = memory[key] = compute(value)
    return found
