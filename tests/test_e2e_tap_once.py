"""In Debian's chromium (issue 33): a tap is sent once (DESIGN part four). The network drops after
the server logged a tap but before its answer reached the tablet, and the page is reloaded as the
network comes back: the tap is sent again with its tap id, the server answers with the entry it
logged, and the tablet says it is logged; the log holds it once. The same for a tap that never
reached the server (logged on the resend), for a second tab of the same table, and at each size.

Screenshots (FLOOR_E2E_SHOTS set) go to /tmp/i33/shots/ to be looked at.
"""

from __future__ import annotations

import pytest

from tests.e2e import PHONE, TABLET, at_each_size, browser, live_app, live_server, open_page, screenshot  # noqa: F401
from tests.test_e2e_taps import events, new_table

pytestmark = pytest.mark.e2e

SHOTS = "/tmp/i33/shots"


def shot(page, name: str) -> None:
    screenshot(page, f"{SHOTS}/{name}-{page.viewport_size['width']}.png", full_page=True)


def answer_lost(page, posted: list[str]) -> None:
    """The next tap reaches the server (which logs it) and its answer is lost on the way back."""
    def handle(route):
        posted.append(route.request.post_data_json["tap_id"])
        route.fetch()  # the server logs it ...
        route.abort("internetdisconnected")  # ... and the tablet never hears back

    page.route("**/taps", handle, times=1)


def test_a_tap_whose_answer_was_lost_is_logged_once_and_shown_as_logged_after_a_reload(open_page, live_server):
    """Played once, on a phone; the pages checked at a phone's, a tablet's and a desktop's size."""
    table_id = new_table(live_server.app)
    tablet = open_page("dealer", viewport=PHONE)
    tablet.goto(f"{live_server.url}/dealer/tables/{table_id}")
    posted: list[str] = []
    answer_lost(tablet, posted)
    at_each_size(tablet, taps=(tablet.locator('#panel button[data-type="deal"]'),))
    tablet.locator('#panel button[data-type="deal"]').click()
    net = tablet.locator("#net")
    net.wait_for()  # the tablet does not know: it says the tap waits, never that it was lost
    assert "Waiting to be sent (1):" in net.inner_text() and "Deal" in net.inner_text()
    assert events(live_server.app, table_id) == [{"type": "deal"}]  # the server did log it
    at_each_size(tablet, check=lambda size: shot(tablet, "answer-lost"))
    tablet.reload()  # the dealer reloads as the network comes back
    say = tablet.locator("#say", has_text="Sent now")
    say.wait_for(timeout=8_000)
    words = say.inner_text()
    assert "Deal (it had reached the table as entry 1 before: logged once)" in words, words
    assert "NOT logged" not in words
    tablet.locator('#panel[data-phase="predraw"][data-version="1"]').wait_for()
    assert net.is_hidden()
    assert events(live_server.app, table_id) == [{"type": "deal"}]  # once
    assert len(posted) == 1 and tablet.evaluate("localStorage.length") == 0
    at_each_size(tablet, check=lambda size: shot(tablet, "answer-lost-reloaded"))


def test_a_tap_that_never_reached_the_server_is_logged_on_the_reload(open_page, live_server):
    table_id = new_table(live_server.app)
    tablet = open_page("dealer", viewport=TABLET)
    tablet.goto(f"{live_server.url}/dealer/tables/{table_id}")
    tablet.route("**/taps", lambda route: route.abort("internetdisconnected"), times=1)
    tablet.locator('#panel button[data-type="deal"]').click()
    tablet.locator("#net", has_text="Waiting to be sent (1)").wait_for()
    assert events(live_server.app, table_id) == []
    tablet.reload()
    tablet.locator("#say", has_text="Sent now (it waited on this tablet): Deal.").wait_for(timeout=8_000)
    assert events(live_server.app, table_id) == [{"type": "deal"}]


def test_a_tap_left_waiting_is_sent_once_from_a_second_tab(open_page, live_server):
    """A second tab of the same table (same device, same storage) finds the tap whose answer was
    lost in the first, and sends it: logged once, and the first tab, reloaded, sends nothing again."""
    table_id = new_table(live_server.app)
    first = open_page("dealer", viewport=TABLET)
    first.goto(f"{live_server.url}/dealer/tables/{table_id}")
    answer_lost(first, [])
    first.locator('#panel button[data-type="deal"]').click()
    first.locator("#net", has_text="Waiting to be sent (1)").wait_for()
    second = first.context.new_page()
    second.goto(f"{live_server.url}/dealer/tables/{table_id}")
    second.locator("#say", has_text="logged once").wait_for(timeout=8_000)
    first.reload()
    first.locator('#panel[data-phase="predraw"]').wait_for()
    first.wait_for_timeout(500)
    assert events(live_server.app, table_id) == [{"type": "deal"}]
    assert first.locator("#net").is_hidden()


def test_a_banked_tap_whose_answer_was_lost_is_logged_once_after_a_reload(open_page, live_server):
    from tests.test_e2e_banked_tablet import DEAL, banked_table, logged

    table_id = banked_table(live_server.app, [DEAL])
    page = open_page("dealer", viewport=TABLET)
    page.goto(f"{live_server.url}/banked/tables/{table_id}")

    def handle(route):
        route.fetch()
        route.abort("internetdisconnected")

    page.route("**/events?tap=1", handle, times=1)
    page.locator('.box[data-box="1"] button[data-action="bet"]').click()
    page.locator("#net", has_text="Waiting to be sent (1)").wait_for()
    assert logged(live_server.app, table_id) == [DEAL, {"type": "bet", "box": 1}]
    page.reload()
    said = page.locator("#said")
    said.wait_for(timeout=8_000)
    assert "Box 1: Bet 0.6 (it had reached the table before: logged once)" in said.inner_text()
    assert logged(live_server.app, table_id) == [DEAL, {"type": "bet", "box": 1}]
    assert page.locator("#net").is_hidden()
