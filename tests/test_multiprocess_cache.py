"""Several server processes appending to one table on one SQLite file (issue 11: the state cache).

Production serves with several gunicorn workers, each with its own in-process cache of table
states. A state may only ever be cached under the version it was computed for: a state of
version n cached under n + 1 makes that worker check the next event against the wrong state, so
an illegal event is stored and the table's log no longer replays (500 on every page, for good).

The race is a worker being descheduled between its commit and its next read of the table, while
another worker commits. On a loaded server that happens on its own; here every worker sleeps a
little after each commit (a SQLAlchemy ``after_commit`` hook) so that it happens within seconds.
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import time

import pytest

from floor.extensions import db
from floor.models import LogEntry, Table
from tests.conftest import make_app

# several processes or a production server: seconds each (make test runs them, make test-fast not)
pytestmark = pytest.mark.slow

SETUP = {
    "profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
    "seats": [{"seat": n, "player": f"P{n}", "stack": 100_000} for n in range(1, 5)],
}


def next_event(state: dict) -> dict:
    """A legal event that keeps the log growing: deals that everyone passes (the pot carries over)."""
    if state["phase"] == "between_deals":
        return {"type": "deal"}
    return {"type": "pass", "seat": state["to_act"]}


def worker(uri: str, instance: str, table_id: int, seconds: float, go, results) -> None:
    """One server process: read the table's state, log the next event, again and again."""
    from sqlalchemy import event as sa_event

    from floor import create_app, tables
    from rules import RulesError

    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": uri},
                     instance_path=instance)
    logged = refused = wrong_cache = 0
    with app.app_context():
        @sa_event.listens_for(db.session, "after_commit")
        def descheduled(_session) -> None:  # the moment another worker gets the CPU
            time.sleep(random.uniform(0.001, 0.01))

        go.wait()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            table = db.session.get(Table, table_id)
            db.session.refresh(table)
            try:
                state = tables.table_state(table)
                tables.append(table, next_event(state.to_dict()), None)
                logged += 1
            except tables.StaleVersion:
                refused += 1  # another worker took that version: read again
            except (RulesError, ValueError):
                refused += 1  # the event was right for a version another worker moved past
            except Exception as exc:  # the table no longer replays: the failure this test is about
                results.put(("error", f"{type(exc).__name__}: {exc}"))
                break
            # Every state in this worker's cache must be the one its key names.
            wrong_cache += sum(1 for key, cached in tables.cache.items() if cached.version != key[1])
    results.put(("done", logged, refused, wrong_cache))


def test_several_processes_appending_to_one_table_keep_its_log_replayable(tmp_path):
    app = make_app(tmp_path)
    with app.app_context():
        from floor import tables

        table_id = tables.create_table("Busy", SETUP).id
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    # Four fresh processes, as four gunicorn workers are, but forked from a server process that
    # imported this module and the app's modules once (those the test's app imported), instead of
    # each importing them again as "spawn" did: about a second of CPU a process (docs/testing.md,
    # "Issue 34, session 42: the tests that start servers"). Each still makes its own app, its own
    # engine and its own cache, as a worker does.
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([__name__, *sorted(name for name in sys.modules
                                                  if name.partition(".")[0] in ("floor", "rules"))])
    go, results = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=worker, args=(uri, app.instance_path, table_id, 4.0, go, results))
             for _ in range(4)]
    for proc in procs:
        proc.start()
    go.set()
    answers = [results.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(timeout=30)

    errors = [a for a in answers if a[0] == "error"]
    assert not errors, errors
    assert sum(a[3] for a in answers) == 0, f"states cached under a version they were not computed for: {answers}"
    logged = sum(a[1] for a in answers)
    assert logged > 20, answers  # the workers really raced

    from floor import tables
    from rules import jackpot

    with app.app_context():
        tables.cache.clear()
        table = db.session.get(Table, table_id)
        events = list(db.session.scalars(db.select(LogEntry.payload).where(LogEntry.table_id == table_id)
                                         .order_by(LogEntry.seq)))
        assert len(events) == table.version == logged  # nothing lost, nothing logged twice
        # Every stored event was legal where it stands: the log replays, as a restart would.
        assert jackpot.replay_state(table.setup, events).version == table.version
        client = app.test_client()
        from tests.conftest import login

        login(client, "dee")
        assert client.get(f"/api/tables/{table_id}").status_code == 200
    # Issue 20: four processes appended to the room's witness at once (under its lock): its chain
    # holds every append, in order, and verify finds the database where the witness saw it.
    result = app.test_cli_runner().invoke(args=["verify"])
    assert result.exit_code == 0 and "MISMATCH" not in result.output, result.output
    witnessed = [line for line in (tmp_path / "instance" / "witness.log").read_text().splitlines() if '"append"' in line]
    assert len(witnessed) == logged
