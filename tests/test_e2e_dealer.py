"""The dealer's tablet in Debian's chromium: a whole pot logged by tapping, and two devices at one table."""

from __future__ import annotations

import re

import pytest

from floor import tables
from tests.conftest import SETUP
from tests.e2e import TABLET_PORTRAIT, browser, live_app, live_server, open_page, screenshot  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e
SCREENSHOT = "/tmp/dealer.png"


@pytest.fixture
def table_url(live_server):
    with live_server.app.app_context():
        table_id = tables.create_table("Table 1", SETUP).id
    return f"{live_server.url}/dealer/tables/{table_id}"


def version(page) -> int:
    return int(page.locator("#panel").get_attribute("data-version"))


def tap(page, selector: str) -> None:
    """Tap a button that logs an event and wait for the panel of the next version."""
    before = version(page)
    page.locator(selector).click()
    page.wait_for_selector(f'#panel[data-version="{before + 1}"]')


def act(page, kind: str) -> None:
    tap(page, f'#panel button[data-type="{kind}"] >> nth=0')


def to_act(page) -> int:
    return int(page.locator("#panel").get_attribute("data-to-act"))


def stacks(page) -> dict[int, int]:
    out = {}
    for seat in page.locator(".seat").all():
        text = seat.locator(".stack").inner_text()
        out[int(seat.get_attribute("data-seat"))] = int(re.sub(r"\D", "", text))
    return out


def pick(page, picker: str, cards: str) -> None:
    for card in cards.split():
        page.locator(f'.picker[data-picker="{picker}"] .card[data-card="{card}"]').click()


def test_a_whole_pot_logged_by_tapping(open_page, live_server, table_url):
    page = open_page("dealer")
    page.goto(live_server.url + "/dealer/")
    page.click("text=Table 1")
    page.wait_for_url(table_url)
    assert page.locator("#panel .buttons button.act").all_inner_texts() == ["Deal"]
    sent = []  # every request the page makes from now on: a tap is one POST, the panel comes back in it

    def record(request) -> None:
        sent.append((request.method, request.url.split(live_server.url, 1)[-1]))

    page.on("request", record)

    # three deals nobody opens: antes on each, the button moving one seat a deal
    for deal in (1, 2, 3):
        act(page, "deal")
        assert page.locator("#deal-count").inner_text() == (f"Deal {deal} · " + ("a new pot" if deal == 1 else "the pot carried since deal 1")
                                                              + f" · antes {deal} of 3")
        for _ in range(4):
            act(page, "pass")
    assert stacks(page) == {1: 485, 2: 485, 3: 485, 4: 485}
    assert page.locator("#pot").inner_text() == "60"
    assert "no antes" in page.locator(".next-ante").inner_text()

    # the fourth deal of the pot takes no ante
    act(page, "deal")
    assert page.locator("#deal-count").inner_text() == "Deal 4 · the pot carried since deal 1 · antes 3 of 3"
    assert stacks(page) == {1: 485, 2: 485, 3: 485, 4: 485}
    assert page.locator("#pot").inner_text() == "60"
    assert page.locator(".seat.to-act").get_attribute("data-seat") == "1"
    assert page.locator(".seat", has=page.locator(".dealer-button")).get_attribute("data-seat") == "4"
    # O2 (cardroom): open for the minimum or with a raise
    assert page.locator("#panel .buttons button.act").all_inner_texts() == [
        "Pass", "Open for 10", "Open with a raise to 20", "Nobody opens: seats 1, 2, 3, 4 pass"]  # O3: one tap

    # seat 1 opens, everyone calls
    act(page, "open")
    assert page.locator("#panel .buttons button.act").all_inner_texts() == ["Call 10", "Raise 20", "Fold"]
    # F12: the other players' requests to keep the opening hand sit folded beside the turn's buttons
    requests = page.locator('#panel details.requests[data-request="keep_openers"]')
    assert "keep the opening hand (F12)" in requests.locator("summary").inner_text()
    assert not requests.locator("button").first.is_visible()
    requests.locator("summary").click()
    assert requests.locator("button").all_inner_texts() == [f"Seat {s} asks the opener to keep the hand" for s in (2, 3, 4)]
    for _ in range(3):
        act(page, "call")
    assert page.locator("#pot").inner_text() == "100"

    # the draw: the opener splits openers, the jack of hearts goes to escrow
    assert to_act(page) == 1
    page.click('.draw .count[data-count="2"]')
    page.check("#split")
    draw = page.locator('button[data-action="draw"]')
    assert draw.inner_text() == "Draws 2, split: pick the escrowed cards"
    at = version(page)
    draw.click()  # no escrow picked: the engine refuses, in place, and nothing changes
    refusal = page.locator("#say")
    refusal.wait_for(state="visible")
    assert "every discard goes under the chip (rule S1, declare and protect the split), so the escrow lists all 2 discards, not 0" in refusal.inner_text()
    assert version(page) == at == 20
    pick(page, "escrow", "Jh 7s")
    jack = page.locator('.picker[data-picker="escrow"] .card[data-card="Jh"]')
    assert jack.is_disabled()  # cannot be picked twice
    assert draw.inner_text() == "Draws 2, split: J♥ 7♠ in escrow"
    screenshot(page, "/tmp/dealer-draw.png")
    tap(page, 'button[data-action="draw"]')
    assert "J♥" in page.locator(".summary .escrow").inner_text()  # shown as the picker shows it
    for _ in range(3):
        page.click('.draw .count[data-count="3"]')
        tap(page, 'button[data-action="draw"]')

    # after the draw: the opener checks, seat 2 bets the big bet, all call
    act(page, "check")
    act(page, "bet")
    for _ in range(3):
        act(page, "call")
    assert page.locator("#pot").inner_text() == "180"

    # the showdown, each hand picked card by card
    hands = {2: "2h 2d 2s 9c Td", 3: "Ad Kd 9h 8c 7d", 4: "Ah Kh Qh 2c 3d", 1: "Jc Jd 4s 5s 6s"}
    escrowed = page.locator('.picker[data-picker="show"] .card[data-card="Jh"]')
    assert escrowed.is_disabled() and escrowed.get_attribute("title") == "in escrow for seat 1"
    assert page.locator('.picker[data-picker="show"] .card').count() == 53
    for n in range(4):
        seat = to_act(page)
        pick(page, "show", hands[seat])
        assert page.locator('.picker[data-picker="show"] .tray [data-picked]').count() == 5
        if n == 1:
            page.evaluate("window.scrollTo(0, 0)")
            screenshot(page, SCREENSHOT)  # the tablet's screen as the dealer sees it
            screenshot(page, "/tmp/dealer-full.png", full_page=True)
        tap(page, 'button[data-action="show"]')
    award = page.locator("#award")
    assert award.inner_text() == "Seat 2 · Bob wins 180 with three deuces, ten-nine"  # the winning hand named
    taps = [url for method, url in sent if method == "POST"]
    assert taps and all(url == table_url.removeprefix(live_server.url) + "/taps" for url in taps)  # the tablet's own endpoint, not the API
    assert len(taps) == version(page) + 1  # one request per logged event, and the refused draw
    assert not [url for _, url in sent if url.endswith("/panel")]  # never a second request for the panel
    assert stacks(page) == {1: 455, 2: 635, 3: 455, 4: 455}
    assert page.locator("#panel .buttons button.act").all_inner_texts() == ["Deal"]
    page.remove_listener("request", record)  # the page is the next test's device


