"""Writing the room's witness, anchored in the database (issue 30).

The database and the witness each hold the other's reach. The witness holds the database's: how far
each log reached, every sealed row's seal. The database holds the witness's: ``witness_reach``, one
sealed row saying up to which line, with which link, the witness reached with this database's last
commit, and the lines of that commit themselves (``pending``), and ``witness_checkpoints``, every
checkpoint.

**Write ahead.** A transaction that did something the witness keeps (:func:`note`, and the session
hooks below) takes the witness's lock before it commits, reads the witness's head, numbers and
links its lines from there, writes them into ``witness_reach`` *in the same transaction*, commits,
then appends them to the witness and lets go of the lock. So every commit the database holds is
accounted for by a line: the witness's, or, after a crash between the commit and the append, the
database's own copy, which the next write (or the next start) appends first (:func:`repair`).
There is no gap to excuse, and so none an auditor can hide behind:

- a witness shorter than the database remembers (deleted, cut back at a line boundary, an old copy
  put back) and not made whole by ``pending`` is a fault: nothing is served
  (:func:`floor.witness.room.require_sound`), nothing is written, never a fresh start;
- a database whose record is behind the witness (rolled back, or an old backup put back without
  ``flask restore``) writes nothing (:class:`floor.witness.room.RolledBack`);
- a witness that another database's record would match is not this one's (the links differ).

Lock order: a SQLite writer takes the database's write lock (its first write) before the
witness's lock (at its commit); a PostgreSQL writer takes its rows' locks before the witness's
lock, and then only ``witness_reach``'s, which only a holder of the witness's lock writes. No
writer waits for the witness's lock while holding what another holder of it waits for.

**Checkpoints.** Every ``FLOOR_CHECKPOINT_LINES`` lines (1,000) or ``FLOOR_CHECKPOINT_MINUTES``
(15) after the last, the commit that crosses the mark adds a ``checkpoint`` line: the fold's state
there, sealed by its link. It goes into ``witness_checkpoints`` in the same transaction, at the
head of a new live segment when the old one is full, and to the room's collector after the commit
(:mod:`floor.witness.collector`). An epoch (start, restore, adopt, upgrade) is a checkpoint too.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import current_app, has_app_context, request
from sqlalchemy import JSON, String, Text, bindparam, cast, event, inspect, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Mapped, Session, mapped_column

from floor.extensions import DbModel, db
from floor.prepared import Prepared
from floor.seals import Stored, keyed_digest, same, seal_key, set_member, sum_text
from floor.witness.lines import (ADOPT, APPEND, BANKED_APPEND, BANKED_RULING, BANKED_TABLE, CHECKPOINT, CONFIRM,
                                 RESTORE, RULING, SETS, START, TABLE, chain, encode, link_of, spelled)
from floor.witness.collector import send
from floor.witness.room import RolledBack, Room, room
from floor.witness.store import WitnessLost


class WitnessReach(DbModel):
    """The database's record of the witness (one row, id 1): see the module."""

    __tablename__ = "witness_reach"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    n: Mapped[int]
    link: Mapped[str] = mapped_column(String(64))
    checkpoint: Mapped[int] = mapped_column(default=0)
    pending: Mapped[list[Any]] = mapped_column(JSON)
    at: Mapped[datetime]
    seal: Mapped[str] = mapped_column(String(64))


class WitnessCheckpoint(DbModel):
    """A checkpoint (or an epoch) of the witness, as the database keeps it: the whole line."""

    __tablename__ = "witness_checkpoints"

    n: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime]
    link: Mapped[str] = mapped_column(String(64))
    line: Mapped[dict[str, Any]] = mapped_column(JSON)


