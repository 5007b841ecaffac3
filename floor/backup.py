"""Backups of the database while the app serves, and their restore (issue 11).

- SQLite: SQLite's online backup API (``sqlite3.Connection.backup``): a consistent copy taken page
  by page while the server keeps logging (a copy of the file itself could catch a write halfway).
  Restore copies the backup back the same way, into the live database.
- PostgreSQL: ``pg_dump --format=custom`` (consistent: one transaction's snapshot); restore is
  ``pg_restore --clean --if-exists --no-owner`` into the database of ``FLOOR_DATABASE_URL``.

The keys in ``instance/`` (``secret_key``, ``seal_key``) are not in the backup: without the seal
key no seal of the restored history can be checked, and with it anyone holding a backup could
forge seals. Keep a copy of them apart from the backups (they never change).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import URL, make_url


def default_target(instance_path: str, url: URL) -> Path:
    """``instance/backups/floor-<UTC time>.sqlite`` (or ``.dump`` for PostgreSQL)."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    suffix = "sqlite" if url.get_backend_name() == "sqlite" else "dump"
    return Path(instance_path) / "backups" / f"floor-{stamp}.{suffix}"


def _sqlite_path(url: URL) -> str:
    if not url.database or url.database == ":memory:":
        raise ValueError("an in-memory SQLite database cannot be backed up")
    return url.database


def _pg_command(tool: str, url: URL) -> tuple[list[str], dict[str, str]]:
    """The PostgreSQL tool and the connection as libpq reads it (the password in the environment,
    never on the command line where ``ps`` shows it)."""
    binary = shutil.which(tool) or next(
        (str(p) for p in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{tool}"), reverse=True)), None)
    if binary is None:
        raise ValueError(f"{tool} is not installed (Debian: apt-get install postgresql-client)")
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return [binary, "--dbname", plain.render_as_string(hide_password=False)], env


def backup(database_url: str, target: Path) -> Path:
    """Write a consistent copy of the database to ``target``; returns it."""
    url = make_url(database_url)
    target.parent.mkdir(parents=True, exist_ok=True)
    if url.get_backend_name() == "sqlite":
        _copy_sqlite(sqlite3.connect(_sqlite_path(url)), sqlite3.connect(str(target)))
    elif url.get_backend_name() == "postgresql":
        command, env = _pg_command("pg_dump", url)
        subprocess.run(command + ["--format=custom", "--file", str(target)], env=env, check=True,
                       capture_output=True, text=True)
    else:
        raise ValueError(f"no backup for {url.get_backend_name()} databases")
    os.chmod(target, 0o600)  # a backup holds the password hashes
    return target


def _copy_sqlite(source: sqlite3.Connection, dest: sqlite3.Connection) -> None:
    """SQLite's online backup, page by page, from one open database into another; both closed after."""
    try:
        with dest:
            source.backup(dest)
    finally:
        dest.close()
        source.close()


def restore(database_url: str, source: Path) -> None:
    """Replace the database's content with the backup's (stop the server first)."""
    if not source.is_file():
        raise ValueError(f"no backup file {source}")
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        _copy_sqlite(sqlite3.connect(f"file:{source}?mode=ro", uri=True), sqlite3.connect(_sqlite_path(url)))
    elif url.get_backend_name() == "postgresql":
        command, env = _pg_command("pg_restore", url)
        subprocess.run(command + ["--clean", "--if-exists", "--no-owner", "--single-transaction", str(source)],
                       env=env, check=True, capture_output=True, text=True)
    else:
        raise ValueError(f"no restore for {url.get_backend_name()} databases")
