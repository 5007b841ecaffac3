"""Issue 33 in Debian's chromium, at a phone's, a tablet's and a desktop's size: the tablet after a
won pot (the award names the hand; no escrow, no count of the pot's deals), the shift report's
window chosen from the floor's page, a tournament bust-out confirmed then undone, the banked
exchange picker at a finger's size with the players' names on the boxes, the phone's header, and
no page scrolling sideways (the banked rules among them).

Screenshots (FLOOR_E2E_SHOTS set) go to /tmp/i33/shots/ to be looked at (the tablet after a won pot at each size)."""

from __future__ import annotations

import pytest

from floor import tables
from floor.extensions import db
from floor.models import User
from tests.conftest import SETUP
from tests.e2e import DESKTOP, PHONE, TABLET, at_each_size, browser, fits, live_app, live_server, open_page  # noqa: F401 (fixtures)
from tests.test_e2e_tap_once import shot
from tests.test_e2e_taps import events
from tests.test_tablet_pot_words import SPLIT_WON

pytestmark = pytest.mark.e2e
SIZES = pytest.mark.parametrize("viewport", [PHONE, TABLET, DESKTOP], ids=["phone", "tablet", "desktop"])


def dealt(app, log: list[dict]) -> int:
    with app.app_context():
        table = tables.create_table("Table 5", SETUP)
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        for event in log:
            tables.append(table, event, dealer)
        return table.id


def test_after_a_won_pot_the_tablet_names_the_hand_and_drops_the_escrow(open_page, live_server):
    """S1/S2: seat 3 split openers (Jd in escrow) and wins the showdown with jack high; the last
    show is tapped on the tablet, and the award banner says who won, how much and with what.
    Played once, on a phone; the tablet checked at a phone's, a tablet's and a desktop's size."""
    table_id = dealt(live_server.app, SPLIT_WON[:-1])
    tablet = open_page("dealer", viewport=PHONE)
    tablet.goto(f"{live_server.url}/dealer/tables/{table_id}")
    assert tablet.locator("#panel .escrow").is_visible()  # during the deal: the escrowed jack
    cards = ", ".join(f'#panel .picker[data-picker="show"] .card[data-card="{card}"]' for card in ("7s", "6d", "5c", "3c", "2h"))
    at_each_size(tablet, groups=((cards, 5),))
    for card in ("7s", "6d", "5c", "3c", "2h"):
        tablet.locator(f'#panel .picker[data-picker="show"] .card[data-card="{card}"]').click()
    at_each_size(tablet, groups=(('#panel button[data-action="show"]', 1),))
    tablet.locator('#panel button[data-action="show"]').click()
    award = tablet.locator("#award")
    award.wait_for()
    assert " ".join(award.inner_text().split()) == "Seat 3 · Cleo wins 40 with jack high, eight-seven-six-three"
    assert tablet.locator("#deal-count").inner_text() == "Deal 1 · the pot was won: the next deal starts a new pot"
    assert tablet.locator("#panel .escrow").count() == 0 and "of this pot" not in tablet.locator("#panel").inner_text()
    assert events(live_server.app, table_id)[-1]["type"] == "show"
    at_each_size(tablet, check=lambda size: shot(tablet, "tablet-after-won-pot"))


def test_the_shift_report_is_reached_from_the_floor_and_shows_the_window_chosen(open_page, live_server):
    dealt(live_server.app, SPLIT_WON)
    floor = open_page("floor", viewport=TABLET)
    floor.goto(f"{live_server.url}/floor/")
    floor.locator("#shift-report").click()
    floor.wait_for_url("**/floor/shift")
    assert "Table 5" in floor.locator("main").inner_text()  # the last twelve hours hold the deal
    # a window of the past: nothing was dealt then
    floor.fill('#window input[name="from"]', "2020-01-01T18:00")
    floor.fill('#window input[name="to"]', "2020-01-02T06:00")
    floor.locator("#window button[type=submit]").click()
    floor.wait_for_url("**from=2020-01-01T18%3A00**")
    main = floor.locator("main").inner_text()
    assert "No deal was logged in this shift." in main and "Table 5" not in main
    assert floor.locator('#window input[name="from"]').input_value() == "2020-01-01T18:00"
    assert "from=2020-01-01T18:00&to=2020-01-02T06:00" in floor.locator("a", has_text="PDF of this window").get_attribute("href")
    floor.locator("a", has_text="Last 4 hours").click()
    floor.wait_for_url("**hours=4")
    assert "Table 5" in floor.locator("main").inner_text()
    shot(floor, "shift-window")
    fits(floor)


