"""The login throttle's counts in the app's own database: one count per client address, shared by
every server process (issue 20).

Flask-Limiter keeps its counts in a storage of the ``limits`` library. Its default, memory, is per
process: with four gunicorn workers a client got four times the limit (40 logins a minute, not 10).
A card room has no Redis or Memcached; it has its database, which every worker already shares and
which is made for concurrent writers. So the counts are rows of ``rate_limits``
(:class:`RateLimitCount`, below), and this module registers the ``floordb://`` storage scheme for
them (the default ``RATELIMIT_STORAGE_URI``; a ``redis://`` URI still works for a room that has one).

Each hit is one atomic statement, ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING count`` (SQLite
3.35+ and PostgreSQL alike), in its own short transaction: two workers counting the same address at
once each get their own number, never the same one. A window that has run out starts again in the
same statement. Rows of windows long past are deleted now and then.

Only the fixed-window strategy (Flask-Limiter's default) is supported: it needs only ``incr``,
``get`` and ``get_expiry``.
"""

from __future__ import annotations

import random
import time
from typing import Any

from flask import current_app
from limits.storage import Storage
from sqlalchemy import String, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Mapped, mapped_column

from floor.extensions import DbModel


class RateLimitCount(DbModel):
    """One counter of the login throttle (Flask-Limiter's fixed windows): kept in the database so that every server process counts the same attempts."""

    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    count: Mapped[int]
    expires_at: Mapped[float]  # seconds since the epoch: when the window's count starts again


#: One hit in so many also deletes the rows of windows over an hour ago.
SWEEP_EVERY = 200

_INCR = text(
    "INSERT INTO rate_limits (key, count, expires_at) VALUES (:key, :amount, :expires) "
    "ON CONFLICT (key) DO UPDATE SET "
    "count = CASE WHEN rate_limits.expires_at <= :now THEN :amount ELSE rate_limits.count + :amount END, "
    "expires_at = CASE WHEN rate_limits.expires_at <= :now THEN :expires ELSE rate_limits.expires_at END "
    "RETURNING count")


def _engine() -> Any:
    from floor.extensions import db

    return db.engine


class DatabaseStorage(Storage):
    """``floordb://``: the counts in the ``rate_limits`` table of the app's database."""

    STORAGE_SCHEME = ["floordb"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with _engine().begin() as connection:
            count = connection.execute(_INCR, {"key": key[:255], "amount": amount, "expires": now + expiry,
                                               "now": now}).scalar_one()
            if random.randrange(SWEEP_EVERY) == 0:
                connection.execute(text("DELETE FROM rate_limits WHERE expires_at < :old"), {"old": now - 3600})
        return int(count)

    def _row(self, key: str) -> tuple[int, float] | None:
        with _engine().connect() as connection:
            row = connection.execute(text("SELECT count, expires_at FROM rate_limits WHERE key = :key"),
                                     {"key": key[:255]}).first()
        return None if row is None else (int(row[0]), float(row[1]))

    def get(self, key: str) -> int:
        row = self._row(key)
        return row[0] if row is not None and row[1] > time.time() else 0

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return row[1] if row is not None and row[1] > time.time() else time.time()

    def check(self) -> bool:
        try:
            with _engine().connect() as connection:
                connection.execute(text("SELECT 1"))
            return True
        except SQLAlchemyError:
            current_app.logger.exception("the login throttle's counts cannot be read")
            return False

    def reset(self) -> int | None:
        with _engine().begin() as connection:
            return int(connection.execute(text("DELETE FROM rate_limits")).rowcount)

    def clear(self, key: str) -> None:
        with _engine().begin() as connection:
            connection.execute(text("DELETE FROM rate_limits WHERE key = :key"), {"key": key[:255]})
