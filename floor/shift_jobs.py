"""A closed shift's report is put together outside the request, in a process of its own (issue 34,
session 44).

Building a full night's report (every table's log replayed, ``flask verify`` over the record) and
laying its PDF out took 27.6 s on a quiet machine and neared gunicorn's 60 s timeout on a loaded
one: the worker was killed, nothing was stored, the next click began again and died again, and
that worker served no tablet meanwhile. So a request for a closed window whose stored report may
not be served (:func:`floor.shift_store.stored`) starts a **job**. The request waits for it up to
``FLOOR_REPORT_WAIT`` seconds: a small report is served by the request that asked, as before; a
large one answers a progress page whose refresh carries ``since`` (the first request's moment), and
the refresh is served the job's report even if the room has dealt since (the stored report's
``as_of``), so it converges while the room plays.

The job's work runs in a **child process started with multiprocessing's "spawn" context**
(:func:`start_child`): a fresh interpreter that builds its own app from the worker's config and
instance folder, lowers its priority at once (:data:`NICENESS`: the tablets' taps come first), takes
the window's lock, builds and stores the report (:func:`floor.shift_store.served`; its links built
in a request context of the asking request's path and root), lays the PDF out and stores it with
the report when asked (:func:`floor.shift_store.stored_pdf`), sends its :class:`JobOutcome` back over
a pipe (the stored row's id and whether it built the report or took the one another job stored; or
its failure) and exits. A thread of the worker waits on the pipe and the child's exit (both release
the GIL), reads the stored row the child named (its seal checked) and ends the :class:`Job`.

Why a process and not a thread of the worker (as the first version of this session was): measured
through gunicorn (2 sync workers, 20 tablets tapping about once a second, a 10-table night's PDF;
docs/pages.md), the job's thread held the GIL in the worker the tablets tapped, so each tap that
waited on I/O (the commit's fsync, the socket) waited up to the switch interval to run again: the
taps' p99 went from 44 ms to 187 ms while the report was put together; and the worker kept the
layout's memory for its life (VmRSS 86 MB before, 393 MB after; twice that for an 8-hour night).
In a child the taps' worker only waits on a pipe, and the layout's memory goes back to the system
when the child exits: three runs each, alternately, the taps' p99 while the report was put together
was 10 to 112 ms (142 to 272 ms with the thread) and the workers were at 89 to 100 MB after it (one
of them at 393 to 399 MB with the thread). What is left of the tail was not traced: the child still
shares the two cores and the database (its long read of the record, its commits) with the workers.
The price: the child's interpreter starts and imports the app (about 1 s of CPU, and 0.5 s more for
WeasyPrint when it lays a PDF out, at the child's lowered priority) at every job, a few times a
night; and the first job of a worker starts multiprocessing's resource tracker, a small process
that lives as long as the worker.
Never ``fork``: the worker has threads, and the locks of floor.cache, floor.writelock,
floor.witness.room and SQLAlchemy's pool could be held by another thread at the fork; the child
would hang on them.

One job per window across the server processes of a host: a job holds an exclusive ``flock`` on
``instance/shift-reports/<window>.lock`` while it works. A job that finds the lock held knows one is
under way in another process and waits for it on the lock itself (the kernel wakes it when the
other lets go, or when the other process dies: a job killed mid-build leaves no stale lock), then
takes the report the other stored, or builds it when the other stored none. Within one process the
jobs are kept by window (:class:`Jobs`): a second request joins the one under way.

A job that fails is logged by the worker (``app.logger.error``, with the child's traceback), why is
written beside its lock (``<window>.failed``; a child that died without a word, killed or crashed:
"the report's process ended without finishing (exit code N)"; one past :data:`JOB_LIMIT` is stopped
and says so), the lock is let go in every case (by the kernel when the child dies), and the refresh that follows is told why, with a link to try again
(a request without ``since`` always tries again). The record's own refusals (a broken seal, a
rolled-back database, a lost witness) come back as themselves, pickled, or rebuilt by their type's
name when they do not pickle, and the request that waited answers them as the app does (409, 503).
"""

