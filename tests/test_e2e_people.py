"""The people's pages in Debian's chromium, at the sizes they are used (issue 16): a phone on the
floor (390x844), a tablet upright (768x1024) and on its side (1024x768), and (issue 25) a desktop
(1440x900). Every page is measured: ``document.documentElement.scrollWidth`` may not exceed the
window's width (no sideways scrolling).
"""

from __future__ import annotations

import pytest

from tests import people_data
from tests.e2e import (DESKTOP, PHONE, USER_OF_ROLE, browser, live_app, live_server, log_in, open_page,  # noqa: F401 (fixtures)
                       screenshot, session_cookies)

pytestmark = pytest.mark.e2e

TABLET_UP = {"width": 768, "height": 1024}
TABLET_SIDE = {"width": 1024, "height": 768}

# the widest thing on the page, to say in the failure what sticks out
WIDEST = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.right > w + 1 && r.width > 0) out.push(el.tagName.toLowerCase() + '.' + el.className + ' ' + Math.round(r.right));
  }
  return out.slice(0, 6);
}"""


@pytest.fixture
def room(live_server):
    return people_data.load(live_server.app)


def pages(ids: dict[str, int]) -> dict[str, list[str]]:
    """Every page a person opens, by the role that opens it."""
    t, ruled, ruling, event = ids["showdown"], ids["ruled"], ids["ruling"], ids["event"]
    return {
        "dealer": ["/dealer/", f"/dealer/tables/{ids['midpot']}", f"/dealer/tables/{t}",
                   f"/dealer/tables/{ruled}", f"/dealer/tables/{t}/call-floor", f"/rulings/{ruling}"],
        "floor": ["/floor/", "/rulings/", f"/rulings/{ruling}", f"/rulings/{ruling}/verify", "/rulings/new",
                  f"/rulings/new?table={ruled}&issue=wrong_card_count&seat=1",
                  f"/rulings/new?table={ruled}&issue=false_openers&by_hand=1",
                  "/rulings/new?profile=cardroom&issue=split_openers",
                  f"/floor/tables/{ids['midpot'] + 1}/correction", f"/floor/tables/{ruled}/hands",
                  f"/floor/tables/{ruled}/hands/1", "/rulings/?rule=F5&player=王"],
        "director": ["/director/", "/director/events/new", f"/director/events/{event}",
                     f"/director/events/{event}/tables/new", f"/director/tables/{t}", "/director/profiles/",
                     "/director/profiles/new", "/director/profiles/cardroom", "/director/users/",
                     "/director/users/new", f"/director/users/{ids['dealer']}", "/rules/", "/rules/cardroom"],
    }


# the pages of the second pass (issue 25): the card room's settings, the banked tablet and its call
NEW_PAGES = {"dealer": ["/banked/tables/1", "/banked/tables/1/call"],
             "floor": ["/floor/", "/banked/tables/1"],
             "director": ["/director/settings/", "/director/"]}
WIDTHS = {"phone": PHONE, "tablet-up": TABLET_UP, "tablet-side": TABLET_SIDE, "desktop": DESKTOP}


def test_no_page_scrolls_sideways(open_page, live_server, room):
    """Every page fits the window's width: nothing to scroll sideways, on a phone, a tablet upright
    and on its side, and a desktop. Each page is loaded once and measured at each size in turn
    (the window resized: the page's CSS answers the new width as it would a fresh load's; no
    script of these pages reads the width), which costs chromium a fifth of loading it four
    times (issue 34). The next page is loaded at the size the last was measured at last, and
    measured at it first (a resize fewer a page); one device holds each role's session in turn."""
    def measure(page, role: str, url: str) -> None:
        current = next(name for name, size in WIDTHS.items() if size == page.viewport_size)
        for name in sorted(WIDTHS, key=lambda name: name != current):
            size = WIDTHS[name]
            if name != current:
                page.set_viewport_size(size)
            width = page.evaluate("document.documentElement.scrollWidth")
            measured[role, url, name] = width
            if width > size["width"]:
                too_wide[role, url, name] = (width, page.evaluate(WIDEST))
            if url == "/director/settings/":
                screenshot(page, f"/tmp/i25/shots/director-settings-{size['width']}.png", full_page=True)

    measured, too_wide, failed = {}, {}, {}
    page = open_page(viewport=PHONE)
    page.goto(live_server.url + "/login")
    measure(page, "nobody", "/login")
    visits = pages(room)
    for role, urls in NEW_PAGES.items():
        visits[role] += [url for url in urls if url not in visits[role]]
    for role, urls in visits.items():
        page.context.clear_cookies()
        page.context.add_cookies(session_cookies(live_server, USER_OF_ROLE[role]))
        for url in urls:
            response = page.goto(live_server.url + url)
            if response.status != 200:
                failed[role, url] = response.status
                continue
            assert "/login" not in response.url, (role, url)  # the role's session holds: not sent to the login
            measure(page, role, url)
    assert len(measured) == len(WIDTHS) * (1 + sum(map(len, visits.values())) - len(failed))
    assert not too_wide, "\n".join(f"{url} ({role}) at {name}: {w}" for (role, url, name), w in too_wide.items())
    assert not failed, failed