#: The two tables as Core tables, read from the metadata, where they are typed as tables.
_REACH = WitnessReach.metadata.tables[WitnessReach.__tablename__]
_CHECKPOINTS = WitnessCheckpoint.metadata.tables[WitnessCheckpoint.__tablename__]
#: The statements every commit runs on the record's one row, built once (issue 34: building them
#: again at each commit cost a tap more than running them). The update's values are its parameters.
_READ_REACH = select(_REACH).where(_REACH.c.id == 1)
_MOVE_REACH = _REACH.update().where(_REACH.c.id == 1)
#: The record moved on only from the very row this process wrote last, every column of it but the
#: time (see :func:`_prepare`): its pending lines compared as the JSON text stored. Most taps' commit
#: runs it, on the DB-API's cursor (:mod:`floor.prepared`); its values are named ``to_<column>``.
_MOVE_OWN_REACH = Prepared(_REACH.update().where(
    _REACH.c.id == 1, _REACH.c.n == bindparam("was_n"), _REACH.c.link == bindparam("was_link"),
    _REACH.c.checkpoint == bindparam("was_checkpoint"), _REACH.c.seal == bindparam("was_seal"),
    cast(_REACH.c.pending, Text) == bindparam("was_pending", type_=Text))
    .values({name: bindparam(f"to_{name}") for name in ("n", "link", "checkpoint", "pending", "at", "seal")}))


def reach_row(connection: Any) -> Any:
    """The database's record of how far the witness reached (None before its first line)."""
    return connection.execute(_READ_REACH).first()


def reach_seal(n: int, link: str, checkpoint: int, pending: list[dict[str, Any]], key: bytes | None = None) -> str:
    return keyed_digest({"witness_reach": n, "link": link, "checkpoint": checkpoint,
                         "pending": [line.get("link") for line in pending]}, key)


def note(session: Session, act: dict[str, Any]) -> None:
    """Note an act of this transaction that the witness keeps (written with its commit)."""
    session.info.setdefault("floor_witness", []).append(act)


# --------------------------------------------------------------------------- the database as it stands

#: The kinds whose tables a migration after the record's anchor (c3f9a1e7d2b8) makes: that
#: migration's epoch counts none of them (issue 32's promotion awards).
LATER_SETS = frozenset({"promotion_awards"})


def set_rows(connection: Any, kind: str) -> Any:
    """The (id, seal) of every row of one kind the witness sums (:data:`floor.witness.lines.SETS`)."""
    if kind in ("rulings", "banked_rulings"):
        sql = f"SELECT id, digest FROM {kind} WHERE digest <> ''"
    elif kind == "confirms":
        sql = "SELECT id, confirmation_digest FROM rulings WHERE confirmed_by_id IS NOT NULL"
    else:
        if kind in LATER_SETS and not inspect(connection).has_table(kind):
            return iter(())  # an upgrade at the record's anchor, before the migration that makes it
        sql = f"SELECT id, row_seal FROM {kind} WHERE row_seal <> ''"
    return connection.execute(text(sql))


def database_state(connection: Any, key: bytes) -> dict[str, Any]:
    """The database as an epoch records it: the state a fold would hold (see lines.Seen.state)."""
    sums, counts = {}, {}
    for kind in SETS:
        total = count = 0
        for row_id, digest in set_rows(connection, kind):
            total, count = total + set_member(kind, row_id, digest, key), count + 1
        sums[kind], counts[kind] = sum_text(total), count
    return {
        "tables": {str(i): [v, d or ""] for i, v, d in connection.execute(
            text("SELECT id, version, head_digest FROM tables ORDER BY id"))},
        "banked": {str(i): [v, d or ""] for i, v, d in connection.execute(
            text("SELECT id, version, head_digest FROM banked_tables ORDER BY id"))},
        "users": {str(i): s for i, s in connection.execute(text("SELECT id, row_seal FROM users ORDER BY id"))},
        "pending": [i for (i,) in connection.execute(text(
            "SELECT id FROM rulings WHERE by_rules = :yes AND confirmed_by_id IS NULL ORDER BY id"), {"yes": True})],
        "sums": sums, "counts": counts,
    }


# --------------------------------------------------------------------------- what a transaction did

