"""The room's witness: how far every log, the rulings and the tables reached, kept outside the
database (issue 20).

The seals (:mod:`floor.seals`) catch a row edited in place, but not rows taken away: a log cut back
to an earlier head that was once valid, with the table's version and seal set back as they were
then; a ruling or a whole table deleted; an old backup put back over the live database. Each of
those leaves a database that is consistent with itself. What catches them must live where a
rollback of the database does not reach: ``instance/witness.log``, next to the seal key.

**The room chain.** After every commit that logged an entry (a jackpot or a banked table's),
issued or confirmed a ruling, or set up a table, one line per act is appended to the witness:
``{"n", "at", "kind", ...what it was..., "prev", "link"}``, where ``link`` is the keyed seal
(the installation's seal key) of the line with the ``link`` of the line before it: one chain over
the whole room, in the order the acts were committed. Its head (line number and link) is printed
on each ruling's page and PDF; a printed head that the witness no longer holds shows that the
witness itself was rewritten.

**What it proves.** ``flask verify`` reads the witness and checks the database against it: each
table the witness saw still exists, its log reaches at least as far as the witness saw it, and the
entry there is the one witnessed; each witnessed ruling (and each confirmation) is still there,
unchanged. And the app itself refuses to serve a table whose log is behind what the witness saw
(:func:`check_not_behind`): a tablet never carries on from a rolled-back log.

**Restoring is an explicit act.** ``flask restore`` (and ``flask restore --in-place`` after a
crash the database did not survive whole) writes a ``restore`` line recording the database as it
now stands: verify accepts it from there on and says so. Putting a backup back any other way is
a rollback, and is reported as one.

Decided:

- The chain is kept in the file, not in a database table: a room-wide chain in the database would
  be one row that every append of every table waits on, and the database is exactly what a
  rollback takes back. Several server processes append to the file under an exclusive ``flock``.
- A line is written after its commit (never for a transaction that failed). A crash between the
  two leaves the database ahead of the witness: verify notes it, it is no tampering (nobody can
  seal an entry without the key).
- The witness starts (a ``start`` line recording the database as it stands) at the first commit
  of an installation that has none; verify prints when each start and restore happened.
- Lines are flushed, not fsynced: a power cut may lose the last lines as it may lose the last
  commits; ``flask restore --in-place`` accepts the database after such a crash.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from dataclasses import dataclass, field
from typing import Any

from flask import current_app, has_app_context
from sqlalchemy import event, inspect, text
from sqlalchemy.orm import Session

from floor.models import utcnow
from floor.seals import keyed_digest, same

FILE = "witness.log"
#: Kinds of line. A ``start`` or ``restore`` line carries the database's state as a whole.
APPEND, BANKED_APPEND, TABLE, BANKED_TABLE = "append", "banked_append", "table", "banked_table"
RULING, BANKED_RULING, CONFIRM, START, RESTORE = "ruling", "banked_ruling", "confirm", "start", "restore"


class RolledBack(Exception):
    """The table's log is behind what the room's witness saw: entries were taken away."""


def path_of(instance_path: str) -> str:
    return os.path.join(instance_path, FILE)


def link_of(line: dict[str, Any], key: bytes | None = None) -> str:
    return keyed_digest({**{k: v for k, v in line.items() if k != "link"}, "witness": 1}, key)


# --------------------------------------------------------------------------- reading the witness

@dataclass
class Seen:
    """What the witness holds, read line by line: how far each log reached, each ruling's seal."""

    offset: int = 0
    inode: int | None = None
    n: int = 0
    link: str = ""
    at: str = ""
    tables: dict[int, tuple[int, str, int]] = field(default_factory=dict)  # id -> (seq, digest, line)
    banked: dict[int, tuple[int, str, int]] = field(default_factory=dict)
    rulings: dict[int, tuple[str, int]] = field(default_factory=dict)  # id -> (digest, line)
    banked_rulings: dict[int, tuple[str, int]] = field(default_factory=dict)
    confirms: dict[int, tuple[str, int]] = field(default_factory=dict)
    epochs: list[dict[str, Any]] = field(default_factory=list)  # the start and restore lines
    broken: list[str] = field(default_factory=list)  # the witness file's own faults
    #: Ids the app used twice: a table or ruling the witness saw was deleted and its id taken again
    #: (SQLite hands out the highest id again once its row is gone).
    reused: list[str] = field(default_factory=list)
    epoch_lines: set[int] = field(default_factory=set)
    #: Whether each line's link is checked (verify); the app's own reads only need how far each
    #: log reached, and a day's witness is read once per worker start.
    checking: bool = True

    def take(self, line: dict[str, Any], key: bytes) -> None:
        """Fold one line in (checking its place in the chain when ``checking``)."""
        n = line.get("n")
        if self.checking and (n != self.n + 1 or not same(line.get("prev"), self.link)):
            self.broken.append(f"the witness's line {n} does not follow line {self.n}: lines were removed, "
                               "inserted or reordered in instance/witness.log")
        if self.checking and not same(line.get("link"), link_of(line, key)):
            self.broken.append(f"the witness's line {n} was changed (its link does not match)")
        self.n, self.link, self.at = int(n or self.n + 1), str(line.get("link", "")), str(line.get("at", ""))
        kind, here = line.get("kind"), self.n
        if kind in (START, RESTORE):
            state = line.get("state") or {}
            self.tables = {int(k): (int(v[0]), str(v[1]), here) for k, v in state.get("tables", {}).items()}
            self.banked = {int(k): (int(v[0]), str(v[1]), here) for k, v in state.get("banked", {}).items()}
            self.rulings = {int(k): (str(v), here) for k, v in state.get("rulings", {}).items()}
            self.banked_rulings = {int(k): (str(v), here) for k, v in state.get("banked_rulings", {}).items()}
            self.confirms = {int(k): (str(v), here) for k, v in state.get("confirms", {}).items()}
            self.epochs.append({k: line.get(k) for k in ("n", "at", "kind", "source")})
            self.epoch_lines.add(here)
        elif kind in (APPEND, BANKED_APPEND):
            logs = self.tables if kind == APPEND else self.banked
            seq = int(line["seq"])
            if seq >= logs.get(int(line["table"]), (0, "", 0))[0]:
                logs[int(line["table"])] = (seq, str(line["digest"]), here)
        elif kind in (TABLE, BANKED_TABLE):
            logs, table_id = (self.tables if kind == TABLE else self.banked), int(line["table"])
            # (a start line records the commit that began the witness, its new table too: not a reuse)
            if table_id in logs and (logs[table_id][0] or logs[table_id][2] not in self.epoch_lines):
                self.reused.append(f"{'table' if kind == TABLE else 'banked table'} #{table_id} was set up again "
                                   f"(witness line {here}) under the id of a table the witness saw at line "
                                   f"{logs[table_id][2]}: that table was deleted")
            logs[table_id] = (0, "", here)
        elif kind in (RULING, BANKED_RULING):
            rulings, ruling_id = (self.rulings if kind == RULING else self.banked_rulings), int(line["ruling"])
            if ruling_id in rulings and rulings[ruling_id][0] != line["digest"]:
                self.reused.append(f"{'ruling' if kind == RULING else 'banked ruling'} #{ruling_id} was issued again "
                                   f"(witness line {here}) under the id of a ruling the witness saw at line "
                                   f"{rulings[ruling_id][1]}: that ruling was deleted")
            rulings[ruling_id] = (str(line["digest"]), here)
        elif kind == CONFIRM:
            self.confirms[int(line["ruling"])] = (str(line["digest"]), here)

    def read_on(self, fh: Any, key: bytes) -> None:
        """Fold in the lines written since the last read (all of them when the file was replaced)."""
        stat = os.fstat(fh.fileno())
        if stat.st_ino != self.inode or stat.st_size < self.offset:
            self.__init__(checking=self.checking)  # type: ignore[misc]  # another file, or a shorter one: read anew
            self.inode = stat.st_ino
        fh.seek(self.offset)
        data = fh.read()
        end = data.rfind(b"\n") + 1  # a line still being written by another process waits
        for raw in data[:end].splitlines():
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
            except ValueError:
                self.broken.append(f"the witness holds a line after line {self.n} that is not a record")
                continue
            self.take(line, key)
        self.offset += end

    @property
    def head(self) -> dict[str, Any]:
        return {"n": self.n, "link": self.link, "at": self.at}


