"""In Debian's chromium: the tablet's seat menus at phone and tablet widths, a night's line-up changes
matching on the tablet and the floor's pages (issue 12), and two variant hands tapped through (issue 14):
a jacks-back hand that turns to lowball (D10) and a trips-to-win pot that stays (D9)."""

from __future__ import annotations

import re

import pytest

from floor import tables
from tests.conftest import SETUP
from tests.e2e import PHONE, at_each_size, browser, live_app, live_server, open_page, screenshot  # noqa: F401 (fixtures)
from tests.test_e2e_dealer import act, pick, tap, to_act, version

pytestmark = pytest.mark.e2e
TABLET_SMALL = {"width": 768, "height": 1024}


def make_table(live_server, name="Table 1", **setup):
    with live_server.app.app_context():
        return tables.create_table(name, {**SETUP, **setup}).id


def stacks(page) -> dict[int, int]:
    """The seated players' stacks on the tablet (an empty seat is an .empty-seat, not a .seat)."""
    return {int(seat.get_attribute("data-seat")): int(re.sub(r"\D", "", seat.locator(".stack").inner_text()))
            for seat in page.locator(".seat").all()}


def no_horizontal_overflow(page) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths[0]}px of content in {widths[1]}px"


def open_menu(page, seat: int):
    menu = page.locator(f'details.seat-menu[data-menu="{seat}"]')
    menu.locator("summary").click()
    return menu


def submit(page, menu, **fields) -> None:
    """Fill a seat menu's form and send it; wait for the panel of the next version."""
    before = version(page)
    for name, value in fields.items():
        field = menu.locator(f'[name="{name}"]').first
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    menu.locator(f'[name="{next(iter(fields))}"]').first.press("Enter")
    page.wait_for_selector(f'#panel[data-version="{before + 1}"]')


def ledger(page) -> tuple[int, int]:
    chips_in, chips_out = re.findall(r"\d+", page.locator("#ledger").inner_text())[:2]
    return int(chips_in), int(chips_out)


SEAT_MENU_SIZES = {"phone": PHONE, "tablet upright": TABLET_SMALL}


def test_a_seat_menu_sits_a_newcomer_and_takes_a_rebuy(open_page, live_server):
    """Played once, on a phone; at each step the tablet is checked at a phone's and an upright
    tablet's size (``tests.e2e.at_each_size``): nothing scrolls sideways, and the seat menu and
    its fields, tapped next, can be tapped."""
    def looked_at(*taps: str, shot: bool = False) -> None:
        at_each_size(page, sizes=SEAT_MENU_SIZES, groups=tuple((selector, 1) for selector in taps),
                     check=lambda size: shot and screenshot(page, f"/tmp/seat-menu-{page.viewport_size['width']}.png",
                                                           full_page=True))

    table_id = make_table(live_server, max_buy_in=1000)
    page = open_page("dealer", viewport=PHONE)
    page.goto(f"{live_server.url}/dealer/tables/{table_id}")
    looked_at('details.seat-menu[data-menu="6"] summary')
    assert page.locator(".empty-seat").count() == 4  # seats 5 to 8 of the default 8

    menu = open_menu(page, 6)
    looked_at('details.seat-menu[data-menu="6"] [name="player"]', 'details.seat-menu[data-menu="6"] [name="chips"]')
    submit(page, menu, player="Eve", chips=300)
    assert page.locator('.seat[data-seat="6"] .player').inner_text() == "Eve"
    assert stacks(page)[6] == 300 and ledger(page) == (300, 0)

    looked_at('details.seat-menu[data-menu="2"] summary')
    menu = open_menu(page, 2)
    looked_at('details.seat-menu[data-menu="2"] [name="amount"]')
    submit(page, menu, amount=150)
    assert stacks(page)[2] == 650 and ledger(page) == (450, 0)

    # over the table's maximum: the engine's refusal, shown in place; nothing logged
    at = version(page)
    menu = open_menu(page, 2)
    menu.locator('[name="amount"]').fill("400")
    menu.locator('[name="amount"]').press("Enter")
    refusal = page.locator("#say")
    refusal.wait_for(state="visible")
    assert "over this table's maximum of 1000 (at most 350 more)" in refusal.inner_text()
    assert version(page) == at
    looked_at(shot=True)


def test_a_night_the_tablet_and_the_floor_pages_agree(open_page, live_server):
    """Issue 12's browser test: a newcomer sits down with a buy-in, another player rebuys, one leaves,
    one moves to another table; the stacks and the ledger on the pages match."""
    one = make_table(live_server)
    two = make_table(live_server, "Table 2", seats=[{"seat": 1, "player": "Zed", "stack": 300},
                                                   {"seat": 3, "player": "Yan", "stack": 300}])
    dealer = open_page("dealer")
    dealer.goto(f"{live_server.url}/dealer/tables/{one}")
    submit(dealer, open_menu(dealer, 5), player="Eve", chips=250)
    submit(dealer, open_menu(dealer, 1), amount=100)
    # leaving takes two taps (it cannot simply be taken back once the player is gone)
    leave = open_menu(dealer, 4).locator('button[data-seat-action="leave"]')
    assert leave.inner_text() == "Leaves with 500"
    leave.click()
    tap(dealer, 'details[data-menu="4"] button[data-seat-action="leave"]')
    assert sorted(stacks(dealer)) == [1, 2, 3, 5] and ledger(dealer) == (350, 500)

    floor = open_page("floor")
    floor.goto(f"{live_server.url}/floor/lineups")
    floor.select_option("#from_table", str(one))
    floor.fill("#from_seat", "5")
    floor.select_option("#to_table", str(two))
    floor.fill("#to_seat", "4")
    floor.click("text=Move the player")
    floor.wait_for_selector("text=Eve moved from Table 1 seat 5 to Table 2 seat 4")

    dealer.wait_for_selector('#panel[data-version="4"]', timeout=10_000)  # the tablet's poll sees the move
    tablet_stacks, tablet_ledger = stacks(dealer), ledger(dealer)
    assert tablet_stacks == {1: 600, 2: 500, 3: 500} and tablet_ledger == (350, 750)
    line = floor.locator(f'section.lineup[data-table="{one}"]')
    assert {int(r.get_attribute("data-seat")): int(r.locator(".stack").inner_text())
            for r in line.locator("tr[data-seat]").all() if r.locator(".stack").count()} == tablet_stacks
    assert (int(line.locator("[data-chips-in]").inner_text()),
            int(line.locator("[data-chips-out]").inner_text())) == tablet_ledger
    other = floor.locator(f'section.lineup[data-table="{two}"]')
    assert other.locator('tr[data-seat="4"] .stack').inner_text() == "250"
    assert other.locator("[data-chips-in]").inner_text() == "250"

    # the player's history adds the tables up: 250 in, 250 taken to the other table, 250 in there
    floor.click(f'section.lineup[data-table="{two}"] >> text=Eve')
    assert floor.locator("#total-in").inner_text() == "500" and floor.locator("#total-out").inner_text() == "250"
    assert floor.locator("#total-net").inner_text() == "+0"


