"""The tablet follows the variant (issue 14): its buttons are the engine's legal moves and its words
say what the variant needs, rule by rule (O2 blinds and straddle, H4 wild widow, D10 the low round,
D13 the draw round, D11 the age)."""

from __future__ import annotations

import re
from typing import Any

from floor import tables
from tests.conftest import SETUP
from tests.test_seating_app import post


def make(app, profile: dict[str, Any], base: str = "cardroom", **setup: Any) -> int:
    with app.app_context():
        return tables.create_table("Variant", {**SETUP, "profile": {"base": base, **profile}, **setup}).id


def page(client, table_id) -> str:
    return client.get(f"/dealer/tables/{table_id}").get_data(as_text=True)


def buttons(html: str) -> list[str]:
    return re.findall(r'data-type="(\w+)"', html)


def variant_line(html: str) -> str:
    found = re.search(r'<p class="variant" id="variant">(.*?)</p>', html, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)) if found else ""


def test_O2_blinds_and_a_straddle_button_in_the_basic_game(app, dealer):
    table_id = make(app, {"opening_minimum": "none", "blinds": [5, 10], "straddle": True}, ante=0)
    assert "Blinds 5/10, straddle allowed (rule O2, how the pot is opened)" in variant_line(page(dealer, table_id))
    post(dealer, table_id, {"type": "deal"})
    html = page(dealer, table_id)
    assert "Openers: <strong>anything opens" in html  # O1: California, no minimum
    assert buttons(html)[:2] == ["straddle", "call"] and "Straddle 20" in html
    assert post(dealer, table_id, {"type": "straddle", "seat": 4}).status_code == 201
    assert "straddle" not in buttons(page(dealer, table_id))


def test_H4_the_widow_card_is_picked_on_the_tablet_before_anyone_acts(app, dealer):
    table_id = make(app, {"wild": "widow"})
    post(dealer, table_id, {"type": "deal"})
    html = page(dealer, table_id)
    assert buttons(html) == ["widow", "void"] and 'data-picker="widow"' in html  # the deal may still be undone
    assert "The dealer turns up the widow card" in html
    assert "Turn up the widow card (rule H4, deuces and other wild ranks)" in variant_line(html)
    refused = post(dealer, table_id, {"type": "pass", "seat": 2})
    assert refused.status_code == 422 and "the widow card is turned up first (rule H4, deuces and other wild ranks)" in refused.json["message"]
    assert post(dealer, table_id, {"type": "widow", "card": "7h"}).status_code == 201
    html = page(dealer, table_id)
    assert "Widow card 7h: 7s wild this deal (rule H4, deuces and other wild ranks)" in variant_line(html)
    assert buttons(html)[:2] == ["pass", "open"]


def test_D10_the_low_round_is_named_on_the_panel(app, dealer):
    table_id = make(app, {"jacks_back": True})
    for event in [{"type": "deal"}, *({"type": "pass", "seat": s} for s in (2, 3, 4, 1))]:
        post(dealer, table_id, event)
    line = variant_line(page(dealer, table_id))
    assert "Played for low: ace-to-five, the joker fits (jacks back, rule D10)" in line


def test_D13_the_draw_round_is_counted_on_the_panel(app, dealer):
    table_id = make(app, {"draw_rounds": 3})
    assert "3 draws a hand (rule D13, more than one draw)" in variant_line(page(dealer, table_id))
    for event in [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3},
                  {"type": "call", "seat": 4}, {"type": "fold", "seat": 1}, {"type": "fold", "seat": 2},
                  {"type": "draw", "seat": 3, "count": 1}, {"type": "draw", "seat": 4, "count": 2},
                  {"type": "check", "seat": 3}, {"type": "check", "seat": 4}]:
        assert post(dealer, table_id, event).status_code == 201, event
    assert "Draw 2 of 3 (rule D13, more than one draw)" in variant_line(page(dealer, table_id))


def test_D11_who_has_the_age_and_the_jack_pot_that_follows(app, dealer):
    table_id = make(app, {"age": True}, base="foster")
    assert "Next deal: a blind deal, the age puts up 10 (rule D11, the age (blind game))" in variant_line(page(dealer, table_id))
    post(dealer, table_id, {"type": "deal"})
    html = page(dealer, table_id)
    assert "Seat 2 has the age (rule D11, the age (blind game))" in variant_line(html) and '<span class="pill ok">the age</span>' in html
    for seat in (3, 4, 1):
        post(dealer, table_id, {"type": "fold", "seat": seat})
    assert "Next deal: a jack pot, antes and openers (rule D11, the age (blind game))" in variant_line(page(dealer, table_id))