_SEEN: dict[str, Seen] = {}
_LOCK = threading.Lock()


def _key() -> bytes:
    from floor.seals import seal_key

    return seal_key()


def seen(fresh: bool = False) -> Seen:
    """What this process knows of the witness, brought up to date (``fresh``: read anew)."""
    path = path_of(current_app.instance_path)
    with _LOCK:
        known = Seen() if fresh else _SEEN.setdefault(path, Seen(checking=False))
        try:
            with open(path, "rb") as fh:
                known.read_on(fh, _key())
        except FileNotFoundError:
            known.__init__(checking=known.checking)  # type: ignore[misc]
        return known


def room_record(ruling_id: int, banked: bool = False) -> dict[str, Any]:
    """What a ruling's page and print show of the room's witness: the line that witnessed the
    ruling (None when the witness has not yet, or no longer, got it) and the chain's head now."""
    known = seen()
    found = (known.banked_rulings if banked else known.rulings).get(ruling_id)
    return {**known.head, "line": found[1] if found is not None else None}


def check_not_behind(kind: str, table_id: int, version: int) -> None:
    """Raise :class:`RolledBack` when the witness saw the table's log reach further than ``version``
    (``kind``: ``"table"`` or ``"banked"``), and the table's committed version too (the version
    given may be of a row read before another process logged and witnessed more). Uses what this
    process knows of the witness (callers read on first, :func:`seen`): it only grows."""
    known = _SEEN.get(path_of(current_app.instance_path))
    if known is None:
        known = seen()
    logs = known.tables if kind == "table" else known.banked
    reached = logs.get(table_id)
    if reached is not None and version < reached[0] and _committed_version(kind, table_id) < reached[0]:
        raise RolledBack(f"this table's log ends at entry {version}, but the room's witness saw it reach entry "
                         f"{reached[0]} (witness line {reached[2]}): entries were taken away from the database "
                         "(a rollback, or a backup put back without `flask restore`). Nothing is shown or logged "
                         "here until a director restores the database with `flask --app floor restore`; "
                         "`flask --app floor verify` names what is missing.")


