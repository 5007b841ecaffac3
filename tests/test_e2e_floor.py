"""The floor's word, in Debian's chromium: the dealer reports false openers and the floor person rules
on them; the rules rule on a dealer's show and the floor person signs it; the dealer's undo can take
back neither; a dealer's token cannot post a ruling. Rules: F2 (the false opener's hand is dead),
F5 (two callers: the pot plays), F1/F8 (an opener who cannot prove openers)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from floor import tables
from floor.extensions import db
from floor.models import IssuedRuling, User
from tests.conftest import SETUP, bearer
from tests.e2e import browser, live_app, live_server, open_page, screenshot  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e

# Button on seat 1: seat 2 passes, seat 3 opens for 10, seats 4 and 1 call; seat 2 is yet to act.
LOG = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3, "amount": 10},
       {"type": "call", "seat": 4}, {"type": "call", "seat": 1}]
SCREENSHOT = "/tmp/dealer-after-ruling.png"


@pytest.fixture
def table_id(live_server):
    with live_server.app.app_context():
        table = tables.create_table("Table 1", SETUP)
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        for event in LOG:
            tables.append(table, event, dealer)
        return table.id


def pdf_text(page) -> str:
    with page.expect_download() as download_info:
        page.click("a[href$='.pdf']")
    with open(download_info.value.path(), "rb") as fh:
        pdf = PdfReader(io.BytesIO(fh.read()))
    return " ".join(" ".join(page.extract_text().split()) for page in pdf.pages)


def state_of(live_server, table_id):
    with live_server.app.app_context():
        return tables.state_of(db.session.get(tables.Table, table_id))


def test_false_openers_reported_by_the_dealer_are_ruled_by_the_floor(open_page, live_server, table_id):
    dealer = open_page("dealer")
    dealer.goto(f"{live_server.url}/dealer/tables/{table_id}")
    report = dealer.locator('#panel button[data-type="false_openers"]')
    assert report.inner_text() == "Report: the opener (seat 3) did not hold openers"
    report.click()
    report.click()  # a second tap confirms
    dealer.locator("strong:has-text('Floor called: false openers, seat 3')").wait_for()
    assert "Nothing is logged until the floor person confirms it" in dealer.locator("#panel").inner_text()
    assert "/rulings/new" not in dealer.content()  # no link a dealer is refused
    assert state_of(live_server, table_id)["version"] == len(LOG)  # nothing logged yet

    # The floor person sees the report with what the rules propose (F5: two callers, the pot plays).
    floor = open_page("floor")
    floor.goto(f"{live_server.url}/floor/")
    proposal = floor.locator("strong.proposal").inner_text()
    assert proposal.startswith("Seat 3's hand is dead")
    floor.click("text=Confirm and log it")
    floor.wait_for_url(lambda url: "/rulings/" in url and url.rstrip("/").split("/")[-1].isdigit())
    main = floor.locator("main").inner_text()
    assert "issued and applied to Table 1. Reported by dee." in main
    assert "Reported by dee, ruled by fred" in main
    text = pdf_text(floor)
    assert "Reported by dee, ruled by fred" in text and "Floor person: fred" in text
    assert "POT_PLAYS_OPENER_DEAD" in text and "F5" in text and "Table 1" in text

    # Back at the table: seat 3's hand is dead, the ruling shows once, and no undo reaches it.
    dealer.goto(f"{live_server.url}/dealer/tables/{table_id}")
    assert "dead" in dealer.locator('.seat[data-seat="3"]').inner_text().lower()
    assert dealer.locator("#panel .ruling").count() == 1
    assert "ruled by fred" in dealer.locator("#panel .ruling").inner_text()
    assert dealer.locator('#panel button[data-type="void"]').count() == 0
    assert "Floor called" not in dealer.locator("#panel").inner_text()
    state = state_of(live_server, table_id)
    assert sum(s["stack"] for s in state["seats"].values()) + state["pot"] == 2000

    # A dealer's token cannot post a ruling: the role is checked per event type (403).
    with live_server.app.app_context():
        dee = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        token = dee.new_api_token()
        db.session.commit()
    client = live_server.app.test_client()
    response = client.post(f"/api/tables/{table_id}/events", headers=bearer(token),
                           json={"type": "ruling", "ruling": {"outcome": "OPENER_PROVED", "proved": 3}})
    assert response.status_code == 403 and "the floor's word" in response.json["message"]


def test_a_ruling_the_rules_make_on_a_dealers_show_waits_for_the_floors_signature(open_page, live_server,
                                                                                  table_id):
    # seat 2 calls too; everyone draws; seat 3 drew one to a straight: no proof of openers (F1)
    more = [{"type": "call", "seat": 2}] + [{"type": "draw", "seat": s, "count": 1} for s in (2, 3, 4, 1)] + [
        {"type": "check", "seat": s} for s in (3, 4, 1, 2)]
    with live_server.app.app_context():
        table = db.session.get(tables.Table, table_id)
        dee = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        for event in more:
            tables.append(table, event, dee)
    dealer = open_page("dealer")
    dealer.goto(f"{live_server.url}/dealer/tables/{table_id}")
    hands = {3: "7c 8d 9h Ts Jc", 4: "Ks Kd 2c 3c 4h", 1: "Qs Qd 5c 6c 8h", 2: "As 2d 3d 4d 6h"}
    for _ in range(4):
        seat = int(dealer.locator("#panel").get_attribute("data-to-act"))
        for card in hands[seat].split():
            dealer.locator(f'.picker[data-picker="show"] .card[data-card="{card}"]').click()
        before = int(dealer.locator("#panel").get_attribute("data-version"))
        dealer.locator('button[data-action="show"]').click()
        dealer.wait_for_selector(f'#panel[data-version="{before + 1}"]')
    ruling = dealer.locator("#panel .ruling")
    assert ruling.count() == 1
    assert "Seat 4, Dev, wins the pot of 60 with a pair of kings" in ruling.inner_text()
    assert "by the rules: the floor will confirm it" in ruling.inner_text()
    screenshot(dealer, SCREENSHOT, full_page=True)

    floor = open_page("floor")
    floor.goto(f"{live_server.url}/floor/")
    pending = floor.locator("table.pending")
    assert "Seat 4, Dev, wins the pot of 60" in pending.inner_text()
    pending.locator("button:has-text('Confirm')").click()
    floor.wait_for_url(lambda url: "/rulings/" in url)
    main = floor.locator("main").inner_text()
    assert "confirmed: it is signed by fred" in main
    assert "By the rules, logged by dee; confirmed by fred" in main
    text = pdf_text(floor)
    assert "By the rules, logged by dee; confirmed by fred" in text and "Floor person: fred" in text
    assert "NOT YET CONFIRMED" not in text
    with live_server.app.app_context():
        row = db.session.scalars(db.select(IssuedRuling)).one()
        assert row.intact and not row.pending and row.ruled_by.username == "fred"
    dealer.goto(f"{live_server.url}/dealer/tables/{table_id}")
    assert "ruled by fred" in dealer.locator("#panel .ruling").inner_text()
