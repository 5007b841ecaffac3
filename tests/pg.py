"""A throwaway PostgreSQL server for the tests (issue 11: PostgreSQL for real in CI).

``FLOOR_TEST_PG=1 pytest ...`` (``make test`` does it for the database-facing tests) starts a
cluster of Debian's ``postgresql`` package (``initdb``, ``pg_ctl``) in a temporary directory,
listening on a unix socket there only (no TCP port: several runs on one machine never meet),
with fsync off (a test database need not survive a power cut). Every app a test makes gets its
own database, cloned from a template that holds the schema, and dropped after the test; the
cluster is stopped and deleted at the end of the run. ``FLOOR_TEST_PG_URL`` instead names a
server to use (a CI service); its databases are made and dropped the same way.

PostgreSQL refuses to run as root: as root, the server runs as the ``postgres`` user.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

TEMPLATE = "floor_template"


def tool(name: str) -> str | None:
    """The newest installed PostgreSQL's ``name`` (initdb, pg_ctl, pg_dump, ...)."""
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: int(p.parts[-3]), reverse=True)
    return str(found[0]) if found else shutil.which(name)


class Cluster:
    """A PostgreSQL server of our own, or one named by ``FLOOR_TEST_PG_URL``."""

    def __init__(self) -> None:
        self.external = os.environ.get("FLOOR_TEST_PG_URL")
        self.dir: str | None = None
        self.databases: list[str] = []
        self._names = itertools.count(1)

    # ------------------------------------------------------------------ the server
    def _as_owner(self, command: list[str]) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command

    def start(self) -> None:
        if self.external:
            return
        initdb, pg_ctl = tool("initdb"), tool("pg_ctl")
        if not initdb or not pg_ctl:
            raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql; `make sysdeps`)")
        self.dir = tempfile.mkdtemp(prefix="floor-pg-")
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        data = os.path.join(self.dir, "data")
        subprocess.run(self._as_owner([initdb, "-D", data, "-U", "floor", "--auth=trust", "-E", "UTF8",
                                       "--locale=C", "--no-sync"]), check=True, capture_output=True)
        options = (f"-k {self.dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
                   "-c full_page_writes=off -c max_connections=300")
        subprocess.run(self._as_owner([pg_ctl, "-D", data, "-l", os.path.join(self.dir, "log"), "-w", "-o", options,
                                       "start"]), check=True, capture_output=True)

    def stop(self) -> None:
        if self.dir is None:
            return
        subprocess.run(self._as_owner([tool("pg_ctl") or "pg_ctl", "-D", os.path.join(self.dir, "data"),
                                       "-m", "immediate", "stop"]), capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None

    # ------------------------------------------------------------------ databases
    def url(self, database: str) -> str:
        if self.external:
            from sqlalchemy.engine import make_url

            return make_url(self.external).set(database=database).render_as_string(hide_password=False)
        return f"postgresql+psycopg://floor@/{database}?host={self.dir}"

    def _admin(self, sql: str) -> None:
        import psycopg
        from sqlalchemy.engine import make_url

        url = make_url(self.url("postgres"))
        params = {"dbname": "postgres", "user": url.username, "password": url.password,
                  "host": url.query.get("host") or url.host, "port": url.port}
        with psycopg.connect(**{k: v for k, v in params.items() if v is not None}, autocommit=True) as conn:
            conn.execute(sql)

    def make_template(self, create_schema) -> None:
        """The template every test database is cloned from: ``create_schema(url)`` fills it."""
        self._admin(f'DROP DATABASE IF EXISTS "{TEMPLATE}" WITH (FORCE)')
        self._admin(f'CREATE DATABASE "{TEMPLATE}"')
        create_schema(self.url(TEMPLATE))

    def new_database(self) -> str:
        """A fresh database with the schema; its URL."""
        name = f"floor_test_{os.getpid()}_{next(self._names)}"
        self._admin(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
        self.databases.append(name)
        return self.url(name)

    def empty_database(self) -> str:
        """A fresh database without any table (for the migrations); its URL."""
        name = f"floor_empty_{os.getpid()}_{next(self._names)}"
        self._admin(f'CREATE DATABASE "{name}"')
        self.databases.append(name)
        return self.url(name)

    def drop_databases(self) -> None:
        while self.databases:
            self._admin(f'DROP DATABASE IF EXISTS "{self.databases.pop()}" WITH (FORCE)')