def draw(page, count: int) -> None:
    page.click(f'.draw .count[data-count="{count}"]')
    tap(page, 'button[data-action="draw"]')


def show(page, cards: str) -> None:
    pick(page, "show", cards)
    tap(page, 'button[data-action="show"]')


def test_D10_a_jacks_back_hand_turns_to_lowball(open_page, live_server):
    table_id = make_table(live_server, profile={"base": "cardroom", "jacks_back": True})
    page = open_page("dealer")
    page.goto(f"{live_server.url}/dealer/tables/{table_id}")
    assert "if nobody opens, the same hands play for low (rule D10)" in page.locator("#variant").inner_text()
    act(page, "deal")
    for _ in range(4):
        act(page, "pass")
    # nobody opened: the same hands, now for ace-to-five low
    assert page.locator("#low-round").inner_text() == "Played for low: ace-to-five, the joker fits (jacks back, rule D10)"
    assert "played for low" in page.locator("#message").inner_text()
    assert to_act(page) == 2 and page.locator("#pot").inner_text() == "20"
    assert page.locator("#panel .buttons button.act").all_inner_texts() == [
        "Pass", "Bet 10 for low", "Bet 20 for low", "Nobody opens: seats 2, 3, 4, 1 pass"]
    act(page, "open")
    act(page, "call")
    act(page, "fold")
    act(page, "fold")
    draw(page, 1)
    draw(page, 2)
    act(page, "check")
    act(page, "check")
    show(page, "7c 5d 4h 3s 2c")
    show(page, "8d 6c 4d 3c Ac")
    # seven-five low beats eight-six, and the award says so
    assert page.locator("#award").inner_text() == "Seat 2 · Bob wins 40 with seven-five-four-three-deuce (for low)"
    assert stacks(page) == {1: 495, 2: 525, 3: 485, 4: 495}
    assert page.locator("#low-round").count() == 0
    assert page.locator("#low-round-over").inner_text() == "The last hand was played for low (rule D10, jacks back)"
    act(page, "deal")  # a new pot, for high again
    assert page.locator("#low-round, #low-round-over").count() == 0


def test_D9_a_trips_to_win_pot_stays(open_page, live_server):
    table_id = make_table(live_server, profile={"base": "cardroom", "trips_to_win": True})
    page = open_page("dealer")
    page.goto(f"{live_server.url}/dealer/tables/{table_id}")
    assert "Trips to win" in page.locator("#trips").inner_text()
    act(page, "deal")
    act(page, "pass")
    tap(page, '#panel button[data-type="open"] >> text=Open for 10')
    act(page, "call")
    act(page, "call")
    act(page, "fold")  # seat 2 folds before the draw: out of this pot (D9)
    draw(page, 3)
    draw(page, 1)
    draw(page, 2)
    for _ in range(3):
        act(page, "check")
    show(page, "Jc Jd 5h 5s 2c")
    show(page, "Ac Ad Kc Kd 9h")
    show(page, "7c 7d 8h 4s 3c")
    # no three of a kind: nobody wins, the pot stays
    assert page.locator("#award").count() == 0
    assert page.locator("#pot").inner_text() == "50"
    assert "no hand of three of a kind or better" in page.locator("#message").inner_text()
    assert page.locator('.seat[data-seat="2"] .tags').inner_text().count("barred") == 1
    act(page, "deal")  # the rest ante again among themselves
    assert page.locator("#pot").inner_text() == "65"
    assert page.locator('.seat[data-seat="2"]').get_attribute("class").count("status-barred") == 1


def test_H4_the_dealer_turns_up_the_widow_card_by_tapping_it(open_page, live_server):
    table_id = make_table(live_server, profile={"base": "cardroom", "wild": "widow"})
    page = open_page("dealer")
    page.goto(f"{live_server.url}/dealer/tables/{table_id}")
    act(page, "deal")
    button = page.locator('button[data-action="widow"]')
    assert button.is_disabled() and button.inner_text() == "Pick the widow card"
    pick(page, "widow", "7h")
    assert button.inner_text() == "Widow card 7h"
    tap(page, 'button[data-action="widow"]')
    assert page.locator("#widow").inner_text() == "Widow card 7h: 7s wild this deal (rule H4, deuces and other wild ranks)"
    assert page.locator("#panel .buttons button.act").all_inner_texts()[:2] == ["Pass", "Open for 10"]