def test_phone_screenshots(open_page, live_server, room):
    """The dealer's table at the showdown, the floor overview and the rulings list on a phone, saved
    as /tmp/people-*.png to be looked at (FLOOR_E2E_SHOTS set); the picker keeps each suit on one
    row (one line of 13 cards)."""
    dealer = open_page("dealer", viewport=PHONE)
    dealer.goto(f"{live_server.url}/dealer/tables/{room['showdown']}")
    screenshot(dealer, "/tmp/people-dealer.png", full_page=True)
    rows = dealer.eval_on_selector_all('.picker[data-picker="show"] .card-row', """rows => rows.map(row => [
      row.className, [...row.querySelectorAll('.card[data-card]:not(.joker)')].map(card =>
        Math.round(card.getBoundingClientRect().top + window.scrollY))])""")
    assert len(rows) == 4
    for name, tops in rows:  # every card of a suit at the same height: one row
        assert len(tops) == 13 and len(set(tops)) == 1, (name, tops)
    screenshot(dealer, "/tmp/people-dealer.png", full_page=True)
    floor = open_page("floor", viewport=PHONE)
    floor.goto(f"{live_server.url}/floor/")
    screenshot(floor, "/tmp/people-floor.png", full_page=True)
    floor.goto(f"{live_server.url}/rulings/")
    screenshot(floor, "/tmp/people-rulings.png", full_page=True)


def test_the_floor_sees_a_new_call_live_and_the_dealer_sees_it_answered(open_page, live_server, room):
    """A dealer calls the floor; the floor person's phone, left open on the overview, shows the call
    within seconds without a reload (a banner, the row lit, the tab's title); the floor person
    dismisses it and the dealer's banner clears by itself."""
    floor = open_page("floor", viewport=PHONE)
    floor.goto(f"{live_server.url}/floor/")
    floor.evaluate("window.__same_page = true")  # gone if the page were reloaded
    sound = floor.locator("#sound")  # the audible signal is the floor person's choice, kept on this phone
    assert sound.inner_text() == "Sound off"
    sound.click()
    assert sound.get_attribute("aria-pressed") == "true" and sound.inner_text() == "Sound on"
    assert floor.evaluate("localStorage.getItem('floor-sound')") == "1"
    assert floor.locator("#new-call").is_hidden()
    table = room["midpot"]
    assert floor.locator("tr[data-call]").count() == 1  # the call at the showdown table only

    dealer = open_page("dealer", viewport=TABLET_SIDE)
    dealer.goto(f"{live_server.url}/dealer/tables/{table}/call-floor?issue=caller_refund")
    dealer.select_option("select#seat", "6")
    dealer.click("main button[type=submit]")
    dealer.locator(".floor-called").wait_for()
    assert "Floor called: caller wants the bet back, seat 6" in dealer.locator(".floor-called").inner_text()

    banner = floor.locator("#new-call")
    banner.wait_for(state="visible", timeout=8_000)  # polled every 3 s
    assert banner.inner_text() == "New call: Table 1 (Demo Friday Jackpots): caller wants the bet back, seat 6"
    assert floor.evaluate("window.__same_page") is True
    assert floor.locator("tr[data-call]").count() == 2
    assert floor.locator("tr.new-call-row").count() == 1
    assert "caller wants the bet back" in floor.locator("tr.new-call-row").inner_text().lower()
    assert floor.title().startswith("(1) ")
    screenshot(floor, "/tmp/people-floor-new-call.png", full_page=True)

    dealer.evaluate("window.__same_page = true")
    floor.locator("tr.new-call-row button:has-text('Dismiss')").click()
    floor.wait_for_url(f"{live_server.url}/floor/")
    dealer.locator(".floor-called").wait_for(state="detached", timeout=10_000)  # polled every 4 s
    assert dealer.evaluate("window.__same_page") is True
    assert "The floor has answered the call." in dealer.locator("#say").inner_text()


