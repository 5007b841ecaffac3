"""The house's take at a table (issue 32): the rake of a pot when it is won, and what the house
has taken so far (the state's ``house``: rake, time, drop), which the conservation law counts:
stacks + pot + the house's take == starting stacks + chips in - chips out, after every event.

The rake (the profile's ``rake`` {percent, cap, min_pot}, :class:`rules.house.Rake`) is taken once,
when a pot is won, from the whole pot (every deal of a carried jackpot, every layer), never from a
deal whose pot carries. It comes off before the pot is divided, from the main pot first, then the
side pots in order (:func:`rake_off`): tied winners share what is left, and a side pot is raked
only for what the main pot could not give. A ruling that awards a pot rakes it the same way; a
ruling that hands chips back takes no rake from them (they were not won). Decisions: docs/house.md.

>>> from rules.jackpot import start
>>> t = start({"profile": {"rake": {"percent": 10, "cap": 5}}, "ante": 5, "small_bet": 10, "button": 1,
...            "seats": [{"seat": s, "player": p, "stack": 100} for s, p in ((1, "Ann"), (2, "Bob"))]})
>>> t = t.apply({"type": "deal"}).apply({"type": "open", "seat": 2}).apply({"type": "fold", "seat": 1})
>>> t = t.apply({"type": "show", "seat": 2, "cards": "Ks Kd 7h 4c 2s"})
>>> t.to_dict()["awards"], t.to_dict()["house"]
({2: 18}, {'rake': 2, 'time': 0, 'drop': 0, 'last_rake': 2})
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.jackpot.state import WorkingTable

__all__ = ["rake_due", "rake_off"]


def rake_due(t: WorkingTable) -> int:
    """The rake the house takes from the pot in play if it is won now (0 without a rake)."""
    rake = t.profile.rake
    return 0 if rake is None else rake.due(t.pot)


def rake_off(t: WorkingTable, layers: Sequence[int]) -> list[int]:
    """The pot's layers (main pot first; they add up to the pot) once the rake is taken from them,
    main pot first. :func:`rules.jackpot.settlement.award` then records the rake.

    >>> from rules.jackpot import start
    >>> t = start({"profile": {"rake": {"percent": 10, "cap": 50}}, "ante": 5, "small_bet": 10,
    ...            "seats": [{"seat": 1, "player": "A", "stack": 100}, {"seat": 2, "player": "B", "stack": 100}]})
    >>> t = t.apply({"type": "deal"})
    >>> rake_off(t._t, [6, 4])  # a pot of 10: the rake of 1 from the main pot
    [5, 4]
    """
    due = rake_due(t)
    out = []
    for amount in layers:
        take = min(amount, due)
        due -= take
        out.append(amount - take)
    return out
