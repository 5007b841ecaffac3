"""In Debian's chromium: a tablet whose login ended is told that its tap was NOT logged (issue 16),
and a login typed with a capital letter works (user names ignore case)."""

from __future__ import annotations

import pytest

from floor import tables
from floor.extensions import db
from floor.models import LogEntry
from tests.conftest import SETUP
from tests.e2e import browser, live_app, live_server, log_in, open_page  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e


def test_a_tap_after_the_login_ended_says_it_was_not_logged(open_page, live_server):
    with live_server.app.app_context():
        table_id = tables.create_table("Table 1", SETUP).id
    tablet = open_page()
    log_in(tablet, live_server.url, "Dee")  # a tablet's keyboard capitalises the first letter
    tablet.goto(f"{live_server.url}/dealer/tables/{table_id}")
    other = open_page("dealer")  # the same dealer logs out on another device: every session ends
    other.goto(live_server.url + "/")
    other.locator("header button:has-text('Log out'), form[action$='/logout'] button").first.click()
    tablet.locator('#panel button[data-type="deal"]').first.click()
    tablet.wait_for_selector("#net:not([hidden])")
    assert "NOT logged" in tablet.locator("#net").inner_text()
    with live_server.app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(LogEntry)) == 0
