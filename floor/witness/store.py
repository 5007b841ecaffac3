"""Where the room's witness keeps its lines: files on this host, or a PostgreSQL database of its own.

**One host: files** (:class:`FileStore`, the default). ``instance/witness.log`` is the live
segment; when it has grown past ``FLOOR_WITNESS_ROTATE_LINES`` lines, the next checkpoint closes
it (it becomes ``instance/witness/<first>-<last>.log``) and begins the new live segment, as its
first line. A reader resumes at the last line that carries the whole state (a checkpoint or an
epoch; the live segment's first line at the latest), found by reading the live file backwards, so
a server process reads the lines since the last checkpoint at its start, whatever the history; a
full verify streams every segment in order. Writers append under an exclusive ``flock`` on ``instance/witness.lock``
(the live file itself is renamed at rotation), which each process opens once (:class:`LockFile`).

**Several hosts: a database of its own** (:class:`SqlStore`, ``FLOOR_WITNESS_URL``). Every host
writes one chain into the table ``witness_lines`` of another PostgreSQL database than the room's,
under PostgreSQL's advisory lock (a lock the server holds for every host, which ``flock`` on a
shared file system does not promise). Why there: a rollback or restore of the room's database
(``pg_restore --clean``, a point-in-time recovery of it) does not reach another database, least of
all on another server; and the app's role there has only ``INSERT`` and ``SELECT`` on the table
(``flask witness init-store`` prints the grants), so neither the app nor whoever holds its
credentials can rewrite a line. A reader resumes at the last checkpoint (an index on the line
number and one on the kind).
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import BigInteger, Column, MetaData, String, Table, Text, create_engine, func, select

from floor.witness.lines import RESUME, parse


class WitnessLost(Exception):
    """The room's witness is missing, cut back, or not the one the database remembers: nothing is
    served until it is put back or a director records the move (``flask witness adopt``)."""


LIVE, FOLDER, LOCK = "witness.log", "witness", "witness.lock"


class LockFile:
    """An exclusive ``flock`` on one file, for every thread of this process, the file opened once.

    A commit that writes the witness takes it (issue 34: opening and closing the file at each tap
    cost more than the lock itself). ``flock`` excludes other open files of the file, not the
    threads sharing this one, so a thread lock comes first: one holder at a time in this process,
    the kernel's lock between processes. The file is held open, and so is checked once locked: a
    lock file removed or replaced under the process (by hand; the app never does) would leave it
    locking a file that other processes no longer open, so the lock is taken again on the file
    the path names now. A forked child opens its own (a copy of the parent's descriptor shares
    the parent's lock, so it would exclude neither). Not reentrant, as a second ``open`` and
    ``flock`` in the same thread was not either.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._guard = threading.Lock()
        self._fd: int | None = None
        self._inode = 0
        self._pid = os.getpid()

    def __enter__(self) -> None:
        if self._pid != os.getpid():
            self._forked()
        self._guard.acquire()
        try:
            while True:
                if self._fd is None:
                    self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
                    self._inode = os.fstat(self._fd).st_ino
                fcntl.flock(self._fd, fcntl.LOCK_EX)
                try:
                    if os.stat(self.path).st_ino == self._inode:
                        return
                except FileNotFoundError:
                    pass
                self._drop()  # removed or replaced while this process held it open: the new one
        except BaseException:
            self._guard.release()
            raise

    def __exit__(self, *_: Any) -> None:
        try:
            if self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._guard.release()

    def _drop(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # lets go of its lock

    def _forked(self) -> None:
        with _FORK_GUARD:
            if self._pid != os.getpid():  # the parent's thread lock and descriptor are the parent's
                self._guard, self._pid = threading.Lock(), os.getpid()
                if self._fd is not None:
                    os.close(self._fd)  # this copy only: the parent's lock stays the parent's
                    self._fd = None

    def close(self) -> None:
        if self._pid != os.getpid():
            self._forked()
        with self._guard:
            self._drop()


_FORK_GUARD = threading.Lock()


class FileStore:
    """The witness in files on this host (see the module)."""

    def __init__(self, instance_path: str, rotate_lines: int = 20_000) -> None:
        self.live = os.path.join(instance_path, LIVE)
        self.folder = os.path.join(instance_path, FOLDER)
        self.lock_path = os.path.join(instance_path, LOCK)
        self._lock = LockFile(self.lock_path)
        self.rotate_lines = rotate_lines
        self.name = "instance/witness.log"
        self._live_lines: int | None = None  # lines in the live segment, counted by this process's writes
        #: The live file's inode, its size and the bytes this process's last append wrote at its end
        #: (None after a rotation): a reader that had read up to where they begin knows them already.
        self.own: tuple[int, int, int] | None = None

    def close(self) -> None:
        """Close the lock file (nothing else stays open between reads and writes)."""
        self._lock.close()

    def lock(self) -> LockFile:
        """The writers' lock (``with store.lock(): ...``)."""
        return self._lock

    def reader(self) -> FileReader:
        return FileReader(self)

    def empty(self) -> bool:
        return not os.path.exists(self.live) and not self.segments()

    def segments(self) -> list[str]:
        """The closed segments, oldest first."""
        try:
            names = sorted(n for n in os.listdir(self.folder) if n.endswith(".log"))
        except FileNotFoundError:
            return []
        return [os.path.join(self.folder, n) for n in names]

    def append(self, raws: list[bytes], checkpoint: bytes | None = None) -> None:
        """Append ``raws`` (under :meth:`lock`); a ``checkpoint`` line goes last, and begins a new
        live segment when this one has grown past the rotation size."""
        self.own = None
        if checkpoint is not None and self._live_size() + len(raws) >= self.rotate_lines:
            self._write(raws)
            self._rotate(checkpoint)
            self.own = None
            return
        self._write(raws + ([checkpoint] if checkpoint is not None else []))

    def _write(self, raws: list[bytes]) -> None:
        if not raws:
            return
        data = b"".join(raws)
        fd = os.open(self.live, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            written = 0
            while written < len(data):  # one write, but a short one (a full disk's) is taken on
                written += os.write(fd, data[written:])
            stat = os.fstat(fd)
        finally:
            os.close(fd)
        self.own = (stat.st_ino, stat.st_size, len(data))
        if self._live_lines is not None:
            self._live_lines += len(raws)

    def _live_size(self) -> int:
        if self._live_lines is None:
            try:
                with open(self.live, "rb") as fh:
                    self._live_lines = sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))
            except FileNotFoundError:
                self._live_lines = 0
        return self._live_lines

    def _rotate(self, checkpoint: bytes) -> None:
        """Close the live segment (a hard link into the folder under its lines' numbers) and put a
        new one holding ``checkpoint`` in its place in one rename: the live path never goes missing."""
        with open(self.live, "rb") as fh:
            first = parse(fh.readline()) or {}
        last = (parse(checkpoint) or {}).get("n", 1) - 1
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        os.link(self.live, os.path.join(self.folder, f"{int(first.get('n', 1)):012d}-{int(last):012d}.log"))
        fresh = self.live + ".new"
        fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(checkpoint)
            fh.flush()
            os.fsync(fh.fileno())
        os.rename(fresh, self.live)
        self._live_lines = 1

    def everything(self) -> Iterator[bytes]:
        """Every line from the first, segment by segment (a full verify)."""
        for path in [*self.segments(), self.live]:
            try:
                with open(path, "rb") as fh:
                    yield from fh
            except FileNotFoundError:
                continue

    def find(self, n: int) -> dict[str, Any] | None:
        """Line ``n`` (a collected checkpoint's), or None when the witness does not hold it."""
        for path in [*self.segments(), self.live]:
            name = os.path.basename(path)
            if path != self.live and not (int(name[:12]) <= n <= int(name[13:25])):
                continue
            try:
                with open(path, "rb") as fh:
                    for raw in fh:
                        line = parse(raw)
                        if line is not None and line.get("n") == n:
                            return line
            except FileNotFoundError:
                continue
        return None

    def set_aside(self, suffix: str) -> str | None:
        """Move the witness's files aside (``flask witness adopt`` over a witness that is no longer
        the database's); returns where, or None when there was nothing."""
        if self.empty():
            return None
        aside = os.path.join(os.path.dirname(self.live), f"witness-set-aside-{suffix}")
        os.makedirs(aside, mode=0o700)
        if os.path.exists(self.live):
            os.rename(self.live, os.path.join(aside, LIVE))
        if os.path.isdir(self.folder):
            os.rename(self.folder, os.path.join(aside, FOLDER))
        self._live_lines = None
        return aside


#: How a line that carries the whole state begins to say its kind (keys are sorted: "at" comes first,
#: then "by" or "kind"; a string holding these bytes would have its quotes escaped).
_RESUME_MARKERS = tuple(f'"kind":"{kind}"'.encode() for kind in sorted(RESUME))


def resume_offset(path: str) -> int:
    """Where the last line that carries the whole state (a checkpoint, an epoch) begins in ``path``,
    read backwards from its end: a reader begins there, at the cost of the lines since (0 when the
    file holds none, or does not exist)."""
    try:
        fh = open(path, "rb")
    except FileNotFoundError:
        return 0
    with fh:
        pos = fh.seek(0, os.SEEK_END)
        tail = b""
        while pos > 0:
            step = min(1 << 16, pos)
            pos -= step
            fh.seek(pos)
            tail = fh.read(step) + tail
            found = max(tail.rfind(marker) for marker in _RESUME_MARKERS)
            if found < 0:
                continue
            start = tail.rfind(b"\n", 0, found)
            if start >= 0 or pos == 0:
                return pos + start + 1
    return 0


class FileReader:
    """Reads a :class:`FileStore` on from where it stopped, following a rotation (the segment it was
    reading is found in the folder by its inode: a hard link of the same file); raises
    :class:`WitnessLost` when the live file went missing or shrank under it. No file is kept open
    between reads."""

    def __init__(self, store: FileStore) -> None:
        self.store = store
        self.inode: int | None = None
        self.offset = 0
        self.fresh = True  # the first read resumes at the last checkpoint; later ones read on

    def read_new(self) -> list[bytes]:
        try:
            stat = os.stat(self.store.live)
        except FileNotFoundError:
            if self.inode is None:
                return []  # no witness yet (or none at all: the caller holds it against the database)
            raise WitnessLost(f"the room's witness ({self.store.name}) was removed") from None
        if stat.st_ino == self.inode and stat.st_size == self.offset:
            return []  # nothing new (most reads: a check that the witness did not move)
        out: list[bytes] = []
        if self.inode is not None and stat.st_ino != self.inode:
            closed = self.store.segments()
            mine = next((i for i, p in enumerate(closed) if os.stat(p).st_ino == self.inode), None)
            if mine is not None:  # rotated: the rest of the segment this reader was in, every one closed
                out += self._read(closed[mine])  # since, then the live one from its first line
                for path in closed[mine + 1:]:
                    self.offset = 0
                    out += self._read(path)
            self.inode, self.offset = None, 0
        if self.inode is None:
            # a rotation's new segment is read from its first line (it follows what was read)
            self.inode, self.offset = stat.st_ino, resume_offset(self.store.live) if self.fresh else 0
            self.fresh = False
        elif stat.st_size < self.offset:
            raise WitnessLost(f"the room's witness ({self.store.name}) was cut back to fewer lines than this server "
                              "read from it")
        return out + self._read(self.store.live)

    def read_own(self, inode: int, end: int, size: int) -> bool:
        """Move past the ``size`` bytes ending at ``end`` of the live file (inode ``inode``) that this
        process has just appended under the store's lock, when they begin exactly where this reader
        stopped: every byte before them read already, so they are the lines the writer holds."""
        if self.inode != inode or self.offset != end - size:
            return False
        self.offset = end
        return True

    def _read(self, path: str) -> list[bytes]:
        with open(path, "rb") as fh:
            fh.seek(self.offset)
            data = fh.read()
        end = data.rfind(b"\n") + 1  # a line still being written waits for its end
        self.offset += end
        return data[:end].splitlines()

    def close(self) -> None:
        pass


_META = MetaData()
LINES = Table("witness_lines", _META, Column("n", BigInteger, primary_key=True, autoincrement=False),
              Column("kind", String(16), nullable=False, index=True), Column("line", Text, nullable=False))
#: The advisory lock every host's writer takes (any number, the same for every host of the room).
ADVISORY_LOCK = 0x666c6f6f72  # "floor"


class SqlStore:
    """The witness in a PostgreSQL database of its own (see the module)."""

    def __init__(self, url: str) -> None:
        self.engine = create_engine(url, pool_pre_ping=True)
        if self.engine.dialect.name != "postgresql":
            raise ValueError("FLOOR_WITNESS_URL names a PostgreSQL database (its advisory lock serves every host)")
        self.name = f"the witness database ({self.engine.url.render_as_string(hide_password=True)})"

    def create(self) -> None:
        """Create the table (as the database's owner): ``flask witness init-store``."""
        _META.create_all(self.engine)

    def close(self) -> None:
        """Close this process's connections to the witness database."""
        self.engine.dispose()

    @contextmanager
    def lock(self) -> Iterator[None]:
        with self.engine.connect() as connection:
            connection.execute(select(func.pg_advisory_lock(ADVISORY_LOCK)))
            connection.commit()
            try:
                yield
            finally:
                connection.execute(select(func.pg_advisory_unlock(ADVISORY_LOCK)))
                connection.commit()

    def reader(self) -> SqlReader:
        return SqlReader(self)

    def empty(self) -> bool:
        with self.engine.connect() as connection:
            return connection.execute(select(LINES.c.n).limit(1)).first() is None

    def append(self, raws: list[bytes], checkpoint: bytes | None = None) -> None:
        rows = []
        for raw in raws + ([checkpoint] if checkpoint is not None else []):
            line = parse(raw) or {}
            rows.append({"n": line["n"], "kind": str(line.get("kind", ""))[:16], "line": raw.decode().rstrip("\n")})
        if rows:
            with self.engine.begin() as connection:
                connection.execute(LINES.insert(), rows)

    def everything(self) -> Iterator[bytes]:
        with self.engine.connect() as connection:
            result = connection.execution_options(yield_per=5000).execute(select(LINES.c.line).order_by(LINES.c.n))
            for (line,) in result:
                yield line.encode()

    def find(self, n: int) -> dict[str, Any] | None:
        with self.engine.connect() as connection:
            raw = connection.execute(select(LINES.c.line).where(LINES.c.n == n)).scalar()
        return None if raw is None else parse(raw.encode())

    def set_aside(self, suffix: str) -> str | None:
        if self.empty():
            return None
        raise WitnessLost(f"{self.name} holds lines: adopting needs an empty witness database (a new one)")


class SqlReader:
    """Reads a :class:`SqlStore` on from the last line it read, beginning at the last checkpoint."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store
        self.last: int | None = None

    def read_new(self) -> list[bytes]:
        with self.store.engine.connect() as connection:
            if self.last is None:
                begin = connection.execute(select(func.max(LINES.c.n)).where(LINES.c.kind.in_(sorted(RESUME)))).scalar()
                self.last = (begin - 1) if begin is not None else 0
            top = connection.execute(select(func.max(LINES.c.n))).scalar() or 0
            if top < self.last:
                raise WitnessLost(f"{self.store.name} was cut back to fewer lines than this server read from it")
            rows = connection.execute(select(LINES.c.n, LINES.c.line).where(LINES.c.n > self.last)
                                      .order_by(LINES.c.n)).all()
        if rows:
            self.last = rows[-1][0]
        return [line.encode() for _, line in rows]

    def close(self) -> None:
        pass


def store_for(app: Any) -> FileStore | SqlStore:
    """The app's witness store: ``FLOOR_WITNESS_URL``, else files in the instance folder."""
    url = app.config.get("FLOOR_WITNESS_URL")
    if url:
        return SqlStore(url)
    return FileStore(app.instance_path, int(app.config.get("FLOOR_WITNESS_ROTATE_LINES") or 20_000))


__all__ = ["FileStore", "SqlStore", "WitnessLost", "store_for", "LINES"]
