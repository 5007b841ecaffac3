"""The floor's word in the app: a dealer reports, the floor rules; the rules' own rulings wait for a
floor person's signature; a pot already awarded is put right by the floor; rulings say who gets what,
in the card room's time, under the house rules really in force.

Rules: F1, F3, F5, F8, H6/D8 (the rulings), and the roles of the floor (who may log, rule, confirm,
correct, undo), checked per action.
"""

from __future__ import annotations

import pytest

from floor import create_app, tables
from floor.extensions import db
from floor.models import FloorCall, IssuedRuling, LogEntry, Table, User
from tests.conftest import SETUP, bearer, make_app

OPENED = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3}, {"type": "call", "seat": 4},
          {"type": "fold", "seat": 1}, {"type": "fold", "seat": 2}]
# seat 3 proves openers with the jacks kept and wins 40 from seat 4
WON = OPENED + [{"type": "draw", "seat": 3, "count": 3}, {"type": "draw", "seat": 4, "count": 2},
                {"type": "check", "seat": 3}, {"type": "check", "seat": 4},
                {"type": "show", "seat": 3, "cards": "Jc Jd 8h 5s 2s"}, {"type": "show", "seat": 4, "cards": "9s 9d 2c 3c 4h"}]
# seat 3 drew one to a straight: no proof, a dead hand (F1, F8); seat 4, the one live hand left,
# takes the pot without having to show (D7, issue 22)
DEAD = WON[:6] + [{"type": "draw", "seat": 3, "count": 1}, {"type": "draw", "seat": 4, "count": 2},
                  {"type": "check", "seat": 3}, {"type": "check", "seat": 4},
                  {"type": "show", "seat": 3, "cards": "7c 8d 9h Ts Jc"}]


def make_table(app, events, setup=SETUP, by="dee"):
    with app.app_context():
        table = tables.create_table("Table 1", setup)
        user = db.session.scalars(db.select(User).where(User.username == by)).one()
        for event in events:
            tables.append(table, event, user)
        return table.id


def state_of(app, table_id):
    with app.app_context():
        return tables.state_of(db.session.get(Table, table_id))


def stacks(state):
    return {s: x["stack"] for s, x in state["seats"].items()}


# --------------------------------------------------------------------------- the rules' rulings wait for the floor


def test_a_ruling_the_rules_make_on_a_dealers_show_is_pending_until_the_floor_signs_it(app, tokens, as_role):
    """F1/F8 on a dealer's show: applied at once "by the rules, logged by dee", waiting on the floor's
    page; a dealer cannot confirm it; a floor person's confirmation signs it (sealed apart)."""
    table_id = make_table(app, DEAD)
    assert stacks(state_of(app, table_id)) == {1: 495, 2: 495, 3: 485, 4: 525}
    api = app.test_client()
    body = api.get("/api/rulings/1", headers=bearer(tokens["dealer"])).json
    assert body["by_rules"] and body["pending"] and body["issued_by"] == "dee" and body["ruled_by"] is None
    assert body["headline"].startswith("Seat 4, Dev, wins the pot of 40")
    assert body["deal"] == 1 and body["chips"] == {"4": 40}
    floor = as_role("floor")
    assert "Seat 4, Dev, wins the pot of 40" in floor.get("/floor/").get_data(as_text=True)
    assert as_role("dealer").post("/rulings/1/confirm").status_code == 403
    assert floor.post("/rulings/1/confirm").status_code == 302
    body = api.get("/api/rulings/1", headers=bearer(tokens["dealer"])).json
    assert not body["pending"] and body["ruled_by"] == "fred" and body["intact"]
    assert "Nothing waits for a confirmation" in floor.get("/floor/").get_data(as_text=True)
    # the signature is sealed too: a changed signer is detected
    with app.app_context():
        dana = db.session.scalars(db.select(User).where(User.username == "dana")).one()
        db.session.execute(db.update(IssuedRuling).values(confirmed_by_id=dana.id))
        db.session.commit()
        assert not db.session.get(IssuedRuling, 1).intact


def test_a_floor_persons_own_tap_is_not_waiting_for_anyone(app, tokens):
    table_id = make_table(app, DEAD, by="fred")
    body = app.test_client().get("/api/rulings/1", headers=bearer(tokens["dealer"])).json
    assert not body["by_rules"] and not body["pending"] and body["ruled_by"] == "fred"
    assert state_of(app, table_id)["awards"] == {4: 40}


# --------------------------------------------------------------------------- a dealer reports, the floor rules


def test_reported_false_openers_with_a_reopen_offer_stay_the_floors_ruling(app, tokens, as_role):
    """F3: the floor confirms the dealer's report; the dealer then taps the reopen offer's answers,
    and the ruling that concludes it is the floor person's, not a dealer's."""
    table_id = make_table(app, OPENED[:4])
    api = app.test_client()
    reported = api.post(f"/api/tables/{table_id}/events", json={"type": "false_openers", "seat": 3},
                        headers=bearer(tokens["dealer"]))
    assert reported.status_code == 202
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(LogEntry.id))) == 4  # nothing logged
    assert as_role("floor").post(f"/floor/calls/{reported.json['call']['id']}/confirm").status_code == 302
    for seat in (4, 1):
        response = api.post(f"/api/tables/{table_id}/events", json={"type": "pass", "seat": seat},
                            headers=bearer(tokens["dealer"]))
        assert response.status_code == 201, response.json
    with app.app_context():
        row = db.session.scalars(db.select(IssuedRuling)).one()
        assert (row.outcome, row.issued_by.username, row.by_rules) == ("POT_CARRIES_OVER", "fred", False)
        call = db.session.scalars(db.select(FloorCall)).one()
        assert not call.is_open and call.closed_by.username == "fred"


