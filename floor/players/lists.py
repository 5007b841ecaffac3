"""Waiting lists per game and stakes, and interest lists for games not yet running (issue 31):
join, call (a seat opened), seat (the ``sit`` logged at that table), remove (left, no show, seated
elsewhere), in order, with times. Decisions: docs/players.md, "Waiting lists".
"""

from __future__ import annotations

import re
from typing import Any, Callable

from floor import tables
from floor.extensions import db
from floor.house_profiles import ProfileNotFound, find_profile
from floor.localtime import utc_text
from floor.models import Table, User, utcnow
from floor.players import service as players
from floor.players.models import ListEntry, WaitingList
from rules import IllegalAction, parse

#: Why a player comes off a list by the floor's hand (a seat at a table is ``seated``).
REASONS = ("left", "no_show", "seated_elsewhere")
#: Told ``(table, seat, user)`` when seating a must-move player from a list opened their seat at
#: the must-move game (floor.players.cashfloor registers :func:`~floor.players.cashfloor.seat_opened`).
SEAT_OPENED: list[Callable[[Table, int, User | None], None]] = []
_STAKES = re.compile(r"\s*([0-9]{1,9})\s*/\s*([0-9]{1,9})\s*")


def waiting(wl: WaitingList) -> list[ListEntry]:
    """The players on the list now: must-move players moving up first (floor.players.cashfloor),
    then first come first."""
    must_move_last = db.case((ListEntry.must_move_from_id.is_(None), 1), else_=0)  # must-move players first
    return list(db.session.scalars(db.select(ListEntry).where(ListEntry.list_id == wl.id, ListEntry.removed_at.is_(None))
                                   .order_by(must_move_last, ListEntry.joined_at, ListEntry.id)))


def to_json(wl: WaitingList) -> dict[str, Any]:
    return {"id": wl.id, "game": wl.game, "stakes": wl.stakes, "interest": wl.interest,
            "players": [{"player_id": e.player_id, "name": e.player.name, "since": utc_text(e.joined_at),
                         "called_at": utc_text(e.called_at), "must_move_from": e.must_move_from_id}
                        for e in waiting(wl)]}


def create(game: Any, stakes: Any, interest: Any, user: User) -> WaitingList:
    """A new list; one open list per game, stakes and kind."""
    if not isinstance(game, str) or not game.strip():
        raise IllegalAction("list: name the game (a profile, such as cardroom)")
    try:
        find_profile(game.strip())
    except ProfileNotFound as exc:
        raise IllegalAction(f"list: {exc}") from None
    match = _STAKES.fullmatch(stakes) if isinstance(stakes, str) else None
    if match is None:
        raise IllegalAction("list: stakes are the small and the big bet, such as \"5/10\"")
    words = f"{int(match[1])}/{int(match[2])}"
    if not isinstance(interest, bool):
        raise IllegalAction("list: interest is true or false")
    same = db.session.scalars(db.select(WaitingList).where(
        WaitingList.game == game.strip(), WaitingList.stakes == words, WaitingList.interest == interest)).first()
    if same is not None:
        raise IllegalAction(f"list: there is a list for {game.strip()} {words} already (#{same.id})")
    wl = WaitingList(game=game.strip(), stakes=words, interest=interest, created_by_id=user.id)
    db.session.add(wl)
    db.session.flush()
    return wl


def _on_list(wl: WaitingList, player: Any, what: str) -> ListEntry:
    """The list's entry of ``player`` (a name or ``{"id": n}``), never making a record."""
    name, number = parse.player(player, None, what)
    for entry in waiting(wl):
        if entry.player_id == number if number is not None else entry.player.name.casefold() == name.casefold():
            return entry
    raise IllegalAction(f"{what}: {name} is not on the {wl.game} {wl.stakes} list")


def join(wl: WaitingList, player: Any, user: User) -> ListEntry:
    """The player joins the end of the list; a banned player is refused with the reason."""
    if isinstance(player, str) and not player.strip():
        raise IllegalAction("join: name the player")
    record = players.named(player, None, user, "join")
    players.check_not_banned(record, "join")
    if any(e.player_id == record.id for e in waiting(wl)):
        raise IllegalAction(f"join: {record.name} is on this list already")
    entry = ListEntry(list_id=wl.id, player_id=record.id, joined_at=utcnow(), by_id=user.id)
    db.session.add(entry)
    db.session.flush()
    return entry


def call(wl: WaitingList, player: Any, user: User) -> ListEntry:
    """A seat opened: the player is called (the time kept; called again, the first call stays)."""
    entry = _on_list(wl, player, "call")
    if entry.called_at is None:
        entry.called_at, entry.by_id = utcnow(), user.id
    return entry


def remove(wl: WaitingList, player: Any, reason: Any, user: User) -> ListEntry:
    if reason not in REASONS:
        raise IllegalAction(f"remove: the reason is one of {', '.join(REASONS)}")
    entry = _on_list(wl, player, "remove")
    entry.removed_at, entry.reason, entry.by_id = utcnow(), reason, user.id
    return entry


def seat(wl: WaitingList, player: Any, table: Table, seat_no: Any, chips: Any, user: User) -> ListEntry:
    """Seat the player from the list: the ``sit`` is logged at ``table`` (a cash table of the list's
    game and stakes) with the buy-in, and the player comes off the list, seated there; all or none."""
    if wl.interest:
        raise IllegalAction("seat: an interest list is for a game not yet running; start a list of the game")
    entry = _on_list(wl, player, "seat")
    state = tables.table_state(table)
    stakes = f"{state.stakes['small_bet']}/{state.stakes['big_bet']}"
    if table.profile_name != wl.game or stakes != wl.stakes:
        raise IllegalAction(f"seat: {table.name} plays {table.profile_name} {stakes}, not this list's "
                            f"{wl.game} {wl.stakes}")
    event = {"type": "sit", "seat": parse.seat(seat_no, "seat: seat"), "player": {"id": entry.player_id},
             "chips": chips}
    tables.check_posted(table, event, user)  # a tournament's table is seated by its desk only
    number = event["seat"]

    def off_the_list(_logged: Any = None) -> None:
        entry.removed_at, entry.reason, entry.table_id, entry.seat, entry.by_id = utcnow(), "seated", table.id, number, user.id
        db.session.add(entry)

    if entry.must_move_from_id is None:
        tables.append(table, event, user, with_it=off_the_list)
        return entry
    # A must-move player moves up with the stack: ``leave`` there and ``sit`` here, together; the
    # seat they leave opens in turn (floor.players.cashfloor).
    feeder = db.session.get_one(Table, entry.must_move_from_id)
    at = [n for n, s in tables.table_state(feeder).seats.items() if s.player_id == entry.player_id]
    if not at:
        raise IllegalAction(f"seat: {entry.player.name} is no longer at {feeder.name}, the must-move game; "
                            "remove them from the list")
    off_the_list()
    tables.move_player(feeder, at[0], table, number, user)
    for hook in SEAT_OPENED:
        hook(feeder, at[0], user)
    return entry
