"""Dealer rotation (issue 31): a push schedule over tables and dealers, and the floor's moves by
hand. In a room that rotates, a dealer logs only at the table the rotation gives them; the floor
and the director are never refused for it. Decisions: docs/players.md, "Dealer rotation".

A **push** rotation of ``dealers`` over ``tables`` in rounds of ``minutes`` from ``start``: in
round ``k`` the dealer at place ``i`` of the list deals at table ``(i + k) mod n`` of the list
(``n`` the number of dealers), and is on a break when that number is past the last table. Each
dealer pushes the next table's dealer along; with more dealers than tables the extra ones rest in
turn.

>>> [place(i, k, dealers=3, tables=2) for k in range(3) for i in range(3)]
[0, 1, None, 1, None, 0, None, 0, 1]
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import abort, has_request_context, request
from sqlalchemy import JSON, ForeignKey, bindparam, exists, or_, select
from sqlalchemy.orm import Mapped, mapped_column

from floor import rows
from floor import tables as table_log
from floor.extensions import DbModel, db
from floor.localtime import local, utc_text
from floor.models import Role, Table, User, utcnow
from floor.prepared import Prepared
from rules import IllegalAction

#: How long a round may be, in minutes (a push every 10 minutes to every 2 hours).
MINUTES = (10, 120)


class Rotation(DbModel):
    """The room's push schedule; the latest made is the one in force (a new one replaces it)."""

    __tablename__ = "rotations"

    id: Mapped[int] = mapped_column(primary_key=True)
    start: Mapped[datetime] = mapped_column(default=utcnow)
    minutes: Mapped[int]
    dealer_ids: Mapped[list[int]] = mapped_column(JSON)
    table_ids: Mapped[list[int]] = mapped_column(JSON)
    made_at: Mapped[datetime] = mapped_column(default=utcnow)
    made_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    ended_at: Mapped[datetime | None]


class DealerAssignment(DbModel):
    """The floor's move by hand: ``dealer`` deals at ``table`` from ``start`` until ``until`` (the
    end of the round it was made in), over the schedule."""

    __tablename__ = "dealer_assignments"

    id: Mapped[int] = mapped_column(primary_key=True)
    dealer_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    start: Mapped[datetime] = mapped_column(default=utcnow)
    until: Mapped[datetime]
    made_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))


@dataclass(frozen=True)
class Slot:
    """A dealer at a table from a time until a time (UTC); ``by_hand``: the floor's move."""

    dealer: User
    table: Table
    start: datetime
    until: datetime
    by_hand: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"dealer": self.dealer.username, "table": self.table.id, "table_name": self.table.name,
                "from": utc_text(self.start), "until": utc_text(self.until), "by_hand": self.by_hand}


def place(i: int, k: int, dealers: int, tables: int) -> int | None:
    """The table (its place in the list) of the dealer at place ``i`` in round ``k``; None: a break."""
    at = (i + k) % dealers
    return at if at < tables else None


def in_force() -> Rotation | None:
    return db.session.scalars(db.select(Rotation).where(Rotation.ended_at.is_(None))
                              .order_by(Rotation.id.desc())).first()


def _user(value: Any) -> User:
    user = User.named(value) if isinstance(value, str) else None
    if user is None or not user.active:
        raise IllegalAction(f"rotation: there is no dealer {value!r}")
    return user


def make(dealers: Any, tables: Any, minutes: Any, by: User) -> Rotation:
    """A new push schedule from now, replacing the one in force."""
    if not isinstance(dealers, list) or not dealers or not all(isinstance(d, str) for d in dealers):
        raise IllegalAction("rotation: dealers is a list of user names")
    if not isinstance(tables, list) or not tables:
        raise IllegalAction("rotation: tables is a list of table ids")
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not MINUTES[0] <= minutes <= MINUTES[1]:
        raise IllegalAction(f"rotation: minutes is a whole number from {MINUTES[0]} to {MINUTES[1]}")
    users = [_user(d) for d in dealers]
    if len({u.id for u in users}) != len(users):
        raise IllegalAction("rotation: a dealer is named twice")
    chosen = []
    for t in tables:
        known = isinstance(t, int) and not isinstance(t, bool) and 0 < t < 2**63
        row = db.session.get(Table, t) if known else None
        if row is None:
            raise IllegalAction(f"rotation: there is no table {t!r}")
        chosen.append(row)
    if len({t.id for t in chosen}) != len(chosen):
        raise IllegalAction("rotation: a table is named twice")
    if len(users) < len(chosen):
        raise IllegalAction(f"rotation: {len(chosen)} tables need {len(chosen)} dealers at least, not {len(users)}")
    now = utcnow()
    old = in_force()
    if old is not None:
        old.ended_at = now
    rotation = Rotation(start=now, minutes=minutes, dealer_ids=[u.id for u in users],
                        table_ids=[t.id for t in chosen], made_by_id=by.id)
    db.session.add(rotation)
    db.session.flush()
    return rotation