def _committed_version(kind: str, table_id: int) -> int:
    """The table's version as committed now, read on a connection of its own: the row a request
    read may simply be older than a line another process witnessed since (not a rollback)."""
    from floor.extensions import db

    name = "tables" if kind == "table" else "banked_tables"
    with db.engine.connect() as connection:
        version = connection.execute(text(f"SELECT version FROM {name} WHERE id = :id"), {"id": table_id}).scalar()
    return -1 if version is None else int(version)


# --------------------------------------------------------------------------- writing it

def database_state(connection: Any) -> dict[str, Any]:
    """The database as a ``start`` or ``restore`` line records it: each log's end, each ruling's seal."""
    def rows(sql: str) -> list[Any]:
        return list(connection.execute(text(sql)))

    state: dict[str, Any] = {
        "tables": {str(i): [v, d or ""] for i, v, d in rows("SELECT id, version, head_digest FROM tables")},
        "rulings": {str(i): d or "" for i, d in rows("SELECT id, digest FROM rulings")},
        "confirms": {str(i): d for i, d in rows("SELECT id, confirmation_digest FROM rulings "
                                                 "WHERE confirmed_by_id IS NOT NULL")},
    }
    try:
        state["banked"] = {str(i): [v, d or ""] for i, v, d in rows(
            "SELECT id, version, head_digest FROM banked_tables")}
        state["banked_rulings"] = {str(i): d or "" for i, d in rows("SELECT id, digest FROM banked_rulings")}
    except Exception:  # a database from before the banked game
        connection.rollback()
    return state


