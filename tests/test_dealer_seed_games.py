"""The dealer's tablet for the seed games of issue 22: the inputs a dealer taps to play a pot of
spread limit (D17), the Bosnian exchange (D16) and declared hands (H9), through the test client.

Each input is the engine's ``legal`` move made tappable; the events posted are the ones the
page's script builds from it, and a refusal is the engine's, naming its rule.
"""

from __future__ import annotations

import copy
import re

from floor import tables
from tests.conftest import SETUP
from tests.test_dealer import buttons, log, post

SPREAD = {"base": "cardroom", "betting": "spread", "spread": [5, 20]}
BOSNIAN = {"base": "cardroom", "bosnian": True, "max_draw": 4}
DECLARED = {"base": "cardroom", "wild": "deuces", "declared_hands": True}
# seats 3 and 4 play heads up: seat 3 opens for the least, seat 4 calls
HEADS_UP = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3},
            {"type": "call", "seat": 4}, {"type": "fold", "seat": 1}, {"type": "fold", "seat": 2}]


def make_table(app, profile) -> int:
    setup = copy.deepcopy(SETUP)
    setup["profile"] = profile
    with app.app_context():
        return tables.create_table("Seed games", setup).id


def panel(client, table_id) -> str:
    return client.get(f"/dealer/tables/{table_id}").get_data(as_text=True)


def amount_form(html: str, kind: str) -> dict[str, str]:
    """The spread form of ``kind`` (open, bet, raise): its input's min, max and value, its button."""
    form = re.search(rf'<form class="amount"[^>]*data-kind="{kind}".*?</form>', html, re.S)
    assert form, f"no {kind} amount form"
    field = re.search(r'<input type="number" name="amount"[^>]*min="(\d+)" max="(\d+)"[^>]*value="(\d+)"',
                      form.group(0))
    button = re.search(r'<button type="submit"[^>]*>([^<]*)</button>', form.group(0))
    return {"min": field.group(1), "max": field.group(2), "value": field.group(3), "button": button.group(1),
            "novalidate": "novalidate" in form.group(0)}


# --------------------------------------------------------------------------- D17 spread limit

def test_D17_spread_opening_bet_and_raise_are_amount_inputs_within_the_engine_range(app, dealer):
    """D17 (PAGAT, P4) spread limit: "In fixed or spread limit games ..." any amount between the
    house's least and most, doubled after the draw. The tablet shows one amount input per move with
    the engine's range, not one button per amount; an amount off the spread is sent anyway (the form
    is not validated by the browser) and refused by the engine naming D17."""
    table_id = make_table(app, SPREAD)
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2})
    html = panel(dealer, table_id)
    opening = amount_form(html, "open")
    assert (opening["min"], opening["max"], opening["value"]) == ("5", "20", "5")
    assert opening["button"].strip() == "Open for 5" and opening["novalidate"]
    assert "open" not in buttons(html.split('<form class="amount"')[0])  # no row of 16 buttons
    assert "(5 to 20, D17)" in html
    assert "spread limit 5 to 20, 10 to 40 after the draw" in html and "bets 10/20" not in html
    log(dealer, table_id, {"type": "open", "seat": 3, "amount": 15})
    html = panel(dealer, table_id)
    raising = amount_form(html, "raise")  # seat 4: the call of 15 and a rise of 5 to 20
    assert (raising["min"], raising["max"]) == ("20", "35")
    assert raising["button"].strip() == "Raise 20 (to 20)"
    refused = post(dealer, table_id, {"type": "raise", "seat": 4, "amount": 40})
    assert refused.status_code == 422 and "D17" in refused.json["message"]
    log(dealer, table_id, {"type": "raise", "seat": 4, "amount": 35}, {"type": "fold", "seat": 1},
        {"type": "fold", "seat": 2}, {"type": "call", "seat": 3},
        {"type": "draw", "seat": 3, "count": 1}, {"type": "draw", "seat": 4, "count": 2})
    betting = amount_form(panel(dealer, table_id), "bet")  # doubled after the draw
    assert (betting["min"], betting["max"]) == ("10", "40")
    log(dealer, table_id, {"type": "bet", "seat": 3, "amount": 25}, {"type": "call", "seat": 4})
    html = panel(dealer, table_id)
    assert 'id="pot">140<' in html  # antes 20, 35 each before the draw, 25 each after
    assert 'data-phase="showdown"' in html


def test_fixed_limit_keeps_its_buttons_and_has_no_amount_input(app, dealer):
    """D5: in fixed limit a bet is one amount: a button, no spread form."""
    table_id = make_table(app, "cardroom")
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2})
    html = panel(dealer, table_id)
    assert '<form class="amount"' not in html and buttons(html).count("open") == 2


# --------------------------------------------------------------------------- D16 the Bosnian exchange

