"""The house's money as a profile holds it (issue 32): the rake of a won pot, the time collection,
the drop for a promotion, and kill pots.

Each is a small immutable value of a profile (``Profile.rake``, ``time_charge``, ``drop``, ``kill``),
read from a table at the edge (:func:`read_rake`, :func:`read_time_charge`, :func:`read_drop`,
:func:`read_kill`; their bounds are :mod:`rules.bounds`' like every option's). How the engine takes
them is :mod:`rules.jackpot.house` and :mod:`rules.jackpot.collection`; the decisions are
docs/house.md.

>>> r = read_rake({"percent": 5, "cap": 4, "min_pot": 20})
>>> r, r.due(19), r.due(20), r.due(60), r.due(500)
(Rake(percent=5, cap=4, min_pot=20), 0, 1, 3, 4)
>>> read_rake({"percent": 5})
Traceback (most recent call last):
...
rules.ProfileError: rake: cap is missing: give {percent, cap, min_pot} (min_pot may be left out: 0)
>>> read_time_charge({"amount": 6, "minutes": 30})
TimeCharge(amount=6, minutes=30)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from rules import ProfileError
from rules.hands.ranking import ALL_CATEGORIES

__all__ = ["Rake", "TimeCharge", "Drop", "Kill", "POOLS", "QUALIFIERS", "read_rake", "read_time_charge", "read_drop",
           "read_kill"]

#: The promotions a drop may fund: a high hand (the best hand of a shift) and a bad beat (a very
#: strong hand beaten).
POOLS = ("high_hand", "bad_beat")
#: The qualifying hand of each pool when the profile names none: a high hand of four of a kind or
#: better, a bad beat of a full house or better beaten (docs/house.md, "Promotions").
QUALIFIERS = {"high_hand": "four_of_a_kind", "bad_beat": "full_house"}


@dataclass(frozen=True)
class Rake:
    """The house's rake: ``percent`` of a pot won, at most ``cap`` chips, nothing from a pot under
    ``min_pot`` chips. Whole chips, rounded down (the odd fraction stays with the players)."""

    percent: int
    cap: int
    min_pot: int = 0

    def due(self, pot: int) -> int:
        """The chips the house takes from a pot of ``pot`` chips won."""
        if pot < self.min_pot or pot <= 0:
            return 0
        return min(self.cap, pot * self.percent // 100)


@dataclass(frozen=True)
class TimeCharge:
    """Time collection: each seat dealt in pays ``amount`` chips for every ``minutes`` of play."""

    amount: int
    minutes: int


@dataclass(frozen=True)
class Drop:
    """A drop for a promotion: ``amount`` chips set aside from a pot won for the ``pool``
    (``high_hand`` or ``bad_beat``), after the rake. ``qualifier`` is the least hand category
    the pool pays (a high hand shown of at least it; a bad beat: a hand of at least it beaten),
    by default :data:`QUALIFIERS` of the pool (rules.reports.promotions checks a hand against it)."""

    amount: int
    pool: str
    qualifier: str = ""

    def __post_init__(self) -> None:
        if not self.qualifier:
            object.__setattr__(self, "qualifier", QUALIFIERS[self.pool])


def read_drop(value: Any) -> Drop | None:
    """The drop from ``{amount, pool}`` (None or "none": no drop).

    >>> read_drop({"amount": 1, "pool": "high_hand"})
    Drop(amount=1, pool='high_hand', qualifier='four_of_a_kind')
    >>> read_drop({"amount": 1, "pool": "bad_beat", "qualifier": "four_of_a_kind"}).qualifier
    'four_of_a_kind'
    >>> read_drop({"amount": 1, "pool": "jackpot"})
    Traceback (most recent call last):
    ...
    rules.ProfileError: drop: pool is one of high_hand, bad_beat, not 'jackpot'
    """
    if value is None or value == "none" or isinstance(value, Drop):
        return value if isinstance(value, Drop) else None
    if not isinstance(value, Mapping):
        raise ProfileError(f"drop: a table {{amount, pool}}, or none, not {value!r}")
    pool = value.get("pool")
    if pool not in POOLS:
        raise ProfileError(f"drop: pool is one of {', '.join(POOLS)}, not {pool!r}")
    qualifier = value.get("qualifier", QUALIFIERS[pool])
    if qualifier not in ALL_CATEGORIES:
        raise ProfileError(f"drop: qualifier is a hand category ({', '.join(ALL_CATEGORIES)}), not {qualifier!r}")
    numbers = _read("drop", Drop, {k: v for k, v in value.items() if k not in ("pool", "qualifier")}
                    | {"pool": 0, "qualifier": 0}, (), "{amount, pool, qualifier?}")
    return Drop(numbers["amount"], pool, qualifier)


@dataclass(frozen=True)
class Kill:
    """Kill pots: once one player has won ``after`` pots in a row alone, the next pot is a kill pot,
    its bets ``times`` the table's, the killer putting in a kill of one small bet of the kill pot."""

    after: int
    times: int


def read_kill(value: Any) -> Kill | None:
    """Kill pots from ``{after, times}`` (None or "none": no kill pots).

    >>> read_kill({"after": 2, "times": 2})
    Kill(after=2, times=2)
    """
    if value is None or value == "none" or isinstance(value, Kill):
        return value if isinstance(value, Kill) else None
    return Kill(**_read("kill", Kill, value, (), "{after, times}"))


def _read(name: str, cls: type, value: Any, optional: tuple[str, ...], form: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise ProfileError(f"{name}: a table of numbers {form}, or none, not {value!r}")
    names = [f.name for f in fields(cls)]
    unknown = [k for k in value if k not in names]
    if unknown:
        raise ProfileError(f"{name}: unknown field {unknown[0]!r}; give {form}")
    out: dict[str, int] = {}
    for key in names:
        if key not in value:
            if key in optional:
                continue
            extra = f" ({', '.join(optional)} may be left out: 0)" if optional else ""
            raise ProfileError(f"{name}: {key} is missing: give {form}{extra}")
        number = value[key]
        if isinstance(number, bool) or not isinstance(number, int):
            raise ProfileError(f"{name}: {key} is a whole number, not {number!r}")
        out[key] = number
    return out


def read_rake(value: Any) -> Rake | None:
    """The rake from ``{percent, cap, min_pot}`` (None or "none": no rake); the bounds are checked
    apart (:func:`rules.bounds.check`)."""
    if value is None or value == "none" or isinstance(value, Rake):
        return value if isinstance(value, Rake) else None
    return Rake(**_read("rake", Rake, value, ("min_pot",), "{percent, cap, min_pot}"))


def read_time_charge(value: Any) -> TimeCharge | None:
    """The time collection from ``{amount, minutes}`` (None or "none": no time collected)."""
    if value is None or value == "none" or isinstance(value, TimeCharge):
        return value if isinstance(value, TimeCharge) else None
    return TimeCharge(**_read("time_charge", TimeCharge, value, (), "{amount, minutes}"))
