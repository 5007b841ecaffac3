"""A closed shift's report is built once and served from storage (issue 34), and never served when
the room has changed since it was built or the stored copy was changed behind the app's back.

Builds are counted (:class:`Builds`), never timed."""

from __future__ import annotations

import os
import re
import signal
from datetime import UTC, datetime, timedelta

import pytest

from floor import shift_jobs, tables
from floor.extensions import db
from floor.floorpages import shift
from floor.shift_store import ShiftReport, packed, unpacked
from floor.models import IssuedRuling, Table
from floor.verify import verify_all
from tests.conftest import user
from tests.test_shift_report import night, text_of


class Builds:
    """The report's builds, counted: in this process (an open window's, built in the request: the
    report's :func:`floor.floorpages.shift.build` wrapped) and in the jobs' processes (a closed
    window's: each job started here is kept, with what its process said it did)."""

    def __init__(self) -> None:
        self.here = 0
        self.jobs: list[shift_jobs.Job] = []

    @property
    def n(self) -> int:
        return self.here + sum(1 for job in self.jobs if job.built)


@pytest.fixture
def builds(monkeypatch):
    """How many times the report was built (each request that was not served from storage)."""
    count = Builds()
    real_build, real_start = shift.build, shift_jobs.start_child

    def counted(start, end):
        count.here += 1
        return real_build(start, end)

    def started(app, job, *args):
        count.jobs.append(job)
        return real_start(app, job, *args)

    monkeypatch.setattr(shift, "build", counted)
    monkeypatch.setattr(shift_jobs, "start_child", started)
    yield count
    for job in count.jobs:  # whatever the test did, its jobs end before its apps are closed
        if not job.done.wait(60) and job.pid:
            os.kill(job.pid, signal.SIGKILL)
            job.done.wait(60)


def closed_window(hours: int = 1) -> tuple[str, datetime]:
    """A window that ended a moment ago (everything logged so far is in it), as the query and its end."""
    end = datetime.now(UTC)
    start = end - timedelta(hours=hours)
    query = f"from={start.isoformat(timespec='microseconds')}&to={end.isoformat(timespec='microseconds')}"
    return query.replace("+", "%2B"), end.replace(tzinfo=None)


def page_of(response) -> str:
    """The page as served, without its CSRF tokens: each is signed with the second it was made, so two
    requests a second apart differ there however the report was got (this made the tests flaky)."""
    return re.sub(r'(name="csrf[-_]token" (?:content|value)=)"[^"]*"', r"\1", response.get_data(as_text=True))


def stored_reports(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(ShiftReport.id)))


def test_a_closed_shift_is_built_once_and_served_from_storage(app, as_role, builds, tmp_path):
    night(app)
    query, _ = closed_window()
    floor = as_role("floor")
    first = page_of(floor.get(f"/floor/shift?{query}"))
    assert builds.n == 1 and "Table 9" in first and "a pot pushed long by ten" in first
    again = page_of(floor.get(f"/floor/shift?{query}"))
    assert builds.n == 1 and again == first
    # another reader, logged in since, is served the same report (the page's header is theirs)
    other = as_role("director").get(f"/floor/shift?{query}").get_data(as_text=True)
    assert builds.n == 1 and "director" in other and "Table 9" in other
    pdf = floor.get(f"/floor/shift.pdf?{query}")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF") and builds.n == 1
    assert "Table 9" in text_of(pdf.data, tmp_path) and "a pot pushed long by ten" in text_of(pdf.data, tmp_path)
    assert floor.get(f"/floor/shift.pdf?{query}").data == pdf.data and builds.n == 1
    assert stored_reports(app) == 1
    with app.app_context():  # a stored report is derived data: the record's check stays clean
        assert verify_all().ok


