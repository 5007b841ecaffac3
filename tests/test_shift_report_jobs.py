"""A closed shift's report is put together outside the request (issue 34, session 44): a request
waits for it up to FLOOR_REPORT_WAIT, then answers a page that reloads itself with ``since``; one
job per window across server processes (a flock in the instance folder); a refresh is served the
job's report even while the room deals on, as the record stood at a stated moment; a failure is
said, and the next request tries again.

No sleeps: the build is held on an event the test lets go (``gate``), and what a test waits for
(the build begun, a job waiting on another process's lock, the jobs ended) is an event or a join."""

from __future__ import annotations

import fcntl
import http.client
import os
import re
import threading
from datetime import UTC, datetime, timedelta
from urllib.parse import unquote, urlencode

import pytest

from floor import create_app, shift_jobs, shift_store, tables
from floor.floorpages import shift
from tests import conftest
from tests.conftest import SETUP, login, user
from tests.test_shift_report import night, text_of
from tests.test_shift_report_stored import closed_window, stored_reports

WAIT = 30  # what a test that means to be served waits (the job is let go first: never waited out)


class Builds:
    """The report's builds, counted (as tests/test_shift_report_stored.py's ``builds``) and held at
    their start until :attr:`gate` is set; :attr:`begun` is set when a build has begun."""

    def __init__(self) -> None:
        self.n = 0
        self.gate = threading.Event()
        self.begun = threading.Event()
        self.fail: Exception | None = None

    def __call__(self, real, start, end):
        self.n += 1
        self.begun.set()
        assert self.gate.wait(WAIT), "the test never let the build go"
        if self.fail is not None:
            fail, self.fail = self.fail, None
            raise fail
        return real(start, end)


@pytest.fixture
def builds(monkeypatch):
    count = Builds()
    real = shift.build
    monkeypatch.setattr(shift, "build", lambda start, end: count(real, start, end))
    yield count
    count.gate.set()  # whatever the test did, its jobs end before its apps are closed
    for thread in threading.enumerate():
        if thread.name.startswith("shift report"):
            thread.join(WAIT)


@pytest.fixture
def layouts(monkeypatch):
    """How many times a shift report's PDF was laid out."""
    count = {"n": 0}
    real = shift_store.pdf_bytes

    def counted(html, *args):
        count["n"] += 1
        return real(html, *args)

    monkeypatch.setattr(shift_store, "pdf_bytes", counted)
    return count


@pytest.fixture
def waiting_elsewhere(monkeypatch):
    """Set when a job finds its window's lock held by another process and waits on it."""
    seen = threading.Event()
    real = fcntl.flock

    def flock(fd, operation):
        if operation == fcntl.LOCK_EX and os.readlink(f"/proc/self/fd/{fd}").endswith(".lock") \
                and f"/{shift_jobs.FOLDER}/" in os.readlink(f"/proc/self/fd/{fd}"):
            seen.set()
        return real(fd, operation)

    monkeypatch.setattr(shift_jobs.fcntl, "flock", flock)
    return seen


def window_of(end: datetime) -> tuple[datetime, datetime]:
    """The stored window of closed_window's query (UTC, no zone), as the view reads it."""
    return end - timedelta(hours=1), end


def refresh_of(response) -> str:
    """The progress page's reload: its meta refresh's URL (the same as its "Reload now" link)."""
    html = response.get_data(as_text=True)
    url = re.search(r'<meta http-equiv="refresh" content="3; url=([^"]+)">', html).group(1).replace("&amp;", "&")
    assert f'href="{url.replace("&", "&amp;")}"' in html
    return url


