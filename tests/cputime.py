"""Which tests compute and which wait: each test's wall time beside the CPU its process tree used.

A pytest plugin, off unless asked for (docs/testing.md, "What the suite's time goes to")::

    .venv/bin/python -m pytest -p tests.cputime --cpu-table=/tmp/table.txt -m slow -n 2

For every test (setup, call and teardown together) it records, in the process that ran it:

- ``wall``: the seconds it took;
- ``cpu``: the CPU seconds of the test process itself (all its threads: a werkzeug live server in
  a thread counts here);
- ``kids``: the CPU seconds of the processes under it (gunicorn and its workers, the CLI, the
  throwaway PostgreSQL server, Playwright's driver and chromium), alive or reaped, read from
  ``/proc``;
- ``queue``: the seconds the test's main thread, and the threads of the processes under it, were
  ready to run but waited for a core (the kernel's run-queue delay,
  ``/proc/<pid>/task/<tid>/schedstat``): on a machine shared with other work this is where a
  loaded core's time goes (a process that ended during the test takes its own with it);
- ``idle``: ``wall - cpu - kids - queue`` (not below 0): what the test waited on that was neither
  its own computing nor a core: sleeps, polls, timeouts, a server starting, a page's timer. It is
  a lower bound when a child computes while the test's own thread also computes, and it counts
  a child's waiting for a core when the child ended before the test did.

A process under the test process that ends unreaped by it (chromium's helpers when the browser
closes) takes its CPU out of the sum: ``kids`` is shown as 0 where it would fall below.

The table (slowest first, with the totals) goes to the file ``--cpu-table`` names; under xdist each
worker measures its own tests and the controller writes the table. Linux only (``/proc``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_PHASES = ("setup", "call", "teardown")


def pytest_addoption(parser) -> None:
    parser.addoption("--cpu-table", metavar="FILE", default=None,
                     help="write each test's wall time, CPU and waiting to FILE (tests/cputime.py)")


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of the process and of the children it reaped), or None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    # fields[0] is the state (field 3 of proc(5)); utime, stime, cutime, cstime are fields 14 to 17.
    return int(fields[1]), sum(int(f) for f in fields[11:15]) / _CLOCK_TICKS


def _tree_cpu(root: int) -> tuple[float, float, list[int]]:
    """(CPU of ``root`` itself, CPU of every process under it, alive or reaped, in seconds; the
    living processes under it).

    A reaped child's CPU is in its parent's cutime/cstime, so the tree's CPU is the sum, over
    ``root`` and its living descendants, of each one's own and reaped children's CPU."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None:
                parents[int(entry.name)], cpu[int(entry.name)] = stat
    own = cpu.get(root, 0.0)
    under = 0.0
    living = []
    for pid, seconds in cpu.items():
        ancestor = parents.get(pid)
        while ancestor is not None and ancestor > 1:
            if ancestor == root:
                under += seconds
                living.append(pid)
                break
            ancestor = parents.get(ancestor)
    # the reaped children of root itself are in root's own line: move them to "under".
    times = os.times()
    reaped = times.children_user + times.children_system
    return own - reaped, under + reaped, living


def _queues(pids: list[int]) -> dict[str, float]:
    """How long this process's main thread, and each thread of the living processes ``pids``, has
    waited for a core so far, in seconds, by thread (at a load of 11 on 2 cores, a browser's
    start-up is mostly that)."""
    found = {}
    for path in [f"/proc/self/task/{os.getpid()}/schedstat",
                 *(f"/proc/{pid}/task/{tid}/schedstat" for pid in pids for tid in _tasks(pid))]:
        try:
            found[path] = int(Path(path).read_text().split()[1]) / 1e9
        except (OSError, IndexError):
            pass  # a process or thread that ended meanwhile
    return found


def _tasks(pid: int) -> list[str]:
    try:
        return os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []


class _Meter:
    """The side of each process that runs tests: a sample before each test, the difference after."""

    def _sample(self) -> tuple[float, float, float, dict[str, float]]:
        own, under, living = _tree_cpu(os.getpid())
        return time.perf_counter(), own, under, _queues(living)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):  # type: ignore[no-untyped-def]
        item._cputime_start = self._sample()
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):  # type: ignore[no-untyped-def]
        outcome = yield
        report = outcome.get_result()
        if call.when == "teardown":
            start = item._cputime_start
            end = self._sample()
            wall, own, under = (b - a for a, b in zip(start[:3], end[:3]))
            # the threads alive at the end: what each waited since the start (or since it began)
            queue = sum(seconds - start[3].get(thread, 0.0) for thread, seconds in end[3].items())
            report.user_properties.append(("cputime", (wall, own, under, queue)))


class _Table:
    """The controller's (or the only process's) side: collects the rows and writes the table."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.rows: dict[str, list[float]] = {}
        self.started = time.perf_counter()

    def pytest_runtest_logreport(self, report) -> None:
        for name, value in report.user_properties:
            if name == "cputime" and report.when == "teardown":
                self.rows[report.nodeid] = list(value)

    def pytest_sessionfinish(self, session) -> None:
        lines = [f"{'wall':>8} {'cpu':>8} {'kids':>8} {'queue':>8} {'idle':>8}  test"]
        total = [0.0] * 5
        for nodeid, (wall, own, under, queue) in sorted(self.rows.items(), key=lambda kv: -kv[1][0]):
            under = max(0.0, under)
            idle = max(0.0, wall - own - under - queue)
            for i, value in enumerate((wall, own, under, queue, idle)):
                total[i] += value
            lines.append(f"{wall:8.2f} {own:8.2f} {under:8.2f} {queue:8.2f} {idle:8.2f}  {nodeid}")
        lines.insert(1, " ".join(f"{v:8.1f}" for v in total) + f"  TOTAL of {len(self.rows)} tests "
                     f"(run's wall {time.perf_counter() - self.started:.1f} s, load {os.getloadavg()})")
        Path(self.path).write_text("\n".join(lines) + "\n")


def pytest_configure(config) -> None:
    path = config.getoption("--cpu-table")
    if not path:
        return
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(_Table(path), "cputime-table")
    # each process that runs tests measures them (the only process without xdist, else each worker)
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        config.pluginmanager.register(_Meter(), "cputime-meter")