def end(rotation: Rotation) -> None:
    """The room no longer rotates from now (the floor's moves by hand hold until their round ends)."""
    rotation.ended_at = utcnow()


def _round(rotation: Rotation, now: datetime) -> int:
    return max(0, int((now - rotation.start).total_seconds() // (rotation.minutes * 60)))


def _scheduled(rotation: Rotation, k: int) -> list[Slot]:
    start = rotation.start + timedelta(minutes=rotation.minutes * k)
    until = start + timedelta(minutes=rotation.minutes)
    slots = []
    for i, dealer_id in enumerate(rotation.dealer_ids):
        at = place(i, k, len(rotation.dealer_ids), len(rotation.table_ids))
        if at is not None:
            slots.append(Slot(db.session.get_one(User, dealer_id), db.session.get_one(Table, rotation.table_ids[at]),
                              start, until))
    return slots


def assign(dealer: Any, table: Table, by: User) -> DealerAssignment:
    """The floor sends ``dealer`` to ``table`` by hand, until the end of the round (an hour when
    the room does not rotate)."""
    user = _user(dealer)
    now = utcnow()
    rotation = in_force()
    if rotation is not None:
        until = rotation.start + timedelta(minutes=rotation.minutes * (_round(rotation, now) + 1))
    else:
        until = now + timedelta(hours=1)
    row = DealerAssignment(dealer_id=user.id, table_id=table.id, start=now, until=until, made_by_id=by.id)
    db.session.add(row)
    db.session.flush()
    return row


def _by_hand(now: datetime) -> dict[int, DealerAssignment]:
    moves = db.session.scalars(db.select(DealerAssignment).where(DealerAssignment.start <= now,
                                                                 DealerAssignment.until > now)
                               .order_by(DealerAssignment.id))
    return {row.dealer_id: row for row in moves}  # the latest move of each dealer holds


def slots(now: datetime | None = None, rounds: int = 2) -> list[Slot]:
    """Who deals where, this round and the next ``rounds - 1``: the schedule, with the floor's
    moves by hand over it in the round they were made. Empty when the room does not rotate."""
    now = now or utcnow()
    rotation = in_force()
    hand = _by_hand(now)
    out: list[Slot] = []
    if rotation is not None:
        k = _round(rotation, now)
        for r in range(k, k + rounds):
            for slot in _scheduled(rotation, r):
                moved = hand.get(slot.dealer.id) if r == k else None
                out.append(slot if moved is None else
                           Slot(slot.dealer, db.session.get_one(Table, moved.table_id), moved.start, moved.until, True))
    scheduled = {s.dealer.id for s in out if s.start <= now}
    for dealer_id, row in hand.items():  # a dealer moved by hand who is on a break, or not on the schedule
        if dealer_id not in scheduled:
            out.append(Slot(db.session.get_one(User, dealer_id), db.session.get_one(Table, row.table_id),
                            row.start, row.until, True))
    return sorted(out, key=lambda s: (s.start, s.dealer.username))


def now_and_next(dealer: User, now: datetime | None = None) -> tuple[Slot | None, Slot | None]:
    """The dealer's table now (None: a break, or the room does not rotate) and the next one."""
    now = now or utcnow()
    mine = [s for s in slots(now) if s.dealer.id == dealer.id]
    current = next((s for s in mine if s.start <= now < s.until), None)
    upcoming = next((s for s in mine if s.start > now or (current is not None and s.start >= current.until)), None)
    return current, upcoming


#: Whether anything binds a dealer's taps now: a rotation in force, or a move by hand of that dealer.
#: No ORM objects: every dealer's tap asks it, and in a room that does not rotate the answer is no
#: (issue 34: the two ORM queries it took were a seventh of a tap; run on the DB-API's cursor,
#: :mod:`floor.prepared`).
_BINDS = or_(
    exists().where(Rotation.__table__.c.ended_at.is_(None)),
    exists().where(DealerAssignment.__table__.c.dealer_id == bindparam("dealer"),
                   DealerAssignment.__table__.c.start <= bindparam("now"),
                   DealerAssignment.__table__.c.until > bindparam("now"))).label("bound")
#: The question alone, for a check whose table was read otherwise (the cash floor's seating).
_BOUND = Prepared(select(_BINDS))
#: A posted tap's table and the question, in one statement (:func:`table_to_tap`).
_TABLE_AND_BOUND = Prepared(rows.by_id(Table).add_columns(_BINDS))
#: Where :func:`table_to_tap` leaves its answer for :func:`dealer_may_log`: the request's own WSGI
#: environment, which lives as long as the request (``g`` may outlive it: an application context
#: pushed around several requests, in a command or a test).
_ANSWERED = "floor.rotation.bound"


def table_to_tap(table_id: int, user: User) -> Table:
    """The table a tap is posted at (404 when there is none), read in the same statement as
    :func:`dealer_may_log`'s question for ``user`` (issue 34, session 43: one statement a tap
    fewer). The answer is this request's, kept for this request's check: the same question, read
    a few lines earlier in the same request, not a value kept from another one."""
    now = utcnow()
    found = rows.first_with(Table, _TABLE_AND_BOUND, {"id": table_id, "dealer": user.id, "now": now})
    if found is None:
        abort(404)
    table, (bound,) = found
    request.environ[_ANSWERED] = (table.id, user.id, now, bool(bound))
    return table


def _bound(table: Table, user: User) -> tuple[datetime, bool]:
    """When, and whether anything bound ``user``'s taps then: as :func:`table_to_tap` read it for
    this request's table and user, else read now."""
    answered = request.environ.get(_ANSWERED) if has_request_context() else None
    if answered is not None and answered[0] == table.id and answered[1] == user.id:
        return answered[2], answered[3]
    now = utcnow()
    bound = _BOUND.first(db.session.connection(), {"dealer": user.id, "now": now})
    return now, bound is not None and bool(bound[0])


def dealer_may_log(table: Table, event: dict[str, Any], user: User | None) -> None:
    """A check of :data:`floor.tables.POSTED_CHECKS`: in a room that rotates, a dealer's tap at a
    table the rotation does not give them is refused (403) with where they deal and until when.
    The floor and the director are never refused for it."""
    if user is None or user.may(Role.floor):
        return
    now, bound = _bound(table, user)  # a move by hand holds that dealer only
    if not bound:
        return
    current, upcoming = now_and_next(user, now)
    if current is not None and current.table.id == table.id:
        return
    if current is not None:
        where = f"you deal at {current.table.label} until {local(current.until, '%H:%M')}"
    elif upcoming is not None:
        where = f"you are on a break; next {upcoming.table.label} at {local(upcoming.start, '%H:%M')}"
    else:
        where = "the rotation gives you no table"
    # by label: every event numbers its tables from 1, and "you deal at Table 1" did not say which
    raise table_log.NotYours(f"rotation: {table.label} is not your table now: {where}; the floor may move you by hand")


def init_app(app: Any) -> None:
    """Check every posted tap against the rotation, and give the templates ``my_rotation()``: the
    dealer's table now and the next (for the tablet)."""
    from flask_login import current_user

    if dealer_may_log not in table_log.POSTED_CHECKS:
        table_log.POSTED_CHECKS.append(dealer_may_log)

    def my_rotation() -> tuple[Slot | None, Slot | None]:
        if not current_user.is_authenticated:
            return None, None
        return now_and_next(current_user._get_current_object())

    app.context_processor(lambda: {"my_rotation": my_rotation})
