"""In Debian's chromium: the public board on a TV (1920x1080) and a phone (390x844), and the floor
seating a called player from the overview on a phone (issue 31; docs/players.md, "The board").
Screenshots (FLOOR_E2E_SHOTS set): /tmp/board-tv.png, /tmp/board-phone.png, /tmp/floor-lists-phone.png."""

from __future__ import annotations

import pytest

from floor.extensions import db
from floor.models import User
from floor.players import lists, service
from floor.players.models import WaitingList
from tests.e2e import PHONE, browser, live_app, live_server, open_page, screenshot  # noqa: F401 (fixtures)
from tests.test_e2e_players import seat_of
from tests.test_e2e_seating import make_table, no_horizontal_overflow

pytestmark = pytest.mark.e2e
TV = {"width": 1920, "height": 1080}


def a_night(live_server, called=("Gus Grissom",)) -> int:
    """Table 1 (4 seated, seats 5 to 8 open), a 10/20 list of four, a 50/100 interest list."""
    table_id = make_table(live_server)
    with live_server.app.app_context():
        fred = db.session.scalars(db.select(User).where(User.username == "fred")).one()
        wl = lists.create("cardroom", "10/20", False, fred)
        for name in ("Eve Adams", "Gus Grissom", "Hal Jordan", "Ivy Chen"):
            lists.join(wl, name, fred)
        for name in called:
            lists.call(wl, name, fred)
        interest = lists.create("cardroom", "50/100", True, fred)
        lists.join(interest, "Kim Lee", fred)
        db.session.commit()
    return table_id


@pytest.mark.parametrize("size, shot", [(TV, "/tmp/board-tv.png"), (PHONE, "/tmp/board-phone.png")])
def test_the_board_on_a_tv_and_a_phone(open_page, live_server, size, shot):
    a_night(live_server)
    page = open_page(None, viewport=size)  # nobody logged in
    page.goto(f"{live_server.url}/board")
    no_horizontal_overflow(page)
    game = page.locator('[data-game="cardroom 10/20"]')
    assert game.locator("li").all_inner_texts()[0].startswith("Eve Adams")
    assert [li.get_attribute("data-player") for li in game.locator("li").all()] == [
        "Eve Adams", "Gus Grissom", "Hal Jordan", "Ivy Chen"]
    called = game.locator("li.called")
    assert called.count() == 1 and "called" in called.inner_text() and "Gus Grissom" in called.inner_text()
    assert game.locator(".open-seats").inner_text() == "4"
    assert "not running yet" in page.locator('[data-game="cardroom 50/100"]').inner_text()
    if size is TV:  # read from across the room: the names are large, the lists side by side
        assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('li')).fontSize)") >= 24
        box = game.bounding_box()
        assert box is not None and box["width"] < TV["width"] / 2
    screenshot(page, shot, full_page=True)
    assert page.locator('meta[http-equiv="refresh"]').count() == 1


def test_the_floor_seats_a_called_player_from_a_phone(open_page, live_server):
    table_id = a_night(live_server, called=())
    page = open_page("floor", viewport=PHONE)
    page.goto(f"{live_server.url}/floor/#lists")
    no_horizontal_overflow(page)
    gus = page.locator('.list-card li[data-player="Gus Grissom"]')
    gus.locator('button[data-call="Gus Grissom"]').click()
    page.wait_for_selector('.list-card li.called[data-player="Gus Grissom"]')
    assert "called for cardroom 10/20" in page.locator(".flash").inner_text()
    gus = page.locator('.list-card li[data-player="Gus Grissom"]')
    gus.locator('select[name="place"]').select_option(label="Table 1 · seat 6")
    gus.locator('input[name="chips"]').fill("300")
    no_horizontal_overflow(page)
    screenshot(page, "/tmp/floor-lists-phone.png", full_page=True)
    gus.locator('button[data-seat="Gus Grissom"]').click()
    page.wait_for_selector('.flash:has-text("Gus Grissom seated at Table 1, seat 6")')
    assert page.locator('.list-card li[data-player="Gus Grissom"]').count() == 0
    seated = seat_of(live_server, table_id, 6)
    with live_server.app.app_context():
        record = service.find("Gus Grissom")[0].id
        wl = db.session.scalars(db.select(WaitingList).where(WaitingList.interest.is_(False))).one()
        assert [e.player.name for e in lists.waiting(wl)] == ["Eve Adams", "Hal Jordan", "Ivy Chen"]
    assert (seated.player, seated.stack, seated.player_id) == ("Gus Grissom", 300, record)
