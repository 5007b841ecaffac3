"""Health that tells the truth and backups that restore (issue 11).

On SQLite a read-only database is the same file opened read-only; on PostgreSQL (tests/pg.py),
a database whose transactions are read-only by default. Either answers ``SELECT 1`` and refuses
every tap: the health check must say so.
"""

from __future__ import annotations

import pytest
from sqlalchemy.engine import make_url

from floor import tables
from floor.extensions import db
from floor.models import LogEntry, Table
from tests.conftest import SETUP, bearer


def test_health_is_ok_when_the_database_takes_a_write(client):
    response = client.get("/api/health")
    assert response.status_code == 200 and response.json["database"] == "ok"
    assert client.get("/api/health").json["status"] == "ok"  # the probe's row is updated the second time


def test_health_reports_a_database_that_cannot_be_written(app, tmp_path):
    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if url.get_backend_name() == "sqlite":
        from floor import create_app

        readonly = create_app({"TESTING": True, "SECRET_KEY": "t",
                               "SQLALCHEMY_DATABASE_URI": f"sqlite:///file:{url.database}?mode=ro&uri=true"},
                              instance_path=app.instance_path)  # the same host: its seal key and witness
    else:
        with app.app_context():
            db.session.execute(db.text(f'ALTER DATABASE "{url.database}" SET default_transaction_read_only = on'))
            db.session.commit()
        readonly = app
        with app.app_context():
            db.engine.dispose()  # new connections read the new default
    try:
        response = readonly.test_client().get("/api/health")
        assert response.status_code == 503
        assert response.json == {"status": "degraded", "database": "read-only or full",
                                 "version": app.config["FLOOR_VERSION"]}
    finally:
        if url.get_backend_name() != "sqlite":
            with app.app_context():
                db.session.execute(db.text("SET TRANSACTION READ WRITE"))
                db.session.execute(db.text(f'ALTER DATABASE "{url.database}" SET default_transaction_read_only = off'))
                db.session.commit()
                db.engine.dispose()


def play(client, table_id, tokens, n):
    for _ in range(n):
        state = client.get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"])).json["state"]
        event = {"type": "deal"} if state["phase"] == "between_deals" else {"type": "pass", "seat": state["to_act"]}
        assert client.post(f"/api/tables/{table_id}/events", json=event,
                           headers=bearer(tokens["dealer"])).status_code == 201


def test_a_backup_restores_exactly_what_was_there(app, tokens, tmp_path):
    """Round trip: back up, log more and damage the log, restore; the log is the one backed up,
    the table answers, and every seal verifies."""
    if make_url(app.config["SQLALCHEMY_DATABASE_URI"]).get_backend_name() == "postgresql":
        from tests import pg

        if not pg.tool("pg_dump"):
            pytest.skip("pg_dump is not installed")
    client = app.test_client()
    runner = app.test_cli_runner()
    table = client.post("/api/tables", json={"name": "Saved", **SETUP}, headers=bearer(tokens["director"])).json
    play(client, table["id"], tokens, 6)
    target = tmp_path / "backups" / "floor.backup"
    result = runner.invoke(args=["backup", "--to", str(target)])
    assert result.exit_code == 0, result.output
    assert target.is_file() and "seal_key" in result.output

    play(client, table["id"], tokens, 3)  # after the backup: lost on restore
    with app.app_context():
        db.session.execute(db.delete(LogEntry).where(LogEntry.table_id == table["id"], LogEntry.seq == 2))
        db.session.commit()
    assert runner.invoke(args=["verify"]).exit_code != 0

    result = runner.invoke(args=["restore", str(target), "--yes"])
    assert result.exit_code == 0, result.output
    tables.cache.clear()
    with app.app_context():
        db.session.remove()
        restored = db.session.get(Table, table["id"])
        assert restored.version == 6
        assert db.session.scalar(db.select(db.func.count()).select_from(LogEntry)) == 6
    assert client.get(f"/api/tables/{table['id']}", headers=bearer(tokens["dealer"])).json["version"] == 6
    result = runner.invoke(args=["verify"])
    assert result.exit_code == 0, result.output


def test_a_backup_goes_to_instance_backups_by_default(app):
    result = app.test_cli_runner().invoke(args=["backup"])
    assert result.exit_code == 0, result.output
    assert "/backups/floor-" in result.output