@event.listens_for(Session, "after_flush")
def _collect(session: Session, _context: Any) -> None:
    """Note what this flush wrote that the witness keeps: log entries and tables made through the
    ORM, rulings sealed, confirmations (the sealed rows note themselves: floor.sealed)."""
    for obj in session.new:
        name = getattr(obj, "__tablename__", None)
        if name in ("log_entries", "banked_entries"):
            note(session, {"kind": APPEND if name == "log_entries" else BANKED_APPEND, "table": obj.table_id,
                           "seq": obj.seq, "digest": obj.digest})
        elif name in ("tables", "banked_tables"):
            note(session, {"kind": TABLE if name == "tables" else BANKED_TABLE, "table": obj.id})
        elif name in ("rulings", "banked_rulings") and obj.digest:
            note(session, _ruling_act(obj, name, ""))
    for obj in session.dirty:
        name = getattr(obj, "__tablename__", None)
        if name not in ("rulings", "banked_rulings"):
            continue
        attrs = inspect(obj).attrs
        if attrs.digest.history.has_changes() and obj.digest:
            note(session, _ruling_act(obj, name, (attrs.digest.history.deleted or [""])[0] or ""))
        if name == "rulings" and attrs.confirmation_digest.history.has_changes() and obj.confirmation_digest:
            note(session, {"kind": CONFIRM, "ruling": obj.id, "digest": obj.confirmation_digest,
                           "was": (attrs.confirmation_digest.history.deleted or [""])[0] or ""})


def _ruling_act(obj: Any, name: str, was: str) -> dict[str, Any]:
    act = {"kind": RULING if name == "rulings" else BANKED_RULING, "ruling": obj.id, "digest": obj.digest, "was": was}
    if name == "rulings" and obj.by_rules and obj.confirmed_by_id is None:
        act["pending"] = True
    return act


def _flush_all(session: Session) -> None:
    """Flush until nothing is left: a seal set after one flush is written by the next."""
    for _ in range(10):
        if not (session.new or session.deleted or any(session.is_modified(o) for o in session.dirty)):
            return
        session.flush()


@event.listens_for(Session, "before_commit")
def _anchor(session: Session) -> None:
    """Take the witness's lock, number this transaction's lines and write them into the database's
    record of the witness, in the transaction about to commit (see the module)."""
    if not has_app_context():
        return
    the_room = current_app.extensions.get("floor_witness")
    if the_room is None:
        return
    _flush_all(session)
    info = session.info
    acts = info.pop("floor_witness", None) or []
    epoch = info.pop("floor_witness_epoch", None)
    force = info.pop("floor_witness_checkpoint", False)  # `flask checkpoint`: one now
    if not acts and epoch is None and not force:
        return
    lock = the_room.store.lock()
    lock.__enter__()
    try:
        prepared = _prepare(the_room, session, acts, epoch, force)
    except BaseException:
        lock.__exit__(None, None, None)
        raise
    info["floor_witness_held"] = (lock, the_room, *prepared)


@event.listens_for(Session, "after_commit")
def _append(session: Session) -> None:
    """Append the committed lines to the witness, then let go of its lock."""
    held = session.info.pop("floor_witness_held", None)
    if held is None:
        return
    lock, the_room, lines, raws, checkpoint, written = held
    the_room.written = None
    try:
        if checkpoint is not None and checkpoint["kind"] == CHECKPOINT:  # the last line: it may begin a segment
            the_room.store.append(raws[:-1], raws[-1])
        else:
            the_room.store.append(raws)
        the_room.read_own(lines)
        the_room.written = written
    except Exception:  # the database holds the lines (witness_reach.pending): the next write appends them
        current_app.logger.exception("the room's witness could not be written (%s)", the_room.store.name)
    finally:
        lock.__exit__(None, None, None)
    if checkpoint is not None:
        send(checkpoint)


@event.listens_for(Session, "after_rollback")
def _let_go(session: Session) -> None:
    session.info.pop("floor_witness", None)
    session.info.pop("floor_witness_epoch", None)
    held = session.info.pop("floor_witness_held", None)
    if held is not None:
        held[0].__exit__(None, None, None)


def _now() -> tuple[datetime, str]:
    moment = datetime.now(UTC).replace(tzinfo=None)
    return moment, moment.isoformat(timespec="seconds") + "Z"