def write(acts: list[dict[str, Any]], *, epoch: dict[str, Any] | None = None) -> dict[str, Any]:
    """Append ``acts`` (after an ``epoch`` line: a start or a restore) to the witness under an
    exclusive lock; start the witness first when there is none. Returns the new head."""
    path = path_of(current_app.instance_path)
    key = _key()
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "r+b") as fh, _LOCK:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            known = _SEEN.setdefault(path, Seen(checking=False))
            known.read_on(fh, key)
            lines = []
            if known.n == 0 and epoch is None:
                epoch = {"kind": START, "source": "the database as it stood when the witness began"}
            if epoch is not None:
                from floor.extensions import db

                with db.engine.connect() as connection:
                    try:
                        state = database_state(connection)
                    except Exception:  # a backup from before the seals: nothing to hold it to until init-db
                        connection.rollback()
                        state = {}
                    lines.append({**epoch, "state": state})
            lines += acts
            out = []
            n, prev = known.n, known.link
            for act in lines:
                n += 1
                line = {**act, "n": n, "at": utcnow().isoformat(timespec="seconds") + "Z", "prev": prev}
                line["link"] = prev = link_of(line, key)
                out.append(json.dumps(line, sort_keys=True, separators=(",", ":"), default=str).encode() + b"\n")
            fh.seek(0, os.SEEK_END)
            fh.write(b"".join(out))
            fh.flush()
            known.read_on(fh, key)
            return known.head
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def note(session: Session, act: dict[str, Any]) -> None:
    """Note an act of this transaction that the witness keeps (written once it commits), for a row
    written without the ORM's unit of work (a table log's entry: :func:`floor.tables.append`)."""
    session.info.setdefault("floor_witness", []).append(act)


@event.listens_for(Session, "after_flush")
def _collect(session: Session, _context: Any) -> None:
    """Note what this transaction did that the witness keeps (written once it commits)."""
    acts = session.info.setdefault("floor_witness", [])
    for obj in session.new:
        name = getattr(obj, "__tablename__", None)
        if name == "log_entries":
            acts.append({"kind": APPEND, "table": obj.table_id, "seq": obj.seq, "digest": obj.digest})
        elif name == "banked_entries":
            acts.append({"kind": BANKED_APPEND, "table": obj.table_id, "seq": obj.seq, "digest": obj.digest})
        elif name == "tables":
            acts.append({"kind": TABLE, "table": obj.id})
        elif name == "banked_tables":
            acts.append({"kind": BANKED_TABLE, "table": obj.id})
        elif name in ("rulings", "banked_rulings") and obj.digest:
            acts.append({"kind": RULING if name == "rulings" else BANKED_RULING, "ruling": obj.id,
                         "digest": obj.digest})
    for obj in session.dirty:
        name = getattr(obj, "__tablename__", None)
        if name not in ("rulings", "banked_rulings"):
            continue
        attrs = inspect(obj).attrs
        if attrs.digest.history.has_changes() and obj.digest:
            acts.append({"kind": RULING if name == "rulings" else BANKED_RULING, "ruling": obj.id,
                         "digest": obj.digest})
        if name == "rulings" and attrs.confirmation_digest.history.has_changes() and obj.confirmation_digest:
            acts.append({"kind": CONFIRM, "ruling": obj.id, "digest": obj.confirmation_digest})


@event.listens_for(Session, "after_commit")
def _witness(session: Session) -> None:
    acts = session.info.pop("floor_witness", None)
    if not acts or not has_app_context():
        return
    try:
        write(acts)
    except Exception:  # pragma: no cover - a full disk: the commit stands, verify will note the gap
        current_app.logger.exception("the room's witness could not be written (instance/%s)", FILE)


@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    session.info.pop("floor_witness", None)
