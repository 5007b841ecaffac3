"""The banked tablet's undo, round log and call for the floor (issue 25; floor/banked/tablet.py).

Undo withdraws the round's last standing entry of a dealer's kind, one at a time; never a floor
ruling (B5's corrections are the floor's), nor anything before one; the log stays append-only and
its chain verifies. A dealer's call waits on the floor's overview until a banked ruling answers it.
"""

from __future__ import annotations

from floor.extensions import db
from floor.verify import verify_all
from tests.test_banked_app import ROUND
from tests.test_banked_disputes_app import DRAW, log, state, table_id  # noqa: F401 (fixture)


def undo(client, table_id, seq, version=None):
    body = {"type": "void", "event": seq}
    if version is not None:
        body["expected_version"] = version
    return client.post(f"/banked/tables/{table_id}/events", json=body)


def test_undo_withdraws_the_last_entry_one_at_a_time_down_to_the_deal(app, as_role, table_id):
    dealer = as_role("dealer")
    log(dealer, table_id, ROUND[:3])  # the deal, box 1's exchange, box 1's bet
    before_bet = state(dealer, table_id)
    assert undo(dealer, table_id, 2).status_code == 422  # not the last entry
    assert "undo withdraws only the last entry standing, entry 3 (box 1 bets)" in undo(dealer, table_id, 2).get_json()["error"]
    done = undo(dealer, table_id, 3, version=3)
    assert done.status_code == 201, done.get_json()
    now = state(dealer, table_id)
    assert now["version"] == 4 and now["state"]["to_act"] == 1 and now["state"]["boxes"][0]["bet"] == 0
    assert now["state"]["boxes"][0]["cards"] == ["Ah", "Ad", "As", "Kd", "Qh"]  # the exchange stands
    assert before_bet["state"]["boxes"][0]["bet"] > 0
    assert undo(dealer, table_id, 3).status_code == 422  # withdrawn already: #2 is the last standing now
    assert undo(dealer, table_id, 2).status_code == 201  # the exchange
    assert state(dealer, table_id)["state"]["boxes"][0]["cards"] == ["Ah", "Ad", "9c", "6s", "2h"]
    page = dealer.get(f"/banked/tables/{table_id}").get_data(as_text=True)
    assert "Undo entry 1: deal: box 1 ante 0.3, Ah Ad 9c 6s 2h" in page
    assert '<li class="voided" data-seq="3">' in page and "undo: entry 3 withdrawn" in page
    assert undo(dealer, table_id, 1).status_code == 201  # the deal itself: wrong cards entered
    s = state(dealer, table_id)["state"]
    assert s["round"] == 0 and s["stage"] == "deal"
    log(dealer, table_id, ROUND[:1])  # dealt again: round 1 afresh
    assert state(dealer, table_id)["state"]["round"] == 1
    with app.app_context():
        report = verify_all()
        assert report.ok, report.problems  # the undos are entries of the chain like any other


def test_undo_never_withdraws_a_floor_ruling_nor_what_came_before_it(as_role, table_id):
    dealer, floor = as_role("dealer"), as_role("floor")
    log(dealer, table_id, ROUND + [DRAW])
    facts = {"f_issue": "wrong_payout", "f_box": "1", "f_paid": "2.4", "f_box_cards": "Ah Ad As Kd Qh",
             "f_dealer_final": "Kh Kc Td 3s 2s", "f_ante_box": "0.6", "f_bet": "1.2"}
    assert floor.post(f"/banked/tables/{table_id}/disputes", data=facts).status_code == 201
    version = state(dealer, table_id)["version"]
    for client in (dealer, floor):
        refused = undo(client, table_id, version)
        assert refused.status_code == 422
        assert "the last entry is the floor's ruling #1: a ruling is never withdrawn by undo" in refused.get_json()["error"]
        assert undo(client, table_id, version - 1).status_code == 422  # nor the dealer's draw before it
    assert state(dealer, table_id)["version"] == version
    page = dealer.get(f"/banked/tables/{table_id}").get_data(as_text=True)
    assert 'data-action="undo"' not in page and "it is not withdrawn by undo" in page


def test_a_dealers_call_waits_on_the_floors_overview_until_a_ruling_answers_it(as_role, table_id):
    dealer, floor = as_role("dealer"), as_role("floor")
    log(dealer, table_id, ROUND + [DRAW])
    assert dealer.post(f"/banked/tables/{table_id}/call", data={"issue": "nonsense"}).status_code == 400
    assert dealer.post(f"/banked/tables/{table_id}/call", data={"issue": "wrong_payout", "box": "9"}).status_code == 400
    quiet = floor.get("/floor/live").get_json()
    called = dealer.post(f"/banked/tables/{table_id}/call", data={"issue": "wrong_payout", "box": "1"})
    assert called.status_code == 302
    # the overview's live poll sees the call at once (its stamp changes, the call is announced)
    live = floor.get("/floor/live").get_json()
    assert live["stamp"] != quiet["stamp"]
    assert [c["words"] for c in live["calls"] if str(c["id"]).startswith("b")] == ["Banked 1: a wrong payout, box 1"]
    assert "Floor called: a wrong payout, box 1" in dealer.get(f"/banked/tables/{table_id}").get_data(as_text=True)
    overview = floor.get("/floor/").get_data(as_text=True)
    assert "Calls from the banked tables" in overview and "a wrong payout, box 1" in overview
    facts = {"f_issue": "wrong_payout", "f_box": "1", "f_paid": "2.4", "f_box_cards": "Ah Ad As Kd Qh",
             "f_dealer_final": "Kh Kc Td 3s 2s", "f_ante_box": "0.6", "f_bet": "1.2"}
    assert floor.post(f"/banked/tables/{table_id}/disputes", data=facts).status_code == 201
    assert "Calls from the banked tables" not in floor.get("/floor/").get_data(as_text=True)
    assert "Floor called" not in dealer.get(f"/banked/tables/{table_id}").get_data(as_text=True)
    # a call that needed no ruling: the floor dismisses it
    dealer.post(f"/banked/tables/{table_id}/call", data={"issue": "other"})
    assert dealer.post("/banked/calls/2/dismiss").status_code == 403
    dismissed = floor.post("/banked/calls/2/dismiss", data={"back": "/floor/"})
    assert dismissed.status_code == 302 and dismissed.headers["Location"].endswith("/floor/")
    # "back" never sends the floor person to another site ("/\\host" is read as "//host" by browsers)
    for elsewhere in ("//evil.example/", "/\\evil.example/", "https://evil.example/"):
        away = floor.post("/banked/calls/2/dismiss", data={"back": elsewhere})
        assert away.status_code == 302 and away.headers["Location"].endswith(f"/banked/tables/{table_id}")
    assert "Calls from the banked tables" not in floor.get("/floor/").get_data(as_text=True)
