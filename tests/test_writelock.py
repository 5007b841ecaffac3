"""SQLite's writers wait in line (floor.writelock, issue 23): many tablets logging at once all get
their taps logged without SQLite's busy timeout ever being needed, a writer waits for the one
before it and goes on the moment it is done, and a reader never waits."""

from __future__ import annotations

import fcntl
import os
import threading

import pytest
from sqlalchemy import text

from floor import tables, writelock
from floor.extensions import db
from floor.models import Table, User
from tests.conftest import SETUP, make_app

pytestmark = pytest.mark.skipif(bool(os.environ.get("FLOOR_TEST_PG")), reason="SQLite's writers only")


def lock_file(app) -> str:
    with app.app_context():
        return writelock.path_of(os.path.abspath(db.engine.url.database))


def new_tables(app, count: int) -> list[int]:
    with app.app_context():
        ids = [tables.create_table(f"T{n}", SETUP).id for n in range(count)]
        return ids


def tap(app, table_id: int, user: str = "dee") -> int:
    """One pass-the-deal tap at the table, as the API logs it; returns the new version."""
    with app.app_context():
        table = db.session.get(Table, table_id)
        dealer = db.session.scalars(db.select(User).where(User.username == user)).one()
        state = tables.table_state(table)
        event = {"type": "deal"} if state.to_dict()["phase"] == "between_deals" else {
            "type": "pass", "seat": state.to_dict()["to_act"]}
        entry, _ = tables.append(table, event, dealer, table.version, fresh=True)
        return entry.seq


def test_eight_tablets_at_once_never_meet_a_locked_database(tmp_path):
    """With SQLite's busy timeout at nothing (a writer that finds the database locked fails at
    once), eight threads logging 25 taps each at their own tables all succeed: no writer ever
    finds the database locked, because each waits for the lock file first. (Without the queue,
    the same run fails with "database is locked" within a few taps.)"""
    app = make_app(tmp_path, SQLALCHEMY_ENGINE_OPTIONS={"connect_args": {"timeout": 0}})
    ids = new_tables(app, 8)
    failures: list[BaseException] = []

    def tablet(table_id: int) -> None:
        try:
            for _ in range(25):
                tap(app, table_id)
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    threads = [threading.Thread(target=tablet, args=(i,)) for i in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, failures[:3]
    with app.app_context():
        versions = db.session.scalars(db.select(Table.version).where(Table.id.in_(ids))).all()
        entries = db.session.scalar(text("SELECT count(*) FROM log_entries"))
    assert versions == [25] * 8 and entries == 200


def test_a_writer_waits_for_the_one_before_and_a_reader_does_not(tmp_path):
    """While another writer holds the lock, a tap waits (it is not refused, nothing is lost) and is
    logged once the lock is let go; reading the table meanwhile does not wait at all."""
    app = make_app(tmp_path)
    (table_id,) = new_tables(app, 1)
    tap(app, table_id)  # the table's first entry
    holder = os.open(lock_file(app), os.O_RDWR | os.O_CREAT)
    fcntl.flock(holder, fcntl.LOCK_EX)
    done: dict[str, object] = {}
    try:
        writer = threading.Thread(target=lambda: done.setdefault("seq", tap(app, table_id)))
        writer.start()
        writer.join(timeout=0.5)
        assert writer.is_alive() and "seq" not in done  # in line behind the holder

        def read() -> None:
            with app.app_context():
                done["read"] = tables.table_state(db.session.get(Table, table_id)).version

        reader = threading.Thread(target=read)
        reader.start()
        reader.join(timeout=10)
        assert done.get("read") == 1  # read at once, the writer still waiting
    finally:
        fcntl.flock(holder, fcntl.LOCK_UN)
        os.close(holder)
    writer.join(timeout=30)
    assert done.get("seq") == 2


def test_a_second_connection_of_the_holding_thread_is_refused_not_left_waiting(tmp_path):
    """A thread whose transaction holds the lock and then writes on another connection would wait for
    ever on itself (SQLite alone failed it after its busy timeout): it is refused at once, saying
    why; once the first transaction is over, the other connection writes."""
    app = make_app(tmp_path)
    (table_id,) = new_tables(app, 1)
    with app.app_context():
        first, second = db.engine.connect(), db.engine.connect()
        try:
            first.execute(text("UPDATE tables SET name = 'A' WHERE id = :id"), {"id": table_id})
            with pytest.raises(writelock.WriterWouldWaitOnItself, match="first one's transaction is still open"):
                second.execute(text("UPDATE tables SET name = 'B' WHERE id = :id"), {"id": table_id})
            second.rollback()
            first.commit()
            first.close()  # back in the pool: the lock is let go
            second.execute(text("UPDATE tables SET name = 'B' WHERE id = :id"), {"id": table_id})
            second.commit()
        finally:
            first.close()
            second.close()
        assert db.session.get(Table, table_id).name == "B"