def _prepare(the_room: Room, session: Session, acts: list[dict[str, Any]], epoch: dict[str, Any] | None,
             force: bool = False) -> tuple[list[dict[str, Any]], list[bytes], dict[str, Any] | None, tuple[Any, ...]]:
    """This transaction's lines, numbered and linked from the witness's head, written into the
    database's record of the witness (and the checkpoint, when one is due); the lines, as the
    witness stores them, the checkpoint and the record as written.

    The record is checked against the witness first (its seal, and how far each reached). When this
    process wrote it last and the witness has not moved since (no other process wrote: the commit
    after a commit of this worker's, most taps of a table), the update itself is the check (issue
    34: the read, its seal and its JSON were a twentieth of a tap): it moves the record on only
    from the very row this process wrote (its line, link, checkpoint, pending lines and seal), and
    the witness's head is that line and link, so the record matches the witness and its seal is
    good. Any other row (changed outside the app, rolled back, another process's) moves nothing,
    and the record is read and checked as always: a record changed outside the app is named, never
    overwritten."""
    key = seal_key()
    connection = session.connection()
    fold = the_room.read_on()
    mine = the_room.written if epoch is None else None
    if mine is not None and mine[0] == fold.n and same(mine[1], fold.link):
        start, prev, last_checkpoint = fold.n, fold.link, mine[2]
    else:
        mine = None
        start, prev, last_checkpoint, epoch, fold = _checked_reach(the_room, connection, fold, epoch, key)
    moment, stamp = _now()
    body: list[dict[str, Any]] = acts
    if epoch is not None:  # the state counts this transaction's own acts already
        body = [{**epoch, "state": database_state(connection, key)}]
    lines = chain(body, start, prev, stamp, key)
    checkpoint = lines[0] if epoch is not None else None
    head_n, head_link = (lines[-1]["n"], lines[-1]["link"]) if lines else (start, prev)
    if checkpoint is None and (force or _due(the_room, fold, head_n - last_checkpoint, moment)):
        scratch = fold.clone()
        for line in lines:
            scratch.take(line)
        checkpoint = chain([{"kind": CHECKPOINT, "state": scratch.state()}], head_n, head_link, stamp, key)[0]
        lines.append(checkpoint)
    if checkpoint is not None:
        last_checkpoint = checkpoint["n"]
    last = lines[-1]
    # Each line spelled once, as the witness stores it; the pending lines are the JSON array of
    # those texts, which the JSON column stores as it is: the text written is the text the next
    # move compares, and the witness's lines are its members, byte for byte.
    texts = [spelled(line) for line in lines]
    pending = Stored("[" + ",".join(texts) + "]")
    values = {"n": last["n"], "link": last["link"], "checkpoint": last_checkpoint, "pending": pending, "at": moment,
              "seal": reach_seal(last["n"], last["link"], last_checkpoint, lines, key)}
    if mine is not None:
        moved = _MOVE_OWN_REACH.rowcount(connection, {
            "to_n": values["n"], "to_link": values["link"], "to_checkpoint": last_checkpoint, "to_pending": pending,
            "to_at": moment, "to_seal": values["seal"], "was_n": mine[0], "was_link": mine[1],
            "was_checkpoint": mine[2], "was_seal": mine[3], "was_pending": mine[4]})
        if moved != 1:
            the_room.written = None  # not the row this process wrote: read it and check it
            return _prepare(the_room, session, acts, epoch, force)
    elif connection.execute(_MOVE_REACH, values).rowcount == 0:
        connection.execute(_REACH.insert().values(id=1, **values))
    if checkpoint is not None:
        connection.execute(_CHECKPOINTS.insert().values(
            n=checkpoint["n"], kind=checkpoint["kind"], at=moment, link=checkpoint["link"], line=checkpoint))
    for line in lines:
        if line["kind"] in (RULING, BANKED_RULING):
            table = "rulings" if line["kind"] == RULING else "banked_rulings"
            connection.execute(text(f"UPDATE {table} SET witness_line = :n WHERE id = :id"),
                               {"n": line["n"], "id": line["ruling"]})
    raws = [(text + "\n").encode() for text in texts]
    return lines, raws, checkpoint, (values["n"], values["link"], values["checkpoint"], values["seal"], str(pending))


