"""A closed shift's report is put together outside the request, in a process of its own (issue 34,
session 44): a request waits for it up to FLOOR_REPORT_WAIT, then answers a page that reloads
itself with ``since``; one job per window across server processes (a flock in the instance
folder); a refresh is served the job's report even while the room deals on, as the record stood at
a stated moment; a failure is said, and the next request tries again; a job's process killed
mid-job leaves the window free; it runs below the worker's priority.

The job's process is a fresh interpreter: nothing this process patches reaches it. So jobs are
counted where they start (``builds``: :func:`floor.shift_jobs.start_child` wrapped) with what each
process said it did (built the report, or took the one another stored), and a job is held without
patching it: the test holds the window's lock itself (the process waits on it, seen in
/proc/locks), or the database's table of stored reports (the process holds the lock and waits to
store). No sleeps: what a test waits for is polled in short waits up to a deadline (:func:`until`),
failing with what it waited for."""

from __future__ import annotations

import fcntl
import http.client
import os
import re
import signal
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from urllib.parse import unquote, urlencode

import pytest

from floor import create_app, shift_jobs, tables
from floor.extensions import db
from floor.seals import SealBroken
from floor.shift_store import ShiftReport
from floor.witness import WitnessLost
from tests import conftest
from tests.conftest import SETUP, login, user
from tests.test_shift_report import night, text_of
from tests.test_shift_report_stored import builds, closed_window, stored_reports  # noqa: F401  (a fixture)

WAIT = 30  # what a test that means to be served waits (the job is let go first: never waited out)


def until(done: Callable[[], object], what: str, timeout: float = WAIT) -> None:
    """Wait for ``done()`` in short waits, failing with ``what`` past ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        time.sleep(0.02)


def window_of(end: datetime) -> tuple[datetime, datetime]:
    """The stored window of closed_window's query (UTC, no zone), as the view reads it."""
    return end - timedelta(hours=1), end


def lock_of(app, end: datetime) -> str:
    return shift_jobs._paths(app, *window_of(end))[0]


def flocks(path: str) -> tuple[set[int], set[int]]:
    """The processes holding, and those waiting for, a flock on ``path`` (/proc/locks)."""
    st = os.stat(path)
    file = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    holding: set[int] = set()
    waiting: set[int] = set()
    with open("/proc/locks", encoding="ascii") as fh:
        for line in fh:
            parts = line.split()[1:]
            waits = parts[0] == "->"
            parts = parts[1:] if waits else parts
            if parts[0] == "FLOCK" and parts[4] == file:
                (waiting if waits else holding).add(int(parts[3]))
    return holding, waiting


@contextmanager
def lock_held(path: str) -> Iterator[None]:
    """The window's lock held by the test, as another server process's job holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # lets go of it, as a process's end does


@contextmanager
def stores_held(app) -> Iterator[None]:
    """The stored reports' table held against writes by a transaction of the test's: a job that has
    built its report waits to store it, holding the window's lock."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("sqlite:///"):
        conn = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")  # the database's write lock: the job's commit waits (15 s)
            yield
        finally:
            conn.close()
        return
    with app.app_context():
        with db.engine.connect() as conn:
            conn.exec_driver_sql("LOCK TABLE shift_reports IN SHARE ROW EXCLUSIVE MODE")  # reads go on
            try:
                yield
            finally:
                conn.rollback()


def refresh_of(response) -> str:
    """The progress page's reload: its meta refresh's URL (the same as its "Reload now" link)."""
    html = response.get_data(as_text=True)
    url = re.search(r'<meta http-equiv="refresh" content="3; url=([^"]+)">', html).group(1).replace("&amp;", "&")
    assert f'href="{url.replace("&", "&amp;")}"' in html
    return url


def again_of(page: str) -> str:
    """The failure page's "Try again" link."""
    return re.search(r'<a class="button primary" href="([^"]+)">Try again</a>', page).group(1).replace("&amp;", "&")


