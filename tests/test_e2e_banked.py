"""A banked round with three boxes in Debian's chromium (issue 15): a director sets up the table, the
dealer logs the deal, each box's decision in order, the dealer's cards and draw; the tablet shows
which dealer cards to change (B4), refuses what the rules refuse (B2, B4) and shows every payout (B5)."""

from __future__ import annotations

import pytest

from tests.e2e import browser, live_app, live_server, open_page, screenshot  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e
SCREENSHOT = "/tmp/banked.png"


def submit(page, action: str, box: int | None = None) -> None:
    scope = page.locator(f'.box[data-box="{box}"]') if box else page
    with page.expect_navigation():
        scope.locator(f'button[data-action="{action}"]').click()


def test_a_banked_round_with_three_boxes(open_page, live_server):
    director = open_page("director")
    director.goto(live_server.url + "/banked/")
    director.fill("#name", "Banked 1")
    director.fill("#boxes", "3")
    with director.expect_navigation():
        director.click("text=Set up the table")
    table_url = director.url
    assert "/banked/tables/" in table_url

    page = open_page("dealer")
    page.goto(table_url)
    page.fill("#ante-1", "0.3")
    page.fill("#cards-1", "Ah Ad 9c 6s 2h")
    page.fill("#ante-2", "0.6")
    page.fill("#cards-2", "Ks Qd 8h 5c 3c")
    page.fill("#ante-3", "0.3")
    page.fill("#cards-3", "7h 7d 7c Js 2d")
    submit(page, "deal")
    assert page.locator("#table").get_attribute("data-to-act") == "1"
    assert page.locator(".box.acting").get_attribute("data-box") == "1"

    # B2: box 1 changes three cards; the second round offers fold, exchange (one card) or bet
    box1 = page.locator('.box[data-box="1"]')
    box1.locator('[data-field="discards"]').fill("9c 6s 2h")
    box1.locator('[data-field="drawn"]').fill("As Kd Qh")
    submit(page, "exchange", 1)
    box1 = page.locator('.box[data-box="1"]')
    assert box1.locator(".cards").inner_text() == "Ah Ad As Kd Qh"
    # B3: a second exchange of two cards is refused in place, naming the rule; nothing is logged
    box1.locator('[data-field="discards"]').fill("Kd Qh")
    box1.locator('[data-field="drawn"]').fill("2c 3c")
    submit(page, "exchange", 1)
    assert "B3: the second exchange changes exactly one card, not 2" in page.locator("#refusal").inner_text()
    submit(page, "bet", 1)
    fold = page.locator('.box[data-box="2"] button[data-action="fold"]')
    fold.click()  # a fold costs the box its ante: the first tap asks again
    assert fold.inner_text() == "Tap again: box 2 folds"
    submit(page, "fold", 2)
    assert page.locator('.box[data-box="3"] button[data-action="bet"]').inner_text() == "Bet 0.6"
    submit(page, "bet", 3)

    page.fill("#dealer-cards", "Kh Kc 7s 5d 4h")
    submit(page, "reveal")
    # B4: the tablet shows the dealer's cards to change
    assert page.locator("#dealer-exchange").inner_text() == "B4: a pair: change the other three cards: change 7s 5d 4h."
    assert page.locator("#dealer .card.throw").all_inner_texts() == ["7s", "5d", "4h"]
    page.fill("#dealer-drawn", "Td 3s")  # one card short: refused, naming the list's item
    submit(page, "dealer_draw")
    assert "B4: the dealer changes 3 card(s)" in page.locator("#refusal").inner_text()
    page.fill("#dealer-drawn", "Td 3s 2s")
    submit(page, "dealer_draw")

    # B5: every box's payout, and the house's
    payouts = {int(b.get_attribute("data-box")): b.locator(".payout").inner_text() for b in page.locator(".box").all()}
    assert payouts == {1: "player wins: +4.2", 2: "folded: -0.6", 3: "player wins: +2.1"}
    assert page.locator("#house-net").inner_text() == "House this round: -5.7"
    assert page.locator("#table").get_attribute("data-stage") == "settled"
    screenshot(page, SCREENSHOT, full_page=True)
    # the next round can be dealt
    assert page.locator('button[data-action="deal"]').is_visible()
