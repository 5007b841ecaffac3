"""The banked tablet in Debian's chromium at a phone's, a tablet's and a desktop's size (issue 25): the
dealer deals and exchanges by tapping cards (no card text typed), withdraws the last entry with two
taps, reads the round's log, and calls the floor, which sees the call on its overview.
Each flow is played once, on a phone; where the tablet is looked at, the page is checked at the three
sizes (``tests.e2e.at_each_size``: nothing scrolls sideways, what the flow taps next can be tapped).
Screenshots (FLOOR_E2E_SHOTS set) in /tmp/i25/shots/."""

from __future__ import annotations

import pytest

from tests.e2e import PHONE, browser, live_app, live_server, open_page  # noqa: F401 (fixtures)
from tests.test_e2e_taps import looked_at

pytestmark = pytest.mark.e2e

HANDS = {1: "Ah Ad 9c 6s 2h", 2: "Ks Qd 8h 5c 3c", 3: "7h 7d 7c Js 2d"}


def tap_cards(page, cards: str) -> None:
    for card in cards.split():
        page.locator(f'#picker .card[data-card="{card}"]').click()


def navigate(page, locator) -> None:
    with page.expect_navigation():
        locator.click()


def picker(cards: str) -> tuple[tuple[str, int]]:
    """The picker's cards the flow taps next, as a group :func:`tests.e2e.at_each_size` checks."""
    return ((", ".join(f'#picker .card[data-card="{card}"]' for card in cards.split()), len(cards.split())),)


def test_the_banked_tablet_deals_by_tapping_cards_undoes_logs_and_calls_the_floor(open_page, live_server):
    director = open_page("director")
    director.goto(live_server.url + "/banked/")
    director.fill("#name", "Banked 1")
    director.fill("#boxes", "3")
    navigate(director, director.locator("text=Set up the table"))
    table_url = director.url

    page = open_page("dealer", viewport=PHONE)
    page.goto(table_url)
    assert page.locator("#picker").is_visible()
    assert page.locator("#pick-target").inner_text() == "box 1's cards"
    looked_at(page, groups=picker(" ".join(HANDS.values())))
    for box in (1, 2, 3):  # five taps a box; the picker moves on to the next box by itself
        tap_cards(page, HANDS[box])
        assert page.locator(f"#cards-{box}").input_value() == HANDS[box]
    # a card already in a box cannot be tapped for another
    assert page.locator('#picker .card[data-card="Ah"]').is_disabled()
    looked_at(page, "banked-deal-picked", taps=(page.locator('button[data-action="deal"]'),))
    navigate(page, page.locator('button[data-action="deal"]'))

    # box 1 throws three of its own cards (only those can be picked) and draws three new ones
    box1 = page.locator('.box[data-box="1"]')
    looked_at(page, taps=(box1.locator('[data-field="discards"]'),))
    box1.locator('[data-field="discards"]').click()
    assert page.locator('#picker .card[data-card="Ks"]').is_disabled()  # box 2's card: not box 1's to throw
    assert page.locator('#picker .card[data-card="Ah"]').is_enabled()
    looked_at(page, groups=picker("9c 6s 2h"))
    tap_cards(page, "9c 6s 2h")
    box1.locator('[data-field="drawn"]').click()
    assert page.locator('#picker .card[data-card="Ks"]').is_disabled()  # seen in box 2: not in the deck
    assert page.locator('#picker .card[data-card="9c"]').is_disabled()  # thrown: not drawn again
    looked_at(page, groups=picker("As Kd Qh"))
    tap_cards(page, "As Kd Qh")
    assert page.locator("#pick-count").inner_text() == "3 of 3"
    looked_at(page, taps=(box1.locator('button[data-action="exchange"]'),))
    navigate(page, box1.locator('button[data-action="exchange"]'))
    assert box1.locator(".cards").inner_text() == "Ah Ad As Kd Qh"

    # the round's log, newest first, and the undo of the last entry (two taps)
    log = page.locator("#round-log li")
    assert log.nth(0).inner_text().startswith("2 · box 1 changes 9c 6s 2h for As Kd Qh")
    assert log.nth(1).inner_text().startswith("1 · deal: box 1 ante 0.3, Ah Ad 9c 6s 2h")
    undo = page.locator('button[data-action="undo"]')
    assert undo.inner_text() == "Undo entry 2: box 1 changes 9c 6s 2h for As Kd Qh"
    looked_at(page, taps=(undo,))
    undo.dblclick()  # a double tap is one tap: armed, nothing sent
    assert undo.inner_text() == "Tap again to withdraw entry 2"
    page.wait_for_timeout(300)
    navigate(page, undo)
    assert box1.locator(".cards").inner_text() == "Ah Ad 9c 6s 2h"
    assert page.locator('#round-log li.voided[data-seq="2"]').count() == 1
    looked_at(page, "banked-undone", taps=(page.locator("#call-floor"),))

    # call the floor: the dealer says what about; the floor's overview shows it
    navigate(page, page.locator("#call-floor"))
    looked_at(page, taps=(page.locator('input[value="wrong_payout"]'), page.locator("#box"),
                          page.locator("main button[type=submit]")))
    page.locator('input[value="wrong_payout"]').check()
    page.select_option("#box", "1")
    navigate(page, page.locator("main button[type=submit]"))
    assert "Floor called: a wrong payout, box 1" in page.locator(".floor-called").inner_text()
    looked_at(page)
    floor = open_page("floor", viewport=PHONE)
    floor.goto(live_server.url + "/floor/")
    assert "a wrong payout, box 1" in floor.locator(".banked-calls").inner_text()
    looked_at(floor, "banked-call-on-floor")