def test_an_entry_landing_late_in_the_window_gives_the_new_report(app, as_role, builds, monkeypatch):
    """A correction logged after the report was built, stamped with a time inside the closed window
    (a server clock stepped back): the next request builds the report again and lists it."""
    table_id = night(app)
    query, end = closed_window()
    floor = as_role("floor")
    assert "under the rail" not in floor.get(f"/floor/shift?{query}").get_data(as_text=True)
    monkeypatch.setattr(tables, "utcnow", lambda: end - timedelta(minutes=1))
    with app.app_context():
        tables.append(db.session.get(Table, table_id), {"type": "correction", "reason": "a chip found under the rail",
                                                        "moves": [{"seat": 3, "amount": -5}, {"seat": 4, "amount": 5}]},
                      user("fred"))
    page = floor.get(f"/floor/shift?{query}").get_data(as_text=True)
    assert builds.n == 2 and "a chip found under the rail" in page and "2 corrections" in page
    floor.get(f"/floor/shift?{query}")
    assert builds.n == 2


def test_a_ruling_changed_after_the_build_shows_on_the_next_request(app, as_role, builds):
    """A tamper found later shows on the report: a ruling of the shift edited in the database after
    the report was stored (its seal no longer matches) is flagged on the next request."""
    night(app)
    query, _ = closed_window()
    floor = as_role("floor")
    assert "DOES NOT MATCH" not in floor.get(f"/floor/shift?{query}").get_data(as_text=True)
    with app.app_context():
        row = db.session.scalars(db.select(IssuedRuling)).first()
        row.record = {**row.record, "summary": "edited after the fact"}
        db.session.commit()
    page = floor.get(f"/floor/shift?{query}").get_data(as_text=True)
    assert builds.n == 2 and "DOES NOT MATCH" in page and "its content was changed after it was issued" in page


def test_a_stored_report_altered_in_the_database_is_never_served(app, as_role, builds):
    night(app)
    query, _ = closed_window()
    floor = as_role("floor")
    assert "Table 9" in floor.get(f"/floor/shift?{query}").get_data(as_text=True)
    with app.app_context():
        row = db.session.scalars(db.select(ShiftReport)).one()
        forged = packed(unpacked(row.page) + "<p>All pots were fine.</p>")
        db.session.execute(db.update(ShiftReport).values(page=forged))  # past the app's seal
        db.session.commit()
        assert any("stored shift report" in p and "does not match its seal" in p for p in verify_all().problems)
    page = floor.get(f"/floor/shift?{query}").get_data(as_text=True)
    assert builds.n == 2 and "All pots were fine." not in page and "Table 9" in page
    with app.app_context():  # built again from the record and sealed anew: verify is clean again
        assert not [p for p in verify_all().problems if "shift report" in p]
    floor.get(f"/floor/shift?{query}")
    assert builds.n == 2


def test_an_open_shift_is_never_stored(app, as_role, builds):
    night(app)
    floor = as_role("floor")
    later = (datetime.now(UTC) + timedelta(minutes=5)).isoformat(timespec="seconds").replace("+", "%2B")
    for _ in range(2):
        assert "Table 9" in floor.get(f"/floor/shift?to={later}").get_data(as_text=True)
        assert "Table 9" in floor.get("/floor/shift?hours=1").get_data(as_text=True)
    assert floor.get(f"/floor/shift.pdf?to={later}").data.startswith(b"%PDF")
    assert builds.n == 5 and stored_reports(app) == 0


def test_a_night_longer_than_a_text_column_takes_is_stored(app, as_role, builds):
    """A full night's report page is several hundred thousand characters, past the longest text the
    app stores (FLOOR_TEXT_MAX): it answered 422 "Too long to store". Stored compressed, it is served."""
    night(app)
    app.config["FLOOR_TEXT_MAX"] = 2_000  # this report's page is longer: as a full night's is than 100,000
    query, _ = closed_window()
    floor = as_role("floor")
    first = floor.get(f"/floor/shift?{query}")
    assert first.status_code == 200 and len(first.get_data(as_text=True)) > 2_000
    assert page_of(floor.get(f"/floor/shift?{query}")) == page_of(first)
    assert builds.n == 1 and stored_reports(app) == 1
