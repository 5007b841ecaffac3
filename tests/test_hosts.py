"""Issue 30: the record under production servers. Two gunicorn hosts, each with its own instance
folder, on one PostgreSQL database and one witness database (``FLOOR_WITNESS_URL``): a rollback
of what either host logged is named by ``flask verify`` on both, and neither serves the table; a
host started with another seal key refuses to start, naming the setting. And ``flask restore``
while gunicorn serves leaves no worker answering 409: every worker reads the restore and reloads.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from tests import conftest
from tests.conftest import SETUP, make_app
from tests.served import Gunicorn
from tests.served import call as served

pytestmark = pytest.mark.slow  # production servers: seconds each


def call(port, method, path, body=None, token=None):
    status, _, answer = served(port, method, path, body, token)
    return status, answer


class Host:
    """One app host: its instance folder, its settings (the environment a host's processes get),
    gunicorn serving it, and its `flask` commands."""

    def __init__(self, instance: Path, settings: dict[str, str]) -> None:
        self.instance, self.settings = instance, settings
        self.server = Gunicorn(instance, settings)

    @property
    def port(self) -> int:
        return self.server.port

    def start(self, workers: int = 1) -> Gunicorn:
        return self.server.start(workers)

    def flask(self, *args: str):
        """``flask --app 'floor:create_app(instance_path=...)' ARGS`` with this host's settings in the
        environment, run in the test's process: the app made as the command line makes it (a fresh
        app, nothing of the test's own), then the command through the app's command group. What the
        commands prove needs no process of their own (the servers' workers are the other
        processes); each `flask` process cost about 1.2 s of CPU to import and make the app
        (docs/testing.md, "Issue 34, session 42: the tests that start servers")."""
        from floor import create_app

        with pytest.MonkeyPatch.context() as environment:
            for name, value in self.settings.items():
                environment.setenv(name, value)
            app = create_app(instance_path=str(self.instance))
            conftest._APPS.append(app)  # its connections closed after the test (conftest's _close_apps)
            return app.test_cli_runner().invoke(args=list(args))

    def stop(self) -> str:
        return self.server.stop()


def _tokens(app) -> dict[str, str]:
    from floor.extensions import db
    from floor.models import User

    issued = {}
    with app.app_context():
        for name, role in conftest.USERS.items():
            issued[role] = db.session.scalars(db.select(User).where(User.username == name)).one().new_api_token()
        db.session.commit()
    return issued


def _play(port, token, table_id, count):
    for _ in range(count):
        state = call(port, "GET", f"/api/tables/{table_id}", token=token)[1]["state"]
        event = {"type": "deal"} if state["phase"] == "between_deals" else {"type": "pass", "seat": state["to_act"]}
        status, body = call(port, "POST", f"/api/tables/{table_id}/events", event, token)
        assert status == 201, body


def _head(app, table_id):
    from floor.extensions import db
    from floor.models import Table

    with app.app_context():
        table = db.session.get(Table, table_id)
        return {"version": table.version, "head_digest": table.head_digest, "head_seal": table.head_seal}


def _roll_back(app, table_id, head):
    from floor.extensions import db
    from floor.models import LogEntry, PotSnapshot, Table

    log, snaps, tab = LogEntry.__table__, PotSnapshot.__table__, Table.__table__
    with app.app_context():
        db.session.execute(sa.delete(log).where(log.c.table_id == table_id, log.c.seq > head["version"]))
        db.session.execute(sa.delete(snaps).where(snaps.c.table_id == table_id, snaps.c.version >= head["version"]))
        db.session.execute(sa.update(tab).where(tab.c.id == table_id).values(**head))
        db.session.commit()


@pytest.fixture
def witness_database():
    """A database of its own for the witness, on the run's PostgreSQL server, where the app's role
    may only insert and read (as docs/record.md sets it up)."""
    if conftest.POSTGRES is None:
        pytest.skip("several hosts share a PostgreSQL database: the PostgreSQL pass (FLOOR_TEST_PG=1) runs this")
    from sqlalchemy.engine import make_url

    from floor.witness.store import SqlStore

    owner_url = conftest.POSTGRES.empty_database()
    store = SqlStore(owner_url)  # `flask witness init-store`, as the database's owner
    store.create()
    store.close()
    engine = sa.create_engine(owner_url)
    with engine.begin() as connection:
        connection.execute(sa.text("DO $$ BEGIN CREATE ROLE witness_app LOGIN; EXCEPTION WHEN duplicate_object "
                                   "THEN NULL; END $$"))
        connection.execute(sa.text("GRANT SELECT, INSERT ON witness_lines TO witness_app"))
    engine.dispose()
    return make_url(owner_url).set(username="witness_app").render_as_string(hide_password=False)


def test_two_hosts_on_one_postgresql_name_a_rollback_of_either_hosts_entries(tmp_path, witness_database):
    key = "5e" * 32
    settings = {"FLOOR_WITNESS_URL": witness_database, "FLOOR_SEAL_KEY": key}
    app = make_app(tmp_path / "a", **settings)  # host A's instance folder: the users, their tokens
    tokens = _tokens(app)
    env = {"FLOOR_DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"], "FLOOR_WITNESS_URL": witness_database,
           "FLOOR_SEAL_KEY": key, "FLOOR_SECRET_KEY": "one-session-key-for-both-hosts"}
    a, b = Host(Path(app.instance_path), env), Host(tmp_path / "b" / "instance", env)
    try:
        # one worker each: what is proven is between the hosts (several workers of one host reading a
        # restore: test_flask_restore_while_serving_leaves_no_worker_at_409)
        assert a.start().ended is None and b.start().ended is None
        status, table = call(a.port, "POST", "/api/tables", {"name": "T1", **SETUP}, tokens["director"])
        assert status == 201, table
        status, other = call(b.port, "POST", "/api/tables", {"name": "T2", **SETUP}, tokens["director"])
        assert status == 201, other
        _play(a.port, tokens["dealer"], table["id"], 3)
        _play(b.port, tokens["dealer"], other["id"], 3)
        earlier = {table["id"]: _head(app, table["id"]), other["id"]: _head(app, other["id"])}
        _play(b.port, tokens["dealer"], table["id"], 4)  # B logs at A's table too
        _play(a.port, tokens["dealer"], other["id"], 4)
        for verifier in (a, b):
            done = verifier.flask("verify")
            assert done.exit_code == 0, done.output

        _roll_back(app, table["id"], earlier[table["id"]])  # what host B logged at T1, taken away
        for verifier in (a, b):
            done = verifier.flask("verify")
            assert done.exit_code == 1 and f"table #{table['id']} (T1): its log was cut back to entry 3, but the " \
                "room's witness saw it reach entry 7" in done.stdout, done.output
        for host in (a, b):
            status, body = call(host.port, "GET", f"/api/tables/{table['id']}", token=tokens["dealer"])
            assert status == 409 and "the room's witness saw it reach entry 7" in body["message"], body
            status, _ = call(host.port, "POST", f"/api/tables/{table['id']}/events", {"type": "deal"},
                             tokens["dealer"])
            assert status == 409

        _roll_back(app, other["id"], earlier[other["id"]])  # what host A logged at T2
        for verifier in (a, b):
            done = verifier.flask("verify")
            assert f"table #{other['id']} (T2): its log was cut back to entry 3" in done.stdout, done.stdout

        # `flask restore` on A is recorded for both: B serves the table again, and verify on B accepts it
        done = a.flask("restore", "--in-place", "--yes")
        assert done.exit_code == 0, done.output
        status, body = call(b.port, "GET", f"/api/tables/{table['id']}", token=tokens["dealer"])
        assert status == 200 and body["version"] == 3, body
        _play(b.port, tokens["dealer"], table["id"], 2)
        done = b.flask("verify")
        assert done.exit_code == 0 and "accepted a restore (the database in place" in done.stdout, done.output

        # the app's role may not rewrite a line of the witness
        with pytest.raises(sa.exc.ProgrammingError, match="permission denied"):
            engine = sa.create_engine(witness_database)
            try:
                with engine.begin() as connection:
                    connection.execute(sa.text("DELETE FROM witness_lines"))
            finally:
                engine.dispose()
    finally:
        a.stop()
        b.stop()

    # gunicorn with one worker: its worker refuses to boot, and so the server stops
    stranger = Gunicorn(tmp_path / "c" / "instance", {**env, "FLOOR_SEAL_KEY": "c0" * 32})
    assert stranger.start(workers=1).ended not in (None, 0)  # refused to start
    told = stranger.errors
    assert "FLOOR_SEAL_KEY is another key" in told, told[-2000:]
    keyless = Gunicorn(tmp_path / "d" / "instance", {k: v for k, v in env.items() if k != "FLOOR_SEAL_KEY"})
    assert keyless.start(workers=1).ended not in (None, 0)
    told = keyless.errors
    assert "this host has no seal key" in told and "set FLOOR_SEAL_KEY" in told, told[-2000:]
    assert not (tmp_path / "d" / "instance" / "seal_key").exists()


@pytest.fixture
def restoring_host(app):
    """The test's app served by gunicorn with three workers, as the host a restore is made on
    (``flask restore`` needs ``pg_dump``'s kin on PostgreSQL); yields the host and the users' tokens."""
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        from tests import pg

        if not pg.tool("pg_dump"):
            pytest.skip("pg_dump is not installed")
    tokens = _tokens(app)
    with app.app_context():
        key = app.extensions["floor_seal_key"].decode()
    host = Host(Path(app.instance_path), {"FLOOR_DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
                                          "FLOOR_SEAL_KEY": key, "FLOOR_SECRET_KEY": "test"})
    try:
        assert host.start(workers=3).ended is None
        yield host, tokens
    finally:
        host.stop()


def test_flask_restore_while_serving_leaves_no_worker_at_409(restoring_host, app, tmp_path):
    """Every worker of the server reads the restore line and drops what it cached (before: each
    worker still holding a state past the restored version answered 409)."""
    from floor import backup

    host, tokens = restoring_host
    status, table = call(host.port, "POST", "/api/tables", {"name": "T1", **SETUP}, tokens["director"])
    _play(host.port, tokens["dealer"], table["id"], 4)
    saved = backup.backup(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path / "b.backup")
    _play(host.port, tokens["dealer"], table["id"], 12)  # every worker caches a state past the backup's
    done = host.flask("restore", str(saved), "--yes")
    assert done.exit_code == 0 and "Recorded in the room's witness" in done.stdout, done.output
    for _ in range(12):  # each request may land on any worker
        status, body = call(host.port, "GET", f"/api/tables/{table['id']}", token=tokens["dealer"])
        assert status == 200 and body["version"] == 4, body
    _play(host.port, tokens["dealer"], table["id"], 6)  # and the room carries on from the restored log
    done = host.flask("verify")
    assert done.exit_code == 0 and "accepted a restore (b.backup" in done.stdout, done.output


def test_a_worker_that_cached_the_log_before_a_restore_never_serves_it_after(restoring_host, app, tmp_path):
    """A worker caches a state per table and version. After a restore the dealer goes on from the
    backup's version with other entries, so a worker that cached the same versions before the
    restore holds states of a history that is gone; the first it hears of the restore is the room's
    witness. Each answer after the restore must be the restored log's. What keeps it so is the
    restore's line in the witness making every worker drop its cache (``tables.forget``): with that
    made a no-op, the workers answer with the old history's stacks (planted once, session 42). The
    test above cannot see it: the taps it makes after the restore are the ones it made before, so a
    state of the old history looks right."""
    from floor import backup

    host, tokens = restoring_host
    status, table = call(host.port, "POST", "/api/tables", {"name": "T1", **SETUP}, tokens["director"])
    path = f"/api/tables/{table['id']}"
    saved = backup.backup(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path / "b.backup")
    _play(host.port, tokens["dealer"], table["id"], 1)
    # nine reads at once, so that every worker takes some: each caches the old history's state at version 1
    read = at_once(lambda: call(host.port, "GET", path, token=tokens["dealer"]))
    assert {body["version"] for _, body in read} == {1}
    _play(host.port, tokens["dealer"], table["id"], 9)
    done = host.flask("restore", str(saved), "--yes")
    assert done.exit_code == 0, done.output
    # the restored log (between deals) goes on another way: ten chips from seat 1 to seat 2, then the same taps
    correction = {"type": "correction", "reason": "a pot pushed long",
                  "moves": [{"seat": 1, "amount": -10}, {"seat": 2, "amount": 10}]}
    status, body = call(host.port, "POST", f"{path}/events", correction, tokens["floor"])
    assert status == 201, body
    moved = {seat: body["state"]["seats"][seat]["stack"] for seat in ("1", "2")}
    for status, body in at_once(lambda: call(host.port, "GET", path, token=tokens["dealer"])):
        assert status == 200 and body["version"] == 1, body
        assert {seat: body["state"]["seats"][seat]["stack"] for seat in ("1", "2")} == moved, body
    _play(host.port, tokens["dealer"], table["id"], 9)  # each tap checked against the restored log's state
    for _ in range(9):
        status, body = call(host.port, "GET", path, token=tokens["dealer"])
        assert status == 200 and body["version"] == 10, body
    assert host.flask("verify").exit_code == 0


def at_once(request, times: int = 9) -> list:
    """``request()`` made ``times`` times at once, from threads (each connection waits for a free
    worker, so the server's workers each take some)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(times) as pool:
        return list(pool.map(lambda _: request(), range(times)))