def banked_table(app, events) -> int:
    from floor.banked.models import BankedTable
    from floor.banked.log import append
    from floor.extensions import db

    with app.app_context():
        table = BankedTable(name="Banked 2", setup={"boxes": 3})
        db.session.add(table)
        db.session.flush()
        table.seal_head()
        db.session.commit()
        for event in events:
            append(table, event, None)
        return table.id


def logged(app, table_id) -> list[dict]:
    from floor.banked.models import BankedEntry
    from floor.extensions import db

    with app.app_context():
        return list(db.session.scalars(db.select(BankedEntry.payload).where(BankedEntry.table_id == table_id)
                                       .order_by(BankedEntry.seq)))


DEAL = {"type": "deal", "antes": {"1": 3, "2": 3}, "cards": {"1": "Ah Ad 9c 6s 2h", "2": "Ks Qd 8h 5c 3c"}}


def test_an_offline_banked_tablet_keeps_the_tap_and_sends_it_once_when_back(open_page, live_server):
    table_id = banked_table(live_server.app, [DEAL])
    page = open_page("dealer", viewport=PHONE)
    page.goto(f"{live_server.url}/banked/tables/{table_id}")
    page.context.set_offline(True)
    net = page.locator("#net")
    net.wait_for(timeout=2_000)
    assert "No network: this tablet is offline." in net.inner_text()
    bet = page.locator('.box[data-box="1"] button[data-action="bet"]')
    looked_at(page, taps=(bet,))
    bet.click()
    assert "Waiting to be sent (1):" in net.inner_text() and "Box 1: Bet 0.6" in net.inner_text()
    assert bet.is_disabled() and page.locator('button[data-action="undo"]').is_disabled()  # held while it waits
    looked_at(page, "banked-offline")
    assert logged(live_server.app, table_id) == [DEAL]
    page.context.set_offline(False)
    page.locator("#said").wait_for(timeout=8_000)  # sent, then the table as it is now
    assert "Sent now (it waited on this tablet): Box 1: Bet 0.6." in page.locator("#said").inner_text()
    assert logged(live_server.app, table_id) == [DEAL, {"type": "bet", "box": 1}]
    assert page.locator('#table[data-to-act="2"]').count() == 1


def test_a_banked_tap_after_the_login_ended_is_sent_after_the_login(open_page, live_server):
    table_id = banked_table(live_server.app, [DEAL])
    page = open_page("dealer", viewport=PHONE)
    page.goto(f"{live_server.url}/banked/tables/{table_id}")
    other = open_page("dealer")
    other.goto(live_server.url + "/")
    other.locator("form[action$='/logout'] button").first.click()
    other.wait_for_url("**/login**")
    fold = page.locator('.box[data-box="1"] button[data-action="fold"]')
    looked_at(page, taps=(fold,))
    fold.click()
    fold.click()  # a fold takes two taps
    net = page.locator("#net")
    net.wait_for()
    assert "Your login has ended." in net.inner_text() and "Box 1: Fold" in net.inner_text()
    assert logged(live_server.app, table_id) == [DEAL]
    looked_at(page, "banked-login-ended", taps=(page.locator("#login-again"),))
    page.locator("#login-again").click()
    from tests.conftest import PASSWORD
    page.fill("#username", "dee")
    page.fill("#password", PASSWORD)
    page.click("main button[type=submit]")
    page.locator("#said").wait_for(timeout=8_000)
    assert "Sent now (it waited on this tablet): Box 1: Fold." in page.locator("#said").inner_text()
    assert logged(live_server.app, table_id) == [DEAL, {"type": "fold", "box": 1}]
    assert page.locator("#net").is_hidden()