def _checked_reach(the_room: Room, connection: Any, fold: Any, epoch: dict[str, Any] | None,
                   key: bytes) -> tuple[int, str, int, dict[str, Any] | None, Any]:
    """The database's record of the witness, read and held against its seal and the witness (the
    lines the database holds and the witness lacks appended first): where this transaction's lines
    begin (line and link), the record's last checkpoint, the epoch to write (a ``start`` for a new
    installation), and the witness as read now."""
    reach = reach_row(connection)
    if reach is not None and not same(reach.seal, reach_seal(reach.n, reach.link, reach.checkpoint,
                                                                reach.pending or [], key)):
        raise WitnessLost("the database's record of the room's witness (witness_reach) does not match its seal: it "
                          "was changed outside the app")
    kind = epoch["kind"] if epoch is not None else None
    known = reach.n if reach is not None else 0
    if kind == ADOPT:
        start, prev = known, (reach.link if reach is not None else "")
    else:
        if known > fold.n:
            _append_pending(the_room, reach.pending or [], fold.n)
            fold = the_room.read_on()
        if known > fold.n:
            raise WitnessLost(f"the room's witness ({the_room.store.name}) ends at line {fold.n}, but the database "
                              f"remembers it reaching line {known}: nothing is logged until it is put back, or a "
                              "director records a new one (`flask --app floor witness adopt`)")
        if known < fold.n and kind != RESTORE:
            raise RolledBack(f"the database's record of the room's witness ends at line {known}, the witness at line "
                             f"{fold.n}: the database was rolled back, or a backup put back without `flask restore`. "
                             "Nothing is logged until a director restores it with `flask --app floor restore`.")
        if known and known == fold.n and not same(reach.link, fold.link) and kind != RESTORE:
            raise WitnessLost(f"the room's witness ({the_room.store.name}) is not the one this database remembers: "
                              f"its line {known} differs")
        start, prev = fold.n, fold.link
    if epoch is None and start == 0:
        if holds_records():
            raise WitnessLost("the database holds sealed records but no record of the room's witness, which is empty: "
                              "both were removed. Nothing is logged until they are put back, or a director records "
                              "a new witness (`flask --app floor witness adopt`)")
        epoch = {"kind": START, "source": "the database as it stood when the witness began"}
    return start, prev, reach.checkpoint if reach is not None else 0, epoch, fold


def holds_records() -> bool:
    """Whether the database, as committed, holds anything the witness would have seen: a witness
    begins (``start``) only for a database that holds none (a new installation)."""
    with db.engine.connect() as connection:
        for sql in ("SELECT 1 FROM users WHERE row_seal <> ''", "SELECT 1 FROM tables", "SELECT 1 FROM rulings",
                    "SELECT 1 FROM banked_tables", "SELECT 1 FROM witness_checkpoints"):
            if connection.execute(text(sql + " LIMIT 1")).first() is not None:
                return True
    return False


def _due(the_room: Room, fold: Any, since: int, moment: datetime) -> bool:
    """Whether the commit that brings the witness ``since`` lines past its last checkpoint takes one."""
    if since >= the_room.checkpoint_lines:
        return True
    last = (fold.checkpoint or {}).get("at")
    if not last:
        return False
    try:
        then = datetime.fromisoformat(str(last).rstrip("Z"))
    except ValueError:
        return False
    return (moment - then).total_seconds() >= the_room.checkpoint_minutes * 60


def _append_pending(the_room: Room, pending: list[dict[str, Any]], head: int) -> bool:
    """Append the lines the database holds and the witness lacks, when they follow its head exactly
    (a crash between a commit and its witness lines); under the witness's lock."""
    missing = [line for line in pending if int(line.get("n", 0)) > head]
    key = seal_key()
    if not missing or missing[0]["n"] != head + 1 or (head and not same(missing[0].get("prev"), the_room.fold.link
                                                                         if the_room.fold else "")):
        return False
    if any(not same(line.get("link"), link_of(line, key)) for line in missing):
        return False
    resume = missing[-1] if missing[-1]["kind"] == CHECKPOINT else None
    the_room.store.append([encode(line) for line in missing if line is not resume],
                          encode(resume) if resume is not None else None)
    current_app.logger.warning("the room's witness lacked lines %s to %s of the last commit; written from the "
                               "database's record", missing[0]["n"], missing[-1]["n"])
    return True


