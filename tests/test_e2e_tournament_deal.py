"""The deal in Debian's chromium (issue 29): a bounty event down to three players (one bust paid a
bounty, one was the floor's, nobody's), the floor draws up an ICM deal on the deal page, reviews the
sheet, ticks each player's signature and settles it; the results page then shows prizes and
bounties that add up to every unit paid in. The pages are photographed (FLOOR_E2E_SHOTS set) at
phone, tablet and desktop widths (/tmp/deal-*.png), and the sheet's PDF is saved
(/tmp/deal-sheet.pdf) for pdftoppm."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e import DESKTOP, PHONE, TABLET, browser, live_app, live_server, open_page, screenshot  # noqa: F401 (fixtures)
from tests.test_e2e_tournament_wall import api  # noqa: F401 (fixture: the API with a token per role)
from tests.test_tournament_deal import BOUNTY
from tests.tourney_play import bust

pytestmark = pytest.mark.e2e



def photograph(page, step: str) -> None:
    """The page at phone, tablet and desktop widths, each with no sideways scrolling; back to the tablet."""
    for name, size in (("phone", PHONE), ("tablet", TABLET), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), (step, name)
        screenshot(page, f"/tmp/deal-{step}-{name}.png", full_page=True)
    page.set_viewport_size(TABLET)


def test_the_floor_settles_an_icm_deal_on_the_page_and_the_money_adds_up(api, live_server, open_page):
    event = api.post("/api/events", {"name": "Friday bounties", "structure": BOUNTY}, status=201)["id"]
    table = api.post(f"/api/events/{event}/tables", {"name": "Final", "seats": 6}, status=201)["id"]
    for n in range(5):
        api.post(f"/api/events/{event}/entries", {"player": f"Player {n + 1:02d}"}, role="floor", status=201)
    api.post(f"/api/events/{event}/draw", role="floor", status=200)
    seats = {int(s): x["player"] for s, x in api.table(table)["seats"].items()}
    order = sorted(seats)
    bust(lambda: api.table(table), lambda e: api.log(table, e), order[0], order[1])  # a bounty won
    api.post(f"/api/events/{event}/eliminate", {"player": seats[order[2]], "reason": "went home"}, role="floor",
             status=201)  # a bounty nobody won
    paid_in = 5 * 50

    floor = open_page("floor", viewport=TABLET)
    floor.goto(f"{live_server.url}/tournament/{event}/deal")
    expect(floor.locator("main h1")).to_have_text("Deal: Friday bounties")
    assert "bounties not yet won: 40" in floor.locator("main").inner_text()
    photograph(floor, "offer")
    floor.click("text=The players' own figures")  # their own figures: a field per prize, from the ICM offer
    expect(floor.locator("input[name^='prize:']")).to_have_count(3)
    photograph(floor, "custom")
    floor.click("main a.button:has-text('ICM')")

    floor.click("text=Review the deal")
    floor.wait_for_url(re.compile(r".*/deal/review\?.*method=icm.*"))
    pdf = floor.request.get(live_server.url + floor.locator("text=PDF to sign").get_attribute("href"))
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf"
    with open("/tmp/deal-sheet.pdf", "wb") as out:
        out.write(pdf.body())
    boxes = floor.locator("input[name=agreed]")
    assert boxes.count() == 3
    photograph(floor, "review")
    boxes.nth(0).check()
    floor.click("text=Settle the deal")  # one player has not signed: refused, saying who
    expect(floor.locator(".flash.error")).to_contain_text("not agreed")
    for i in range(3):
        floor.locator("input[name=agreed]").nth(i).check()
    floor.click("text=Settle the deal")
    floor.wait_for_url(f"**/tournament/{event}/deal")
    expect(floor.locator(".flash.success")).to_contain_text("Deal settled (ICM)")
    assert "Settled" in floor.locator("main").inner_text()
    photograph(floor, "settled")

    floor.goto(f"{live_server.url}/tournament/{event}/results")
    rows = floor.locator("table.results tr")
    prizes = bounties = 0
    for i in range(1, rows.count()):
        cells = rows.nth(i).locator("td")
        prizes += int(cells.nth(2).inner_text().replace("(deal)", "").strip() or 0)
        bounties += int(cells.nth(3).inner_text().strip() or 0)
    assert prizes == 5 * 40 and bounties == 5 * 10 and prizes + bounties == paid_in
    assert "ended with a deal (icm)" in floor.locator("main").inner_text()
    photograph(floor, "results")
    api_rows = api.get(f"/api/events/{event}/results")
    assert sum(r["prize"] for r in api_rows) + sum(r["bounties"] for r in api_rows) == paid_in
    # the event no longer looks in play
    floor.goto(f"{live_server.url}/tournament/{event}/")
    expect(floor.locator("#clock")).to_contain_text("Ended with a deal")
    assert floor.locator("#clock button[value=resume]").count() == 0
    wall = open_page("dealer", viewport=DESKTOP)
    wall.goto(f"{live_server.url}/tournament/{event}/wall")
    expect(wall.locator("#state")).to_have_text("Ended with a deal")
    expect(wall.locator("#time")).to_have_text("Over")
    screenshot(wall, "/tmp/deal-wall-desktop.png")
