"""In Debian's chromium, at a phone's width (390) and a tablet's (1024): a dealer plays a whole
spread-limit pot (D17) and a declared-hand show (H9) by tapping, and the engine's refusals appear in
place with their rule. Each pot is played once, on a phone; where the tablet is looked at, the page
is checked at both sizes (``tests.e2e.at_each_size``: nothing scrolls sideways, what is tapped next
can be tapped). Screenshots (FLOOR_E2E_SHOTS set) go to /tmp/i22/shots/ to be looked at.
"""

from __future__ import annotations

import copy

import pytest

from floor import tables
from tests.conftest import SETUP, user
from tests.e2e import (PHONE, TABLET, at_each_size, browser, live_app, live_server,  # noqa: F401 (fixtures)
                       open_page, screenshot)
from tests.test_e2e_taps import events as logged

pytestmark = pytest.mark.e2e

SIZES = {"phone": PHONE, "tablet": TABLET}
SHOTS = "/tmp/i22/shots"


def shot(page, name: str) -> None:
    screenshot(page, f"{SHOTS}/{name}-{page.viewport_size['width']}.png", full_page=True)


def looked_at(page, name: str | None = None, *taps: str) -> None:
    """The page at a phone's and a tablet's size: it fits, each control ``taps`` names (what the
    dealer taps next) can be tapped, and its screenshot ``name``."""
    at_each_size(page, sizes=SIZES, groups=tuple((selector, 1) for selector in taps),
                 check=(lambda size: shot(page, name)) if name else None)


def new_table(app, profile, events: list[dict] | None = None) -> int:
    setup = copy.deepcopy(SETUP)
    setup["profile"] = profile
    with app.app_context():
        table = tables.create_table("Table 22", setup)
        dealer = user("dee")
        for event in events or []:
            tables.append(table, event, dealer)
        return table.id


def version(page) -> int:
    return int(page.get_attribute("#panel", "data-version"))


def tap(page, selector: str) -> None:
    """A tap that logs: wait for the panel of the next version."""
    before = version(page)
    page.click(selector)
    page.wait_for_selector(f'#panel[data-version="{before + 1}"]')


def refused(page, selector: str) -> str:
    """A tap the engine refuses: the words shown in place."""
    page.click(selector)
    page.wait_for_selector("#say.refused:not([hidden])")
    return page.inner_text("#say")


def test_a_spread_limit_pot_is_played_by_tapping(open_page, live_server):
    """D17: the opening, the raise and the bet after the draw are amounts within the spread, stepped
    or typed; an amount off the spread is refused in place naming D17."""
    app = live_server.app
    table_id = new_table(app, {"base": "cardroom", "betting": "spread", "spread": [5, 20]})
    page = open_page("dealer", viewport=PHONE)
    page.goto(f"{live_server.url}/dealer/tables/{table_id}")
    looked_at(page, None, '#panel [data-type="deal"]')
    tap(page, '#panel [data-type="deal"]')
    tap(page, '#panel [data-type="pass"]')
    opening = 'form.amount[data-kind="open"]'
    looked_at(page, None, f'{opening} [data-step="1"]')
    page.click(f'{opening} [data-step="1"]')
    page.click(f'{opening} [data-step="1"]')
    assert page.inner_text(f"{opening} button[type=submit]").strip() == "Open for 7"
    looked_at(page, "spread-open", f"{opening} button[type=submit]")
    tap(page, f"{opening} button[type=submit]")
    raising = 'form.amount[data-kind="raise"]'
    looked_at(page, None, f"{raising} input[name=amount]", f"{raising} button[type=submit]")
    page.fill(f"{raising} input[name=amount]", "99")
    words = refused(page, f"{raising} button[type=submit]")
    assert "D17" in words and "12 to 27" in words
    looked_at(page, "spread-refused", f'{raising} [data-step="max"]')
    page.click(f'{raising} [data-step="max"]')
    assert page.inner_text(f"{raising} button[type=submit]").strip() == "Raise 27 (to 27)"
    tap(page, f"{raising} button[type=submit]")
    tap(page, '#panel [data-type="fold"]')  # seat 1
    tap(page, '#panel [data-type="fold"]')  # seat 2
    tap(page, '#panel [data-type="call"]')  # seat 3 calls 20 more
    for _ in range(2):
        page.click('.draw .count[data-count="1"]')
        tap(page, '.draw [data-action="draw"]')
    betting = 'form.amount[data-kind="bet"]'
    assert page.get_attribute(f"{betting} input", "min") == "10" and page.get_attribute(f"{betting} input", "max") == "40"
    page.fill(f"{betting} input[name=amount]", "30")
    assert page.inner_text(f"{betting} button[type=submit]").strip() == "Bet 30"
    looked_at(page, "spread-bet", f"{betting} button[type=submit]")
    tap(page, f"{betting} button[type=submit]")
    tap(page, '#panel [data-type="call"]')
    assert page.inner_text("#pot") == str(20 + 27 + 27 + 30 + 30)
    amounts = [(e["type"], e.get("amount")) for e in logged(app, table_id) if e["type"] in ("open", "raise", "bet")]
    assert amounts == [("open", 7), ("raise", 27), ("bet", 30)]
    looked_at(page)


