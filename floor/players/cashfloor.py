"""The cash-game floor around the lists (issue 31): must-move games feeding a main game, and
seat-change requests honoured in order when a seat opens. Decisions: docs/players.md,
"Must-move games and seat changes".

A seat opens at a table when a ``leave`` or a ``move_seat`` is logged there, or a must-move player
is moved up from it (:func:`seat_opened`, told of each by the table log's hook). Then, in order:

1. the table's seat-change requests, oldest first: the first whose player is still seated there
   and asked for that seat (or any) is moved, a ``move_seat`` logged by whoever logged the opening,
   and the seat they left opens in turn;
2. else, at a main game, the must-move player who has waited longest (seated earliest at a table
   feeding it, not yet on its list, and not taken off it by the floor since they sat down there) is
   put on the main game's list, first, and called.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import current_app

from floor import tables
from floor.extensions import db
from floor.localtime import utc_text
from floor.models import LogEntry, Table, User, utcnow
from floor.players import lists
from floor.players import service as players
from floor.players.models import ListEntry, MustMove, SeatChange, WaitingList
from rules import IllegalAction, jackpot, parse


def _stakes(table: Table) -> str:
    state = tables.table_state(table)
    return f"{state.stakes['small_bet']}/{state.stakes['big_bet']}"


def _cash_table(table: Table, user: User | None) -> None:
    """Refuse a tournament's table, as a posted sit there is refused (its desk seats it)."""
    tables.check_posted(table, {"type": "sit", "seat": 1, "player": "-", "chips": 1}, user)


def feeds_of(table: Table) -> Table | None:
    """The main game ``table`` feeds, if it is a must-move game."""
    row = db.session.get(MustMove, table.id)
    return db.session.get(Table, row.main_id) if row is not None else None


def set_feeds(table: Table, main: Table | None, user: User) -> None:
    """Make ``table`` a must-move game for ``main`` (None: no longer one). Both play the same game
    at the same stakes; a main game feeds nothing, a must-move game is fed by nothing."""
    row = db.session.get(MustMove, table.id)
    if main is None:
        if row is not None:
            db.session.delete(row)
        return
    if main.id == table.id:
        raise IllegalAction("feeds: a table cannot feed itself")
    for t in (table, main):
        _cash_table(t, user)
    if (table.profile_name, _stakes(table)) != (main.profile_name, _stakes(main)):
        raise IllegalAction(f"feeds: {table.name} plays {table.profile_name} {_stakes(table)}, "
                            f"{main.name} {main.profile_name} {_stakes(main)}: a must-move game feeds "
                            "a main game of its own game and stakes")
    if db.session.get(MustMove, main.id) is not None:
        raise IllegalAction(f"feeds: {main.name} is a must-move game itself; name its main game")
    if db.session.scalars(db.select(MustMove).where(MustMove.main_id == table.id)).first() is not None:
        raise IllegalAction(f"feeds: {table.name} is a main game fed by a must-move game")
    if row is None:
        row = MustMove(table_id=table.id)
        db.session.add(row)
    row.main_id, row.set_at, row.set_by_id = main.id, utcnow(), user.id
    db.session.flush()


def main_list(main: Table) -> WaitingList | None:
    """The main game's list (its game and stakes)."""
    return db.session.scalars(db.select(WaitingList).where(
        WaitingList.game == main.profile_name, WaitingList.stakes == _stakes(main),
        WaitingList.interest.is_(False))).first()


def _seated_since(table: Table) -> dict[int, tuple[datetime, str]]:
    """Each seated player's record id: when they last sat down at ``table`` (a seat change keeps
    it) and their name; seats naming no record are left out (a list names records)."""
    seated = {s.player_id: s for s in tables.table_state(table).seats.values() if s.player_id is not None}
    since: dict[int, tuple[datetime, str]] = {}
    for entry in tables.sealed_entries(table):
        event = entry.payload
        if event.get("type") == "sit" and event.get("player_id") in seated:
            since[event["player_id"]] = (entry.logged_at, seated[event["player_id"]].player)
    for number, seat in seated.items():  # seated by the table's setup
        since.setdefault(number, (table.created_at, seat.player))
    return since


def must_move_players(main: Table) -> list[tuple[datetime, int, Table]]:
    """The players seated at the games feeding ``main``, longest waiting first: (since, player id, table)."""
    waiting: list[tuple[datetime, int, Table]] = []
    for row in db.session.scalars(db.select(MustMove).where(MustMove.main_id == main.id)):
        feeder = db.session.get_one(Table, row.table_id)
        waiting += [(since, number, feeder) for number, (since, _) in _seated_since(feeder).items()]
    return sorted(waiting, key=lambda w: (w[0], w[1]))


def _claim_ended(wl: WaitingList, player_id: int, feeder: Table, since: datetime) -> bool:
    """Whether the floor took this must-move player off the main game's list (any reason) since
    they sat down at ``feeder``: their claim is over while they stay there (docs/players.md,
    "Must-move games and seat changes"). A new ``sit`` at the must-move game starts a new claim."""
    return db.session.scalars(db.select(ListEntry.id).where(
        ListEntry.list_id == wl.id, ListEntry.player_id == player_id, ListEntry.must_move_from_id == feeder.id,
        ListEntry.removed_at.is_not(None), ListEntry.removed_at >= since,
        ListEntry.reason != "seated")).first() is not None


