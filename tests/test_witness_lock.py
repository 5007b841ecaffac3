"""Issue 34, session 43: the room's witness's lock file, opened once per process and kept
(floor.witness.store.LockFile). Every writer of the witness still waits for every other: a thread
of the same process, another process (a forked one among them: its copy of the descriptor would
share the parent's lock), and a process that opened the lock file after it was removed and made
anew under a process that held the old one open."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from floor.witness.store import LockFile

HOLD = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
sys.stdin.readline()
"""


@contextmanager
def held_elsewhere(path: str) -> Iterator[subprocess.Popen]:
    """Another process holding the lock file at ``path`` (opened as the app opens it) until told."""
    with subprocess.Popen([sys.executable, "-c", HOLD, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True) as other:
        try:
            assert other.stdout.readline().strip() == "locked"
            yield other
        finally:
            other.kill()


def let_go(other: subprocess.Popen) -> None:
    other.stdin.write("go\n")
    other.stdin.flush()


def taken_within(lock: LockFile, seconds: float) -> threading.Event:
    """Take ``lock`` in a thread of its own (and let go at once); the event is set once it got it."""
    got = threading.Event()

    def take() -> None:
        with lock:
            got.set()

    threading.Thread(target=take, daemon=True).start()
    got.wait(seconds)
    return got


def test_a_thread_waits_for_another_thread_of_the_same_process(tmp_path):
    lock = LockFile(str(tmp_path / "witness.lock"))
    with lock:
        assert not taken_within(lock, 0.3).is_set()
    assert taken_within(lock, 5).is_set()
    lock.close()


@pytest.mark.parametrize("removed", [False, True], ids=["the same file", "the file removed and made anew"])
def test_a_process_waits_for_another_process(tmp_path, removed):
    """And when the lock file was removed under a process that holds it open, the one another
    process makes anew and locks is the one this process waits for: it would otherwise lock a file
    nobody else opens."""
    path = str(tmp_path / "witness.lock")
    lock = LockFile(path)
    with lock:
        pass  # opened, and kept open
    if removed:
        os.remove(path)
    with held_elsewhere(path) as other:
        assert not taken_within(lock, 0.3).is_set()
        let_go(other)
        assert taken_within(lock, 5).is_set()
    lock.close()


def test_a_forked_child_and_its_parent_wait_for_each_other(tmp_path):
    """A child forked after the parent opened the lock file locks a file of its own opening: with the
    parent's descriptor, each would take the lock the other holds."""
    lock = LockFile(str(tmp_path / "witness.lock"))
    with lock:
        pass
    locked_r, locked_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: take the lock, say so, hold it until told
        try:
            with lock:
                os.write(locked_w, b"1")
                os.read(go_r, 1)
        finally:
            os._exit(0)
    try:
        assert os.read(locked_r, 1) == b"1"
        assert not taken_within(lock, 0.3).is_set()
        os.write(go_w, b"1")
        assert taken_within(lock, 5).is_set()
    finally:
        os.write(go_w, b"1")  # (again: a child still holding it never waits for ever)
        os.waitpid(pid, 0)
        for fd in (locked_r, locked_w, go_r, go_w):
            os.close(fd)
    lock.close()


def test_the_lock_is_let_go_when_the_holder_raises(tmp_path):
    lock = LockFile(str(tmp_path / "witness.lock"))
    try:
        with lock:
            raise RuntimeError("a commit that failed")
    except RuntimeError:
        pass
    started = time.monotonic()
    assert taken_within(lock, 5).is_set() and time.monotonic() - started < 5
    lock.close()