def repair(the_room: Room) -> None:
    """At a process's first request: append the lines the database holds and the witness lacks
    (:func:`_append_pending`), under the witness's lock."""
    with the_room.store.lock(), db.engine.connect() as connection:
        fold = the_room.read_on()
        reach = reach_row(connection)
        if reach is not None and reach.n > fold.n:
            _append_pending(the_room, reach.pending or [], fold.n)


def require_sound() -> None:
    """Before the first request a process serves (and every request while the witness is at
    fault): hold the witness against the database's record of it. A witness missing, or shorter
    than the database remembers (and not made whole by the lines the database holds for it: a
    crash between a commit and its witness line), is a fault: every request answers 503 with the
    reason, never a fresh start."""
    the_room = room()
    if request.endpoint == "static" or (the_room.sound and the_room.fault is None):
        return
    if the_room.fault is not None:
        the_room.forget()  # read the witness again: it may have been put back, or a new one adopted
    try:
        with db.engine.connect() as connection:
            reach = reach_row(connection)
    except SQLAlchemyError:  # the database does not answer: each view says so (the health check: 503)
        return
    fold = the_room.read_on()
    if reach is not None and reach.n > fold.n:
        repair(the_room)
        fold = the_room.read_on()
        if reach.n > fold.n:
            the_room.fault = (f"the room's witness ({the_room.store.name}) ends at line {fold.n}, but the database "
                              f"remembers it reaching line {reach.n}: it was removed, cut back or replaced. Nothing is "
                              "served until it is put back, or a director records that this host begins a new one "
                              "(`flask --app floor witness adopt --reason ...`; see docs/record.md)")
            raise WitnessLost(the_room.fault)
    the_room.sound = True


def epoch(kind: str, source: str, by: str) -> dict[str, Any]:
    """Write an epoch (``restore``, ``adopt``, ``upgrade``): the record begins anew from the
    database as it stands, an explicit act of the operator; returns the witness's head."""
    session = db.session()
    if db.engine.dialect.name == "sqlite":
        # the database's write lock before the witness's, as every writer takes them (see the module)
        session.execute(text("UPDATE witness_reach SET n = n WHERE id = 1"))
    session.info["floor_witness_epoch"] = {"kind": kind, "source": source, "by": by}
    session.commit()
    return room().read_on().head


def upgrade_epoch(connection: Any, source: str, by: str) -> None:
    """From the migration that brought the sealed rows (issue 30): an ``upgrade`` epoch at the head
    of a witness kept from before (a ``start`` for a database that had none), recording the
    database as the migration leaves it, and the database's first record of the witness. The line
    is appended before the migration commits (a migration that fails after it leaves a witness
    ahead of the database: run the upgrade again, which writes the epoch anew after it)."""
    from floor.witness.lines import UPGRADE

    the_room = room()
    key = seal_key()
    with the_room.store.lock():
        the_room.forget()
        fold = the_room.read_on()
        kind = UPGRADE if fold.n else START
        if kind == START:
            source = "the database as the upgrade found it, the first witness of this installation"
        moment, stamp = _now()
        line = chain([{"kind": kind, "source": source, "by": by, "state": database_state(connection, key)}],
                     fold.n, fold.link, stamp, key)[0]
        connection.execute(_CHECKPOINTS.insert().values(n=line["n"], kind=line["kind"], at=moment,
                                                                       link=line["link"], line=line))
        connection.execute(_REACH.insert().values(
            id=1, n=line["n"], link=line["link"], checkpoint=line["n"], pending=[line], at=moment,
            seal=reach_seal(line["n"], line["link"], line["n"], [line], key)))
        the_room.store.append([encode(line)])
        the_room.read_on()


__all__ = ["WitnessReach", "WitnessCheckpoint", "note", "epoch", "database_state", "set_rows", "repair",
           "reach_seal", "reach_row", "upgrade_epoch", "require_sound"]
