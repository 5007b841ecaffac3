"""In Debian's chromium: the floor person, on a phone (390 wide) and on a tablet (1024), links a
must-move game to its main game, takes a seat-change request and moves a dealer by hand from
``/floor/cash``; a refusal is shown beside the form (docs/players.md, "The floor's forms").
Screenshots (FLOOR_E2E_SHOTS set): /tmp/cashfloor-phone.png, /tmp/cashfloor-phone-refused.png,
/tmp/cashfloor-tablet.png, /tmp/cashfloor-assign-phone.png, /tmp/cashfloor-assign-tablet.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from floor.extensions import db
from floor.players.models import MustMove, SeatChange
from tests.e2e import PHONE, TABLET, browser, live_app, live_server, open_page, screenshot  # noqa: F401 (fixtures)
from tests.test_e2e_seating import make_table, no_horizontal_overflow

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("size, shot", [(PHONE, "/tmp/cashfloor-phone.png"), (TABLET, "/tmp/cashfloor-tablet.png")])
def test_the_floor_links_a_must_move_game_and_takes_a_seat_change(open_page, live_server, size, shot):
    main = make_table(live_server)
    must = make_table(live_server, "Must 1", seats=[{"seat": 1, "player": "Kim Lee", "stack": 300},
                                                    {"seat": 2, "player": "Lou Reed", "stack": 300}])
    big = make_table(live_server, "Big Game", small_bet=50, big_bet=100)
    page = open_page("floor", viewport=size)
    page.goto(f"{live_server.url}/floor/")
    page.click("#cash-floor")
    page.wait_for_selector("h1:has-text('Must-move games, seat changes, rotation')")
    no_horizontal_overflow(page)

    card = page.locator('section.cash-table[data-table="Must 1"]')
    options = card.locator(f'select[name="t{must}-main"] option').all_inner_texts()
    assert options == ["— not a must-move game —", "Table 1"]  # Big Game plays other stakes
    card.locator(f'select[name="t{must}-main"]').select_option(label="Table 1")
    card.locator('button[data-feeds="Must 1"]').click()
    page.wait_for_selector('.flash:has-text("Must 1 is a must-move game for Table 1.")')
    assert "must move for Table 1" in page.locator('section.cash-table[data-table="Must 1"]').inner_text()
    assert "Main game, fed by Must 1" in page.locator('section.cash-table[data-table="Table 1"]').inner_text()

    card = page.locator('section.cash-table[data-table="Table 1"]')
    card.locator(f'select[name="t{main}-player"]').select_option(label="Bob (seat 2)")
    card.locator(f'select[name="t{main}-seat"]').select_option(label="seat 6")
    card.locator('button[data-ask="Table 1"]').click()
    page.wait_for_selector('.flash:has-text("Bob asks for seat 6 at Table 1.")')
    request = page.locator('section.cash-table[data-table="Table 1"] li[data-request="Bob"]')
    assert "wants seat 6" in request.inner_text()
    no_horizontal_overflow(page)
    page.locator('section.cash-table[data-table="Table 1"]').scroll_into_view_if_needed()
    screenshot(page, shot, full_page=True)

    if size is PHONE:  # the same request again: refused beside the form, nothing written
        card = page.locator('section.cash-table[data-table="Table 1"]')
        card.locator(f'select[name="t{main}-player"]').select_option(label="Bob (seat 2)")
        card.locator('button[data-ask="Table 1"]').click()
        refused = page.locator('section.cash-table[data-table="Table 1"] .field-error')
        refused.wait_for()
        assert "Bob has asked already" in refused.inner_text()
        # The page opens at the table's form, the reason in sight. The browser scrolls to the
        # form's #table-N once the page has loaded, which may come after the element exists: poll.
        expect(refused).to_be_in_viewport(ratio=1)
        assert "nothing was changed" in page.locator(".flash.error").inner_text()
        no_horizontal_overflow(page)
        screenshot(page, "/tmp/cashfloor-phone-refused.png", full_page=True)
    with live_server.app.app_context():
        assert db.session.get(MustMove, must).main_id == main and db.session.get(MustMove, big) is None
        assert [(r.player.name, r.seat, r.outcome) for r in db.session.scalars(db.select(SeatChange))] == [
            ("Bob", 6, None)]


@pytest.mark.parametrize("size, shot", [(PHONE, "/tmp/cashfloor-assign-phone.png"),
                                        (TABLET, "/tmp/cashfloor-assign-tablet.png")])
def test_the_floor_moves_a_dealer_by_hand(open_page, live_server, size, shot):
    """The rotation's form for the move by hand: a dealer and a table. It is
    refused beside the form (a dealer whose account was closed while the page was open), then the
    dealer is moved and the schedule marks it "by hand"."""
    from floor.accounts import create_user
    from floor.models import Role, User
    from floor.rotation import DealerAssignment

    main = make_table(live_server)
    make_table(live_server, "Must 1")
    with live_server.app.app_context():
        create_user("dot", Role.dealer, "long enough password")
        db.session.commit()
    page = open_page("floor", viewport=size)
    page.goto(f"{live_server.url}/floor/cash#rotation")
    form = page.locator("form.rotation-form")
    form.locator('select[data-place="1"]').select_option("dee")
    form.locator('select[data-place="2"]').select_option("dot")
    form.locator('label.check:has-text("Table 1") input').check()
    form.locator('label.check:has-text("Must 1") input').check()
    page.click("#set-rotation")
    page.wait_for_selector('.flash:has-text("The dealers rotate every 30 minutes")')

    assign = page.locator("form#assign")
    assign.locator('select[name="assign-dealer"]').select_option("dot")
    assign.locator('select[name="assign-table"]').select_option(label="Must 1")
    with live_server.app.app_context():  # dot's account is closed while the page is open
        db.session.scalars(db.select(User).where(User.username == "dot")).one().active = False
        db.session.commit()
    page.click("#move-dealer")
    refused = page.locator("form#assign .field-error")
    refused.wait_for()
    assert "there is no dealer 'dot'" in refused.inner_text()
    expect(refused).to_be_in_viewport()
    assert "Move by hand: not done, nothing was changed" in page.locator(".flash.error").inner_text()
    no_horizontal_overflow(page)

    assert page.locator('form#assign select[name="assign-dealer"]').input_value() == "dot"  # as sent
    page.locator('form#assign select[name="assign-dealer"]').select_option("dee")  # the schedule: Must 1
    page.locator('form#assign select[name="assign-table"]').select_option(label="Table 1")
    page.click("#move-dealer")
    page.wait_for_selector('.flash:has-text("dee deals at Table 1 until")')
    expect(page.locator("form#assign")).to_be_in_viewport()
    row = page.locator("table.rotation-slots tr", has_text="by hand")
    assert [t.strip() for t in row.first.locator("td").all_inner_texts()[:2]] == ["dee", "Table 1 by hand"]
    no_horizontal_overflow(page)
    screenshot(page, shot, full_page=True)
    with live_server.app.app_context():
        assert [m.table_id for m in db.session.scalars(db.select(DealerAssignment))] == [main]