def test_D16_a_draw_of_four_asks_which_card_is_kept_and_the_face_up_card(app, dealer):
    """D16 (PAGAT, P26): "the dealer deals one card face up and one face down, and the player must
    choose which of these to take as the fourth card". The draw offers the choice (kept up or down)
    and a picker for the face-up card; the draw event carries ``take`` and ``up``. A face-up card
    left behind is dead: the show's picker has it disabled."""
    table_id = make_table(app, BOSNIAN)
    log(dealer, table_id, *HEADS_UP)
    html = panel(dealer, table_id)
    box = re.search(r'<div class="bosnian" hidden>.*?data-picker="bosnian"', html, re.S)
    assert box, "the Bosnian exchange box"
    assert 'data-take="up"' in box.group(0) and 'data-take="down"' in box.group(0)
    assert "The Bosnian exchange (D16): seat 3 keeps" in box.group(0)
    log(dealer, table_id, {"type": "draw", "seat": 3, "count": 4, "take": "down", "up": "Kh"},
        {"type": "draw", "seat": 4, "count": 1}, {"type": "check", "seat": 3}, {"type": "check", "seat": 4})
    html = panel(dealer, table_id)
    assert re.search(r'data-card="Kh"\s+disabled title="dead: faced to seat 3 in the draw"', html)
    refused = post(dealer, table_id, {"type": "show", "seat": 3, "cards": ["Kh", "Kd", "Kc", "5s", "2h"]})
    assert refused.status_code == 422 and "dead" in refused.json["message"]


def test_D16_no_exchange_box_where_the_house_does_not_play_it(app, dealer):
    table_id = make_table(app, {"base": "cardroom", "max_draw": 4})
    log(dealer, table_id, *HEADS_UP)
    assert 'class="bosnian"' not in panel(dealer, table_id)


# --------------------------------------------------------------------------- H9 declared hands

def test_H9_the_show_asks_the_declared_hand_and_refusals_name_H9(app, dealer):
    """H9 (PAGAT, P20): players "must declare their own hands (the cards do not "speak for
    themselves")". The show offers every class of the game (five of a kind first with deuces wild);
    a show without a declaration, or declaring more than the cards make, is refused naming H9."""
    table_id = make_table(app, DECLARED)
    log(dealer, table_id, *HEADS_UP, {"type": "draw", "seat": 3, "count": 1}, {"type": "draw", "seat": 4, "count": 1},
        {"type": "check", "seat": 3}, {"type": "check", "seat": 4})
    html = panel(dealer, table_id)
    declared = re.findall(r'data-declare="(\w+)"', html)
    assert declared[0] == "five_of_a_kind" and declared[-1] == "high_card" and "two_pair" in declared
    assert "Seat 3 declares (H9, the cards do not speak)" in html
    bare = post(dealer, table_id, {"type": "show", "seat": 3, "cards": ["Kc", "Kd", "Kh", "2s", "9h"]})
    assert bare.status_code == 422 and "H9" in bare.json["message"]
    over = post(dealer, table_id, {"type": "show", "seat": 3, "cards": ["Kc", "Kd", "Kh", "2s", "9h"],
                                   "declare": "straight_flush"})
    assert over.status_code == 422 and "cannot make" in over.json["message"] and "H9" in over.json["message"]
    log(dealer, table_id, {"type": "show", "seat": 3, "cards": ["Kc", "Kd", "Kh", "2s", "9h"], "declare": "three_of_a_kind"},
        {"type": "show", "seat": 4, "cards": ["Qc", "Qd", "7h", "7s", "2h"], "declare": "full_house"})
    html = panel(dealer, table_id)
    assert "Seat 4 · Dev wins 40" in html  # four kings declared as trips lose to the full house declared
    assert "declared three of a kind" in html and "declared full house" in html  # beside each shown hand


def test_H9_cards_speak_where_the_house_does_not_declare_no_declaration_is_asked(app, dealer):
    """H9 is a house's option: a deuces-wild game without declared hands asks nobody to declare."""
    table_id = make_table(app, {"base": "cardroom", "wild": "deuces"})
    log(dealer, table_id, *HEADS_UP, {"type": "draw", "seat": 3, "count": 1}, {"type": "draw", "seat": 4, "count": 1},
        {"type": "check", "seat": 3}, {"type": "check", "seat": 4})
    assert "data-declare" not in panel(dealer, table_id)


def test_D17_spread_with_check_open_keeps_declaring_openers_a_button(app, dealer):
    """D17 with O2's check-open (the guide): declaring openers with a check is a button of its own;
    the opening bets are the spread's form (no amount of 0 in it)."""
    table_id = make_table(app, {**SPREAD, "check_open": True})
    log(dealer, table_id, {"type": "deal"}, {"type": "pass", "seat": 2})
    html = panel(dealer, table_id)
    assert "Declare openers, check" in html and re.search(r'data-event=\'\{"amount": 0', html)
    assert amount_form(html, "open")["min"] == "5"
    log(dealer, table_id, {"type": "open", "seat": 3, "amount": 0})
    assert 'data-kind="bet"' in panel(dealer, table_id)  # checked open: seat 4 may bet the spread