def test_a_pdf_that_outlasts_the_wait_answers_the_progress_page_then_the_pdf(app, as_role, builds, tmp_path):
    """With no wait the first request answers the progress page (the job's process has not even
    started its interpreter); the refresh is served the PDF the process laid out and stored."""
    night(app)
    query, _ = closed_window()
    floor = as_role("floor")
    app.config["FLOOR_REPORT_WAIT"] = 0
    first = floor.get(f"/floor/shift.pdf?{query}")
    page = " ".join(first.get_data(as_text=True).split())
    assert first.status_code == 202 and "Traceback" not in page
    assert "is being put together (it reads every table's log and checks the record)." in page
    assert "This page reloads by itself; the PDF downloads when it is ready." in page
    url = refresh_of(first)
    since = re.search(r"since=([^&]+)", url).group(1)
    assert url.startswith("/floor/shift.pdf?") and datetime.fromisoformat(unquote(since)) <= datetime.now(UTC)
    app.config["FLOOR_REPORT_WAIT"] = WAIT
    ready = floor.get(url)
    assert ready.status_code == 200 and ready.data.startswith(b"%PDF")
    text = text_of(ready.data, tmp_path)
    assert "Table 9" in text and "As the record stood at" in text
    [job] = builds.jobs
    assert job.built is True and job.pid != os.getpid() and job.report.row_id is not None
    with app.app_context():  # laid out by the job's process and stored with the report
        assert db.session.get(ShiftReport, job.report.row_id).pdf == ready.data
    # asked again, with or without since: the stored PDF, no job started again
    assert floor.get(f"/floor/shift.pdf?{query}").data == ready.data and floor.get(url).data == ready.data
    assert len(builds.jobs) == 1 and stored_reports(app) == 1


def test_two_requests_at_once_start_one_build(app, as_role, builds):
    """Two floor managers ask for the same night while its job is under way (held on the window's
    lock): the second joins the job the first started; both are served, one job, one build."""
    night(app)
    query, end = closed_window()
    app.config["FLOOR_REPORT_WAIT"] = 0
    with lock_held(lock_of(app, end)):
        first = as_role("floor").get(f"/floor/shift?{query}")
        second = as_role("director").get(f"/floor/shift?{query}")
        assert first.status_code == second.status_code == 202
        assert len(builds.jobs) == 1  # joined, not started again
        until(lambda: builds.jobs[0].pid in flocks(lock_of(app, end))[1], "the job's process to wait on the lock")
    app.config["FLOOR_REPORT_WAIT"] = WAIT
    answers = [as_role("floor").get(refresh_of(first)), as_role("director").get(refresh_of(second))]
    assert [a.status_code for a in answers] == [200, 200]
    assert all("Table 9" in a.get_data(as_text=True) for a in answers)
    assert builds.n == 1 and len(builds.jobs) == 1 and stored_reports(app) == 1


def second_process(app):
    """Another server process's view: a second app on the same database and instance folder."""
    other = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                        "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]},
                       instance_path=app.instance_path)
    conftest._APPS.append(other)
    return other


def test_two_processes_start_one_build(app, as_role, builds):
    """Two server processes each start a job for the same night while the window's lock is held:
    both jobs' processes wait on it; when it is let go, one builds and the other takes the report
    the first stored: one build between them; each refresh is served it."""
    night(app)
    query, end = closed_window()
    other = second_process(app)
    app.config["FLOOR_REPORT_WAIT"] = other.config["FLOOR_REPORT_WAIT"] = 0
    there = login(other.test_client(), "fred")
    with lock_held(lock_of(app, end)):
        here = as_role("floor").get(f"/floor/shift?{query}")
        elsewhere = there.get(f"/floor/shift?{query}")
        assert here.status_code == elsewhere.status_code == 202 and len(builds.jobs) == 2
        until(lambda: {job.pid for job in builds.jobs} <= flocks(lock_of(app, end))[1],
              "both jobs' processes to wait on the lock")
    app.config["FLOOR_REPORT_WAIT"] = other.config["FLOOR_REPORT_WAIT"] = WAIT
    for client, first in ((as_role("floor"), here), (there, elsewhere)):
        served = client.get(refresh_of(first))
        assert served.status_code == 200 and "Table 9" in served.get_data(as_text=True)
    assert sorted(job.built for job in builds.jobs) == [False, True]  # one built, the other took it
    assert builds.n == 1 and stored_reports(app) == 1


