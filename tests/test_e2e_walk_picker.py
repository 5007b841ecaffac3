"""The floor's split-openers walk in Debian's chromium (issue 33): it does not ask how many cards
the opener drew (the log holds it, with the escrow), and the cards it asks for are tapped in a card
picker of the table's deck, not typed. S1/S2: seat 3 opened, split, escrowed Td and drew one; the
floor person taps the hand the opener holds now, and the rules rule the split failed (no cards of
Js 8h 7h 6h 2h with Td make openers). The walk is taken once, on a phone; its pages are checked at a
phone's, a tablet's and a desktop's size (``tests.e2e.at_each_size``). Screenshots (FLOOR_E2E_SHOTS
set) in /tmp/i33/shots/."""

from __future__ import annotations

import pytest

from floor import tables
from floor.extensions import db
from floor.models import IssuedRuling, User
from tests.conftest import SETUP
from tests.e2e import PHONE, at_each_size, browser, live_app, live_server, open_page  # noqa: F401 (fixtures)
from tests.notation import log
from tests.test_e2e_tap_once import shot

pytestmark = pytest.mark.e2e

# seat 3 opens and splits: Td in escrow, one card drawn; seat 4 draws one; the deal is after the draw
SPLIT = log("deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold; 3 draw 1 split Td; 4 draw 1")


def test_the_split_walk_knows_the_draw_and_picks_the_cards(open_page, live_server):
    with live_server.app.app_context():
        table = tables.create_table("Table 1", SETUP)
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        for event in SPLIT:
            tables.append(table, event, dealer)
        table_id = table.id
    floor = open_page("floor", viewport=PHONE)
    floor.goto(f"{live_server.url}/rulings/new?table={table_id}&issue=split_openers")
    drawn = floor.locator("table.facts tr", has_text="How many cards did the opener draw?").inner_text()
    assert "1" in drawn.split() and "the table's log" in drawn  # answered by the log, with the escrow
    question = floor.locator(".question h2").inner_text()
    assert "How many cards did the opener draw" not in floor.locator("main").inner_text().split("Facts known")[0]
    # the opening hand is not known: the floor person says so by leaving the field empty
    assert question.startswith("Which five cards did the opener hold before the draw?")
    assert floor.locator("#picker").is_visible()
    at_each_size(floor, taps=(floor.locator(".question button[type=submit]"),))
    floor.locator(".question button[type=submit]").click()
    floor.locator(".question h2", has_text="Which cards does the opener hold now?").wait_for()
    picker = floor.locator("#picker")
    picker.wait_for()
    assert picker.is_visible()
    assert floor.locator("#pick-target").inner_text() == "the opener's final hand"

    def finger_sized(name: str) -> None:
        size = picker.locator('.card[data-card="As"]').bounding_box()
        # a finger's size: thirteen cards a row fit a phone only as tall narrow keys
        assert size["height"] >= 44 and size["width"] >= (22 if name == "phone" else 40), (name, size)
        shot(floor, "walk-picker")

    cards = ", ".join(f'#picker .card[data-card="{card}"]' for card in ("Js", "8h", "7h", "6h", "2h"))
    at_each_size(floor, groups=((cards, 5),), check=finger_sized)
    for card in ("Js", "8h", "7h", "6h", "2h"):
        picker.locator(f'.card[data-card="{card}"]').click()
    assert floor.locator("#answer-cards").input_value() == "Js 8h 7h 6h 2h"
    assert picker.locator('.card[data-card="Kd"]').is_enabled()
    assert picker.locator('.card[data-card="Td"]').is_disabled()  # under a chip: in no hand
    assert floor.locator("#pick-count").inner_text() == "5 of 5"
    at_each_size(floor, taps=(floor.locator(".question button[type=submit]"),))
    floor.locator(".question button[type=submit]").click()
    floor.get_by_text("The ruling, before it is issued").wait_for()
    at_each_size(floor, taps=(floor.locator("button", has_text="Issue this ruling"),))
    page = floor.locator("main").inner_text()
    assert "No cards of the final hand Js 8h 7h 6h 2h with the discards Td make openers (S2)" in page
    floor.locator("button", has_text="Issue this ruling").click()
    floor.wait_for_url(lambda url: url.rstrip("/").split("/")[-1].isdigit())
    with live_server.app.app_context():
        row = db.session.scalars(db.select(IssuedRuling)).one()
        assert row.outcome == "SPLIT_FAILED" and row.facts["drawn"] == 1 and row.facts["discards"] == ["Td"]
