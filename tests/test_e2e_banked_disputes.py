"""A banked dispute in Debian's chromium (issue 15): a floor person at a settled banked round calls up
the dispute page from the table, picks "a wrong payout" for box 1, finds the log's facts filled in,
answers what was handed to the box, issues the ruling and sees the correction on the table (B5).
The walk is photographed (FLOOR_E2E_SHOTS set): /tmp/banked-dispute.png."""

from __future__ import annotations

import pytest

from tests.e2e import browser, live_app, live_server, open_page, screenshot  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e
SCREENSHOT = "/tmp/banked-dispute.png"

ROUND = [
    {"type": "deal", "antes": {"1": 3, "2": 6, "3": 3},
     "cards": {"1": "Ah Ad 9c 6s 2h", "2": "Ks Qd 8h 5c 3c", "3": "7h 7d 7c Js 2d"}},
    {"type": "exchange", "box": 1, "discards": "9c 6s 2h", "drawn": "As Kd Qh"},
    {"type": "bet", "box": 1}, {"type": "fold", "box": 2}, {"type": "bet", "box": 3},
    {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"}, {"type": "dealer_draw", "drawn": "Td 3s 2s"},
]


def test_a_floor_person_rules_on_a_wrong_payout(open_page, live_server):
    with live_server.app.app_context():
        from floor.banked.models import BankedTable
        from floor.banked.log import append
        from floor.extensions import db

        table = BankedTable(name="Banked 1", setup={"boxes": 3})
        db.session.add(table)
        db.session.flush()
        table.seal_head()
        db.session.commit()
        for event in ROUND:  # logged as the tablet logs them: sealed, chained
            append(table, event, None)
        table_url = f"{live_server.url}/banked/tables/{table.id}"

    page = open_page("floor")
    page.goto(table_url)
    with page.expect_navigation():
        page.click("#call-floor")
    page.check('input[name="f_issue"][value="wrong_payout"]')
    page.select_option('select[name="f_box"]', "1")
    with page.expect_navigation():
        page.click("text=Start")
    assert page.locator("#f_box_cards").input_value() == "Ah Ad As Kd Qh"  # from the log
    assert page.locator("#f_dealer_final").input_value() == "Kh Kc Td 3s 2s"
    assert page.locator("#f_ante_box").input_value() == "0.6"
    page.fill("#f_paid", "2.4")
    with page.expect_navigation():
        page.click('button[data-action="next"]')
    assert "from the table's log" in page.locator("#walk").inner_text()
    preview = page.locator("#preview")
    assert preview.get_attribute("data-outcome") == "PAYOUT_CORRECTED"
    assert "the house pays the box 3.6 more" in preview.inner_text()
    screenshot(page, SCREENSHOT, full_page=True)
    with page.expect_navigation():
        page.click('button[data-action="issue"]')
    assert page.locator("#outcome").get_attribute("data-outcome") == "PAYOUT_CORRECTED"
    assert page.locator("#seal").get_attribute("data-intact") == "yes"
    page.goto(table_url)
    assert "the house pays 3.6 more" in page.locator('.box[data-box="1"] .correction').inner_text()
