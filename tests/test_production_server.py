"""The production server (issue 11): what `make run` starts, gunicorn with several workers, serves
the app on the test's database; tablets logging at one table through different workers agree."""

from __future__ import annotations

import pytest

from tests.conftest import SETUP
from tests.served import Gunicorn, call

# several processes or a production server: seconds each (make test runs them, make test-fast not)
pytestmark = pytest.mark.slow


def test_gunicorn_with_several_workers_serves_the_app(app, tokens, tmp_path):
    # the same host as the test's app: its seal key, its witness
    server = Gunicorn(app.instance_path, {"FLOOR_DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
                                          "FLOOR_SECRET_KEY": "t"}).start(workers=3)
    port = server.port
    try:
        status, headers, body = call(port, "GET", "/api/health")
        assert status == 200 and body["database"] == "ok"
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        status, _, table = call(port, "POST", "/api/tables", {"name": "Served", **SETUP}, tokens["director"])
        assert status == 201, table
        version, state = 0, table["state"]
        for _ in range(30):  # each request may land on another worker: the versions must follow
            event = {"type": "deal"} if state["phase"] == "between_deals" else {"type": "pass", "seat": state["to_act"]}
            status, _, body = call(port, "POST", f"/api/tables/{table['id']}/events",
                                   {"event": event, "expected_version": version}, tokens["dealer"])
            assert status == 201, body
            version, state = body["version"], body["state"]
        status, _, body = call(port, "GET", f"/api/tables/{table['id']}", token=tokens["dealer"])
        assert body["version"] == 30 and body["state"] == state
        # The app's audit lines at INFO reach gunicorn's error stream (issue 34: they were dropped):
        # a dealer reports false openers, the floor's call is stored and the act is written down.
        status, _, body = call(port, "POST", f"/api/tables/{table['id']}/events",
                               {"event": {"type": "deal"}, "expected_version": version}, tokens["dealer"])
        opener, version = body["state"]["to_act"], body["version"]
        for event in ({"type": "open", "seat": opener}, {"type": "false_openers", "seat": opener}):
            status, _, body = call(port, "POST", f"/api/tables/{table['id']}/events",
                                   {"event": event, "expected_version": version}, tokens["dealer"])
            version = body.get("version", version)
        assert status == 202, body
    finally:
        errors = server.stop()
    reported = [line for line in errors.splitlines() if "false openers at table" in line]
    assert len(reported) == 1 and "INFO" in reported[0] and "reported by dee" in reported[0], errors[-2000:]