def test_the_dealer_is_never_offered_a_link_he_is_refused(open_page, live_server, room):
    """Every link on the dealer's pages (tables, the tablet with a call open, a ruling) opens for a
    dealer: none leads to a 403."""
    dealer = open_page("dealer", viewport=PHONE)
    links = set()
    for url in pages(room)["dealer"]:
        dealer.goto(live_server.url + url)
        links |= set(dealer.eval_on_selector_all("a[href]", "els => els.map(a => a.getAttribute('href'))"))
    links = {link for link in links if link.startswith("/")}
    assert "/dealer/" in links and any(link.endswith(".pdf") for link in links)
    refused = {}
    for link in sorted(links):
        status = dealer.request.get(live_server.url + link, max_redirects=0).status
        if status >= 400:
            refused[link] = status
    assert not refused


def test_a_show_of_four_cards_asks_before_the_hand_is_declared_dead(open_page, live_server, room):
    """H6: a hand of other than five cards is dead. The dealer picks four cards: the first tap on
    Show only asks (nothing is logged), the second logs the show and the hand is dead. Five cards
    go at the first tap."""
    dealer = open_page("dealer", viewport=PHONE)
    dealer.goto(f"{live_server.url}/dealer/tables/{room['showdown']}")
    at = int(dealer.locator("#panel").get_attribute("data-version"))
    assert dealer.locator("#panel").get_attribute("data-to-act") == "2"
    for card in ("As", "Ks", "Qh", "Jd"):
        dealer.locator(f'.picker[data-picker="show"] .card[data-card="{card}"]').click()
    show = dealer.locator('button[data-action="show"]')
    assert show.inner_text() == "Show A♠ K♠ Q♥ J♦"
    assert dealer.locator(".picker .tray").inner_text().split() == ["A♠", "K♠", "Q♥", "J♦"]
    show.click()
    assert "armed" in show.get_attribute("class")
    assert show.inner_text() == "4 cards, not 5: a dead hand (H6). Tap again to show"
    dealer.wait_for_timeout(500)
    assert int(dealer.locator("#panel").get_attribute("data-version")) == at  # nothing logged yet
    screenshot(dealer, "/tmp/people-foul-show.png")
    # a fifth card picked: the confirmation no longer holds, and five cards need none
    dealer.locator('.picker[data-picker="show"] .card[data-card="Tc"]').click()
    assert show.inner_text() == "Show A♠ K♠ Q♥ J♦ T♣"
    dealer.locator(".picker .tray [data-picked='Tc']").click()  # put back: four again, asks again
    show.click()
    assert show.inner_text().startswith("4 cards, not 5")
    show.click()
    dealer.wait_for_selector(f'#panel[data-version="{at + 1}"]')
    seat = dealer.locator('.seat[data-seat="2"]')
    assert "dead" in seat.inner_text().lower()
    assert "H6" in dealer.locator("#message").inner_text()

    # seat 3 shows five cards: logged at the first tap
    for card in ("9c", "9d", "9h", "2c", "3d"):
        dealer.locator(f'.picker[data-picker="show"] .card[data-card="{card}"]').click()
    dealer.locator('button[data-action="show"]').click()
    dealer.wait_for_selector(f'#panel[data-version="{at + 2}"]')


def test_the_history_pages_on_a_phone(open_page, live_server, room):
    """The hands of the table with the ruling against 王小明, and that hand in words, on a phone."""
    floor = open_page("floor", viewport=PHONE)
    floor.goto(f"{live_server.url}/floor/")
    floor.locator("tr", has_text="Table 4").locator("a:has-text('Hands')").click()
    floor.wait_for_url(f"{live_server.url}/floor/tables/{room['ruled']}/hands")
    floor.click("text=Deal 1")
    floor.locator("ol.hand-log").wait_for()
    assert "Seat 2 (王小明) did not hold openers" in floor.locator("ol.hand-log").inner_text()
    assert floor.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(floor, "/tmp/people-hand.png", full_page=True)
