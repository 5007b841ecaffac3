"""The people's pages, second pass (issue 25), in Debian's chromium at 390x844, 1024x768 and 1440x900:
no page scrolls sideways (the new ones: the card room's settings, the banked tablet and its call; at
1440 every page of the first pass too); the header after a carried pot; shown cards inside their
seat's box; the login's tick box beside its words."""

from __future__ import annotations

import pytest

from floor import tables
from floor.extensions import db
from floor.models import Table, User
from floor.rulings import issuing
from tests import people_data
from tests.e2e import browser, live_app, live_server, log_in, open_page  # noqa: F401 (fixtures)
from tests.test_e2e_people import WIDEST, pages
from tests.test_e2e_taps import DESKTOP, SIZES, shot

pytestmark = pytest.mark.e2e


@pytest.fixture
def room(live_server):
    return people_data.load(live_server.app)


NEW_PAGES = {"dealer": ["/banked/tables/1", "/banked/tables/1/call"],
             "floor": ["/floor/", "/banked/tables/1"],
             "director": ["/director/settings/", "/director/"]}


@SIZES
def test_no_page_scrolls_sideways(open_page, live_server, room, viewport):
    visits = {role: list(urls) for role, urls in NEW_PAGES.items()}
    if viewport == DESKTOP:  # the first pass measured 390 and 1024 wide; the desktop too now
        for role, urls in pages(room).items():
            visits[role] += urls
    login = open_page(viewport=viewport)
    login.goto(live_server.url + "/login")
    too_wide, failed = {}, {}
    if login.evaluate("document.documentElement.scrollWidth") > viewport["width"]:
        too_wide["/login"] = login.evaluate(WIDEST)
    for role, urls in visits.items():
        page = open_page(role, viewport=viewport)
        for url in urls:
            response = page.goto(live_server.url + url)
            if response.status != 200:
                failed[url] = response.status
                continue
            if page.evaluate("document.documentElement.scrollWidth") > viewport["width"]:
                too_wide[url] = page.evaluate(WIDEST)
        if role == "director":
            page.goto(live_server.url + "/director/settings/")
            shot(page, "director-settings")
    assert not too_wide, too_wide
    assert not failed, failed


@SIZES
def test_the_login_tick_box_sits_beside_its_words(open_page, live_server, viewport):
    page = open_page(viewport=viewport)
    page.goto(live_server.url + "/login")
    box = page.locator("#remember").bounding_box()
    words = page.locator("label.check span").bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24  # a finger's target
    assert box["x"] + box["width"] <= words["x"]  # beside, not above
    assert abs((box["y"] + box["height"] / 2) - (words["y"] + words["height"] / 2)) <= 4  # on one line
    shot(page, "login-tick-box")


@SIZES
def test_shown_cards_stay_inside_their_seat_and_the_header_after_a_carried_pot(open_page, live_server, room, viewport):
    app = live_server.app
    with app.app_context():
        table = db.session.get(Table, room["showdown"])
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        state = tables.state_of(table)
        # the opener shows openers and the next seat shows its five: face up in their seat boxes
        tables.append(table, {"type": "show", "seat": state["to_act"], "cards": "Jh Jd Jk 4c 5c"}, dealer)
        state = tables.state_of(table)
        tables.append(table, {"type": "show", "seat": state["to_act"], "cards": "Qs Qh 9d 8s 2c"}, dealer)
    page = open_page("dealer", viewport=viewport)
    page.goto(f"{live_server.url}/dealer/tables/{room['showdown']}")
    seats = page.locator(".seat:has(.shown)").all()
    assert len(seats) == 2
    for seat in seats:
        outer = seat.bounding_box()
        for card in seat.locator(".shown .card-face").all():
            box = card.bounding_box()
            assert outer["x"] <= box["x"] and box["x"] + box["width"] <= outer["x"] + outer["width"] + 0.5
    shot(page, "shown-cards")

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
    header = page.locator(".summary .requirement").inner_text()
    assert "opened by seat" not in header and "the pot stays for the next deal" in header
    assert page.locator(".seat .pill", has_text="opener").count() == 0  # nor a seat's tag
    shot(page, "carried-header")
