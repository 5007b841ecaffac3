"""The floor's disputes at a banked table in the app (issue 15, floor/banked/rulings.py): floor only, on
each action; the walk prefilled from the logged round; issuing stores a sealed ruling and logs its money
to the round (conservation); the PDF names the outcome and the rules; verify detects an edited ruling."""

from __future__ import annotations

import base64
import io
import re

import pytest
from pypdf import PdfReader

from floor.extensions import db
from tests.test_banked_app import ROUND  # the same round of three boxes

DRAW = {"type": "dealer_draw", "drawn": "Td 3s 2s"}


@pytest.fixture
def table_id(as_role):
    response = as_role("director").post("/banked/tables", data={"name": "Banked 1", "boxes": "3", "options": ""})
    return int(response.location.rsplit("/", 1)[1])


def log(client, table_id, events):
    for event in events:
        response = client.post(f"/banked/tables/{table_id}/events", json=event)
        assert response.status_code == 201, response.get_json()


def state(client, table_id):
    return client.get(f"/banked/tables/{table_id}.json").get_json()


PAYOUT = {"f_issue": "wrong_payout", "f_box": "1", "f_paid": "2.4"}


def test_dealers_are_refused_on_every_action_of_the_dispute(as_role, table_id):
    dealer = as_role("dealer")
    log(dealer, table_id, ROUND + [DRAW])
    page = dealer.get(f"/banked/tables/{table_id}")
    # the dealer calls the floor (a call the floor answers), never opens the floor's dispute page
    assert f"/banked/tables/{table_id}/dispute".encode() not in page.data
    assert f'href="/banked/tables/{table_id}/call"'.encode() in page.data
    for response in (dealer.get(f"/banked/tables/{table_id}/dispute"),
                     dealer.get(f"/banked/tables/{table_id}/dispute", query_string=PAYOUT),
                     dealer.post(f"/banked/tables/{table_id}/disputes", data=PAYOUT)):
        assert response.status_code == 403 and b"for the floor role" in response.data
    forged = dealer.post(f"/banked/tables/{table_id}/events",
                         json={"type": "ruling", "ruling": 1, "box": 1, "box_net": 500, "paid": 0})
    assert forged.status_code == 403 and "dispute page" in forged.get_json()["error"]
    assert state(dealer, table_id)["version"] == 7
    assert f"/banked/tables/{table_id}/dispute".encode() in as_role("floor").get(f"/banked/tables/{table_id}").data
    director = as_role("director")
    assert director.get(f"/banked/tables/{table_id}/dispute", query_string=PAYOUT).status_code == 200