def test_a_report_the_rules_refuse_is_refused_at_once(app, tokens):
    table_id = make_table(app, OPENED[:1])
    response = app.test_client().post(f"/api/tables/{table_id}/events", json={"type": "false_openers", "seat": 3},
                                      headers=bearer(tokens["dealer"]))
    assert response.status_code == 422 and "false openers" in response.json["message"]
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(FloorCall.id))) == 0


def test_a_dealers_undo_never_withdraws_a_ruling(app, tokens):
    table_id = make_table(app, DEAD)
    response = app.test_client().post(f"/api/tables/{table_id}/events", json={"type": "void", "event": 11},
                                      headers=bearer(tokens["dealer"]))
    assert response.status_code == 422 and "stands until the floor corrects it" in response.json["message"]


# --------------------------------------------------------------------------- a pot already awarded


def test_a_dispute_at_the_award_reads_the_last_deal_and_re_settles_it(app, tokens, as_role):
    """H6/D8 found at the award: the floor's dispute page gets the last deal's facts from the log;
    the ruling re-settles the pot and names the deal; the chips column lists both seats."""
    table_id = make_table(app, WON)
    page = as_role("floor").get(f"/rulings/new?table={table_id}&issue=wrong_card_count&seat=3").get_data(as_text=True)
    assert "after the draw" in page  # found after the draw: read from the deal just finished
    response = app.test_client().post("/api/rulings", headers=bearer(tokens["floor"]), json={
        "facts": {"issue": "wrong_card_count", "seat": 3, "card_count": 6}, "table_id": table_id, "apply": True})
    assert response.status_code == 201, response.json
    body = response.json
    assert body["deal"] == 1 and body["chips"] == {"3": -40, "4": 40}
    assert body["headline"] == ("Seat 4, Dev, wins the pot of 40 with a pair of nines, four-three-deuce; "
                                "seat 3's hand is dead")
    assert stacks(state_of(app, table_id)) == {1: 495, 2: 495, 3: 485, 4: 525}
    html = as_role("dealer").get(f"/rulings/{body['id']}").get_data(as_text=True)
    assert "−40" in html and "+40" in html


def test_the_floor_corrects_chips_between_deals(app, as_role):
    table_id = make_table(app, WON)
    floor = as_role("floor")
    assert floor.get(f"/floor/tables/{table_id}/correction").status_code == 200
    bad = floor.post(f"/floor/tables/{table_id}/correction", data={"seat-3": "-40", "seat-4": "30", "reason": "x"})
    assert bad.status_code == 422 and "must sum to 0" in bad.get_data(as_text=True)
    good = floor.post(f"/floor/tables/{table_id}/correction",
                      data={"seat-3": "-40", "seat-4": "40", "reason": "the pot went to the wrong seat"})
    assert good.status_code == 302
    assert stacks(state_of(app, table_id)) == {1: 495, 2: 495, 3: 485, 4: 525}
    with app.app_context():
        row = db.session.scalars(db.select(IssuedRuling)).one()
        assert row.outcome == "CHIPS_CORRECTED" and row.issued_by.username == "fred" and row.intact
        assert row.record["headline"] == "Chips corrected: seat 3, Cleo, gives 40; seat 4, Dev, gets 40"
    assert as_role("dealer").get(f"/floor/tables/{table_id}/correction").status_code == 403


# --------------------------------------------------------------------------- a ruling a player can read


def test_the_ruling_page_states_the_house_rules_in_force_and_the_card_rooms_time(tmp_path):
    app = make_app(tmp_path, FLOOR_TIMEZONE="America/Los_Angeles")
    setup = {**SETUP, "profile": {"base": "cardroom", "ante_deals": 2, "check_open": True}}
    table_id = make_table(app, DEAD, setup=setup, by="fred")
    with app.app_context():
        row_time = db.session.get(IssuedRuling, 1).issued_at
    client = app.test_client()
    client.post("/login", data={"username": "fred", "password": "correct horse battery"})
    html = client.get("/rulings/1").get_data(as_text=True)
    assert "house rules: cardroom, with ante_deals = 2, check_open = true" in html
    assert "Five-card draw, jacks or better to open, 53 cards with the joker as the bug" in html
    from datetime import UTC
    from zoneinfo import ZoneInfo

    local = row_time.replace(tzinfo=UTC).astimezone(ZoneInfo("America/Los_Angeles"))
    assert local.strftime("%Y-%m-%d %H:%M %Z") in html and state_of(app, table_id)["awards"] == {4: 40}


def test_an_unknown_time_zone_is_refused_at_start(tmp_path):
    with pytest.raises(RuntimeError, match="unknown time zone 'Mars/Olympus'"):
        create_app({"TESTING": True, "SECRET_KEY": "t", "FLOOR_TIMEZONE": "Mars/Olympus",
                    "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite'}"},
                   instance_path=str(tmp_path / "instance"))
