"""The people's pages, second pass (issue 25), in Debian's chromium at 390x844, 1024x768 and 1440x900:
the header after a carried pot; shown cards inside their seat's box; the login's tick box beside its
words. That no page scrolls sideways (the new pages: the card room's settings, the banked tablet and
its call; every page at 1440) is measured with the first pass's pages, in test_e2e_people.py. Each
page is loaded once, on a phone, and measured at the three sizes (``tests.e2e.at_each_size``)."""

from __future__ import annotations

import pytest

from floor import tables
from floor.extensions import db
from floor.models import Table, User
from floor.rulings import issuing
from tests import people_data
from tests.e2e import PHONE, at_each_size, browser, live_app, live_server, open_page  # noqa: F401 (fixtures)
from tests.test_e2e_taps import shot

pytestmark = pytest.mark.e2e


@pytest.fixture
def room(live_server):
    return people_data.load(live_server.app)


def test_the_login_tick_box_sits_beside_its_words(open_page, live_server):
    page = open_page(viewport=PHONE)
    page.goto(live_server.url + "/login")

    def beside(size: str) -> None:
        box = page.locator("#remember").bounding_box()
        words = page.locator("label.check span").bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, (size, box)  # a finger's target
        assert box["x"] + box["width"] <= words["x"], (size, box, words)  # beside, not above
        assert abs((box["y"] + box["height"] / 2) - (words["y"] + words["height"] / 2)) <= 4, (size, box, words)  # one line
        shot(page, "login-tick-box")

    at_each_size(page, check=beside)


def test_shown_cards_stay_inside_their_seat_and_the_header_after_a_carried_pot(open_page, live_server, room):
    app = live_server.app
    with app.app_context():
        table = db.session.get(Table, room["showdown"])
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        state = tables.state_of(table)
        # the opener shows openers and the next seat shows its five: face up in their seat boxes
        tables.append(table, {"type": "show", "seat": state["to_act"], "cards": "Jh Jd Jk 4c 5c"}, dealer)
        state = tables.state_of(table)
        tables.append(table, {"type": "show", "seat": state["to_act"], "cards": "Qs Qh 9d 8s 2c"}, dealer)
    page = open_page("dealer", viewport=PHONE)
    page.goto(f"{live_server.url}/dealer/tables/{room['showdown']}")

    def inside(size: str) -> None:
        seats = page.locator(".seat:has(.shown)").all()
        assert len(seats) == 2
        for seat in seats:
            outer = seat.bounding_box()
            for card in seat.locator(".shown .card-face").all():
                box = card.bounding_box()
                assert outer["x"] <= box["x"] and box["x"] + box["width"] <= outer["x"] + outer["width"] + 0.5, (
                    size, outer, box)
        shot(page, "shown-cards")

    at_each_size(page, check=inside)

    # false openers with nobody reopening: the pot stays for the next deal (F4); between deals the
    # header no longer names the last deal's opener
    with app.app_context():
        table = tables.create_table("Table 6", people_data.setup(["Ann", "Bob", "Cleo", "Dev"]))
        fred = db.session.scalars(db.select(User).where(User.username == "fred")).one()
        for event in ({"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3, "amount": 10},
                      {"type": "call", "seat": 4}):
            tables.append(table, event, fred)
        facts = {**issuing.jsonable(issuing.table_facts(table, "false_openers", None)), "reopener": None}
        issuing.issue(facts, fred, table=table, apply=True)
        carried, phase = table.id, tables.state_of(table)["phase"]
    assert phase == "between_deals"
    page.goto(f"{live_server.url}/dealer/tables/{carried}")

    def carried_header(size: str) -> None:  # the words shown (inner_text: what the CSS hides is not)
        header = page.locator(".summary .requirement").inner_text()
        assert "opened by seat" not in header and "the pot stays for the next deal" in header, (size, header)
        assert page.locator(".seat .pill", has_text="opener").count() == 0  # nor a seat's tag
        shot(page, "carried-header")

    at_each_size(page, check=carried_header)