def test_a_pdf_that_outlasts_the_wait_answers_the_progress_page_then_the_pdf(app, as_role, builds, layouts,
                                                                                  tmp_path):
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
    builds.gate.set()
    app.config["FLOOR_REPORT_WAIT"] = WAIT
    ready = floor.get(url)
    assert ready.status_code == 200 and ready.data.startswith(b"%PDF")
    text = text_of(ready.data, tmp_path)
    assert "Table 9" in text and "As the record stood at" in text
    assert builds.n == 1 and layouts["n"] == 1
    # asked again, with or without since: the stored PDF, neither built nor laid out again
    assert floor.get(f"/floor/shift.pdf?{query}").data == ready.data and floor.get(url).data == ready.data
    assert builds.n == 1 and layouts["n"] == 1 and stored_reports(app) == 1


def test_two_requests_at_once_start_one_build(app, as_role, builds, monkeypatch):
    """Two floor managers ask for the same night at the same moment: the second joins the job the
    first started (the joins counted as they happen), both are served, one build."""
    night(app)
    query, _ = closed_window()
    joined = threading.Event()
    real_running = shift_jobs.Jobs.running

    def running(self, *args):
        job = real_running(self, *args)
        if job is not None:
            joined.set()
        return job

    monkeypatch.setattr(shift_jobs.Jobs, "running", running)
    app.config["FLOOR_REPORT_WAIT"] = WAIT
    answers: list = []

    def ask(role: str) -> None:
        answers.append(as_role(role).get(f"/floor/shift?{query}"))

    first = threading.Thread(target=ask, args=("floor",))
    first.start()
    assert builds.begun.wait(WAIT)
    second = threading.Thread(target=ask, args=("director",))
    second.start()
    assert joined.wait(WAIT)  # the second request found the job under way: joined, not started again
    builds.gate.set()
    first.join(WAIT)
    second.join(WAIT)
    assert [a.status_code for a in answers] == [200, 200]
    assert all("Table 9" in a.get_data(as_text=True) for a in answers)
    assert builds.n == 1 and stored_reports(app) == 1


def second_process(app):
    """Another server process's view: a second app on the same database and instance folder."""
    other = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                        "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]},
                       instance_path=app.instance_path)
    conftest._APPS.append(other)
    return other


def test_two_processes_start_one_build(app, as_role, builds, waiting_elsewhere):
    """The second process finds the window's lock held, waits on it, and takes the report the first
    stored: one build between them; its refresh is served it."""
    night(app)
    query, _ = closed_window()
    other = second_process(app)
    app.config["FLOOR_REPORT_WAIT"] = other.config["FLOOR_REPORT_WAIT"] = 0
    assert as_role("floor").get(f"/floor/shift?{query}").status_code == 202
    assert builds.begun.wait(WAIT)
    there = login(other.test_client(), "fred")
    waiting = there.get(f"/floor/shift?{query}")
    assert waiting.status_code == 202
    assert waiting_elsewhere.wait(WAIT)  # its job waits on the lock the first process's job holds
    builds.gate.set()
    other.config["FLOOR_REPORT_WAIT"] = WAIT
    served = there.get(refresh_of(waiting))
    assert served.status_code == 200 and "Table 9" in served.get_data(as_text=True)
    assert builds.n == 1 and stored_reports(app) == 1


def test_a_refresh_is_served_the_jobs_report_while_the_room_deals_on(app, as_role, builds):
    """Another table logs while the night's report is built (the room's key moves): the refresh
    (with since) is served the job's report, saying as of when; a request without since builds
    again (the report as the room stands now)."""
    night(app)
    query, _ = closed_window()
    floor = as_role("floor")
    app.config["FLOOR_REPORT_WAIT"] = 0
    first = floor.get(f"/floor/shift?{query}")
    assert first.status_code == 202
    assert builds.begun.wait(WAIT)  # the job has read the record (its key) and builds
    with app.app_context():
        late = tables.create_table("Table 10", SETUP)  # after the window: not in it, but the room moved
        tables.append(late, {"type": "deal"}, user("dee"))
    builds.gate.set()
    app.config["FLOOR_REPORT_WAIT"] = WAIT
    served = floor.get(refresh_of(first))
    page = served.get_data(as_text=True)
    assert served.status_code == 200 and "Table 9" in page and builds.n == 1
    assert re.search(r"As the record stood at \d\d:\d\d:\d\d\.", page)
    assert floor.get(refresh_of(first)).status_code == 200 and builds.n == 1  # and again: converged
    fresh = floor.get(f"/floor/shift?{query}")
    assert fresh.status_code == 200 and builds.n == 2


