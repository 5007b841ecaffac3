"""What a server process knows of the room's witness, and the checks it makes with it when it serves.

Each app has one :class:`Room` (``app.extensions["floor_witness"]``): its store, and the fold of the
lines this process has read (:class:`floor.witness.lines.Seen`), begun at the store's resume point
(the live segment's first line, or the last checkpoint: never the whole history) and read on
whenever a check needs to be up to date. It never forgets: a witness that goes missing or shrinks
under the process, or that the database remembers reaching further than it does, is a fault
(:class:`WitnessLost`, answered 503 with the reason), never a fresh start.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from flask import Flask, current_app
from sqlalchemy import text

from floor.witness.lines import ADOPT, RESTORE, RESUME, Seen, parse
from floor.witness.store import WitnessLost, store_for


class RolledBack(Exception):
    """The table's log, or the database's record of the witness, is behind what the room's witness
    saw: entries were taken away (a rollback, or a backup put back without ``flask restore``)."""


#: Called when a process reads a ``restore`` or an ``adopt`` line another process wrote: the
#: database changed under it, so every state it cached is dropped (issue 30: workers reload).
RELOAD: list[Callable[[], None]] = []


class Room:
    """One app's witness: its store, this process's fold of it, and the fault, if any."""

    def __init__(self, app: Flask) -> None:
        self.store = store_for(app)
        self.fold: Seen | None = None
        self.reader: Any = None
        self.guard = threading.RLock()
        self.fault: str | None = None
        self.sound = False  # held against the database's record once (the first request)
        #: The database's record of the witness (witness_reach: n, link, checkpoint, seal, pending as
        #: JSON text) as this process last committed it and appended its lines
        #: (:func:`floor.witness.anchor._prepare`).
        self.written: tuple[Any, ...] | None = None
        self.checkpoint_lines = int(app.config.get("FLOOR_CHECKPOINT_LINES") or 1000)
        self.checkpoint_minutes = float(app.config.get("FLOOR_CHECKPOINT_MINUTES") or 15)

    def read_on(self) -> Seen:
        """The fold, with every line written since the last read folded in. Raises
        :class:`WitnessLost` (and remembers the fault) when the witness went missing, shrank, or
        holds a line out of place."""
        from floor.seals import seal_key

        with self.guard:
            if self.fault is not None:
                raise WitnessLost(self.fault)
            if self.fold is None:
                self.fold, self.reader = Seen(seal_key(), checking=False), self.store.reader()
            try:
                raws = self.reader.read_new()
            except WitnessLost as exc:
                self.fault = str(exc)
                raise
            reload = False
            for raw in raws:
                line = parse(raw)
                if line is None:
                    self.fold.broken.append(f"the witness holds a line after line {self.fold.n} that is no record")
                else:
                    known = self.fold.n
                    self.fold.take(line)
                    reload |= bool(known) and line.get("kind") in (RESTORE, ADOPT)
                if self.fold.broken:
                    self.fault = f"the room's witness ({self.store.name}) was rewritten: {self.fold.broken[0]}"
                    raise WitnessLost(self.fault)
            if reload:
                for hook in RELOAD:
                    hook()
            return self.fold

    def read_own(self, lines: list[dict[str, Any]]) -> Seen:
        """The fold, read on past ``lines``, which this process has just appended under the store's
        lock: folded in as written, without reading them back (issue 34: reading a tap's own line
        back from the file, parsing and folding it, was a fortieth of a tap), when the store says
        they follow exactly what this process had read (:meth:`FileReader.read_own`); else, and for
        a line that carries the whole state (a checkpoint, an epoch), read on as :meth:`read_on`
        does. What follows them is read at the next :meth:`read_on`, which still notices a witness
        removed, cut back or replaced."""
        with self.guard:
            own = getattr(self.store, "own", None)
            skip = getattr(self.reader, "read_own", None)
            if (self.fault is not None or self.fold is None or own is None or skip is None
                    or any(line.get("kind") in RESUME for line in lines) or not skip(*own)):
                return self.read_on()
            for line in lines:
                self.fold.take(line)
            if self.fold.broken:
                self.fault = f"the room's witness ({self.store.name}) was rewritten: {self.fold.broken[0]}"
                raise WitnessLost(self.fault)
            return self.fold

    def forget(self) -> None:
        """Read the store again from its resume point (after ``flask witness adopt`` set it aside)."""
        with self.guard:
            if self.reader is not None:
                self.reader.close()
            self.fold, self.reader, self.fault, self.sound = None, None, None, False
            self.written = None


def room(app: Flask | None = None) -> Room:
    target = app or current_app
    found: Room = target.extensions["floor_witness"]
    return found


def seen() -> Seen:
    """What this process knows of the witness, brought up to date."""
    return room().read_on()


def check_not_behind(kind: str, table_id: int, version: int, head_digest: str | None = None) -> None:
    """Raise :class:`RolledBack` when the witness saw the table's log reach further than
    ``version`` (or reach it with another last entry), and the table's committed version too (a
    row read before another process logged and witnessed more is no rollback). Uses what this
    process knows (it reads on first when that says the table is behind: a restore it has not
    read yet is no rollback)."""
    the_room = room()
    fold = the_room.fold if the_room.fold is not None and the_room.fault is None else seen()
    for attempt in (0, 1):
        reached = (fold.tables if kind == "table" else fold.banked).get(table_id)
        behind = reached is not None and (version < reached[0] or (
            version == reached[0] and head_digest is not None and reached[0] and head_digest != reached[1]))
        if not behind:
            return
        if attempt == 0:
            fold = seen()
    assert reached is not None
    if version < reached[0] and _committed_version(kind, table_id) >= reached[0]:
        return
    words = (f"its log ends at entry {version}, but the room's witness saw it reach entry {reached[0]}"
             if version < reached[0] else f"its entry {version} is not the one the room's witness saw")
    raise RolledBack(f"this table's log was rolled back: {words} (witness line {reached[2]}): entries were taken away "
                     "from the database (a rollback, or a backup put back without `flask restore`). Nothing is shown "
                     "or logged here until a director restores the database with `flask --app floor restore`; "
                     "`flask --app floor verify` names what is missing.")


def _committed_version(kind: str, table_id: int) -> int:
    """The table's version as committed now, read on a connection of its own."""
    from floor.extensions import db

    name = "tables" if kind == "table" else "banked_tables"
    with db.engine.connect() as connection:
        version = connection.execute(text(f"SELECT version FROM {name} WHERE id = :id"), {"id": table_id}).scalar()
    return -1 if version is None else int(version)


