"""In Debian's chromium: the player picker on the tablet's sit form (issue 31). The floor, on a phone,
finds a player by card number and seats the record; creates a walk-in on the spot with "New
player"; a dealer on a tablet finds players but creates none. The seat carries the record's id."""

from __future__ import annotations

import pytest

from floor.extensions import db
from floor.players import service
from tests.e2e import PHONE, TABLET, browser, live_app, live_server, open_page  # noqa: F401 (fixtures)
from tests.test_e2e_seating import make_table, no_horizontal_overflow, open_menu
from tests.test_e2e_dealer import version

pytestmark = pytest.mark.e2e


def seat_of(live_server, table_id, seat):
    from floor import tables
    from floor.models import Table

    with live_server.app.app_context():
        return tables.table_state(db.session.get(Table, table_id)).seats[seat]


def pick(page, menu, typed: str, seat: int) -> str:
    """Type into the picker, wait for the suggestions, take the first (as a tap on it does)."""
    field = menu.locator('[name="player"]')
    field.fill(typed)
    option = page.locator(f"#players-{seat} option").first
    option.wait_for(state="attached")
    label = option.get_attribute("value")
    field.fill(label)
    field.dispatch_event("input")
    menu.locator('input[name="player_id"]').wait_for(state="attached")  # the record is named
    return label


def test_the_floor_seats_a_player_found_by_card_on_a_phone(open_page, live_server):
    table_id = make_table(live_server)
    with live_server.app.app_context():
        gus = service.create("Gus Grissom", "7001").id
        db.session.commit()
    page = open_page("floor", viewport=PHONE)
    page.goto(f"{live_server.url}/dealer/tables/{table_id}")
    menu = open_menu(page, 6)
    no_horizontal_overflow(page)
    label = pick(page, menu, "7001", 6)
    assert label.startswith("Gus Grissom · card 7001")
    before = version(page)
    menu.locator('[name="chips"]').fill("300")
    menu.locator('[name="chips"]').press("Enter")
    page.wait_for_selector(f'#panel[data-version="{before + 1}"]')
    assert page.locator('.seat[data-seat="6"] .player').inner_text() == "Gus Grissom"
    seated = seat_of(live_server, table_id, 6)
    assert seated.player_id == gus and seated.stack == 300


def test_the_floor_creates_a_walk_in_on_the_spot(open_page, live_server):
    table_id = make_table(live_server)
    page = open_page("floor", viewport=PHONE)
    page.goto(f"{live_server.url}/dealer/tables/{table_id}")
    menu = open_menu(page, 7)
    menu.locator('[name="player"]').fill("Zoe Walker")
    page.once("dialog", lambda dialog: dialog.accept("9001"))
    menu.locator("button[data-player-create]").click()
    page.wait_for_selector('[data-menu="7"] [data-player-said]:has-text("Player #")')
    buy_in_and_check_one_zoe(page, menu, live_server, table_id, "9001")


def buy_in_and_check_one_zoe(page, menu, live_server, table_id, card: str) -> None:
    """Seat 7 buys in for 250 with the record just created: one player has that card, Zoe Walker,
    and the seat names that very record."""
    before = version(page)
    menu.locator('[name="chips"]').fill("250")
    menu.locator('[name="chips"]').press("Enter")
    page.wait_for_selector(f'#panel[data-version="{before + 1}"]')
    with live_server.app.app_context():
        zoe = service.find(card)
        assert [p.name for p in zoe] == ["Zoe Walker"]
        zoe_id = zoe[0].id
    seated = seat_of(live_server, table_id, 7)
    assert seated.player == "Zoe Walker" and seated.player_id == zoe_id


def test_a_search_typed_before_new_player_does_not_undo_the_created_record(open_page, live_server):
    """The name's search waits 200 ms after the last key; a floor person who taps "New player"
    before it fires (a busy tablet) must still seat the record just made. Before the fix the late
    search found the new record's label in no option, cleared the chosen id, and the seat made a
    second, phantom player named by the label ("Zoe Walker · card 9002 · #n")."""
    table_id = make_table(live_server)
    page = open_page("floor", viewport=PHONE, fresh=True)  # a clock installed stays in its context
    page.clock.install()  # the picker's 200 ms timer runs only when the test says so
    page.goto(f"{live_server.url}/dealer/tables/{table_id}")
    menu = open_menu(page, 7)
    menu.locator('[name="player"]').fill("Zoe Walker")
    page.once("dialog", lambda dialog: dialog.accept("9002"))
    menu.locator("button[data-player-create]").click()
    page.wait_for_selector('[data-menu="7"] [data-player-said]:has-text("Player #")')
    page.clock.run_for(1000)  # the search typed before the create fires now
    page.wait_for_timeout(300)  # and its answer (a real request) comes back
    assert "Player #" in menu.locator("[data-player-said]").inner_text()
    buy_in_and_check_one_zoe(page, menu, live_server, table_id, "9002")


def test_a_dealer_finds_players_but_creates_none(open_page, live_server):
    table_id = make_table(live_server)
    with live_server.app.app_context():
        service.create("Augusta Ada", "8002")
        db.session.commit()
    page = open_page("dealer", viewport=TABLET)
    page.goto(f"{live_server.url}/dealer/tables/{table_id}")
    menu = open_menu(page, 5)
    assert menu.locator("button[data-player-create]").count() == 0
    assert pick(page, menu, "gus", 5).startswith("Augusta Ada")
    no_horizontal_overflow(page)


def test_a_suggestion_taken_names_the_record_before_the_search_timer(open_page, live_server):
    """A floor person takes a suggestion and buys in at once, before the picker's 200 ms search
    timer has fired (a busy tablet, a quick finger): the seat names the record taken. Before the fix
    the record was named only when the timer fired, so the form sent the suggestion's label as a
    name and the seat made a new player called "Augusta Ada · card 8002 · #n"."""
    table_id = make_table(live_server)
    with live_server.app.app_context():
        ada = service.create("Augusta Ada", "8002")
        db.session.commit()
        ada_id = ada.id
    page = open_page("floor", viewport=PHONE, fresh=True)  # a clock installed stays in its context
    page.clock.install()  # the picker's timer runs only when the test says so
    page.goto(f"{live_server.url}/dealer/tables/{table_id}")
    menu = open_menu(page, 7)
    field = menu.locator('[name="player"]')
    field.fill("8002")
    page.clock.run_for(300)  # the search for the card number fires
    option = page.locator("#players-7 option").first
    option.wait_for(state="attached")
    field.fill(option.get_attribute("value"))  # the suggestion taken; no timer runs from here on
    before = version(page)
    menu.locator('[name="chips"]').fill("250")
    menu.locator('[name="chips"]').press("Enter")
    page.wait_for_selector(f'#panel[data-version="{before + 1}"]')
    seated = seat_of(live_server, table_id, 7)
    assert (seated.player, seated.player_id) == ("Augusta Ada", ada_id)
    with live_server.app.app_context():
        assert [p.name for p in service.find("Augusta")] == ["Augusta Ada"]  # no player named by the label
