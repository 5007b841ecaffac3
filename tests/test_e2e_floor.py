"""A floor person settles a false opener from the dealer's "call the floor", down to the ruling's PDF,
in Debian's chromium (issue 6). Rules: F2 (the false opener's hand is dead), F5 (two callers: the
pot plays), F6."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from floor import tables
from floor.extensions import db
from floor.models import User
from tests.conftest import SETUP
from tests.e2e import browser, live_app, live_server, open_page  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e

# Button on seat 1: seat 2 passes, seat 3 opens for 10, seats 4 and 1 call; seat 2 is yet to act.
LOG = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3, "amount": 10},
       {"type": "call", "seat": 4}, {"type": "call", "seat": 1}]


@pytest.fixture
def table_id(live_server):
    with live_server.app.app_context():
        table = tables.create_table("Table 1", SETUP)
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        for event in LOG:
            tables.append(table, event, dealer)
        return table.id


def test_false_opener_called_from_the_dealer_settled_by_the_floor_and_printed(open_page, live_server, table_id):
    dealer = open_page("dealer")
    dealer.goto(f"{live_server.url}/dealer/tables/{table_id}")
    dealer.click("text=Call the floor")
    dealer.check("input[name=issue][value=false_openers]")
    dealer.select_option("select[name=seat]", "3")
    dealer.click("main button:has-text('Call the floor')")
    dealer.locator("strong:has-text('Floor called: false openers, seat 3')").wait_for()
    link = dealer.locator("a:has-text('Open the dispute')").get_attribute("href")
    assert "issue=false_openers" in link and f"table={table_id}" in link

    # The floor person opens the link on their own device.
    floor = open_page("floor")
    floor.goto(live_server.url + link if link.startswith("/") else link)
    body = floor.locator("main").inner_text()
    # The preview says what the engine will rule before anything is logged (F5: two callers).
    assert "POT_PLAYS_OPENER_DEAD" in body
    assert "F5" in body and "F2" in body
    floor.click("text=Log false openers and rule")
    floor.wait_for_url(lambda url: "/rulings/" in url and url.rstrip("/").split("/")[-1].isdigit())
    assert "issued and applied to Table 1" in floor.locator("main").inner_text()

    with floor.expect_download() as download_info:
        floor.click("a[href$='.pdf']")
    download = download_info.value
    assert download.suggested_filename.endswith(".pdf")
    with open(download.path(), "rb") as fh:
        pdf = PdfReader(io.BytesIO(fh.read()))
    text = "\n".join(page.extract_text() for page in pdf.pages)
    assert "POT_PLAYS_OPENER_DEAD" in text and "F5" in text and "Table 1" in text

    # Back at the table, seat 3's hand is dead and the chips are all there (stacks plus pot).
    with live_server.app.app_context():
        state = tables.state_of(db.session.get(tables.Table, table_id))
    assert state["seats"][3]["status"] == "dead"
    assert sum(s["stack"] for s in state["seats"].values()) + state["pot"] == 2000
    dealer.goto(f"{live_server.url}/dealer/tables/{table_id}")
    assert "dead" in dealer.locator('.seat[data-seat="3"]').inner_text().lower()
