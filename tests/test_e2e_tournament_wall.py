"""The wall clock in Debian's chromium at a TV's 1920x1080, an old screen's 1024x768 and a phone's
390x844 (issue 21), one wall looked at on each: no sideways scroll, every figure inside the screen, the clock's new figures
(time of day, the level's end, the next break, chips in play, the payout ladder) shown and counting.
Screenshots (FLOOR_E2E_SHOTS set): /tmp/tournament-wall-<width>x<height>.png (looked at by eye
when the wall changes)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from floor.extensions import db
from floor.models import User
from tests.e2e import at_each_size, browser, live_app, live_server, open_page, screenshot  # noqa: F401 (fixtures)
from tests.tourney_play import Api

pytestmark = pytest.mark.e2e

STRUCTURE = {
    "levels": [{"minutes": 20, "ante": 100, "small_bet": 200, "big_bet": 400}, {"break": 15},
               {"minutes": 20, "ante": 200, "small_bet": 500, "big_bet": 1000}],
    "starting_chips": 25000, "buy_in": 1100, "bounty": 100, "late_registration_levels": 1,
    "payouts": [30, 20, 14, 10, 8, 6, 5, 4, 3],
}


@pytest.fixture
def api(live_server):
    tokens = {}
    with live_server.app.app_context():
        for user in db.session.scalars(db.select(User)):
            tokens[user.role.name] = user.new_api_token()
        db.session.commit()
    return Api(live_server.app.test_client(), tokens)


SCREENS = {"tv": {"width": 1920, "height": 1080}, "old screen": {"width": 1024, "height": 768},
           "phone": {"width": 390, "height": 844}}


def test_the_wall_fits_a_tv_an_old_screen_and_a_phone(api, live_server, open_page):
    """One wall, loaded once and looked at on each screen in turn (the window resized: the wall's
    CSS answers the new size as a fresh load's would; its script never reads the size)."""
    event = api.post("/api/events", {"name": "Saturday Deepstack Championship Jacks-or-Better Freezeout",
                                     "structure": STRUCTURE}, status=201)["id"]
    for n in (1, 2, 3, 4):
        api.post(f"/api/events/{event}/tables", {"name": f"Table {n}", "seats": 10}, status=201)
    for n in range(36):
        api.post(f"/api/events/{event}/entries", {"player": f"Player {n + 1:02d}"}, role="floor", status=201)
    api.post(f"/api/events/{event}/draw", role="floor", status=200)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)

    page = open_page("dealer", viewport=SCREENS["tv"])
    page.goto(f"{live_server.url}/tournament/{event}/wall")
    expect(page.locator("#payouts li")).to_have_count(9)

    def on_screen(screen: str) -> None:
        width, height = SCREENS[screen]["width"], SCREENS[screen]["height"]
        assert page.locator("#players_left").inner_text() == "36 / 36"
        assert page.locator("#chips_in_play").inner_text() == "900,000"
        assert page.locator("#prize_pool").inner_text() == "36,000"
        assert page.locator("#payouts li").first.inner_text() == "1st 10,800"
        assert re.fullmatch(r"\d\d:\d\d", page.locator("#now").inner_text())
        assert re.fullmatch(r"Level ends at \d\d:\d\d", page.locator("#ends").inner_text())
        assert re.fullmatch(r"19:[45]\d|20:00", page.locator("#next_break").inner_text())
        assert page.locator("#late_registration").inner_text() == "open"

        # no sideways scroll, and every element of the wall inside the screen's width
        sizes = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert sizes[0] <= sizes[1] == width, (screen, sizes)
        outside = page.evaluate("""() => [...document.querySelectorAll('.wall *')]
            .map(e => [e.id || e.tagName, e.getBoundingClientRect()])
            .filter(([, r]) => r.width && (r.left < 0 || r.right > window.innerWidth + 0.5))
            .map(([n, r]) => n + ' ' + r.left + '-' + r.right)""")
        assert outside == [], screen
        wrapped = page.evaluate("""() => [...document.querySelectorAll('.figures b, #payouts li')]
            .filter(e => e.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(e).fontSize))
            .map(e => e.id || e.textContent)""")
        assert wrapped == [], screen  # every figure on one line
        # the big clock is big: the largest figure on the screen, and on a TV the wall needs no scrolling at all
        time_px = page.evaluate("() => parseFloat(getComputedStyle(document.getElementById('time')).fontSize)")
        assert time_px >= min(0.2 * width, 0.2 * height), (screen, time_px)
        if width >= 1024:
            assert page.evaluate("() => document.documentElement.scrollHeight <= window.innerHeight"), screen
        screenshot(page, f"/tmp/tournament-wall-{width}x{height}.png", full_page=True)

    at_each_size(page, check=on_screen, sizes=SCREENS)
