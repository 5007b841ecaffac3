"""The promotions page in a real browser (issue 32): a floor person on a phone (390 wide), at a
tablet (1024) and a desk (1440) sees the high-hand pool and pays it for the hand the log holds,
to the player's record picked by name (another record of the same name is refused beside the form)."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from tests.conftest import SETUP, bearer
from tests.e2e import SIZES, at_each_size, browser, live_app, live_server, open_page  # noqa: F401 (fixtures)
from tests.test_promotions import HIGH_HAND, showdown



def pick(page, typed: str, having: str) -> None:
    """Type ``typed`` in the award's player field and pick, from the picker's list, the record whose
    label holds ``having`` (playerpicker.js names it in the hidden ``player_id``)."""
    field = page.locator("input[name=player]")
    field.fill("")
    field.fill(typed)
    option = page.locator(f'#award-players option[value*="{having}"]').first
    option.wait_for(state="attached")
    field.fill(option.get_attribute("value"))
    field.dispatch_event("input")
    expect(page.locator("[data-player-said]")).to_have_text(re.compile(r"^Player #\d+$"))


def played_table(app) -> int:
    """A high-hand table whose deal 1 showed Bob's four aces (the pool: 5), and another player
    named Bob (card 42) who was not there."""
    from floor.extensions import db
    from floor.models import User
    from floor.players import service

    with app.app_context():
        token = {u.role_name: u.new_api_token() for u in db.session.scalars(db.select(User))}
        db.session.commit()
    client = app.test_client()
    created = client.post("/api/tables", json={"name": "High hand 1", **SETUP, "profile": HIGH_HAND},
                          headers=bearer(token["director"]))
    table = created.json["id"]
    for version, event in enumerate(showdown("Ah Ad As Ac 2d", "Kh Kd Ks Qc Qd")):
        r = client.post(f"/api/tables/{table}/events", json={**event, "expected_version": version},
                        headers=bearer(token["dealer"]))
        assert r.status_code == 201, r.json
    with app.app_context():
        service.create("Bob", "42")
        db.session.commit()
    return table


@pytest.mark.e2e
def test_the_floor_pays_a_high_hand_from_the_promotions_page(live_server, open_page) -> None:
    """Played once, on a phone. The refused award is sent at each size (where the page lands after
    it depends on the size: it opens at the form, the reason beside it); the page before and after
    is checked at each size (``tests.e2e.at_each_size``: nothing runs off the side, the form's
    fields and button can be tapped)."""
    played_table(live_server.app)
    page = open_page("floor", viewport=SIZES["phone"])
    page.goto(live_server.url + "/floor/")
    page.click("#promotions")
    pool = page.locator('[data-pool="high_hand"]')
    assert "5 in the pool" in pool.inner_text() and "four of a kind or better" in pool.inner_text()
    form = page.locator(".award-form")
    at_each_size(page, taps=(form.locator("select[name=table]"), form.locator("input[name=deal]"),
                                          form.locator("input[name=player]"), page.locator("text=Pay the pool")))
    page.select_option("select[name=table]", label="High hand 1")
    page.fill("input[name=deal]", "1")
    for size in SIZES:
        page.set_viewport_size(SIZES[size])
        pick(page, "Bob", "card 42")  # another Bob, who did not play
        page.click("text=Pay the pool")
        reason = page.locator(".award-form .field-error")
        expect(reason).to_be_in_viewport()  # the page opens at the form, the reason beside it
        assert "card 42) did not play deal 1 at High hand 1" in reason.inner_text(), size
        assert "Not paid: Bob (player #" in page.locator(".flash").inner_text(), size
        assert "card 42" in page.input_value("input[name=player]"), size  # the form as sent
    page.set_viewport_size(SIZES["phone"])
    pick(page, "Bob", "#")
    label = page.input_value("input[name=player]")
    assert "card" not in label
    page.click("text=Pay the pool")
    assert f"pays 5 to Bob (player #{label.rsplit('#', 1)[1]}) for High hand 1" in page.locator(".flash").inner_text()
    assert "0 in the pool" in page.locator('[data-pool="high_hand"]').inner_text()

    def shot(size: str) -> None:  # nothing runs off the side of a phone (at_each_size's own check)
        if os.environ.get("FLOOR_E2E_SHOTS"):
            page.screenshot(path=os.path.join(os.environ["FLOOR_E2E_SHOTS"], f"promotions-{size}.png"), full_page=True)

    at_each_size(page, check=shot)