from __future__ import annotations

import fcntl
import json
import multiprocessing
import os
import pickle
import signal
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from flask import Flask, current_app, request

from floor.extensions import db
from floor.models import utcnow
from floor.tables import BROKEN_RECORD
from floor.witness import WitnessLost
from floor.shift_store import Served, served, stored, stored_by_id, stored_pdf

__all__ = ["Job", "Jobs", "JobOutcome", "ReportAnswer", "ReportFailed", "report_of", "jobs_of", "start_child"]

#: The folder of the instance that holds each window's lock and failure note.
FOLDER = "shift-reports"
#: The app's extension that holds the factory that made it (``floor.create_app``, set there): the
#: job's process makes its own app with it, from this app's config and instance folder.
FACTORY = "floor_factory"
#: How much lower the job's process runs than the worker that started it (``nice``): the tablets'
#: taps come first.
NICENESS = 10
#: The longest a job's process may take (seconds), its wait for another's job on the window's lock
#: included: past it, the process is stopped and the job fails saying so. An 8-hour night's PDF took
#: about a minute; a process stuck past this (a hung database, a lock never let go) would otherwise
#: keep its window "being put together" for the worker's life, every refresh joining it.
JOB_LIMIT = 15 * 60


@dataclass
class Job:
    """One window's report being put together for this process: ``pdf`` whether it lays the PDF
    out too, ``since`` the moment its report must have been read at or after (a refresh's; None: as
    the room stands), ``began`` when it was started (the moment a refresh asks for: the job reads
    the record after it). ``pid`` is its process's once started; ``done`` is set when it has ended,
    with ``report`` (and ``pdf_bytes``) and ``built`` (whether its process built the report, or took
    the one another job stored), or ``error``."""

    start: datetime
    end: datetime
    pdf: bool
    since: datetime | None
    began: datetime = field(default_factory=utcnow)
    done: threading.Event = field(default_factory=threading.Event)
    report: Served | None = None
    pdf_bytes: bytes | None = field(default=None, repr=False)
    error: BaseException | None = None
    pid: int | None = None
    built: bool | None = None


class Jobs:
    """The jobs under way in this process, one per window and kind (page or PDF), for one app."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._running: dict[tuple[datetime, datetime, bool], Job] = {}

    def running(self, start: datetime, end: datetime, pdf: bool) -> Job | None:
        with self._guard:
            return self._running.get((start, end, pdf))

    def start(self, app: Flask, job: Job, render: Callable[[], tuple[str, str]],
              print_html: Callable[[Served], str]) -> Job:
        """Start ``job`` (its process, and the thread that waits for it), or return the one of its
        window under way (joined)."""
        with self._guard:
            under_way = self._running.get((job.start, job.end, job.pdf))
            if under_way is not None:
                return under_way
            self._running[(job.start, job.end, job.pdf)] = job
        where = (request.path, request.url_root)  # the job's links are built as this request's
        threading.Thread(target=_run, args=(app, self, job, where, render, print_html), daemon=True,
                         name=f"shift report {job.start:%Y-%m-%d %H:%M} to {job.end:%H:%M}").start()
        return job

    def ended(self, job: Job) -> None:
        with self._guard:
            if self._running.get((job.start, job.end, job.pdf)) is job:
                del self._running[(job.start, job.end, job.pdf)]


_JOBS_GUARD = threading.Lock()


def jobs_of(app: Flask) -> Jobs:
    """The app's jobs (made on the first request for a closed window's report)."""
    with _JOBS_GUARD:
        found = app.extensions.get("floor_shift_jobs")
        if found is None:
            found = app.extensions["floor_shift_jobs"] = Jobs()
        return found


@dataclass(frozen=True)
class ReportAnswer:
    """What a request for a closed window's report gets: the ``report`` (and its ``pdf`` when one was
    asked for), or none yet, with ``since`` for the progress page's refresh; ``failed`` the reason
    the window's last job failed (then no report: the page says why)."""

    report: Served | None
    pdf: bytes | None
    since: datetime
    failed: str = ""