def test_a_declared_hand_show_is_played_by_tapping(open_page, live_server):
    """H9: the show names the declared hand; a declaration above the cards is refused in place
    naming H9; four kings declared as three of a kind lose to a full house declared."""
    app = live_server.app
    table_id = new_table(app, {"base": "cardroom", "wild": "deuces", "declared_hands": True}, [
        {"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3}, {"type": "call", "seat": 4},
        {"type": "fold", "seat": 1}, {"type": "fold", "seat": 2}, {"type": "draw", "seat": 3, "count": 1},
        {"type": "draw", "seat": 4, "count": 1}, {"type": "check", "seat": 3}, {"type": "check", "seat": 4}])
    page = open_page("dealer", viewport=PHONE)
    page.goto(f"{live_server.url}/dealer/tables/{table_id}")
    show = '.show [data-action="show"]'
    looked_at(page, None, *(f'.picker[data-picker="show"] .card[data-card="{card}"]' for card in ("Kc", "Kd", "Kh", "2s", "9h")),
              '.declare [data-declare="straight_flush"]')
    for card in ("Kc", "Kd", "Kh", "2s", "9h"):
        page.click(f'.picker[data-picker="show"] .card[data-card="{card}"]')
    assert page.is_disabled(show) and "pick the declared hand" in page.inner_text(show)
    page.click('.declare [data-declare="straight_flush"]')
    words = refused(page, show)
    assert "H9" in words and "cannot make" in words
    looked_at(page, "declared-refused", '.declare [data-declare="three_of_a_kind"]')
    page.click('.declare [data-declare="three_of_a_kind"]')
    assert page.inner_text(show).endswith("declared three of a kind")
    tap(page, show)
    for card in ("Qc", "Qd", "7h", "7s", "2h"):
        page.click(f'.picker[data-picker="show"] .card[data-card="{card}"]')
    page.click('.declare [data-declare="full_house"]')
    looked_at(page, "declared-show", show)
    tap(page, show)
    assert "Seat 4 · Dev wins 40" in page.inner_text("#award")
    shows = [(e["seat"], e.get("declare")) for e in logged(app, table_id) if e["type"] == "show"]
    assert shows == [(3, "three_of_a_kind"), (4, "full_house")]
    looked_at(page, "declared-won")


def test_a_bosnian_four_card_draw_is_played_by_tapping(open_page, live_server):
    """D16: a draw of four asks which card is kept and the card dealt face up; the face-up card
    left behind is dead, greyed in the show's picker."""
    app = live_server.app
    table_id = new_table(app, {"base": "cardroom", "bosnian": True, "max_draw": 4}, [
        {"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3}, {"type": "call", "seat": 4},
        {"type": "fold", "seat": 1}, {"type": "fold", "seat": 2}])
    page = open_page("dealer", viewport=PHONE)
    page.goto(f"{live_server.url}/dealer/tables/{table_id}")
    draw = '.draw [data-action="draw"]'
    assert page.is_hidden(".draw .bosnian")
    looked_at(page, None, '.draw .count[data-count="4"]')
    page.click('.draw .count[data-count="4"]')
    assert page.is_visible(".draw .bosnian") and page.is_disabled(draw)
    assert "which card is kept" in page.inner_text(draw)
    looked_at(page, None, '.takes [data-take="down"]', '.picker[data-picker="bosnian"] .card[data-card="Qh"]',
              '.picker[data-picker="bosnian"] .card[data-card="Kh"]')
    page.click('.takes [data-take="down"]')
    page.click('.picker[data-picker="bosnian"] .card[data-card="Qh"]')
    page.click('.picker[data-picker="bosnian"] .card[data-card="Kh"]')  # a second pick replaces the first
    assert page.inner_text(draw) == "Draws 4, keeps the face-down card (K\u2665 dead)"
    looked_at(page, "bosnian-draw", draw)
    tap(page, draw)
    page.click('.draw .count[data-count="1"]')
    tap(page, draw)
    tap(page, '#panel [data-type="check"]')
    tap(page, '#panel [data-type="check"]')
    assert page.is_disabled('.picker[data-picker="show"] .card[data-card="Kh"]')
    drawn = [e for e in logged(app, table_id) if e["type"] == "draw"]
    assert [(e["seat"], e["count"], e.get("take"), e.get("up")) for e in drawn] == [(3, 4, "down", "Kh"),
                                                                                  (4, 1, None, None)]