def test_a_refresh_is_served_the_jobs_report_while_the_room_deals_on(app, as_role, builds):
    """Another table logs once the night's report is stored (the room's key moves): the refresh
    (with since) is served the job's report, saying as of when; a request without since builds
    again (the report as the room stands now)."""
    night(app)
    query, _ = closed_window()
    floor = as_role("floor")
    app.config["FLOOR_REPORT_WAIT"] = 0
    first = floor.get(f"/floor/shift?{query}")
    assert first.status_code == 202
    until(lambda: builds.jobs[0].done.is_set(), "the job to end")
    with app.app_context():
        late = tables.create_table("Table 10", SETUP)  # after the window: not in it, but the room moved
        tables.append(late, {"type": "deal"}, user("dee"))
    app.config["FLOOR_REPORT_WAIT"] = WAIT
    served = floor.get(refresh_of(first))
    page = served.get_data(as_text=True)
    assert served.status_code == 200 and "Table 9" in page and builds.n == 1
    assert re.search(r"As the record stood at \d\d:\d\d:\d\d\.", page)
    assert floor.get(refresh_of(first)).status_code == 200 and len(builds.jobs) == 1  # and again: converged
    fresh = floor.get(f"/floor/shift?{query}")
    assert fresh.status_code == 200 and builds.n == 2 and len(builds.jobs) == 2


def test_a_failed_job_is_said_and_the_next_request_tries_again(app, as_role, builds, caplog):
    """The job's process fails for real (a folder stands where the window's lock file goes): the
    refresh says why, the worker's log has the process's traceback, and "Try again" builds."""
    night(app)
    query, end = closed_window()
    floor = as_role("floor")
    lock = lock_of(app, end)
    os.mkdir(lock)
    app.config["FLOOR_REPORT_WAIT"] = 0
    first = floor.get(f"/floor/shift.pdf?{query}")
    assert first.status_code == 202
    until(lambda: builds.jobs[0].done.is_set(), "the job to end")
    app.config["FLOOR_REPORT_WAIT"] = WAIT
    failed = floor.get(refresh_of(first))
    page = " ".join(failed.get_data(as_text=True).split())
    assert failed.status_code == 500 and "Traceback" not in page and 'http-equiv="refresh"' not in page
    assert "could not be put together: [Errno 21] Is a directory" in page
    assert isinstance(builds.jobs[0].error, IsADirectoryError) and builds.jobs[0].built is None
    assert any("could not be put together" in r.getMessage() and "IsADirectoryError" in r.getMessage()
               and "Traceback" in r.getMessage() for r in caplog.records)
    again = again_of(page)
    assert "since=" not in again
    os.rmdir(lock)
    retried = floor.get(again)
    assert retried.status_code == 200 and retried.data.startswith(b"%PDF") and builds.n == 1
    assert len(builds.jobs) == 2
    # a failure within the wait is said at once, by the request that waited
    os.unlink(lock)
    os.mkdir(lock)
    with app.app_context():
        tables.append(tables.create_table("Table 10", SETUP), {"type": "deal"}, user("dee"))
    at_once = floor.get(f"/floor/shift?{query}")
    assert at_once.status_code == 500 and "could not be put together: [Errno 21] Is a directory" in \
        at_once.get_data(as_text=True)
    assert len(builds.jobs) == 3
    os.rmdir(lock)


def test_a_failure_comes_back_as_itself_or_rebuilt_by_its_name():
    """The record's own refusals come back to the worker as themselves (answered 409, 503 by the
    request that waited); one that does not unpickle is rebuilt by its type's name, any other such
    one is a ReportFailed with its message."""

    class Stubborn(Exception):
        def __init__(self, table: str, why: str) -> None:
            super().__init__(f"{table}: {why}")

    broken = shift_jobs.JobOutcome.failure(SealBroken("Table 9's log does not match its seals")).exception()
    assert isinstance(broken, SealBroken) and str(broken) == "Table 9's log does not match its seals"
    stubborn = shift_jobs.JobOutcome.failure(Stubborn("Table 9", "unreadable"))
    assert stubborn.error is None and "Stubborn" in stubborn.trace
    assert type(stubborn.exception()) is shift_jobs.ReportFailed and str(stubborn.exception()) == "Table 9: unreadable"
    lost = shift_jobs.JobOutcome(error_type=f"{WitnessLost.__module__}.WitnessLost",
                                 error_text="the witness was removed")
    assert isinstance(lost.exception(), WitnessLost) and str(lost.exception()) == "the witness was removed"
    assert shift_jobs.JobOutcome(row_id=1, built=True).exception() is None