def test_two_devices_at_one_table(open_page, table_url):
    first = open_page("dealer")
    second = open_page("floor", viewport=TABLET_PORTRAIT)
    for page in (first, second):
        page.goto(table_url)
        assert version(page) == 0

    act(first, "deal")
    # the second device still shows version 0 and taps Deal too: told, and refreshed
    second.locator('#panel button[data-type="deal"]').click()
    second.wait_for_selector('#panel[data-version="1"]')
    assert "Another device logged first" in second.locator("#say").inner_text()
    assert second.locator("#panel .buttons button.act").all_inner_texts() == [
        "Pass", "Open for 10", "Open with a raise to 20", "Nobody opens: seats 2, 3, 4, 1 pass"]

    # the idle first device catches up by itself (polling)
    act(second, "pass")
    first.wait_for_selector('#panel[data-version="2"]', timeout=10_000)
    assert first.locator(".seat.to-act").get_attribute("data-seat") == "3"

    # undo on the first device: two taps, the pass is withdrawn
    undo = first.locator('#panel button[data-type="void"]')
    assert undo.inner_text() == "Undo entry 2: seat 2 passes"
    undo.click()
    assert undo.inner_text().startswith("Tap again to confirm")
    undo.click()
    first.wait_for_selector('#panel[data-version="3"]')
    assert first.locator(".seat.to-act").get_attribute("data-seat") == "2"
    assert "withdrawn" in first.locator("#message").inner_text()
    screenshot(second, "/tmp/dealer-portrait.png")


def test_a_hand_of_the_wrong_size_reported_from_its_form(open_page, table_url):
    """D8 from the tablet: the folded form its event type declares (a seat and a count picked),
    submitted as the page submits any form; the tree's ruling shows on the panel (issue 23)."""
    page = open_page("dealer")
    page.goto(table_url)
    act(page, "deal")
    request = page.locator('#panel details.requests[data-request="wrong_count"]')
    assert request.locator("summary").inner_text() == "A hand of the wrong number of cards (D8)"
    request.locator("summary").click()
    request.locator('select[name="seat"]').select_option("3")
    request.locator('select[name="count"]').select_option("4")
    before = version(page)
    request.locator("button[type=submit]").click()
    page.wait_for_selector(f'#panel[data-version="{before + 1}"]')
    assert "seat 3 holds 4 cards (D8)" in page.locator("#panel .log").inner_text()
    # the tree ruled by the rules (D8, the hand put right before the draw): the floor confirms it
    assert "by the rules: the floor will confirm it" in page.locator("#panel p.ruling").inner_text()
