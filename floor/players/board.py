"""What the public board and the floor's overview show of the cash-game floor (issue 31): the lists
in order with their waiting times and who is called, and the open seats per game and stakes.
Never a chip or a card: the board is public (docs/players.md, "The board").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from floor import tables
from floor.extensions import db
from floor.models import Table, utcnow
from floor.players import cashfloor, lists
from floor.players.models import ListEntry, WaitingList
from floor.seals import SealBroken
from floor.witness import RolledBack
from rules import RulesError


@dataclass(frozen=True)
class OpenTable:
    """A cash table of a game with its open seats (a table whose record cannot be read is left out)."""

    id: int
    name: str
    open_seats: tuple[int, ...]
    must_move_for: str | None  # the main game's table it feeds, if it is a must-move game


@dataclass
class Game:
    """A game and stakes: its list (if any), its interest list, its tables."""

    game: str
    stakes: str
    waiting: WaitingList | None = None
    interest: WaitingList | None = None
    players: list[ListEntry] = field(default_factory=list)
    interested: list[ListEntry] = field(default_factory=list)
    tables: list[OpenTable] = field(default_factory=list)

    @property
    def open_seats(self) -> int:
        return sum(len(t.open_seats) for t in self.tables)


def open_table(table: Table) -> tuple[str, OpenTable] | None:
    """The table's stakes and its open seats, or None for a tournament's table or a broken record."""
    if cashfloor.is_desk_table(table):
        return None
    try:
        state = tables.table_state(table)
    except (RulesError, ValueError, SealBroken, RolledBack):  # that table's matter, never the board's
        return None
    feeds = cashfloor.feeds_of(table)
    seats = tuple(n for n in range(1, state.capacity + 1) if n not in state.seats)
    return (f"{state.stakes['small_bet']}/{state.stakes['big_bet']}",
            OpenTable(table.id, table.name, seats, feeds.name if feeds is not None else None))


def games() -> list[Game]:
    """Every game and stakes that has a list or a cash table, by game and stakes."""
    by_key: dict[tuple[str, str], Game] = {}

    def game(name: str, stakes: str) -> Game:
        return by_key.setdefault((name, stakes), Game(name, stakes))

    for wl in db.session.scalars(db.select(WaitingList).order_by(WaitingList.id)):
        g = game(wl.game, wl.stakes)
        if wl.interest:
            g.interest, g.interested = wl, lists.waiting(wl)
        else:
            g.waiting, g.players = wl, lists.waiting(wl)
    for table in db.session.scalars(db.select(Table).order_by(Table.name, Table.id)):
        seen = open_table(table)
        if seen is not None:
            game(table.profile_name, seen[0]).tables.append(seen[1])
    return [by_key[k] for k in sorted(by_key, key=lambda k: (k[0], _stakes_order(k[1])))]


def _stakes_order(stakes: str) -> tuple[int, ...]:
    return tuple(int(x) for x in stakes.split("/"))


def minutes_waited(entry: ListEntry, now: datetime | None = None) -> int:
    """Whole minutes since the player joined the list (a must-move player: since they sat there)."""
    return max(0, int(((now or utcnow()) - entry.joined_at).total_seconds() // 60))
