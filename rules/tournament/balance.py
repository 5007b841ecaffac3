"""Balancing and breaking tables: the written procedure, returned as suggested moves.

The floor carries out each suggestion with one tap (a move between tables is one transaction in
the app); nothing here moves anyone. Tables come in the event's order as
:class:`rules.tournament.seating.TableSeats`, holding the players still in the event (a busted
player's seat counts as empty). The first table is the final table; tables break in the reverse
of the event's order (the last table added breaks first), the card rooms' "predetermined order".

The game has antes and a button, no blinds. The position rule of blind games ("the player who
will be big blind next moves, into the worst seat: the big blind or the nearest after it") is
read by position counted from the button: position 1 is the first player to the left of the
button, and so on round to the button itself, last.

1. **Break** when the players left fit the seats of the tables in play without the next table
   to break. Its players go, in order of position at their table (1, 2, ... the button last), each
   to the table that has fewest players at that moment (ties: the earliest in the event's order),
   into the seat the seat rule gives there.
2. **Final table**: when the table to break is the last but one, everyone left redraws for seats
   at the final table (:func:`rules.tournament.seating.draw_final`); the caller draws once and
   passes the draw in ``final_seats``; until it does the plan says the redraw is due.
3. **Balance** otherwise: while the largest table has more than ``tolerance`` players over the
   smallest, the player in **position 3** ("big blind next"; the last position at a table of
   fewer than three) of the largest table (ties: the table that breaks sooner) moves to the
   smallest (ties: the table that breaks later).
4. **The seat rule**: of the empty seats at the receiving table, the one whose position, once the
   newcomer sits in it, is nearest to 3 counting upwards (3, 4, ... then 2, then 1): the newcomer
   takes the "big blind" position or the nearest after it, never the button's next seats where a
   later seat exists. Ties (two empty seats in the same gap) go to the lower clockwise distance.

>>> from rules.tournament.seating import TableSeats
>>> plan = suggest([TableSeats(1, 6, {1: "A", 2: "B", 3: "C"}, 1),
...                 TableSeats(2, 6, {1: "D", 2: "E", 3: "F", 4: "G", 5: "H", 6: "I"}, 1)])
>>> [m.to_dict() for m in plan.moves], plan.break_table
([{'player': 'G', 'from_table': 2, 'from_seat': 4, 'to_table': 1, 'to_seat': 4}], None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rules.tournament.seating import SeatMove, TableSeats, redraw_moves

__all__ = ["Plan", "positions", "mover", "seat_for_newcomer", "suggest", "BIG_BLIND_NEXT"]

#: The position that moves, and that a newcomer takes: the big blind's next (see the module's rule 3).
BIG_BLIND_NEXT = 3


@dataclass(frozen=True)
class Plan:
    """What the floor should do now: moves in order, the table to break (or None), whether this
    is the final table's redraw, and the reason in words."""

    moves: tuple[SeatMove, ...]
    break_table: int | None
    final_redraw: bool
    reason: str

    def to_dict(self) -> dict[str, object]:
        return {"moves": [m.to_dict() for m in self.moves], "break_table": self.break_table,
                "final_redraw": self.final_redraw, "reason": self.reason}


def positions(seats: Sequence[int], button: int) -> list[int]:
    """The occupied ``seats`` in order of position: the first to the left of the button first,
    the button (or the seat just right of where it is) last.

    >>> positions([2, 5, 7, 9], 5), positions([2, 5, 7, 9], 6)
    ([7, 9, 2, 5], [7, 9, 2, 5])
    """
    return sorted(seats, key=lambda s: (s <= button, s))


def mover(table: TableSeats) -> int:
    """The seat whose player moves out of ``table`` when balancing: position 3 (or the last).

    >>> mover(TableSeats(1, 9, {1: "A", 4: "B", 6: "C", 8: "D"}, button=4))
    1
    """
    order = positions(list(table.seats), table.button)
    return order[min(BIG_BLIND_NEXT, len(order)) - 1]


def seat_for_newcomer(table: TableSeats) -> int:
    """The empty seat a moved player takes at ``table`` (the seat rule, rule 4).

    >>> seat_for_newcomer(TableSeats(1, 6, {1: "A", 2: "B", 3: "C"}, button=1))
    4
    >>> seat_for_newcomer(TableSeats(1, 4, {1: "A", 3: "B", 4: "C"}, button=4))
    2
    """
    empty = table.empty
    if not empty:
        raise ValueError(f"table {table.key} has no empty seat")

    def rank(seat: int) -> tuple[int, int]:
        k = positions([*table.seats, seat], table.button).index(seat) + 1
        preference = k - BIG_BLIND_NEXT if k >= BIG_BLIND_NEXT else 100 + (BIG_BLIND_NEXT - k)
        return preference, (seat - table.button) % table.capacity

    return min(empty, key=rank)


def _move(tables: list[TableSeats], src: int, seat: int, dst: int) -> SeatMove:
    """Move the player at ``tables[src]`` seat ``seat`` to ``tables[dst]`` by the seat rule; updates ``tables``."""
    player = tables[src].seats[seat]
    to = seat_for_newcomer(tables[dst])
    tables[src] = replace(tables[src], seats={s: p for s, p in tables[src].seats.items() if s != seat})
    tables[dst] = replace(tables[dst], seats={**tables[dst].seats, to: player})
    return SeatMove(player, tables[src].key, seat, tables[dst].key, to)


def suggest(tables: Sequence[TableSeats], final_seats: Mapping[str, int] | None = None,
            tolerance: int = 1) -> Plan:
    """The procedure of this module applied to the tables as they are now."""
    live = [t for t in tables if t.count]
    players = sum(t.count for t in live)
    if len(live) <= 1:
        return Plan((), None, False, "one table in play: nothing to balance" if live else "nobody is seated")
    breaking = live[-1]
    rest = live[:-1]
    if players <= sum(t.capacity for t in rest):
        if len(rest) == 1:
            final = tables[0] if tables[0].count else rest[0]
            if final_seats is None:
                return Plan((), breaking.key, True, f"{players} players left fit the final table: "
                                                    "the final table's seats are to be redrawn")
            moves = redraw_moves(live, final, final_seats)
            return Plan(tuple(moves), breaking.key, True,
                        f"{players} players left: the final table, seats redrawn")
        work = list(live)
        moves = []
        src = len(work) - 1
        for seat in positions(list(breaking.seats), breaking.button):
            dst = min((i for i in range(src) if work[i].empty), key=lambda i: (work[i].count, i))
            moves.append(_move(work, src, seat, dst))
        return Plan(tuple(moves), breaking.key, False,
                    f"{players} players fit {len(rest)} tables: table {breaking.key} breaks")
    work = list(live)
    moves = []
    while True:
        sizes = [t.count for t in work]
        if max(sizes) - min(sizes) <= tolerance:
            break
        most = max(range(len(work)), key=lambda i: (sizes[i], i))
        fewest = min(range(len(work)), key=lambda i: (sizes[i], i))
        moves.append(_move(work, most, mover(work[most]), fewest))
    reason = "the tables are balanced" if not moves else \
        f"tables differ by more than {tolerance}: {len(moves)} move{'s' if len(moves) > 1 else ''} to balance"
    return Plan(tuple(moves), None, False, reason)
