"""The night's server: the app's production server (gunicorn) on a throwaway instance and database.
The load benchmark (``bench/bench_server.py``) starts its server with this module too: it is plain
process and HTTP code (nothing of ``floor/`` or ``rules/``), so the night's referee stays apart.

SQLite by default (a file in a temporary folder); ``postgresql`` uses the test suite's throwaway
server (``tests/pg.py``: a cluster on a unix socket in a temporary folder, dropped at the end).
Set up through the app's own CLI (``init-db``, ``create-user`` which prints an API token; the
commands in one process, :mod:`night.commands`), served on 127.0.0.1 on a free port, stopped at
the end. Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
TIMEOUT = 60  # seconds for any one request: a hung server ends the night, it does not hang it
PASSWORD = "night-password-1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CommandFailed(RuntimeError):
    """A ``flask`` command of the set-up failed; ``outputs``: what each command before it printed."""

    def __init__(self, message: str, outputs: list[str]) -> None:
        super().__init__(message)
        self.outputs = outputs


class Client:
    """One device: a bearer token (API) or a browser session (cookies, for the floor's pages)."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self.cookies: dict[str, str] = {}

    def raw(self, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, bytes, dict[str, str]]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            hdrs = {**self.headers, **(headers or {})}
            if self.cookies:
                hdrs["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            conn.request(method, path, body=body, headers=hdrs)
            response = conn.getresponse()
            data = response.read()
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key.strip()] = rest.split(";", 1)[0]
            return response.status, data, {k.lower(): v for k, v in response.getheaders()}
        finally:
            conn.close()

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, Any]:
        status, data, headers = self.raw(method, path, json.dumps(body).encode() if body is not None else None)
        if headers.get("content-type", "").startswith("application/json") and data:
            return status, json.loads(data)
        return status, {"text": data.decode("utf-8", "replace")}


class Server:
    """gunicorn serving ``floor:create_app`` on a throwaway instance folder and database.

    ``backlog``: connections gunicorn queues before it refuses (a load test of hundreds of tablets
    wants more than the night's); ``name`` names the temporary folder and the SQLite file."""

    def __init__(self, db: str = "sqlite", workers: int = 2, backlog: int = 512, name: str = "night") -> None:
        self.db, self.workers, self.backlog, self.name = db, workers, backlog, name
        self.instance = tempfile.mkdtemp(prefix=f"floor-{name}-")
        # A closed shift's report is waited for this long before the app answers its "being put
        # together" page (floor.shift_jobs; 8 s in a card room): a night's report is small, so a short
        # wait has the floor manager's shift change walk that page as a full night's report would.
        with open(os.path.join(self.instance, "config.py"), "w", encoding="utf-8") as config:
            config.write("FLOOR_REPORT_WAIT = 0.25\n")
        self.cluster = None
        self.url = ""
        self.process: subprocess.Popen | None = None
        self.port = 0
        self.tokens: dict[str, str] = {}

    @property
    def app(self) -> str:
        return f'floor:create_app(instance_path="{self.instance}")'

    def env(self) -> dict[str, str]:
        return {**os.environ, "FLOOR_DATABASE_URL": self.url, "PYTHONPATH": str(ROOT)}

    def flask(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run([str(BIN / "flask"), "--app", self.app, *args], env=self.env(), check=check,
                              capture_output=True, text=True, cwd=str(ROOT), timeout=300)

    def flask_commands(self, commands: list[list[str]]) -> list[str]:
        """Several ``flask`` commands in one process (:mod:`night.commands`: each process imports
        the whole app); what each printed on its output. Raises when one fails, naming it and what
        it printed (:class:`CommandFailed`, with the outputs of the commands before it)."""
        done = subprocess.run([sys.executable, "-m", "night.commands", self.app, json.dumps(commands)],
                              env=self.env(), capture_output=True, text=True, cwd=str(ROOT), timeout=300)
        try:
            results = json.loads(done.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            raise RuntimeError(f"the flask commands did not run: {done.stdout[-2000:]}{done.stderr[-2000:]}") from None
        for n, (args, result) in enumerate(zip(commands, results)):
            if result["code"]:
                raise CommandFailed(f"flask {' '.join(args[:1])} exited {result['code']}: "
                                    f"{(result['out'] + result['err'])[-2000:]}", [r["out"] for r in results[:n]])
        return [result["out"] for result in results]

    def start(self, users: dict[str, str]) -> None:
        """Database, schema, users (name -> role; their API tokens kept), then gunicorn."""
        if self.db == "postgresql":
            sys.path.insert(0, str(ROOT))
            from tests import pg

            self.cluster = pg.Cluster()
            self.cluster.start()
            self.url = self.cluster.empty_database()
        else:
            self.url = f"sqlite:///{self.instance}/{self.name}.sqlite"
        made = self.flask_commands([["init-db"]] + [["create-user", name, "--role", role, "--password", PASSWORD]
                                                     for name, role in users.items()])
        for name, out in zip(users, made[1:]):
            self.tokens[name] = out.rsplit(": ", 1)[1].strip()
        self.port = free_port()
        self.process = subprocess.Popen(
            [str(BIN / "gunicorn"), "--workers", str(self.workers), "--bind", f"127.0.0.1:{self.port}",
             "--timeout", "120", "--backlog", str(self.backlog), self.app],
            env=self.env(), cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        probe = Client(self.port)
        for _ in range(300):  # at most 30 s for the workers to boot
            try:
                if probe.request("GET", "/api/health")[0] == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError("gunicorn exited while starting")
            time.sleep(0.1)
        raise RuntimeError("the server did not answer /api/health in 30 s")

    def client(self, user: str) -> Client:
        return Client(self.port, self.tokens[user])

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def verify(self) -> tuple[bool, str]:
        done = self.flask("verify", check=False)
        text = (done.stdout + done.stderr).strip()
        return done.returncode == 0, text

    def cleanup(self, keep: bool = False) -> None:
        """Stop the throwaway PostgreSQL server and remove the instance folder (the SQLite file, the
        witness, the keys: in memory under /dev/shm on most machines, so a folder left behind by
        every night or load test is memory the machine never gets back). ``keep`` leaves the folder
        for a look afterwards."""
        if self.cluster is not None:
            self.cluster.stop()
            self.cluster = None
        if not keep:
            shutil.rmtree(self.instance, ignore_errors=True)
