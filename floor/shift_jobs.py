"""A closed shift's report is put together outside the request (issue 34, session 44).

Building a full night's report (every table's log replayed, ``flask verify`` over the record) and
laying its PDF out took 27.6 s on a quiet machine and neared gunicorn's 60 s timeout on a loaded
one: the worker was killed, nothing was stored, the next click began again and died again, and
that worker served no tablet meanwhile. So a request for a closed window whose stored report may
not be served (:func:`floor.shift_store.stored`) starts a **job**: a thread of the server process,
with its own app and request context (so its own database session: Flask-SQLAlchemy scopes sessions
by app context, and ``url_for`` builds the report's links as the request would), which builds and
stores the report (:func:`floor.shift_store.served`) and, for a PDF, lays it out and stores it with
the report (:func:`floor.shift_store.stored_pdf`). The request waits for it up to
``FLOOR_REPORT_WAIT`` seconds: a small report is served by the request that asked, as before; a
large one answers a progress page whose refresh carries ``since`` (the first request's moment), and
the refresh is served the job's report even if the room has dealt since (the stored report's
``as_of``), so it converges while the room plays.

One job per window across the server processes of a host: a job holds an exclusive ``flock`` on
``instance/shift-reports/<window>.lock`` while it works. A job that finds the lock held knows one is
under way in another process and waits for it on the lock itself (the kernel wakes it when the
other lets go, or when the other process dies: a worker killed mid-build leaves no stale lock), then
takes the report the other stored, or builds it when the other stored none. Within one process the
jobs are kept by window (:class:`Jobs`): a second request joins the one under way.

A job that fails logs it (``app.logger.exception``), writes why beside its lock
(``<window>.failed``), lets go of the lock in every case, and the refresh that follows is told why,
with a link to try again (a request without ``since`` always tries again).
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from flask import Flask, current_app, request

from floor.extensions import db
from floor.models import utcnow
from floor.tables import BROKEN_RECORD
from floor.witness import WitnessLost
from floor.shift_store import Served, served, stored, stored_pdf

__all__ = ["Job", "Jobs", "ReportAnswer", "report_of", "jobs_of"]

#: The folder of the instance that holds each window's lock and failure note.
FOLDER = "shift-reports"


@dataclass
class Job:
    """One window's report being put together in this process: ``pdf`` whether it lays the PDF
    out too, ``since`` the moment its report must have been read at or after (a refresh's; None: as
    the room stands), ``began`` when it was started (the moment a refresh asks for: the job reads
    the record after it). ``done`` is set when it has ended, with ``report`` (and ``pdf_bytes``) or
    ``error``."""

    start: datetime
    end: datetime
    pdf: bool
    since: datetime | None
    began: datetime = field(default_factory=utcnow)
    done: threading.Event = field(default_factory=threading.Event)
    report: Served | None = None
    pdf_bytes: bytes | None = field(default=None, repr=False)
    error: BaseException | None = None


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
        """Start ``job`` in a thread of its own, or return the one of its window under way (joined)."""
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
    wraps a report's print for the PDF (both run in the job). A failure of a job that this request
    waited for is raised again when the app answers it itself (the record's own refusals: a broken
    seal, a rolled-back database), else said in the answer."""
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


def _run(app: Flask, jobs: Jobs, job: Job, where: tuple[str, str], render: Callable[[], tuple[str, str]],
         print_html: Callable[[Served], str]) -> None:
    """The job's thread: take the window's lock (waiting for another process's job on it), build and
    store the report unless one fit to serve was stored meanwhile, lay the PDF out if asked; say why
    when it fails. The lock is let go and the job ended in every case."""
    path, root = where
    try:
        with app.test_request_context(path, base_url=root):  # its own app context, so its own session
            try:
                with _window_lock(app, job.start, job.end) as waited:
                    _clear_failure(app, job.start, job.end)
                    report = served(job.start, job.end, True, render, since=job.since, stored_after=waited)
                    job.pdf_bytes = stored_pdf(report, print_html(report)) if job.pdf else None
                    job.report = report
            except Exception as exc:
                app.logger.exception("the shift report %s to %s could not be put together", job.start, job.end)
                db.session.rollback()
                job.error = exc
                _note_failure(app, job.start, job.end, _why(exc))
    finally:
        jobs.ended(job)
        job.done.set()


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
