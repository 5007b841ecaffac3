"""Table events: the dealer's log entries, read from JSON-like mappings into frozen values; the index
of every event type.

Every event is a mapping with a ``type`` and the fields of that type (see docs/contract.md, "Table setup
and events"). :func:`parse_event` reads it once, at the edge: seats and counts as numbers, cards as
canonical card texts, a ruling as a typed :class:`rules.rulings.Ruling`. Whether the event is
allowed *now* is its type's check (``@may``); ``Event.to_dict()`` is the canonical event the log stores.

Each event type is declared once, in the module of the rules it follows, with everything about it
(:mod:`rules.jackpot.event_base` says what a declaration holds): the dataclass, its move
(:mod:`rules.jackpot.moves`), its "may it happen now" check and its handler. The modules, each
imported here so that its types are registered:

- :mod:`rules.jackpot.deal`             ``deal``, ``widow``
- :mod:`rules.jackpot.opening`          ``pass``, ``open``
- :mod:`rules.jackpot.betting`          ``call``, ``check``, ``bet``, ``raise``, ``fold``, ``straddle``
- :mod:`rules.jackpot.draw`             ``draw``
- :mod:`rules.jackpot.showdown`         ``show``, ``muck``
- :mod:`rules.jackpot.irregularities`   ``false_openers``, ``reopen``
- :mod:`rules.jackpot.floor_word`       ``ruling``, ``correction``
- :mod:`rules.jackpot.seating`          ``sit``, ``add_chips``, ``leave``, ``sit_out``, ``sit_in``, ``move_seat``
- :mod:`rules.jackpot.requests`         ``expose``, ``keep_openers``, ``wrong_count``
- :mod:`rules.jackpot.table`            ``void`` (the table withdraws an entry itself)

Adding an event type is a class, its move, its check and its handler in the module of its rules,
and a test: the registry's test fails if one of them is missing (docs/engine.md, "Adding an event
type").

>>> parse_event({"type": "open", "seat": "3"})
Open(seat=3, amount=None)
>>> parse_event({"type": "draw", "seat": 2, "count": 3, "split": True, "escrow": "jh 4C 5d"})
Draw(seat=2, count=3, split=True, escrow=('Jh', '4c', '5d'), up=None, take=None)
>>> parse_event({"type": "void", "event": 4})
Void(event=4)
>>> parse_event({"type": "shuffle"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
rules.IllegalAction: unknown event type 'shuffle'; the event types are: ..., deal, widow, ..., void
>>> parse_event({"type": "call"})
Traceback (most recent call last):
...
rules.IllegalAction: call: the event needs a seat (a seat number)
>>> parse_event({"type": "show", "seat": 1, "cards": "As Zz"})
Traceback (most recent call last):
...
rules.IllegalAction: show: cards: unknown card 'Zz'
"""

from __future__ import annotations

from enum import StrEnum

from rules.jackpot.betting import Bet, Call, Check, Fold, Raise, Straddle
from rules.jackpot.collection import Time
from rules.jackpot.deal import Deal, Widow
from rules.jackpot.draw import Draw
from rules.jackpot.event_base import (EVENTS, HANDLERS, MAY, Ask, Event, NotNow, SeatEvent, Who, WithAmount,
                                      event_words, handles, incomplete, may, parse_event, parse_seat)
from rules.jackpot.floor_word import REASON_MAX, Correction, Ruling
from rules.jackpot.irregularities import FalseOpeners, Reopen
from rules.jackpot.opening import Open, Pass
from rules.jackpot.requests import Expose, KeepOpeners, WrongCount
from rules.jackpot.seating import NAME_MAX, AddChips, Leave, MoveSeat, Sit, SitIn, SitOut
from rules.jackpot.showdown import Muck, Show
from rules.jackpot.table import Void

__all__ = [
    "EventType", "Event", "Deal", "Pass", "Open", "Call", "Raise", "Fold", "Check", "Bet", "Draw", "Show",
    "FalseOpeners", "Reopen", "Muck", "Void", "Ruling", "Correction", "Sit", "AddChips", "Leave", "SitOut",
    "SitIn", "MoveSeat", "Straddle", "Widow", "Expose", "KeepOpeners", "WrongCount", "Time", "EVENT_TYPES", "FLOOR_ONLY",
    "FLOOR_WORD", "FLOOR_ACTS", "REASON_MAX", "NAME_MAX", "parse_event", "parse_seat", "event_words",
    "Who", "Ask", "EVENTS", "HANDLERS", "MAY", "NotNow", "SeatEvent", "WithAmount", "handles", "may", "incomplete",
]

EVENT_TYPES: tuple[str, ...] = tuple(EVENTS)
#: The event types as an enum (derived from the declarations, in their order).
EventType = StrEnum("EventType", [(k.upper(), k) for k in EVENTS])  # type: ignore[misc]
#: Events that only the floor may log outright: a ruling and a correction of chips.
FLOOR_ONLY: frozenset[str] = frozenset(k for k, c in EVENTS.items() if c.by is Who.FLOOR and not c.reported)
#: The floor's word: no void withdraws it or anything logged before it (false openers too).
FLOOR_WORD: frozenset[str] = frozenset(k for k, c in EVENTS.items() if c.by is Who.FLOOR)
#: The floor's acts when a floor person or a director logs them: a dealer's undo never withdraws them.
FLOOR_ACTS: frozenset[str] = frozenset(k for k, c in EVENTS.items() if c.floor_act) | FLOOR_WORD
