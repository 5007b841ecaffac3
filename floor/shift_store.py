"""A closed shift's report is built once and served from storage (issue 34).

Building the report replays the log of every table of the shift and runs ``flask verify`` over the
whole history: 30 to 39 s a request on a full night. A shift whose window has ended reads the same
record on every request until something in the room changes, so its report is built once, stored
(:class:`ShiftReport`: the page's report, the PDF's report and, once asked for, the PDF) and served
from the database after that, by every server process and after a restart.

The stored copy is derived data: it is checked against the record at every request, never trusted
over it. It is served only when

- its row seal matches (it was not replaced in the database: a replaced one is never served, it is
  built again, and ``flask verify`` names it until then), and
- its key is the key of the room as it stands now (:func:`sources_key`), computed per request
  without a replay, a seal check or an ORM object.

What the key covers, and why it is the whole room rather than the shift's own tables: the report
reads more than the shift. Its "Flagged" section is ``flask verify`` over every table, ruling and
sealed row of the history and the room's witness (a tamper found a week later must show on last
week's report); its promotions are each pool as it stands now (every table's drops, every award);
its tournaments are their places as they stand now. So the key is a digest of

- every row of every table of the database the report or ``flask verify`` reads, as the database
  returns it (raw: no seal recomputed, no JSON parsed): the tables' logs and heads, pot snapshots,
  rulings and their confirmations, banked tables, logs and rulings, tournaments and their entries,
  clock moves, desk actions and bounties, promotion awards, findings, users, players, events, house
  profiles, the room's settings (its time zone) and keys, the stored prints of rulings, the
  witness's record in the database. Only the tables listed in :data:`NOT_READ` are left out (the
  floor's calls, waiting lists, rotation, rate limits, the health probe, the stored summaries and
  the stored shift reports themselves: nothing the report shows or verify checks comes from them);
- the room's witness as this process reads it (its last line and checkpoint): what verify checks
  the database against lives outside the database;
- the window, the report's templates (their source), the app's version and :data:`REPORT_FORMAT`.

So a late entry logged (or landing with an earlier time) in the window, a ruling issued or
confirmed, a correction, an award, a bounty, a finding filed, an entry or seal changed outside the
app: each changes a row, the key differs, and the next request builds the report again and stores
it in place of the old one. A change made while a report is being built makes the next request
build again (the key is read before the build). The price: while tables are still dealing, any tap
anywhere changes the key, so a closed shift's report is rebuilt on the first request after each
change; once the room is quiet (the night over), every request is served from storage. Reading the
rows is linear in the history, as ``flask verify`` is, but 40 times cheaper than the build on a
night of 15,000 log entries (bench/bench_shift.py; docs/benchmarks.md).

A window that has not ended (``to`` in the future, or ``hours``: the last hours up to now, a window
that moves with every request) is never stored: it is built on each request, as before.

While tables still deal, the key moves with every tap, so a report asked for "as it stands now"
would be built again and again and never served (issue 34, session 44). So each stored report keeps,
under its seal, the moment its key was read (``as_of``: the record as it stood then), and a request
may ask for the report as the record stood at or after a moment (``since``): the stored one is
served when it was read at or after that moment, even though the room has moved on since, and the
page says as of when. :mod:`floor.shift_jobs` builds it outside the request and asks so.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from flask import current_app
from sqlalchemy import DateTime, LargeBinary, String, UniqueConstraint
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from floor import witness
from floor.extensions import DbModel, db
from floor.models import utcnow
from floor.pdf import WEASYPRINT_VERSION, pdf_bytes
from floor.sealed import SealedRow, trust

__all__ = ["ShiftReport", "REPORT_FORMAT", "NOT_READ", "KEPT", "Served", "sources_key", "served", "stored",
           "stored_by_id", "stored_pdf"]

#: Bumped when what a stored report holds, or how it is keyed, changes beyond its templates.
REPORT_FORMAT = "2"
#: The database's tables that nothing in the report, nor ``flask verify``, reads: left out of the key
#: so that a floor call, a waiting list or a login attempt does not make a closed shift build again.
NOT_READ = frozenset({"banked_calls", "floor_calls", "dealer_assignments", "health_probe", "must_move_games",
                      "rate_limits", "rotations", "seat_changes", "summary_prints", "waiting_list_entries",
                      "waiting_lists", "shift_reports"})
#: The templates a stored report is rendered from (their source is in the key).
TEMPLATES = ("floorpages/shift.html", "floorpages/_shift_report.html", "tournament/_print.html")
#: How many stored reports are kept (the most recently made): a room asks for the last few shifts.
KEPT = 60


class ShiftReport(SealedRow, DbModel):
    """A closed shift's report as built: ``page`` (the report's part of the page), ``print`` (the
    same for the PDF), both HTML compressed (:func:`packed`: a full night's page is several hundred
    thousand characters, past what a text column takes), and ``pdf`` (laid out on the first request
    for it), for the window ``start``..``end`` (stored UTC), under the ``key`` of the room it was
    built from (see the module). Under its own row seal: one replaced in the database is never
    served."""

    __tablename__ = "shift_reports"
    __table_args__ = (UniqueConstraint("start", "end", name="uq_shift_reports_window"),)
    SEALED = ("start", "end", "key", "as_of", "page", "print", "pdf")
    # Derived data, checked against the room at every request, as a ruling's stored print: the
    # witness keeps no line of it (see floor.rulings.printed).
    WITNESSED = False

    id: Mapped[int] = mapped_column(primary_key=True)
    start: Mapped[datetime] = mapped_column(DateTime)
    end: Mapped[datetime] = mapped_column(DateTime)
    key: Mapped[str] = mapped_column(String(64))
    as_of: Mapped[datetime] = mapped_column(DateTime)
    page: Mapped[bytes] = mapped_column(LargeBinary)
    print: Mapped[bytes] = mapped_column(LargeBinary)
    pdf: Mapped[bytes | None] = mapped_column(LargeBinary)
    made_at: Mapped[datetime] = mapped_column(default=utcnow)


def sources_key(start: datetime, end: datetime) -> str:
    """The digest of everything the report of ``start``..``end`` reads, as it stands now (see the
    module): every row of the tables not in :data:`NOT_READ`, the witness's last line and
    checkpoint, the window, the templates, the app's version and :data:`REPORT_FORMAT`."""
    digest = hashlib.sha256()
    loader = current_app.jinja_env.loader
    sources = [loader.get_source(current_app.jinja_env, name)[0] for name in TEMPLATES] if loader else []
    fold = witness.seen()
    for part in (REPORT_FORMAT, WEASYPRINT_VERSION, current_app.config.get("FLOOR_VERSION", ""), start.isoformat(),
                 end.isoformat(), *sources, repr(sorted(fold.head.items())), repr(fold.checkpoint)):
        digest.update(part.encode() + b"\0")
    connection = db.session.connection()
    quote = connection.dialect.identifier_preparer.quote
    for name in sorted(db.metadata.tables):
        if name in NOT_READ:
            continue
        table = db.metadata.tables[name]
        columns = ", ".join(quote(c.name) for c in table.columns)
        order = ", ".join(quote(c.name) for c in (table.primary_key.columns or table.columns))
        digest.update(f"\0{name}\0".encode())
        # the rows as the driver returns them: no type processing (JSON parsed, times read), no ORM
        rows = connection.exec_driver_sql(f"SELECT {columns} FROM {quote(name)} ORDER BY {order}")
        binary = [i for i, column in enumerate(table.columns) if isinstance(column.type, LargeBinary)]
        for chunk in rows.partitions(2000):  # many rows at a time: one call each, bounded memory
            if not binary:
                digest.update(repr([tuple(row) for row in chunk]).encode())
                continue
            for row in chunk:  # a stored PDF's bytes are hashed as they are (their repr is four times longer)
                values = list(row)
                for i in binary:
                    data, values[i] = values[i], None
                    digest.update(b"\1" + bytes(data or b""))
                digest.update(repr(values).encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class Served:
    """A report as served: its page's part and its print's part (HTML), and whether it was built for
    this request (``built``) or read from storage; ``row_id`` the stored row (None: not stored),
    ``as_of`` when its record was read (None: an open window's, read now) and ``pdf`` its PDF when
    one is stored with it."""

    page: str
    print: str
    built: bool
    row_id: int | None
    as_of: datetime | None = None
    pdf: bytes | None = field(default=None, repr=False)


def _as_served(row: ShiftReport) -> Served:
    return Served(unpacked(row.page), unpacked(row.print), False, row.id, row.as_of,
                  bytes(row.pdf) if row.pdf is not None else None)


def _fits(row: ShiftReport, key: Callable[[], str], since: datetime | None, stored_after: datetime | None) -> bool:
    """Whether the stored ``row``, its seal checked by the caller, may be served: it was read at or
    after ``since``, or stored at or after ``stored_after`` (the job a waiter found under way), or its
    key is the room's now (``key()``, read only when the moments do not settle it)."""
    if since is not None and row.as_of >= since:
        return True
    if stored_after is not None and row.made_at >= stored_after:
        return True
    return row.key == key()


def _stored_row(start: datetime, end: datetime) -> ShiftReport | None:
    return db.session.scalars(db.select(ShiftReport).filter_by(start=start, end=end)).first()


def stored(start: datetime, end: datetime, since: datetime | None = None) -> Served | None:
    """The stored report of the closed window ``start``..``end`` when it may be served (its seal
    matches; read at or after ``since``, or its key is the room's now), else None: no build."""
    row = _stored_row(start, end)
    if row is None or not _intact(row, "building it afresh"):
        return None
    return _as_served(row) if _fits(row, lambda: sources_key(start, end), since, None) else None


def stored_by_id(row_id: int) -> Served | None:
    """The stored report ``row_id`` (the one a job's process named) when its seal matches, else None
    (gone, pruned, or changed behind the app's back: never served, as :func:`stored`)."""
    row = db.session.get(ShiftReport, row_id)
    return _as_served(row) if row is not None and _intact(row, "not served") else None


def _intact(row: ShiftReport, then: str) -> bool:
    """Whether the stored ``row``'s seal matches; logged, with what ``then`` follows, when it does not."""
    intact = row.row_seal_intact  # a digest of the whole row: read once
    if not intact:
        current_app.logger.warning("the stored shift report %s to %s does not match its seal; %s", row.start,
                                   row.end, then)
    return intact


def served(start: datetime, end: datetime, closed: bool, render: Callable[[], tuple[str, str]],
           since: datetime | None = None, stored_after: datetime | None = None) -> Served:
    """The report of ``start``..``end``: for a ``closed`` window the stored one when it may be served
    (:func:`stored`'s rule; ``stored_after``: or stored since that moment), else ``render()`` (the
    build: the page's part and the print's part) and, for a closed window, stored in place of the
    old one, under the moment its key was read."""
    if not closed:
        page, printed = render()
        return Served(page, printed, True, None)
    as_of = utcnow()
    key = sources_key(start, end)  # before the build: a change during it makes the next request build again
    row = _stored_row(start, end)
    intact = row is None or _intact(row, "building it afresh")  # a digest of the whole row: read once
    if row is not None and intact and _fits(row, lambda: key, since, stored_after):
        return _as_served(row)
    page, printed = render()
    db.session.rollback()  # the build's reads end here (verify ends its snapshot so too)
    if row is not None and not intact:
        trust(db.session(), row)  # derived data: made again from the record and sealed anew
    if row is None:
        row = ShiftReport(start=start, end=end)
        db.session.add(row)
    row.key, row.as_of, row.made_at = key, as_of, utcnow()
    row.page, row.print, row.pdf = packed(page), packed(printed), None
    try:
        db.session.commit()
    except IntegrityError:
        # another server process stored this window's first report at the same moment: theirs is as
        # good as ours (the next request checks its key like any other)
        db.session.rollback()
        return Served(page, printed, True, None, as_of)
    _prune()
    return Served(page, printed, True, row.id, as_of)


def stored_pdf(report: Served, print_html: str) -> bytes:
    """The PDF of ``print_html`` (the report's print in its page): the stored report's, laid out on its
    first request and kept with it; laid out every time for a report that is not stored."""
    row = db.session.get(ShiftReport, report.row_id) if report.row_id is not None else None
    same = row is not None and row.row_seal_intact and unpacked(row.print) == report.print
    if same and row is not None and row.pdf is not None:
        return bytes(row.pdf)
    data = pdf_bytes(print_html)
    if same and row is not None:
        row.pdf = data
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
    return data


def packed(html: str) -> bytes:
    """A report's HTML as stored: UTF-8, compressed (a night's page is about a tenth of its size).

    >>> unpacked(packed("<p>Table 9</p>")), len(packed("<td>0</td>" * 10_000)) < 1_000
    ('<p>Table 9</p>', True)
    """
    return zlib.compress(html.encode(), 6)


def unpacked(data: bytes) -> str:
    """A stored report's HTML (:func:`packed`)."""
    return zlib.decompress(bytes(data)).decode()


def _prune() -> None:
    """Keep the :data:`KEPT` most recently made reports (a report put away is built again if asked for)."""
    old = db.select(ShiftReport.id).order_by(ShiftReport.made_at.desc(), ShiftReport.id.desc()).offset(KEPT)
    ids = list(db.session.scalars(old))
    if ids:
        db.session.execute(db.delete(ShiftReport).where(ShiftReport.id.in_(ids)))
        db.session.commit()
