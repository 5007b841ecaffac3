"""Time collection (issue 32): the house's ``time_charge`` {amount, minutes}: every seat pays
``amount`` chips for each period of ``minutes``, and the dealer logs it with the event ``time``
{seat}. A seat that has not paid for the period in play is dealt out until it does (it keeps any
claim on a carried pot, as a player sitting out does).

The engine knows the time only from the log: ``deal`` and ``time`` may carry ``minute``, the
minutes since the table opened (the app stamps it when it logs them), and the table's clock is the
latest minute logged (it never runs back). The period in play is ``clock // minutes``: period 0
from the table's opening, so every seat pays before its first deal. Without ``minute`` (a log
written by hand) the clock stays where it was. Decisions: docs/house.md.

>>> from rules.jackpot import start
>>> t = start({"profile": {"time_charge": {"amount": 6, "minutes": 30}}, "ante": 5, "small_bet": 10,
...            "button": 1, "seats": [{"seat": s, "player": p, "stack": 100} for s, p in
...                                   ((1, "Ann"), (2, "Bob"), (3, "Cy"))]})
>>> [m.to_dict() for m in t.legal() if m.kind == "time"]
[{'type': 'time', 'seats': [1, 2, 3], 'amount': 6}]
>>> t = t.apply({"type": "time", "seat": 1}).apply({"type": "time", "seat": 2})
>>> t = t.apply({"type": "deal", "minute": 5})
>>> t.to_dict()["dealt"], t.to_dict()["house"]["time"], t.to_dict()["seats"][3]["status"]
([2, 1], 12, 'out')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import parse
from rules.jackpot.event_base import NotNow, SeatEvent, Who, handles, may
from rules.jackpot.moves import MenuMove, in_menu
from rules.jackpot.state import Phase, Seat, WorkingTable

__all__ = ["Time", "TimeMove", "may_time", "owes_time", "period", "advance_clock", "read_minute"]


def read_minute(event: Mapping[str, Any], what: str) -> dict[str, Any]:
    """The ``minute`` an event carries (minutes since the table opened), if any."""
    if event.get("minute") is None:
        return {}
    return {"minute": parse.whole(event["minute"], f"{what}: minute")}


@dataclass(frozen=True)
class Time(SeatEvent):
    """A seat pays its time for the period in play (the house's ``time_charge``).

    >>> from rules.jackpot.events import parse_event
    >>> parse_event({"type": "time", "seat": 4, "minute": 31}).words()
    'seat 4 pays time'
    """

    kind = "time"
    by = Who.DEALER
    said = "{who}pays time"
    minute: int | None = None

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        return read_minute(event, "time")

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.minute is None:
            out.pop("minute", None)
        return out


@dataclass(frozen=True)
class TimeMove(MenuMove):
    """The seats that owe time for the period in play and can pay it; ``amount`` chips each."""

    event_type = Time
    place = 15
    amount: int = 0

    def event(self, seat: int) -> Time:
        return Time(self.chosen(seat))


def period(t: WorkingTable) -> int:
    """The period of time collection in play (0 from the table's opening)."""
    charge = t.profile.time_charge
    return 0 if charge is None else t.clock // charge.minutes


def owes_time(t: WorkingTable, x: Seat) -> bool:
    """Whether seat ``x`` has not paid its time for the period in play (and so is not dealt in)."""
    return t.profile.time_charge is not None and x.time_paid < period(t)


def advance_clock(t: WorkingTable, minute: int | None) -> None:
    """The table's clock moves on to ``minute`` (never back)."""
    if minute is not None and minute > t.clock:
        t.clock = minute


@may(Time, (Phase.BETWEEN_DEALS,))
def may_time(t: WorkingTable, seat: int | None) -> TimeMove:
    """Between deals, where the house collects time, a seat that owes it for the period in play
    and has the chips to pay."""
    charge = t.profile.time_charge
    if charge is None:
        raise NotNow("time: this table collects no time (the house's time_charge is none)", "alone")
    if t.phase != Phase.BETWEEN_DEALS:
        raise NotNow("time: the dealer collects time between deals")
    if seat is not None:
        if seat not in t.seats:
            raise NotNow(f"time: nobody sits in seat {seat}")
        x = t.seats[seat]
        if not owes_time(t, x):
            start = period(t) * charge.minutes
            raise NotNow(f"time: seat {seat} has paid its time for this period (minutes {start} to "
                         f"{start + charge.minutes - 1} of the table; time_charge {charge.amount} every "
                         f"{charge.minutes} minutes)")
        if x.stack < charge.amount:
            raise NotNow(f"time: seat {seat} has {x.stack} chips and the time is {charge.amount} (time_charge); "
                         "a rebuy first")
    owing = [s for s, x in t.seats.items() if owes_time(t, x) and x.stack >= charge.amount]
    return TimeMove(in_menu(seat, owing, "time: every seat has paid its time for this period"), charge.amount)


@handles(Time)
def time(t: WorkingTable, e: Time, move: TimeMove) -> None:
    """The seat pays ``amount`` to the house for the period in play (the event's minute has moved
    the clock already: :func:`rules.jackpot.table._run`): it is dealt in again."""
    x = t.seats[e.seat]
    now = period(t)
    t.set(e.seat, stack=x.stack - move.amount, time_paid=now)
    t.house_time += move.amount
    t.message = f"seat {e.seat} pays {move.amount} time for period {now + 1} (the house's time_charge)"
