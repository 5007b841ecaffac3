"""SQLite's writers wait in line, not in a sleep (issue 23: 50 tablets at once).

SQLite lets one connection write at a time. A connection that finds the database locked does not
wait for the lock to be released: its busy handler sleeps and tries again, 1, 2, 5, 10, 15, 20, 25,
... up to 100 ms between tries. With 50 tablets tapping at once through 4 server processes, most
taps found another one writing, and a tap that lost a few rounds slept far longer than any writer
held the lock: at capacity the p99 was 400 to 700 ms for writes that hold the lock well under a
millisecond each.

So every connection of the app takes an exclusive ``flock`` on a file beside the database
(``<database>.writers``) before its first write of a transaction (the first INSERT, UPDATE or
DELETE: SQLite's own write lock is taken there too) and lets go when the connection goes back to
the pool, which is when its transaction has ended (committed or rolled back). The kernel wakes a
waiting writer the moment the lock is let go. SQLite's busy timeout stays as it was, for writers
outside the app (``sqlite3`` by hand, a backup tool).

Why this cannot deadlock: a connection holds SQLite's write lock only after it has taken this
lock, and waits for this lock only before it writes, so no connection ever holds the database
while it waits here. Reads take no lock (WAL: they never wait for a writer).

One thread never waits on itself: a second connection of the thread that holds the lock through
its first is refused at once (:class:`WriterWouldWaitOnItself`) rather than left waiting for ever;
no code of the app does that (its writes of a request share the session's one connection).

How long a writer may wait: as long as the writer before it holds the lock, which is one short
transaction. A server process stuck in one would be ended by gunicorn's worker timeout (60 s with
``make run``), and the kernel lets go of a dead process's locks; a writer outside the app meets
SQLite's own busy timeout (15 s) as before.

PostgreSQL needs none of this: its writers wait on the rows themselves, and are woken.
"""

from __future__ import annotations

import fcntl
import os
import threading
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

#: What a statement that writes begins with (pysqlite opens a transaction before the first four;
#: the others take SQLite's write lock on their own).
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER")
#: Kept in the pooled connection's ``info``: the lock file, opened once per connection, and the
#: thread that holds the lock through this connection now.
FILE, HELD = "floor_writers_file", "floor_writers_held"

#: The (lock file, thread) pairs of this process whose thread holds the lock through a connection.
_holding: set[tuple[str, int]] = set()
_holding_guard = threading.Lock()


class WriterWouldWaitOnItself(RuntimeError):
    """A second connection of one thread would write while the thread's first holds the lock: it
    would wait for ever on a lock only the waiting thread can let go."""


def path_of(database: str) -> str:
    """The lock file of a SQLite database file."""
    return database + ".writers"


def install(engine: Engine) -> None:
    """Make the engine's connections to a SQLite file queue for the write lock (a no-op for an
    in-memory database: one connection, nobody to wait for)."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return
    lock_path = path_of(os.path.abspath(database))

    @event.listens_for(engine, "before_cursor_execute")
    def _queue(conn: Any, _cursor: Any, statement: str, _params: Any, _context: Any, _many: bool) -> None:
        info = conn.connection.info  # the pooled DB-API connection's: it lives as long as the connection
        if HELD in info or not statement.lstrip()[:7].upper().startswith(WRITES):
            return
        me = (lock_path, threading.get_ident())
        if me in _holding:
            # SQLite alone would have failed it after its busy timeout, "database is locked"
            raise WriterWouldWaitOnItself(
                "a second database connection of this request writes while its first one's transaction "
                "is still open: it would wait for a lock only this request can let go (commit or roll "
                "back the first transaction before writing on another connection)")
        fd = info.get(FILE)
        if fd is None:
            fd = info[FILE] = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)  # in line behind the writer before, woken when it is done
        info[HELD] = me
        with _holding_guard:
            _holding.add(me)

    def _let_go(_dbapi_connection: Any, record: Any, *_: Any) -> None:
        holder = record.info.pop(HELD, None)
        if holder is not None:
            fcntl.flock(record.info[FILE], fcntl.LOCK_UN)
            with _holding_guard:  # the holder's thread, wherever the connection is given back
                _holding.discard(holder)

    def _close(dbapi_connection: Any, record: Any, *_: Any) -> None:
        _let_go(dbapi_connection, record)
        fd = record.info.pop(FILE, None)
        if fd is not None:
            os.close(fd)

    # back in the pool = the transaction is over (the pool has rolled back whatever was left open)
    event.listen(engine, "checkin", _let_go)
    event.listen(engine, "close", _close)
    event.listen(engine, "invalidate", _close)
