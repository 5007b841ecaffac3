"""The seating draw, late entries and the final table's redraw.

Tables are given in the event's order (the first is the final table) as :class:`TableSeats`:
a key (the app's table id), the number of seats, and who sits where now. Randomness comes from the
caller (``rng``: the app passes ``secrets.SystemRandom()``, the tests a seeded ``random.Random``),
so these functions stay pure. The procedure:

* **Draw** (:func:`draw`): the entries are shuffled and dealt round the tables in order, so the
  tables' counts differ by at most one (the first tables take the extra players); at each table
  the players take seats drawn at random, and when a table is not full its players are spread
  round it (its empty seats are as evenly spaced as the numbers allow, at a random offset) so
  nobody faces a row of empty seats on one side. The button goes to a seat drawn at random.
* **Late entry** (:func:`late_seat`): to the table with the fewest players (ties: the earliest in
  the event's order, the one that breaks last), at a seat drawn at random among its empty seats.
* **Final table** (:func:`draw_final`): every player left draws a seat at the final table.

>>> import random
>>> seats = draw(["Ann", "Bob", "Cleo", "Dev", "Eve"], [TableSeats(1, 4), TableSeats(2, 4)], random.Random(7))
>>> sorted(len([p for p in seats if seats[p][0] == key]) for key in (1, 2))
[2, 3]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from random import Random

from rules import IllegalAction

__all__ = ["TableSeats", "SeatMove", "draw", "spread_seats", "late_seat", "draw_final", "redraw_moves"]


@dataclass(frozen=True)
class TableSeats:
    """A table of the event: ``key`` (the app's id), ``capacity`` (seats 1..capacity), who sits
    where (seat -> player; players still in the event only), and the button's seat."""

    key: int
    capacity: int
    seats: Mapping[int, str] = field(default_factory=dict)
    button: int = 1

    @property
    def empty(self) -> list[int]:
        return [s for s in range(1, self.capacity + 1) if s not in self.seats]

    @property
    def count(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class SeatMove:
    """A player to move: from a table and seat to a table and seat (the same table: a change of seat)."""

    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "from_table": self.from_table, "from_seat": self.from_seat,
                "to_table": self.to_table, "to_seat": self.to_seat}


def spread_seats(capacity: int, players: int, offset: int = 0) -> list[int]:
    """``players`` seats out of ``capacity`` as evenly spaced as whole seats allow, turned by ``offset``.

    >>> spread_seats(8, 4), spread_seats(9, 6), spread_seats(8, 4, offset=1)
    ([1, 3, 5, 7], [1, 2, 4, 5, 7, 8], [2, 4, 6, 8])
    """
    if not 0 <= players <= capacity:
        raise IllegalAction(f"draw: {players} players do not fit {capacity} seats")
    return sorted((math.floor(i * capacity / players) + offset) % capacity + 1 for i in range(players))


def draw(players: Sequence[str], tables: Sequence[TableSeats], rng: Random) -> dict[str, tuple[int, int]]:
    """Random seats for every player: player -> (table key, seat). The tables start empty."""
    if len({p.casefold() for p in players}) != len(players):
        raise IllegalAction("draw: an entry appears twice")
    if not tables:
        raise IllegalAction("draw: the event has no tables")
    room = sum(t.capacity for t in tables)
    if len(players) > room:
        raise IllegalAction(f"draw: {len(players)} entries but only {room} seats at {len(tables)} tables; add a table")
    order = list(players)
    rng.shuffle(order)
    # Deal the counts round the tables (the first take the extra players), never beyond a table's seats.
    counts = [0] * len(tables)
    left = len(order)
    while left:
        open_tables = [i for i, t in enumerate(tables) if counts[i] < t.capacity]
        fewest = min(counts[i] for i in open_tables)
        i = next(i for i in open_tables if counts[i] == fewest)
        counts[i] += 1
        left -= 1
    result: dict[str, tuple[int, int]] = {}
    at = 0
    for t, n in zip(tables, counts):
        seats = spread_seats(t.capacity, n, rng.randrange(t.capacity)) if n else []
        rng.shuffle(seats)
        for seat, player in zip(seats, order[at:at + n]):
            result[player] = (t.key, seat)
        at += n
    return result


def late_seat(tables: Sequence[TableSeats], rng: Random) -> tuple[int, int]:
    """Where a late entry sits: (table key, seat): a free seat at the table in play (one with
    players) that has fewest (ties: the first in the event's order). An empty table only when every
    table in play is full (a table the director added for them) or nobody is seated yet: the
    balance plays only tables with players (:mod:`rules.tournament.balance`), so one seated alone
    at a table that broke would be a game of one, moved again by the next plan.

    >>> import random
    >>> late_seat([TableSeats(1, 3, {1: "A", 2: "B"}), TableSeats(2, 3, {1: "C"})], random.Random(1))[0]
    2
    >>> late_seat([TableSeats(1, 3, {1: "A", 2: "B"}), TableSeats(2, 3)], random.Random(1))[0]
    1
    """
    in_play = [t for t in tables if t.empty and t.count]
    open_tables = in_play or [t for t in tables if t.empty]
    if not open_tables:
        raise IllegalAction("late entry: every seat is taken; add a table")
    fewest = min(t.count for t in open_tables)
    table = next(t for t in open_tables if t.count == fewest)
    return table.key, rng.choice(table.empty)


def draw_final(players: Sequence[str], capacity: int, rng: Random) -> dict[str, int]:
    """The final table's redraw: player -> seat, spread round the table like the first draw."""
    seats = spread_seats(capacity, len(players), rng.randrange(capacity))
    rng.shuffle(seats)
    return dict(zip(players, seats))


def redraw_moves(tables: Sequence[TableSeats], final: TableSeats, target: Mapping[str, int]) -> list[SeatMove]:
    """The moves, in an order the floor can carry out one at a time, that bring every player to the
    seat ``target`` gives at the final table. A move goes only to an empty seat. Players already at
    the final table who wait on each other in a ring (A has B's drawn seat, B has A's) are dealt
    with first, while the final table still has an empty seat: one of them steps into it, the
    ring becomes a chain, and each goes on to the drawn seat as it empties (as a dealer would ask
    someone to stand aside). Then every player whose drawn seat is empty moves, in turn.

    >>> final = TableSeats(1, 3, {1: "A", 2: "B"})
    >>> [(m.player, m.to_seat) for m in redraw_moves([final], final, {"A": 2, "B": 1})]
    [('A', 3), ('B', 1), ('A', 2)]
    """
    where = {p: (t.key, s) for t in tables for s, p in t.seats.items()}
    if set(where) != set(target):
        raise IllegalAction("final table: the redraw must seat exactly the players left")
    occupied = dict(final.seats)  # final-table seat -> player
    pending = {p: seat for p, seat in target.items() if where[p] != (final.key, seat)}
    moves: list[SeatMove] = []

    def go(player: str, seat: int) -> None:
        table, old = where[player]
        if table == final.key:
            del occupied[old]
        occupied[seat] = player
        where[player] = (final.key, seat)
        moves.append(SeatMove(player, table, old, final.key, seat))

    def in_ring(player: str) -> bool:
        seen, at = set(), occupied.get(pending[player])
        while at is not None and at in pending and where[at][0] == final.key and at not in seen:
            if at == player:
                return True
            seen.add(at)
            at = occupied.get(pending[at])
        return False

    while pending:
        ring = sorted(p for p in pending if where[p][0] == final.key and in_ring(p))
        empty = [s for s in range(1, final.capacity + 1) if s not in occupied]
        if ring and empty:
            spare = [s for s in empty if s not in target.values()]
            go(ring[0], (spare or empty)[0])
            continue
        ready = sorted(p for p, seat in pending.items() if seat not in occupied)
        if not ready:
            raise IllegalAction("final table: no empty seat to carry out the redraw")
        go(ready[0], pending.pop(ready[0]))
    return moves