def report_of(start: datetime, end: datetime, since: datetime | None, pdf: bool,
              render: Callable[[], tuple[str, str]], print_html: Callable[[Served], str]) -> ReportAnswer:
    """The report of the closed window ``start``..``end`` for this request: stored and fit to serve
    (read at or after ``since``, or as the room stands), or put together by a job waited for up to
    ``FLOOR_REPORT_WAIT`` seconds. ``render`` builds the report's page and print, ``print_html``
    wraps a report's print for the PDF (both run in the job's process: they must pickle). A failure
    of a job that this request waited for is raised again when the app answers it itself (the
    record's own refusals: a broken seal, a rolled-back database), else said in the answer."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]  # the app itself, for the thread
    jobs = jobs_of(app)
    job = jobs.running(start, end, pdf)
    if job is None:
        ready = stored(start, end, since)
        if ready is not None and (not pdf or ready.pdf is not None):
            return ReportAnswer(ready, ready.pdf, since or utcnow())
        if since is not None:
            why = _failure(app, start, end, since)
            if why:
                return ReportAnswer(None, None, since, why)
        job = jobs.start(app, Job(start, end, pdf, since), render, print_html)
    db.session.rollback()  # no transaction held open while waiting
    if not job.done.wait(float(app.config["FLOOR_REPORT_WAIT"])):
        return ReportAnswer(None, None, since or job.began)
    if job.error is not None:
        if isinstance(job.error, (*BROKEN_RECORD, WitnessLost)):
            raise job.error  # answered as the app answers them in a request (409, 503), as before
        return ReportAnswer(None, None, since or job.began, _why(job.error))
    return ReportAnswer(job.report, job.pdf_bytes, since or job.began)


class ReportFailed(Exception):
    """A job's process failed with an exception that does not pickle (its type's name and message
    here), or ended without a word (killed, or crashed)."""


#: The failures the request that waited answers as the app does; rebuilt by name when they do not pickle.
_ANSWERED = {f"{kind.__module__}.{kind.__qualname__}": kind for kind in (*BROKEN_RECORD, WitnessLost)}


@dataclass(frozen=True)
class JobOutcome:
    """What a job's process sends back: the stored report's ``row_id`` and whether it ``built`` it or
    took the one another job stored; ``report`` and ``pdf`` themselves only when it stored none
    (another process stored the window's first report at the same moment). Or its failure:
    ``error_type`` (module and name), ``error_text``, ``error`` the exception pickled when it
    pickles and unpickles, ``trace`` its traceback."""

    row_id: int | None = None
    built: bool = False
    report: Served | None = field(default=None, repr=False)
    pdf: bytes | None = field(default=None, repr=False)
    error: bytes | None = field(default=None, repr=False)
    error_type: str = ""
    error_text: str = ""
    trace: str = ""

    @classmethod
    def failure(cls, exc: BaseException) -> JobOutcome:
        data: bytes | None = None
        try:
            pickled = pickle.dumps(exc)
            pickle.loads(pickled)  # some pickle and do not unpickle (an argument their __init__ requires)
            data = pickled
        except Exception:
            pass
        return cls(error=data, error_type=f"{type(exc).__module__}.{type(exc).__qualname__}",
                   error_text=str(exc), trace="".join(traceback.format_exception(exc)))

    def exception(self) -> BaseException | None:
        """The failure as an exception of this process: itself, else rebuilt by its type's name."""
        if not self.error_type:
            return None
        if self.error is not None:
            try:
                exc = pickle.loads(self.error)
                if isinstance(exc, BaseException):
                    return exc
            except Exception:
                pass
        kind = _ANSWERED.get(self.error_type)
        if kind is not None:
            return kind(self.error_text)
        return ReportFailed(self.error_text or self.error_type.rsplit(".", 1)[-1])


def start_child(app: Flask, job: Job, where: tuple[str, str], render: Callable[[], tuple[str, str]],
                print_html: Callable[[Served], str]) -> tuple[BaseProcess, Connection]:
    """Start the process that does ``job``'s work (:func:`_child`), lowered at once below this one,
    and the pipe its :class:`JobOutcome` comes back on."""
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: never fork a worker with threads
    receive, send = context.Pipe(duplex=False)
    nice = min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)
    work = pickle.dumps((render, print_html))  # unpickled in the child once its app is made
    child = context.Process(target=_child, name=f"shift report {job.start:%Y-%m-%d %H:%M} to {job.end:%H:%M}",
                            args=(app.extensions[FACTORY], dict(app.config), app.instance_path, job.start, job.end,
                                  job.pdf, job.since, where, work, nice, send))
    child.start()
    send.close()  # the child's end: when the child dies, the pipe reads as closed
    try:  # lowered from its first instruction (its own setpriority comes after its imports)
        os.setpriority(os.PRIO_PROCESS, child.pid or 0, nice)
    except ProcessLookupError:
        pass
    return child, receive