def test_the_walk_is_prefilled_from_the_logged_round_and_asks_only_the_rest(as_role, table_id):
    floor = as_role("floor")
    log(floor, table_id, ROUND + [DRAW])
    page = floor.get(f"/banked/tables/{table_id}/dispute", query_string={"f_issue": "wrong_payout", "f_box": "1"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert 'value="Ah Ad As Kd Qh"' in text and 'value="Kh Kc Td 3s 2s"' in text  # the box's and the dealer's cards
    assert 'value="0.6"' in text and 'value="1.2"' in text  # the ante box and the bet, as money
    assert "How much did the dealer hand the box in all" in text and 'id="preview"' not in text
    page = floor.get(f"/banked/tables/{table_id}/dispute", query_string={"f_issue": "wrong_exchange"})
    text = page.get_data(as_text=True)
    assert 'value="Kh Kc 7s 5d 4h"' in text and "Which cards did the dealer throw?" in text
    folded = floor.get(f"/banked/tables/{table_id}/dispute", query_string={"f_issue": "wrong_payout", "f_box": "2"})
    assert folded.status_code == 422 and b"B2: box 2 folded this round" in folded.data
    bad = floor.get(f"/banked/tables/{table_id}/dispute",
                    query_string={"f_issue": "wrong_exchange", "f_dealer_thrown": "As"})
    assert bad.status_code == 422 and b"B4: the dealer threw As, which is not among" in bad.data


def test_b5_issuing_a_payout_ruling_seals_it_logs_the_correction_and_prints(as_role, table_id, app):
    """B5: box 1 (three aces against the dealer's pair of kings) wins 0.6 + 1.2x3; the dealer handed 2.4.
    The ruling: 6.0 back in all, 3.6 more; logged to the round, money conserved; the PDF names it."""
    floor = as_role("floor")
    log(floor, table_id, ROUND + [DRAW])
    before = state(floor, table_id)["state"]
    walk = floor.get(f"/banked/tables/{table_id}/dispute", query_string=PAYOUT)
    assert b'data-outcome="PAYOUT_CORRECTED"' in walk.data and b"three of a kind pays 3 to 1" in walk.data
    issued = floor.post(f"/banked/tables/{table_id}/disputes", data={
        **PAYOUT, "f_box_cards": "Ah Ad As Kd Qh", "f_dealer_final": "Kh Kc Td 3s 2s", "f_ante_box": "0.6",
        "f_bet": "1.2", "note": "box 1 called it"})
    assert issued.status_code == 201, issued.data
    from floor.banked.models import IssuedBankedRuling

    with app.app_context():
        row = db.session.scalars(db.select(IssuedBankedRuling)).one()
        assert row.seal_intact and row.outcome == "PAYOUT_CORRECTED" and row.log_seq == 8
        assert row.record["difference"] == 36 and row.record["right_paid"] == 60 and row.facts["paid"] == 24
        from floor.banked.models import BankedEntry

        entry = db.session.scalars(db.select(BankedEntry).where(BankedEntry.seq == row.log_seq)).one()
        assert entry.payload == {"type": "ruling", "ruling": row.id, "outcome": "PAYOUT_CORRECTED", "box": 1,
                                 "box_net": 42, "paid": 24}
        ruling_id = row.id
    after = state(floor, table_id)["state"]
    p1 = next(p for p in after["payouts"] if p["box"] == 1)
    assert (p1["paid"], p1["correction"], p1["player_net"]) == (24, 36, 42)
    assert after["house_net"] == before["house_net"] == -sum(p["player_net"] for p in after["payouts"])
    assert after["rulings"] == [{"ruling": ruling_id, "outcome": "PAYOUT_CORRECTED", "box": 1}]
    assert b"the house pays 3.6 more" in floor.get(f"/banked/tables/{table_id}").data
    # any role reads and prints it
    pdf = as_role("dealer").get(f"/banked/rulings/{ruling_id}.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    with open("/tmp/banked-ruling.pdf", "wb") as out:
        out.write(pdf.data)
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages).split())
    for words in ("Floor ruling #", "PAYOUT_CORRECTED", "B5", "three of a kind pays 3 to 1", "3.6",
                  "The stored ruling matches its seal", "box 1 called it"):
        assert words in text, words


def test_b4_a_wrong_exchange_seen_is_settled_as_the_cards_fell(as_role, table_id):
    """B4 (dealer_error_seen as_fell): the dealer threw Kh and drew 9h, turned up: the round is settled
    on Kc 7s 5d 4h 9h (no pair of jacks: no game, antes paid 2 to 3); the tablet's round closes."""
    floor = as_role("floor")
    log(floor, table_id, ROUND)
    facts = {"f_issue": "wrong_exchange", "f_dealer_cards": "Kh Kc 7s 5d 4h", "f_dealer_thrown": "Kh",
             "f_draw_seen": "yes", "f_dealer_drawn": "9h"}
    walk = floor.get(f"/banked/tables/{table_id}/dispute", query_string=facts)
    assert b'data-outcome="DEALER_HAND_AS_FELL"' in walk.data
    assert floor.post(f"/banked/tables/{table_id}/disputes", data=facts).status_code == 201
    s = state(floor, table_id)["state"]
    assert s["stage"] == "settled" and s["dealer"]["final"] == ["Kc", "7s", "5d", "4h", "9h"]
    assert [(p["box"], p["outcome"], p["player_net"]) for p in s["payouts"]] == [
        (1, "no_game", 4), (2, "folded", -6), (3, "no_game", 2)]
    assert s["house_net"] == 0


def test_b4_a_wrong_exchange_unseen_is_remade_and_the_dealer_draws_by_the_list(as_role, table_id):
    floor = as_role("floor")
    log(floor, table_id, ROUND)
    facts = {"f_issue": "wrong_exchange", "f_dealer_cards": "Kh Kc 7s 5d 4h", "f_dealer_thrown": "Kh 7s",
             "f_draw_seen": "no"}
    response = floor.post(f"/banked/tables/{table_id}/disputes", data=facts)
    assert response.status_code == 201 and b"DEALER_HAND_REMADE" in response.data
    assert b"No money moves by this ruling" in response.data
    s = state(floor, table_id)["state"]
    assert s["stage"] == "dealer_draw" and s["dealer"]["throw"] == ["7s", "5d", "4h"]
    log(floor, table_id, [DRAW])
    assert state(floor, table_id)["state"]["stage"] == "settled"


def test_a_ruling_the_round_refuses_is_not_stored(as_role, table_id, app):
    """B5: a payout before the round is settled is refused (422) and leaves no ruling and no entry."""
    floor = as_role("floor")
    log(floor, table_id, ROUND)
    response = floor.post(f"/banked/tables/{table_id}/disputes", data={
        **PAYOUT, "f_box_cards": "Ah Ad As Kd Qh", "f_dealer_final": "Kh Kc Td 3s 2s", "f_ante_box": "0.6",
        "f_bet": "1.2"})
    assert response.status_code == 422 and b"B5: a payout ruling is for a box settled this round" in response.data
    from floor.banked.models import IssuedBankedRuling

    with app.app_context():
        assert db.session.scalars(db.select(IssuedBankedRuling)).all() == []
    assert state(floor, table_id)["version"] == 6


def test_verify_detects_an_edited_banked_ruling(as_role, table_id, app):
    floor = as_role("floor")
    log(floor, table_id, ROUND + [DRAW])
    floor.post(f"/banked/tables/{table_id}/disputes", data={
        **PAYOUT, "f_box_cards": "Ah Ad As Kd Qh", "f_dealer_final": "Kh Kc Td 3s 2s", "f_ante_box": "0.6",
        "f_bet": "1.2"})
    runner = app.test_cli_runner()
    ok = runner.invoke(args=["verify"])
    assert ok.exit_code == 0 and "1 rulings checked" in ok.output
    from floor.banked.models import IssuedBankedRuling

    with app.app_context():
        row = db.session.scalars(db.select(IssuedBankedRuling)).one()
        row.record = {**row.record, "difference": 0}  # someone with the database lowers what the house owes
        db.session.commit()
        ruling_id = row.id
    bad = runner.invoke(args=["verify"])
    assert bad.exit_code != 0 and f"banked ruling #{ruling_id}" in bad.output and "seal does not match" in bad.output
    page = floor.get(f"/banked/rulings/{ruling_id}")
    assert b'data-intact="no"' in page.data


def test_the_rule_summary_prints_the_disputes_trees_of_the_tables_profile(as_role):
    """The rule summary PDF draws the banked floor tree (B4, B5) as the table's profile shapes it."""
    director = as_role("director")
    for options, outcome in (("", "DEALER_HAND_AS_FELL"), ('{"dealer_error_seen": "void"}', "DEALER_HAND_VOID")):
        response = director.post("/banked/tables", data={"name": "B", "boxes": "2", "options": options})
        pdf = director.get(response.location + "/rules.pdf")
        page = director.get(response.location + "/rules").get_data(as_text=True)
        assert pdf.status_code == 200 and "The floor's disputes" in page
        text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages).split())
        assert "The floor's disputes" in text and "dealer_error_seen" in text
        svgs = [base64.b64decode(m).decode() for m in re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", page)]
        assert len(svgs) == 2 and outcome in svgs[0] and "PAYOUT_CORRECTED" in svgs[1]