def test_a_failed_build_is_said_and_the_next_request_tries_again(app, as_role, builds, caplog):
    night(app)
    query, end = closed_window()
    floor = as_role("floor")
    builds.fail = RuntimeError("Table 9's log could not be read")
    app.config["FLOOR_REPORT_WAIT"] = 0
    first = floor.get(f"/floor/shift.pdf?{query}")
    assert first.status_code == 202
    builds.gate.set()
    app.config["FLOOR_REPORT_WAIT"] = WAIT
    for thread in threading.enumerate():  # the job has ended (failed) before the refresh
        if thread.name.startswith("shift report"):
            thread.join(WAIT)
    failed = floor.get(refresh_of(first))
    page = " ".join(failed.get_data(as_text=True).split())
    assert failed.status_code == 500 and "Traceback" not in page and 'http-equiv="refresh"' not in page
    assert "could not be put together: Table 9&#39;s log could not be read" in page
    assert any("could not be put together" in r.getMessage() and r.exc_info for r in caplog.records)
    again = re.search(r'<a class="button primary" href="([^"]+)">Try again</a>', page).group(1).replace("&amp;", "&")
    assert "since=" not in again
    lock, _ = shift_jobs._paths(app, *window_of(end))
    with open(lock, "rb") as fh:  # the failed job let go of the window's lock
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    retried = floor.get(again)
    assert retried.status_code == 200 and retried.data.startswith(b"%PDF") and builds.n == 2
    # a failure within the wait is said at once, by the request that waited
    builds.fail = RuntimeError("the record could not be read")
    with app.app_context():
        tables.append(tables.create_table("Table 10", SETUP), {"type": "deal"}, user("dee"))
    at_once = floor.get(f"/floor/shift?{query}")
    assert at_once.status_code == 500 and "could not be put together: the record could not be read" in \
        at_once.get_data(as_text=True)


def test_a_job_killed_holding_the_lock_does_not_leave_the_window_stuck(app, as_role, builds, waiting_elsewhere):
    """Another process's job holds the window's lock and dies without storing anything (its lock let
    go, as the kernel does for a dead process): the job waiting on the lock builds the report."""
    night(app)
    query, end = closed_window()
    lock, _ = shift_jobs._paths(app, *window_of(end))
    held = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(held, fcntl.LOCK_EX)
    builds.gate.set()
    floor = as_role("floor")
    app.config["FLOOR_REPORT_WAIT"] = 0
    first = floor.get(f"/floor/shift?{query}")
    assert first.status_code == 202
    assert waiting_elsewhere.wait(WAIT) and builds.n == 0
    os.close(held)  # the holder dies: nothing stored
    app.config["FLOOR_REPORT_WAIT"] = WAIT
    served = floor.get(refresh_of(first))
    assert served.status_code == 200 and "Table 9" in served.get_data(as_text=True)
    assert builds.n == 1 and stored_reports(app) == 1


def test_since_is_checked(app, as_role, builds):
    night(app)
    builds.gate.set()
    query, _ = closed_window()
    floor = as_role("floor")
    future = (datetime.now(UTC) + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
    for bad, why in (("yesterday", "is a moment with its offset"), ("", "is a moment with its offset"),
                     ("2026-11-28T02:03:11", "is a moment with its offset"), ("2026-13-28T02:03:11Z", "is not a date"),
                     (future, "is in the future")):
        for url in (f"/floor/shift?{query}", "/floor/shift?hours=1", f"/floor/shift.pdf?{query}"):
            answer = floor.get(f"{url}&since={bad}")
            assert answer.status_code == 400 and why in answer.get_data(as_text=True), (url, bad)
    assert builds.n == 0


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