def _child(factory: Callable[..., Flask], config: dict[str, Any], instance_path: str, start: datetime,
           end: datetime, pdf: bool, since: datetime | None, where: tuple[str, str], work: bytes, nice: int,
           send: Connection) -> None:
    """The job's process: its own app, the window's lock (waiting for another process's job on it),
    the report built and stored unless one fit to serve was stored meanwhile, the PDF laid out and
    stored if asked; its :class:`JobOutcome` sent back. The lock is let go when it ends, however."""
    os.setpriority(os.PRIO_PROCESS, 0, nice)
    try:
        outcome = _child_work(factory, config, instance_path, start, end, pdf, since, where, work)
    except Exception as exc:
        outcome = JobOutcome.failure(exc)
    try:
        send.send(outcome)
    except OSError:  # the worker that asked is gone: what was stored is served to the next request
        pass
    finally:
        send.close()


def _child_work(factory: Callable[..., Flask], config: dict[str, Any], instance_path: str, start: datetime,
                end: datetime, pdf: bool, since: datetime | None, where: tuple[str, str], work: bytes) -> JobOutcome:
    app = factory(config, instance_path=instance_path)
    render, print_html = pickle.loads(work)
    path, root = where
    try:
        with app.test_request_context(path, base_url=root):  # the report's links, as the request's
            try:
                with _window_lock(app, start, end) as waited:
                    _clear_failure(app, start, end)
                    report = served(start, end, True, render, since=since, stored_after=waited)
                    data = stored_pdf(report, print_html(report)) if pdf else None
            finally:
                db.session.rollback()
        if report.row_id is not None:
            return JobOutcome(row_id=report.row_id, built=report.built)
        return JobOutcome(built=report.built, report=report, pdf=data)
    finally:
        with app.app_context():
            db.engine.dispose()  # its connections closed, not dropped at exit


def _run(app: Flask, jobs: Jobs, job: Job, where: tuple[str, str], render: Callable[[], tuple[str, str]],
         print_html: Callable[[Served], str]) -> None:
    """The job's thread in this process: start its process, wait for its outcome and its end, and
    end the job with the report its process stored (read here, its seal checked) or why it failed
    (logged, and written beside the window's lock). The job is ended in every case."""
    try:
        with app.app_context():
            try:
                child, receive = start_child(app, job, where, render, print_html)
                job.pid = child.pid
                outcome = _outcome(child, receive)
                _take(job, outcome)
            except Exception as exc:
                outcome = JobOutcome.failure(exc)
                job.error = exc
            finally:
                db.session.rollback()
            if job.error is not None:
                app.logger.error("the shift report %s to %s could not be put together: %s\n%s", job.start,
                                 job.end, _why(job.error), outcome.trace.rstrip())
                _note_failure(app, job.start, job.end, _why(job.error))
    finally:
        jobs.ended(job)
        job.done.set()


