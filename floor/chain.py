"""A table's log as sealed: the only log the app reads (issues 20 and 30).

Every way the app reads a table's log goes through here: a replay or a catch-up of its state
(:mod:`floor.tables`), its past hands, their export and the night's lines (``hands``,
``hands.txt``, ``history``), and its log a page at a time (``GET /api/tables/<id>/events``).
Each entry read is checked against its seal and its link to the entry before, the log's end
against the table's sealed head, and the head against the room's witness
(:func:`check_record`): a log edited, cut back or put back as it was serves nothing anywhere,
as its state already did not (409, with the reason).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Protocol, TypeVar

from sqlalchemy import bindparam
from sqlalchemy.orm import selectinload

from floor import witness
from floor.extensions import db
from floor.models import LogEntry, Table
from floor.seals import SealBroken, same

_LOG = LogEntry.__table__

CALL_THE_DIRECTOR = ("Nothing is shown or logged at this table until a director puts the record right (`flask --app "
                     "floor verify` names what was changed; `flask --app floor restore` puts a backup back).")


class SealedEntry(Protocol):
    """What the chain check reads of a log entry: an ORM row or a row of the log's columns."""

    seq: int
    prev_digest: str
    digest: str


class SealedHead(Protocol):
    """What the chain check reads of a table, a jackpot or a banked one."""

    name: str
    version: int
    head_digest: str


#: A log entry: an ORM row or a row of its columns (both carry the same attributes).
Chained = TypeVar("Chained", bound=SealedEntry)


def check_head(table: Table) -> None:
    """Raise :class:`SealBroken` when the table's head seal does not match its row (its version, the
    end of its log, its setup)."""
    if not table.head_seal_intact:
        raise SealBroken(f"{table.name}: the table's seal does not match its version, the end of its log or its "
                         f"setup: they were changed outside the app. {CALL_THE_DIRECTOR}")


def check_record(table: Table) -> None:
    """The table's head against its seal and against the room's witness (a log cut back to an
    earlier head that was once valid): :class:`SealBroken` or :class:`floor.witness.RolledBack`.
    The witness first: a log cut back is named as a rollback, not as a broken seal."""
    witness.check_not_behind("table", table.id, table.version, table.head_digest)
    check_head(table)


#: The log's columns after an entry, up to a version (:func:`sealed_events`), built once.
_ENTRIES_AFTER = (db.select(*(_LOG.c[name] for name in ("table_id", "seq", "payload", "logged_by_id", "logged_at",
                                                         "prev_digest", "digest")))
                  .where(_LOG.c.table_id == bindparam("table"), _LOG.c.seq > bindparam("after"),
                         _LOG.c.seq <= bindparam("upto")).order_by(_LOG.c.seq))


def sealed_events(table: Table, after: int, prev: str) -> list[dict[str, Any]]:
    """The events of :func:`sealed_entries`, read as plain rows of the log's columns (no ORM
    objects: a replay or a catch-up needs the events and their seals, nothing else). Only for the
    ways to a state of :func:`floor.tables.table_state`, which has checked the record first."""
    # all fetched before any is checked: a refusal never leaves a cursor open on the database
    rows = db.session.execute(_ENTRIES_AFTER, {"table": table.id, "after": after, "upto": table.version}).all()
    return [row.payload for row in chain_checked(table, rows, after, prev)]


def sealed_entries(table: Table, after: int = 0, prev: str = "") -> list[LogEntry]:
    """The log's entries after entry ``after`` (whose digest is ``prev``) up to the table's version,
    each checked against its seal and its link to the one before, the last against the table's
    sealed head, the head against the witness: a state or a hand is only ever read from the sealed
    log. Raises :class:`SealBroken` or :class:`floor.witness.RolledBack`."""
    check_record(table)
    entries = db.session.scalars(db.select(LogEntry).where(LogEntry.table_id == table.id, LogEntry.seq > after,
                                                           LogEntry.seq <= table.version).order_by(LogEntry.seq))
    return chain_checked(table, entries, after, prev)


def _refused(table: SealedHead, seq: int) -> SealBroken:
    return SealBroken(f"{table.name}: entry {seq} of the log does not match its seal: the log was changed outside "
                      f"the app. {CALL_THE_DIRECTOR}")


def chain_checked(table: SealedHead, entries: Iterable[Chained], after: int, prev: str,
                  digest_of: Callable[[Any], str] = LogEntry.digest_of) -> list[Chained]:
    """``entries`` (the log after entry ``after``, whose digest is ``prev``), each checked against
    its seal (``digest_of``: a banked log's is its own) and its link to the one before, the last
    against the table's head (whose seal the caller has checked: :func:`check_head`)."""
    checked = linked(table, entries, after, prev, digest_of)
    if after + len(checked) != table.version or not same(checked[-1].digest if checked else prev, table.head_digest):
        raise SealBroken(f"{table.name}: the log does not end where the table's seal says: entries were removed "
                         f"outside the app. {CALL_THE_DIRECTOR}")
    return checked


def linked(table: SealedHead, entries: Iterable[Chained], after: int, prev: str,
           digest_of: Callable[[Any], str] = LogEntry.digest_of) -> list[Chained]:
    """``entries`` from entry ``after + 1`` on, each checked against its seal and linked from the one
    before (the first from ``prev``): :class:`SealBroken` naming the first that is not."""
    checked: list[Chained] = []
    expected = after + 1
    for entry in entries:
        if entry.seq != expected or not same(entry.prev_digest, prev) or not same(entry.digest, digest_of(entry)):
            raise _refused(table, min(entry.seq, expected))
        checked.append(entry)
        prev, expected = entry.digest, expected + 1
    return checked


def prefix_checked(table: Table, upto: int, digest: str) -> None:
    """Check the log's entries 1 to ``upto``, the last being ``digest``: a state resumed from a pot
    snapshot replays only the entries after it, and an entry edited before it must stop the table
    too (issue 30). Costs one seal per entry, once per table per server process's cache."""
    rows = db.session.execute(_ENTRIES_AFTER, {"table": table.id, "after": 0, "upto": upto}).all()
    checked = linked(table, rows, 0, "")
    if len(checked) != upto or not same(checked[-1].digest if checked else "", digest):
        raise _refused(table, len(checked) + 1)


def log_page(table: Table, after: int = 0, limit: int = 500) -> tuple[list[LogEntry], int | None]:
    """The log entries after sequence number ``after``, oldest first, at most ``limit`` of them,
    and the cursor of the next page (the ``seq`` to pass as ``after``; None on the last page); each
    entry checked against its seal and linked from the one before it, the table's record first."""
    check_record(table)
    prev = "" if after <= 0 else db.session.scalar(
        db.select(LogEntry.digest).where(LogEntry.table_id == table.id, LogEntry.seq == after))
    rows = list(db.session.scalars(
        db.select(LogEntry).where(LogEntry.table_id == table.id, LogEntry.seq > after, LogEntry.seq <= table.version)
        .order_by(LogEntry.seq).limit(limit + 1).options(selectinload(LogEntry.logged_by))))
    if prev is None and rows:
        raise _refused(table, after)
    more = len(rows) > limit
    rows = linked(table, rows[:limit], after, prev or "")
    return rows, (rows[-1].seq if more else None)
