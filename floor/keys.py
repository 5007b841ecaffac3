"""The installation's keys: the session key, and the seal key with its fingerprint in the database.

- ``instance/secret_key`` signs the session cookies (unless ``FLOOR_SECRET_KEY`` or the config
  sets one). Made on first use.
- The **seal key** keys every seal of the history (:mod:`floor.seals`), the room's witness
  (:mod:`floor.witness`) and the API tokens' digests. It comes from the configuration:
  ``FLOOR_SEAL_KEY`` (the key itself), else ``FLOOR_SEAL_KEY_FILE`` (a file holding it, outside the
  instance folder: a secrets mount, a file only the service's user reads), else
  ``instance/seal_key`` (what a single machine made for itself on its first start).

**The fingerprint (issue 30).** The database keeps the seal key's fingerprint (a keyed digest of a
fixed text: it tells keys apart and reveals nothing of the key) in ``room_keys``. Each start
(:func:`check_seal_key`, from the app factory) compares the key this host has with it and refuses
to start, naming the setting, when

- the host has another key (a second host configured with another one, a key file mixed up), or
- the host has none while the database holds sealed records (``instance/seal_key`` deleted, a new
  machine not yet given the key): a new random key is never made for a database that holds
  sealed records, where it would silently leave everything sealed before unverifiable.

Only a database with no sealed records and no fingerprint (a new installation) gets a new key,
made into ``instance/seal_key``; its fingerprint is recorded at once. A database from before the
fingerprint (sealed records, none recorded) takes the host's key only when that key verifies its
sealed records (:func:`_verifies`), and records it then.

Several server processes may start at once: ``instance/seal_key`` is created exclusively
(``O_EXCL``), and the fingerprint row is inserted once (a second insert reads the first's).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import secrets
import time
from datetime import UTC, datetime
from typing import Any

from flask import Flask
from sqlalchemy import String, inspect, select, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Mapped, mapped_column

from floor.extensions import DbModel, db
from floor.seals import head_content, keyed_digest, same

#: The settings a host's seal key is read from, in order (then ``instance/seal_key``).
SEAL_SETTINGS = ("FLOOR_SEAL_KEY", "FLOOR_SEAL_KEY_FILE")
SEAL = "seal"


class KeyRefused(RuntimeError):
    """This host's seal key is not the database's, or it has none for a database with sealed records."""


class RoomKey(DbModel):
    """A key's fingerprint, as the database remembers it (one row per key: ``seal``)."""

    __tablename__ = "room_keys"

    name: Mapped[str] = mapped_column(String(20), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    recorded_at: Mapped[datetime]


def instance_key(instance_path: str, name: str) -> str:
    """The key in ``instance/<name>`` (64 hex digits), created on first use.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     first = instance_key(d, "k")
    ...     first == instance_key(d, "k") and len(first) == 64
    True
    """
    path = os.path.join(instance_path, name)
    for _ in range(50):
        try:
            with open(path, encoding="ascii") as fh:
                key = fh.read().strip()
            if key:
                return key
            time.sleep(0.01)  # another process created the file and is writing it
            continue
        except FileNotFoundError:
            pass
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue  # another process won the race: read its key
        key = secrets.token_hex(32)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(key + "\n")
        return key
    raise RuntimeError(f"{path} stays empty: remove it and start again")


def fingerprint(key: bytes) -> str:
    """What the database keeps of a seal key: a keyed digest of a fixed text.

    >>> fingerprint(b"k") == fingerprint(b"k") != fingerprint(b"l")
    True
    """
    return hmac.new(key, b"floor: the fingerprint of the seal key", hashlib.sha256).hexdigest()


def configured_seal_key(app: Flask) -> tuple[bytes | None, str]:
    """This host's seal key and where it was read (for messages), or ``(None, "")``."""
    value = app.config.get("FLOOR_SEAL_KEY")
    if value:
        return str(value).strip().encode(), "FLOOR_SEAL_KEY"
    path = app.config.get("FLOOR_SEAL_KEY_FILE")
    if path:
        try:
            with open(path, encoding="ascii") as fh:
                key = fh.read().strip()
        except OSError as exc:
            raise KeyRefused(f"FLOOR_SEAL_KEY_FILE names {path}, which cannot be read ({exc.strerror})") from None
        if not key:
            raise KeyRefused(f"FLOOR_SEAL_KEY_FILE names {path}, which is empty")
        return key.encode(), f"FLOOR_SEAL_KEY_FILE ({path})"
    local = os.path.join(app.instance_path, "seal_key")
    if os.path.exists(local):
        return instance_key(app.instance_path, "seal_key").encode(), "instance/seal_key"
    return None, ""


@functools.lru_cache(maxsize=8)
def token_key(seal_key: bytes) -> bytes:
    """The key of the API tokens' digests, derived from the seal key (one key to keep): derived once
    per key, not on every request that brings a token (a function of the key alone).

    >>> token_key(b"k") == hmac.new(b"k", b"floor: api tokens", hashlib.sha256).digest() != token_key(b"l")
    True
    """
    return hmac.digest(seal_key, b"floor: api tokens", "sha256")


def _has_sealed_records(connection: Any) -> bool:
    """Whether the database holds anything a seal key sealed (a table's head, a log entry, a ruling)."""
    for sql in ("SELECT 1 FROM tables WHERE head_seal <> '' LIMIT 1", "SELECT 1 FROM log_entries LIMIT 1",
                "SELECT 1 FROM rulings WHERE digest <> '' LIMIT 1", "SELECT 1 FROM banked_entries LIMIT 1"):
        if connection.execute(text(sql)).first() is not None:
            return True
    return False


def _verifies(connection: Any, key: bytes) -> bool:
    """Whether ``key`` made the database's sealed records: the seal of a table's head recomputed
    with it."""
    row = connection.execute(text("SELECT id, version, head_digest, setup, head_seal FROM tables "
                                  "WHERE head_seal <> '' ORDER BY id LIMIT 1")).first()
    if row is None:
        return True  # nothing to check it against (a log without heads cannot be: _has_sealed_records)
    setup = row.setup if isinstance(row.setup, dict) else json.loads(row.setup)
    return same(row.head_seal, keyed_digest(head_content(row.id, row.version, row.head_digest, setup), key))


def _refuse(message: str) -> KeyRefused:
    return KeyRefused(f"{message}. This host does not start: set FLOOR_SEAL_KEY (or FLOOR_SEAL_KEY_FILE) to the "
                      "room's seal key, the one its records were sealed with (see docs/record.md, \"Keys\").")


def check_seal_key(app: Flask, connection: Any | None = None) -> bytes | None:
    """The start-up check (see the module): this host's seal key, held against the fingerprint in
    the database; records the fingerprint when the database has none. Returns the key (also kept in
    ``app.extensions``), or None when the database has no ``room_keys`` table yet (before
    ``flask init-db``: the migration checks and records the key). Raises :class:`KeyRefused`."""
    if connection is None:
        with db.engine.connect() as own:
            try:
                key = _check(app, own)
            except IntegrityError:  # another process recorded the fingerprint first: it must be this key
                own.rollback()
                key = _check(app, own)
            own.commit()
            return key
    return _check(app, connection)  # in the caller's transaction (the migration's)


def _check(app: Flask, connection: Any) -> bytes | None:
    if not inspect(connection).has_table("room_keys"):
        return None
    key, source = configured_seal_key(app)
    recorded = connection.execute(select(RoomKey.fingerprint).where(RoomKey.name == SEAL)).scalar()
    if recorded is not None:
        if key is None:
            raise _refuse(f"the database's records are sealed with the key fingerprinted {recorded[:16]}..., and this "
                          "host has no seal key (none configured, no instance/seal_key)")
        if not hmac.compare_digest(fingerprint(key), recorded):
            raise _refuse(f"{source} is another key (fingerprint {fingerprint(key)[:16]}...) than the one the "
                          f"database's records are sealed with (fingerprint {recorded[:16]}...)")
    else:
        sealed = _has_sealed_records(connection)
        if key is None and sealed:
            raise _refuse("the database holds sealed records and this host has no seal key (none configured, no "
                          "instance/seal_key): a new key would leave every record unverifiable")
        if key is None:
            key, source = instance_key(app.instance_path, "seal_key").encode(), "instance/seal_key"
        elif sealed and not _verifies(connection, key):
            raise _refuse(f"{source} does not verify the database's sealed records")
        record_fingerprint(connection, key)
    app.extensions["floor_seal_key"] = key
    return key


def check_before_upgrade(app: Flask) -> None:
    """Before ``flask init-db`` upgrades a database from before the keys' fingerprint (issue 30):
    the key this host would seal with must verify the sealed records already there, or nothing is
    upgraded at all. (The record anchor's migration checks the same, but the migrations before it
    in the same upgrade are already applied by then: SQLite commits their tables as it goes.)"""
    try:
        connection = db.engine.connect()
    except OperationalError:
        return  # a database that does not answer: the upgrade meets it and says so
    with connection:
        tables = inspect(connection)
        if tables.has_table("room_keys") or not tables.has_table("tables"):
            return  # checked at the start (floor.create_app), or a new database
        if not _has_sealed_records(connection):
            return
        key, source = configured_seal_key(app)
        if key is None:
            raise _refuse("the database holds sealed records and this host has no seal key (none configured, no "
                          "instance/seal_key): a new key would leave every record unverifiable")
        if not _verifies(connection, key):
            raise _refuse(f"{source} does not verify the database's sealed records")


def load_seal_key(app: Flask) -> bytes:
    """The seal key when the start could not check it (the database did not answer then): checked
    now; a database without the fingerprint's table (one being upgraded from before the keyed
    seals) takes the configured key, or a new ``instance/seal_key``."""
    return (check_seal_key(app) or configured_seal_key(app)[0]
            or instance_key(app.instance_path, "seal_key").encode())


def record_fingerprint(connection: Any, key: bytes) -> None:
    """Insert the seal key's fingerprint (in the caller's transaction)."""
    connection.execute(RoomKey.metadata.tables[RoomKey.__tablename__].insert().values(
        name=SEAL, fingerprint=fingerprint(key), recorded_at=datetime.now(UTC).replace(tzinfo=None, microsecond=0)))
