"""A production server the tests start: gunicorn serving the app on the test's database, as
`make run` does, with the given worker processes (tests/test_production_server.py,
tests/test_login_workers.py, tests/test_hosts.py).

Each worker imports the app and makes it (about a second of CPU each): a test starts only the
servers and workers that what it proves needs (docs/testing.md, "Issue 34, session 42: the tests
that start servers").
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

from night.server import free_port

ROOT = Path(__file__).parent.parent
BIN = Path(sys.executable).parent


def call(port, method, path, body=None, token=None):
    """(status, headers, JSON body) of one request to the server on ``port``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), json.loads(response.read() or b"{}")
    finally:
        conn.close()


class Gunicorn:
    """``gunicorn --workers N`` serving ``floor:create_app(instance_path=...)`` with ``settings`` over
    the test process's environment; its error stream kept (the app's log lines, a refusal to start)."""

    def __init__(self, instance: str | Path, settings: dict[str, str]) -> None:
        self.instance, self.settings = str(instance), settings
        self.process: subprocess.Popen | None = None
        self.port = 0
        self.errors = ""
        self._stderr: Any = None

    def start(self, workers: int) -> Gunicorn:
        """Start it and wait until it answers ``/api/health``, whatever it answers (or has ended:
        :attr:`ended`)."""
        self.port = free_port()
        self._stderr = tempfile.TemporaryFile()  # a file, not a pipe: a chatty server never blocks on it
        self.process = subprocess.Popen(
            [str(BIN / "gunicorn"), "--workers", str(workers), "--bind", f"127.0.0.1:{self.port}",
             f'floor:create_app(instance_path="{self.instance}")'],
            env={**os.environ, **self.settings, "PYTHONPATH": str(ROOT)}, cwd=str(ROOT),
            stdout=subprocess.DEVNULL, stderr=self._stderr)
        for _ in range(300):
            if self.process.poll() is not None:
                self.stop()
                return self
            try:
                call(self.port, "GET", "/api/health")
                return self
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"gunicorn did not answer in 30 s: {self.errors[-2000:]}")

    @property
    def ended(self) -> int | None:
        """The exit status once the server has stopped (it refused to start, or :meth:`stop`), else None."""
        return None if self.process is None else self.process.poll()

    def stop(self) -> str:
        """Stop the server (if it still runs) and return what it wrote to its error stream."""
        if self.process is not None and self._stderr is not None:
            if self.process.poll() is None:
                self.process.terminate()
            self.process.wait(timeout=30)
            self._stderr.seek(0)
            self.errors = self._stderr.read().decode("utf-8", "replace")
            self._stderr.close()
            self._stderr = None
        return self.errors

    def __enter__(self) -> Gunicorn:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


@contextlib.contextmanager
def app_for_module(folder: Path) -> Iterator[Any]:
    """A test's app (conftest's ``make_app``: the schema, the three accounts) kept for a whole module,
    for a server the module's tests share: left out of what conftest closes and drops after each
    test, closed (and on PostgreSQL its database dropped) when the module is done."""
    from floor.extensions import db
    from tests import conftest

    app = conftest.make_app(folder)
    conftest._APPS.remove(app)
    cluster = conftest.POSTGRES
    database = cluster.databases.pop() if cluster is not None else None  # the one make_app just made
    try:
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
            app.extensions["floor_witness"].store.close()
        if cluster is not None and database is not None:
            cluster.databases.append(database)
            cluster.drop_databases()
