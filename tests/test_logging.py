"""The app's log (issue 34): the audit lines at INFO are kept, on the server's error stream and, when
the installation names one, in a file; the level comes from the configuration's layers.

Before ``create_app`` configured it, ``app.logger`` had no level of its own and took the root
logger's (WARNING): "ruling #3 issued by fred", "false openers at table 2 reported by dee" were
dropped. The line used here is the dealer's report of false openers through the API (a 202).
"""

from __future__ import annotations

import logging

import pytest

from floor import create_app
from tests.conftest import bearer

REPORTED = "false openers at table"


def report_false_openers(client, token: str, table_id: int) -> None:
    """Deal, open, and report the opener as a dealer: nothing is logged at the table, a floor call
    is stored, and the app writes its audit line."""
    version, opener = 0, None
    for event in ({"type": "deal"}, {"type": "open"}, {"type": "false_openers"}):
        state = client.get(f"/api/tables/{table_id}", headers=bearer(token)).json["state"]
        if event["type"] == "open":
            event["seat"] = opener = state["to_act"]
        if event["type"] == "false_openers":
            event["seat"] = opener
        response = client.post(f"/api/tables/{table_id}/events", json={**event, "expected_version": version},
                               headers=bearer(token))
        assert response.status_code in (201, 202), response.json
        version = response.json.get("version", version)
    assert response.status_code == 202, response.json


def test_the_audit_lines_at_info_are_kept_by_default(app, client, tokens, table_id, caplog):
    """(Under gunicorn they reach its error stream: tests/test_production_server.py reads it.)"""
    assert app.logger.getEffectiveLevel() == logging.INFO
    report_false_openers(client, tokens["dealer"], table_id)
    [record] = [r for r in caplog.records if REPORTED in r.getMessage()]
    assert record.name == "floor" and record.levelno == logging.INFO
    assert "reported by dee" in record.getMessage()


def test_the_level_and_a_file_come_from_the_instance_config(tmp_path, monkeypatch, capsys):
    """The instance's config.py sets both, as a card room would: WARNING drops the INFO lines from
    the error stream; the file gets what the level lets through, and keeps it across apps (one
    handler, never two lines for one act)."""
    inst = tmp_path / "inst"
    inst.mkdir()
    (inst / "config.py").write_text("FLOOR_LOG_LEVEL = 'warning'\nFLOOR_LOG_FILE = 'floor.log'\n")
    monkeypatch.setenv("FLOOR_DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite'}")
    monkeypatch.setenv("FLOOR_SECRET_KEY", "from-env")
    monkeypatch.delenv("FLOOR_LOG_LEVEL", raising=False)
    monkeypatch.delenv("FLOOR_LOG_FILE", raising=False)
    quiet = create_app(instance_path=str(inst))
    quiet.logger.info("an act at INFO")
    quiet.logger.warning("a warning")
    again = create_app(instance_path=str(inst))
    again.logger.warning("a second warning")
    text = (inst / "floor.log").read_text(encoding="utf-8")
    assert "an act at INFO" not in text
    assert text.count("a warning") == 1 and text.count("a second warning") == 1
    assert "an act at INFO" not in capsys.readouterr().err

    monkeypatch.setenv("FLOOR_LOG_LEVEL", "INFO")  # the environment overrides the instance file
    loud = create_app(instance_path=str(inst))
    loud.logger.info("an act at INFO")
    assert "an act at INFO" in (inst / "floor.log").read_text(encoding="utf-8")
    for handler in list(loud.logger.handlers):  # leave the process's logger as other tests expect it
        if getattr(handler, "floor_log_file", False):
            loud.logger.removeHandler(handler)
            handler.close()


def test_a_level_that_is_not_one_is_refused_at_start(tmp_path):
    with pytest.raises(ValueError, match="FLOOR_LOG_LEVEL 'chatty' is not a logging level"):
        create_app({"TESTING": True, "SECRET_KEY": "t", "FLOOR_LOG_LEVEL": "chatty",
                    "SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=str(tmp_path / "inst"))


def test_the_audit_lines_survive_the_migrations(tmp_path):
    """``flask init-db`` runs alembic in the app's process, and alembic's env.py configures logging
    from alembic.ini: with logging's default that disabled every logger already made, the app's
    among them, so nothing the process did afterwards was written down."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'm.sqlite'}"},
                     instance_path=str(tmp_path / "instance"))
    result = app.test_cli_runner().invoke(args=["init-db", "--timezone", "UTC"])
    assert result.exit_code == 0, result.output
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    app.logger.addHandler(handler)
    try:
        app.logger.info("ruling #1 issued by fred: POT_CARRIES_OVER")
    finally:
        app.logger.removeHandler(handler)
    assert seen == ["ruling #1 issued by fred: POT_CARRIES_OVER"]
