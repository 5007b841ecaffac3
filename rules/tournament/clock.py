"""The tournament clock: a pure value computed from the director's recorded moves and "now".

The server stores only the moves (start, pause, resume, advance, back) with the moment each was
made; :func:`read_clock` folds them and lets the time since the last one run. So the clock
survives a restart (nothing ticks in memory) and two browsers asking at the same moment get the
same answer. The rules of the clock, where the card rooms' clocks differ and the project decided:

* ``start`` once; before it the clock shows the first level, full time, not running.
* ``pause`` stops the time, ``resume`` lets it run again from where it stopped.
* When a level's time is up the next one begins by itself (breaks too); the last level never
  ends (it shows 0 seconds left and plays on until the event is over).
* ``advance`` begins the next level now, with its full time; ``back`` begins the level before
  with its full time (on the first level it restarts it). Either keeps a paused clock paused.
* Moves are recorded in time order; a move the clock cannot make now is refused, saying why.

>>> from datetime import datetime, timedelta
>>> from rules.tournament.structure import parse_structure
>>> s = parse_structure({"levels": [{"minutes": 20, "ante": 5, "small_bet": 10}, {"break": 5},
...     {"minutes": 20, "ante": 10, "small_bet": 20}], "starting_chips": 1000, "buy_in": 50})
>>> t0 = datetime(2026, 11, 23, 18, 0)
>>> moves = [Move("start", t0), Move("pause", t0 + timedelta(minutes=5))]
>>> c = read_clock(s, moves, t0 + timedelta(hours=1)); (c.index, c.seconds_left, c.running)
(0, 900, False)
>>> c = read_clock(s, moves + [Move("resume", t0 + timedelta(hours=1))], t0 + timedelta(hours=1, minutes=17))
>>> (c.index, c.on_break, c.seconds_left, c.stakes.small_bet)
(1, True, 180, 10)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from rules import IllegalAction
from rules.tournament.structure import Break, Level, Structure

__all__ = ["ClockAction", "Move", "Clock", "read_clock", "check_move", "next_break_seconds", "late_registration_open"]


class ClockAction(StrEnum):
    """What a director does to the clock."""

    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    ADVANCE = "advance"
    BACK = "back"


@dataclass(frozen=True)
class Move:
    """One recorded move of the clock: the action and the moment (UTC) it was made."""

    action: str
    at: datetime


@dataclass(frozen=True)
class Clock:
    """The clock at a moment: the item of the structure in force (``index``), whether it is a
    break, the seconds left in it (rounded up: a clock never shows 0 while time remains), whether it
    runs, and the stakes in force (:meth:`Structure.stakes_at`)."""

    index: int
    item: Level | Break
    level: int | None  # the playing level's number (1, 2, ...); None on a break
    on_break: bool
    started: bool
    running: bool
    seconds_left: int
    stakes: Level
    next_item: Level | Break | None
    finished: bool  # the last level's time is up (it plays on)

    def to_dict(self) -> dict[str, object]:
        nxt = self.next_item.to_dict() if self.next_item is not None else None
        return {"index": self.index, "level": self.level, "on_break": self.on_break, "started": self.started,
                "running": self.running, "seconds_left": self.seconds_left, **self.stakes.stakes,
                "minutes": self.item.minutes, "next": nxt}


@dataclass
class _Fold:
    started: bool = False
    running: bool = False
    index: int = 0
    used: float = 0.0  # seconds of the current item already played, up to ``since``
    since: datetime | None = None


def _run(s: Structure, f: _Fold, until: datetime) -> None:
    """Let a running clock run to ``until``, passing into the following items as their time is up."""
    if not f.running or f.since is None:
        return
    f.used += max(0.0, (until - f.since).total_seconds())
    f.since = until
    while f.index < len(s.levels) - 1 and f.used >= s.levels[f.index].minutes * 60:
        f.used -= s.levels[f.index].minutes * 60
        f.index += 1


def _apply(s: Structure, f: _Fold, move: Move) -> None:
    action = move.action
    if action not in ClockAction.__members__.values():
        raise IllegalAction(f"clock: {action!r} is not one of {', '.join(a.value for a in ClockAction)}")
    if f.since is not None and move.at < f.since:
        raise IllegalAction("clock: moves are recorded in time order")
    _run(s, f, move.at)
    if action == ClockAction.START:
        if f.started:
            raise IllegalAction("clock: it has already started (pause, resume, advance or back)")
        f.started, f.running, f.index, f.used, f.since = True, True, 0, 0.0, move.at
        return
    if not f.started:
        raise IllegalAction(f"clock: cannot {action} before the clock is started")
    if action == ClockAction.PAUSE:
        if not f.running:
            raise IllegalAction("clock: it is already paused (resume it)")
        f.running = False
    elif action == ClockAction.RESUME:
        if f.running:
            raise IllegalAction("clock: it is running (pause it first)")
        f.running = True
    elif action == ClockAction.ADVANCE:
        if f.index >= len(s.levels) - 1:
            raise IllegalAction("clock: this is the last level of the structure; there is none to advance to")
        f.index, f.used = f.index + 1, 0.0
    else:  # back
        f.index, f.used = max(0, f.index - 1), 0.0
    f.since = move.at


def _fold(s: Structure, moves: Iterable[Move]) -> _Fold:
    f = _Fold()
    for move in moves:
        _apply(s, f, move)
    return f


def read_clock(s: Structure, moves: Sequence[Move], now: datetime) -> Clock:
    """The clock at ``now`` after ``moves`` (recorded in time order; a ``now`` before the last move
    reads as that move's moment)."""
    f = _fold(s, moves)
    if f.since is not None and now > f.since:
        _run(s, f, now)
    item = s.levels[f.index]
    left = max(0.0, item.minutes * 60 - f.used)
    last = f.index == len(s.levels) - 1
    return Clock(
        index=f.index, item=item, level=s.playing_number(f.index), on_break=isinstance(item, Break),
        started=f.started, running=f.running, seconds_left=math.ceil(left - 1e-9),
        stakes=s.stakes_at(f.index), next_item=None if last else s.levels[f.index + 1],
        finished=last and left <= 0,
    )


def check_move(s: Structure, moves: Sequence[Move], move: Move) -> None:
    """Raise :class:`rules.IllegalAction` (saying why) if ``move`` cannot follow ``moves``.

    >>> from datetime import datetime
    >>> from rules.tournament.structure import preset
    >>> check_move(preset("turbo"), [], Move("pause", datetime(2026, 1, 1)))
    Traceback (most recent call last):
    ...
    rules.IllegalAction: clock: cannot pause before the clock is started
    """
    _fold(s, [*moves, move])


def next_break_seconds(s: Structure, c: Clock) -> int | None:
    """Seconds until the next break begins, as the clock stands (0 on a break; None when no break
    is left in the structure). A paused clock's figure stands still with it.

    >>> from datetime import datetime, timedelta
    >>> from rules.tournament.structure import preset
    >>> s = preset("regular")  # 20-minute levels, a break after every 4
    >>> t0 = datetime(2026, 11, 23, 18, 0)
    >>> next_break_seconds(s, read_clock(s, [Move("start", t0)], t0 + timedelta(minutes=30)))
    3000
    >>> next_break_seconds(s, read_clock(s, [Move("start", t0)], t0 + timedelta(minutes=85)))
    0
    """
    if c.on_break:
        return 0
    total = c.seconds_left
    for item in s.levels[c.index + 1:]:
        if isinstance(item, Break):
            return total
        total += item.minutes * 60
    return None


def late_registration_open(s: Structure, c: Clock) -> bool:
    """Whether entries are still taken: until level ``late_registration_levels`` has ended (the
    break after it is past the cutoff, as the contract words it); always, where the structure sets
    no cutoff (the app closes entries at the final table).

    >>> from datetime import datetime, timedelta
    >>> from rules.tournament.structure import parse_structure
    >>> s = parse_structure({"levels": [{"minutes": 20, "small_bet": 10}, {"minutes": 20, "small_bet": 20},
    ...     {"break": 10}, {"minutes": 20, "small_bet": 40}], "starting_chips": 1000, "buy_in": 50,
    ...     "late_registration_levels": 2})
    >>> t0 = datetime(2026, 11, 23, 18, 0)
    >>> [late_registration_open(s, read_clock(s, [Move("start", t0)], t0 + timedelta(minutes=m)))
    ...  for m in (0, 39, 40, 55)]
    [True, True, False, False]
    """
    if s.late_registration_levels is None:
        return True
    return c.index <= s.index_of_level(s.late_registration_levels)