def call_must_move(main: Table, user: User | None) -> ListEntry | None:
    """A seat opened at ``main``: the must-move player who has waited longest, not on its list
    yet, goes on the list (first: :func:`floor.players.lists.waiting`) and is called."""
    wl = main_list(main)
    if wl is None:
        return None
    on_list = {e.player_id for e in lists.waiting(wl)}
    for since, number, feeder in must_move_players(main):
        if number in on_list or _claim_ended(wl, number, feeder, since):
            continue
        now = utcnow()
        entry = ListEntry(list_id=wl.id, player_id=number, joined_at=since, called_at=now,
                          by_id=user.id if user else None, must_move_from_id=feeder.id)
        db.session.add(entry)
        db.session.commit()
        return entry
    return None


def ask_seat_change(table: Table, player: Any, seat: Any, user: User) -> SeatChange:
    """A seated player asks for another seat at ``table`` (``seat``: that one, or None: any)."""
    _cash_table(table, user)
    name, number = parse.player(player, None, "seat change")
    state = tables.table_state(table)
    mine = [(n, s) for n, s in state.seats.items()
            if (s.player_id == number if number is not None else s.player.casefold() == name.casefold())]
    if not mine:
        raise IllegalAction(f"seat change: {name} is not seated at {table.name}")
    where, who = mine[0]
    wanted = None if seat is None else parse.seat(seat, "seat change: seat")
    if wanted is not None and wanted == where:
        raise IllegalAction(f"seat change: {who.player} is in seat {where} already")
    if wanted is not None and wanted > state.capacity:
        raise IllegalAction(f"seat change: {table.name} has {state.capacity} seats, no seat {wanted}")
    record = players.named({"id": who.player_id} if who.player_id is not None else who.player, None, user,
                           "seat change")
    if any(r.player_id == record.id for r in pending(table)):
        raise IllegalAction(f"seat change: {record.name} has asked already")
    request = SeatChange(table_id=table.id, player_id=record.id, seat=wanted, by_id=user.id)
    db.session.add(request)
    db.session.flush()
    return request


def cancel_seat_change(table: Table, request_id: Any, user: User) -> SeatChange:
    """The player no longer wants another seat: their request at ``table``, still waiting, ends
    ``cancelled`` (kept, with when and by whom). A request done already is refused with its outcome."""
    known = isinstance(request_id, int) and not isinstance(request_id, bool) and 0 < request_id < 2**63
    request = db.session.get(SeatChange, request_id) if known else None
    if request is None or request.table_id != table.id:
        raise IllegalAction(f"cancel: {table.name} has no seat-change request {request_id!r}")
    if request.outcome is not None:
        raise IllegalAction(f"cancel: {request.player.name}'s request is {request.outcome} already")
    request.outcome, request.done_at, request.by_id = "cancelled", utcnow(), user.id
    db.session.flush()
    return request


def pending(table: Table) -> list[SeatChange]:
    """The table's seat-change requests not yet done, oldest first."""
    return list(db.session.scalars(db.select(SeatChange).where(
        SeatChange.table_id == table.id, SeatChange.outcome.is_(None)).order_by(SeatChange.asked_at, SeatChange.id)))


def seat_change_json(r: SeatChange) -> dict[str, Any]:
    return {"id": r.id, "player_id": r.player_id, "name": r.player.name, "seat": r.seat,
            "asked_at": utc_text(r.asked_at), "outcome": r.outcome, "to_seat": r.to_seat,
            "done_at": utc_text(r.done_at)}


def _honour_seat_change(table: Table, opened: int, user: User | None) -> bool:
    seats = tables.table_state(table).seats
    if opened in seats:
        return False
    where = {s.player_id: n for n, s in seats.items() if s.player_id is not None}
    for request in pending(table):
        if request.player_id not in where:
            request.outcome, request.done_at = "left", utcnow()
            db.session.commit()
            continue
        if request.seat not in (None, opened):
            continue

        def done(_entry: LogEntry, request: SeatChange = request) -> None:
            request.outcome, request.done_at, request.to_seat = "moved", utcnow(), opened

        tables.append(table, {"type": "move_seat", "seat": where[request.player_id], "to": opened}, user,
                      with_it=done)  # the seat left opens in turn (the log's hook)
        return True
    return False


def seat_opened(table: Table, seat: int, user: User | None) -> None:
    """A seat opened at ``table``: a seat change there, else a must-move player called."""
    if _honour_seat_change(table, seat, user):
        return
    if db.session.scalars(db.select(MustMove).where(MustMove.main_id == table.id)).first() is not None:
        call_must_move(table, user)


def after_append(table: Table, entry: LogEntry, state: jackpot.TableState) -> None:
    """The table log's hook (:data:`floor.tables.AFTER_APPEND`): a ``leave`` or a ``move_seat``
    opened a seat. What it does is the floor's convenience, never a failed tap: the event that
    opened the seat is logged already, and a refusal here leaves the request waiting."""
    event = entry.payload
    if event.get("type") not in ("leave", "move_seat") or table.event_id is not None and is_desk_table(table):
        return
    try:
        seat_opened(table, int(event["seat"]), entry.logged_by)
    except Exception:  # noqa: BLE001 - the tap stands; the floor calls and moves by hand
        db.session.rollback()
        current_app.logger.exception("table %s: a seat opened at seat %s and the floor's work was not done",
                                     table.id, event.get("seat"))


def is_desk_table(table: Table) -> bool:
    """Whether ``table`` is a tournament's, seated by its desk (no list, board or seat change of the floor's)."""
    try:
        _cash_table(table, None)
    except (IllegalAction, tables.NotYours):
        return True
    return False