def settled(row: Any) -> Seen:
    """The witness read on after every write in flight, and ``row`` read again: a row and the
    witness read by two statements may straddle another process's commit (the row newer than the
    witness's line, which is appended once the commit is done, under the witness's lock; or the
    witness newer than the row). Taking the lock waits for the write in flight."""
    from floor.extensions import db

    with room().store.lock():
        pass
    if row in db.session and not db.session.is_modified(row):
        db.session.refresh(row)
    return seen()


def user_witnessed(user: Any) -> bool:
    """Whether the witness saw this user's row with this seal (settled once when it seems not)."""
    if seen().users.get(user.id) == user.row_seal:
        return True
    return settled(user).users.get(user.id) == user.row_seal


def ruling_problems(row: Any, banked: bool = False) -> list[str]:
    """What the witness says of a ruling that its own seals cannot: a floor person's confirmation
    the witness saw and the database no longer holds (or one it never saw)."""
    if banked or not row.by_rules:
        return []
    fold = seen()
    for attempt in (0, 1):
        if row.witness_line is None or fold.n < row.witness_line:
            return []
        waiting = row.id in fold.pending
        if (row.confirmed_by_id is None) == waiting:
            return []
        if attempt == 0:
            fold = settled(row)
    if row.confirmed_by_id is None:
        return [f"ruling #{row.id}: the floor's confirmation the room's witness saw is gone from the database"]
    return [f"ruling #{row.id}: its confirmation is one the room's witness never saw (written outside the app)"]


def room_record(ruling: Any) -> dict[str, Any]:
    """What a ruling's page and print show of the room's witness: the line that recorded the ruling,
    the chain's head now, and the last sealed checkpoint (which also left the machine)."""
    fold = seen()
    return {**fold.head, "line": getattr(ruling, "witness_line", None), "checkpoint": fold.checkpoint}