def test_a_job_killed_mid_job_leaves_the_window_free(app, as_role, builds):
    """The job's process is killed while it holds the window's lock (its report built, waiting to
    store it): the refresh says it ended without finishing, the lock is free, the next request builds."""
    night(app)
    query, end = closed_window()
    lock = lock_of(app, end)
    floor = as_role("floor")
    app.config["FLOOR_REPORT_WAIT"] = 0
    with lock_held(lock):  # the process waits on the lock while the test holds the stored reports' table
        first = floor.get(f"/floor/shift?{query}")
        assert first.status_code == 202
        [job] = builds.jobs
        until(lambda: job.pid in flocks(lock)[1], "the job's process to wait on the lock")
        stores = stores_held(app)
        stores.__enter__()
    try:
        until(lambda: job.pid in flocks(lock)[0], "the job's process to hold the lock")
        os.kill(job.pid, signal.SIGKILL)
        until(job.done.is_set, "the job to end")
    finally:
        stores.__exit__(None, None, None)
    assert not flocks(lock)[0]  # the kernel let go of the dead process's lock
    with open(lock, "rb") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    app.config["FLOOR_REPORT_WAIT"] = WAIT
    failed = floor.get(refresh_of(first))
    page = " ".join(failed.get_data(as_text=True).split())
    assert failed.status_code == 500
    assert "could not be put together: the report&#39;s process ended without finishing (exit code -9, SIGKILL)" in page
    retried = floor.get(again_of(page))
    assert retried.status_code == 200 and "Table 9" in retried.get_data(as_text=True)
    assert builds.n == 1 and len(builds.jobs) == 2 and stored_reports(app) == 1


def test_a_job_past_its_limit_is_stopped_and_the_window_freed(app, as_role, builds, monkeypatch):
    """A job's process that does not end (here: waiting on a lock another process never lets go) is
    stopped at the job's limit, and the refresh says so: before, its window stayed "being put
    together" for the worker's life, each refresh joining the stuck job."""
    night(app)
    query, end = closed_window()
    lock = lock_of(app, end)
    floor = as_role("floor")
    limit = shift_jobs.JOB_LIMIT
    monkeypatch.setattr(shift_jobs, "JOB_LIMIT", 2)
    app.config["FLOOR_REPORT_WAIT"] = 0
    with lock_held(lock):
        first = floor.get(f"/floor/shift?{query}")
        assert first.status_code == 202
        [job] = builds.jobs
        until(job.done.is_set, "the job to be stopped at its limit")
        assert job.pid not in flocks(lock)[1]  # stopped, no longer waiting
    failed = floor.get(refresh_of(first))
    page = " ".join(failed.get_data(as_text=True).split())
    assert failed.status_code == 500
    assert "could not be put together: it was not put together within 2 seconds, so its process was stopped" in page
    # the retry's process has the whole limit again (two seconds is less than a loaded machine's start)
    monkeypatch.setattr(shift_jobs, "JOB_LIMIT", limit)
    app.config["FLOOR_REPORT_WAIT"] = WAIT
    retried = floor.get(again_of(page))
    assert retried.status_code == 200 and "Table 9" in retried.get_data(as_text=True)


def test_a_job_whose_lock_holder_dies_builds(app, as_role, builds):
    """Another process's job holds the window's lock and dies without storing anything (its lock let
    go, as the kernel does for a dead process): the job's process waiting on the lock builds the report."""
    night(app)
    query, end = closed_window()
    floor = as_role("floor")
    app.config["FLOOR_REPORT_WAIT"] = 0
    with lock_held(lock_of(app, end)):
        first = floor.get(f"/floor/shift?{query}")
        assert first.status_code == 202
        until(lambda: builds.jobs[0].pid in flocks(lock_of(app, end))[1], "the job's process to wait on the lock")
    app.config["FLOOR_REPORT_WAIT"] = WAIT
    served = floor.get(refresh_of(first))
    assert served.status_code == 200 and "Table 9" in served.get_data(as_text=True)
    assert builds.n == 1 and stored_reports(app) == 1