def test_a_bust_out_is_confirmed_then_undone_on_the_floor_page(open_page, live_server):
    from floor.tournament import desk, service

    with live_server.app.app_context():
        t = service.create("Desk cup", {"levels": [{"minutes": 20, "ante": 10, "small_bet": 50, "big_bet": 100}],
                                        "starting_chips": 100, "buy_in": 50, "payouts": [100]})
        service.add_table(t, "Table 1", 4)
        for n in range(1, 5):
            desk.add_entry(t, f"Player {n}", None)
        service.draw_seats(t)
        db.session.commit()
        event_id = t.event_id
    floor = open_page("floor", viewport=PHONE)
    floor.goto(f"{live_server.url}/tournament/{event_id}/floor")
    floor.fill("#desk-player", "Player 2")
    floor.fill("#desk-reason", "went home")
    floor.locator('button[value="eliminate"]').click()
    confirm = floor.locator("#confirm-bust")
    confirm.wait_for()
    words = " ".join(confirm.inner_text().split())
    assert "Player 2 leaves Table 1, seat" in words and "100 chips leave the table" in words and "place 4" in words
    shot(floor, "bust-confirm")
    fits(floor)
    with live_server.app.app_context():
        assert len(service.live_entries(service.get(event_id))) == 4  # nothing done before the yes
    floor.locator("#confirm-bust-button").click()
    floor.locator(".flash", has_text="Player 2 is out").wait_for()
    undo = floor.locator("#undo-bust-button")
    assert undo.inner_text() == "Undo the bust-out of Player 2"
    floor.fill("#undo-reason", "the wrong player")
    undo.click()
    floor.locator(".flash", has_text="The bust-out of Player 2 is undone").wait_for()
    assert floor.locator("#undo-bust").count() == 0
    with live_server.app.app_context():
        assert len(service.live_entries(service.get(event_id))) == 4


@pytest.mark.parametrize("viewport", [TABLET, DESKTOP], ids=["tablet", "desktop"])
def test_the_banked_exchange_picker_is_a_fingers_size_and_the_boxes_are_named(open_page, live_server, viewport):
    from tests.test_e2e_banked_tablet import banked_table

    deal = {"type": "deal", "antes": {"1": 3, "2": 3}, "cards": {"1": "Ah Ad 9c 6s 2h", "2": "Ks Qd 8h 5c 3c"},
            "players": {"1": "Ann", "2": "Bo"}}
    table_id = banked_table(live_server.app, [deal])
    page = open_page("dealer", viewport=viewport)
    page.goto(f"{live_server.url}/banked/tables/{table_id}")
    assert page.locator('.box[data-box="1"] h2').inner_text() == "Box 1 · Ann"
    assert page.locator('.box[data-box="2"] h2').inner_text() == "Box 2 · Bo"
    page.locator('.box[data-box="1"] input[name="discards"]').click()
    card = page.locator('#picker .card[data-card="9c"]').bounding_box()
    assert card["width"] >= 50 and card["height"] >= 44, card  # it was 15 to 20 px wide inside the box
    for c in ("9c", "6s", "2h"):
        page.locator(f'#picker .card[data-card="{c}"]').click()
    assert page.locator('.box[data-box="1"] input[name="discards"]').input_value() == "9c 6s 2h"
    shot(page, "banked-exchange-picker")
    fits(page)


def test_the_phone_header_is_short_and_no_page_scrolls_sideways(open_page, live_server):
    """Six pages on one phone, one server (issue 34: they were six tests, each with an app and a
    server of its own); a failure names the page."""
    from tests.test_e2e_banked_tablet import banked_table

    banked = banked_table(live_server.app, [])
    page = open_page("floor", viewport=PHONE)
    for path in ("/floor/", "/dealer/", f"/banked/tables/{banked}/rules", "/rules/cardroom", "/floor/shift",
                 "/rulings/"):
        page.goto(live_server.url + path)
        header = page.locator("header.top")
        if header.count():
            assert header.bounding_box()["height"] <= 100, path  # two rows; it was 196 px
        fits(page, "phone")