def _outcome(child: BaseProcess, receive: Connection) -> JobOutcome:
    """What ``child`` sent back once it has ended; a failure saying so when it ended without a word."""
    try:
        # releases the GIL: the tablets' taps go on in this process
        if not wait([receive, child.sentinel], timeout=JOB_LIMIT):
            child.kill()
            child.join()
            limit = f"{JOB_LIMIT // 60} minutes" if JOB_LIMIT >= 120 else f"{JOB_LIMIT} seconds"
            return JobOutcome.failure(ReportFailed(
                f"it was not put together within {limit}, so its process was stopped"))
        try:
            sent = receive.recv() if receive.poll() else None
        except (EOFError, OSError):  # it died before sending
            sent = None
        child.join()
    finally:
        receive.close()
    if isinstance(sent, JobOutcome):
        return sent
    code = child.exitcode
    how = f", {signal.Signals(-code).name}" if code is not None and code < 0 else ""
    return JobOutcome.failure(ReportFailed(f"the report's process ended without finishing (exit code {code}{how})"))


def _take(job: Job, outcome: JobOutcome) -> None:
    """End ``job`` with ``outcome``: the stored report it names (its seal checked), or its failure."""
    job.error = outcome.exception()
    if job.error is not None:
        return
    job.built = outcome.built
    if outcome.row_id is None:
        report, data = outcome.report, outcome.pdf
    else:
        report = stored_by_id(outcome.row_id)
        data = report.pdf if report is not None else None
    if report is None or (job.pdf and data is None):
        job.error = ReportFailed("the stored report was changed before it could be served")
        return
    job.report = replace(report, built=outcome.built)
    job.pdf_bytes = data if job.pdf else None


def _why(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _paths(app: Flask, start: datetime, end: datetime) -> tuple[str, str]:
    """The window's lock file and failure note in the instance folder, named for the window."""
    folder = os.path.join(app.instance_path, FOLDER)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    name = f"{start:%Y%m%dT%H%M%S%f}-{end:%Y%m%dT%H%M%S%f}"
    return os.path.join(folder, f"{name}.lock"), os.path.join(folder, f"{name}.failed")


@contextmanager
def _window_lock(app: Flask, start: datetime, end: datetime) -> Iterator[datetime | None]:
    """Hold the window's lock; yields None when it was free, else the moment this job found it held
    and began to wait (the other process's report, stored after it, is the one to serve). The lock
    file is opened per job and closed after (closing lets go of the lock; a dead process's is let go
    by the kernel). The app never removes a lock file (floor.witness.store.LockFile's caveat)."""
    fd = os.open(_paths(app, start, end)[0], os.O_RDWR | os.O_CREAT, 0o600)
    try:
        waited = None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # a job under way in another process: wait for it to end, on the lock
            waited = utcnow()
            app.logger.info("the shift report %s to %s is being put together by another job; waiting for it",
                                    start, end)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield waited
    finally:
        os.close(fd)


def _note_failure(app: Flask, start: datetime, end: datetime, why: str) -> None:
    """Write why the window's job failed, and when, beside its lock (replaced whole: never half read)."""
    path = _paths(app, start, end)[1]
    with open(path + ".new", "w", encoding="utf-8") as fh:
        json.dump({"at": utcnow().isoformat(), "why": why}, fh)
    os.replace(path + ".new", path)


def _clear_failure(app: Flask, start: datetime, end: datetime) -> None:
    try:
        os.unlink(_paths(app, start, end)[1])
    except FileNotFoundError:
        pass


def _failure(app: Flask, start: datetime, end: datetime, since: datetime) -> str:
    """Why the window's last job failed, when it failed at or after ``since`` (a job of this series of
    refreshes); '' when none did."""
    try:
        with open(_paths(app, start, end)[1], encoding="utf-8") as fh:
            note = json.load(fh)
        return str(note["why"]) if datetime.fromisoformat(note["at"]) >= since else ""
    except (OSError, ValueError, KeyError, TypeError):
        return ""