def test_the_jobs_process_runs_below_the_worker(app, as_role, builds):
    """The tablets' taps come first: the job's process is niced ten below the process that started it."""
    night(app)
    query, end = closed_window()
    app.config["FLOOR_REPORT_WAIT"] = 0
    with lock_held(lock_of(app, end)):
        assert as_role("floor").get(f"/floor/shift?{query}").status_code == 202
        [job] = builds.jobs
        until(lambda: job.pid in flocks(lock_of(app, end))[1], "the job's process to wait on the lock")
        assert os.getpriority(os.PRIO_PROCESS, job.pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
    until(job.done.is_set, "the job to end")
    assert job.built is True


def test_since_is_checked(app, as_role, builds):
    night(app)
    query, _ = closed_window()
    floor = as_role("floor")
    future = (datetime.now(UTC) + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
    for bad, why in (("yesterday", "is a moment with its offset"), ("", "is a moment with its offset"),
                     ("2026-11-28T02:03:11", "is a moment with its offset"), ("2026-13-28T02:03:11Z", "is not a date"),
                     (future, "is in the future")):
        for url in (f"/floor/shift?{query}", "/floor/shift?hours=1", f"/floor/shift.pdf?{query}"):
            answer = floor.get(f"{url}&since={bad}")
            assert answer.status_code == 400 and why in answer.get_data(as_text=True), (url, bad)
    assert builds.n == 0 and not builds.jobs


def _get(port: int, path: str, cookie: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers={"Cookie": cookie})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


@pytest.mark.slow
def test_through_gunicorn_a_pdf_slower_than_the_wait_comes_by_the_progress_pages_reload(app):
    """`make run`'s server (2 sync workers): with FLOOR_REPORT_WAIT at half a second (instance/config.py),
    the night's PDF (a worker's first print: WeasyPrint's import alone takes longer) answers the
    progress page; its reloads, on either worker, each wait for the job, until the PDF comes."""
    from tests.served import Gunicorn
    from tests.test_login_workers import login_form

    night(app)
    query, _ = closed_window()
    with open(os.path.join(app.instance_path, "config.py"), "w", encoding="utf-8") as fh:
        fh.write("FLOOR_REPORT_WAIT = 0.5\n")
    with Gunicorn(app.instance_path, {"FLOOR_DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
                                      "FLOOR_SECRET_KEY": "t"}).start(workers=2) as server:
        cookie, token = login_form(server.port, "127.0.0.1")
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        conn.request("POST", "/login", body=urlencode({"csrf_token": token, "username": "fred",
                                                       "password": conftest.PASSWORD}),
                     headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
        response = conn.getresponse()
        assert response.status == 302
        cookie = response.getheader("Set-Cookie").split(";", 1)[0]
        conn.close()
        status, _, body = _get(server.port, f"/floor/shift.pdf?{query}", cookie)
        assert status == 202 and b"is being put together" in body, body[:2000]
        url = re.search(rb'http-equiv="refresh" content="3; url=([^"]+)"', body).group(1).decode().replace("&amp;", "&")
        for _ in range(240):  # each reload waits up to half a second for the job: no sleep of the test's
            status, headers, body = _get(server.port, url, cookie)
            if status != 202:
                break
        assert status == 200 and body.startswith(b"%PDF") and headers["Content-Type"] == "application/pdf"
    assert "Traceback" not in server.errors, server.errors[-3000:]
    assert stored_reports(app) == 1


@pytest.mark.parametrize("wait", ["eight", -1, 61, None])
def test_a_wait_that_is_no_number_of_seconds_is_refused_at_start(tmp_path, wait):
    """FLOOR_REPORT_WAIT is named at the start: read only at the first shift report asked for, a
    wrong value answered that floor manager 500; a wait past gunicorn's timeout would bring back
    the killed request this wait exists to avoid."""
    with pytest.raises(ValueError, match="FLOOR_REPORT_WAIT .* is not a number of seconds from 0 to 50"):
        create_app({"TESTING": True, "SECRET_KEY": "t", "FLOOR_REPORT_WAIT": wait,
                    "SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=str(tmp_path / "inst"))
