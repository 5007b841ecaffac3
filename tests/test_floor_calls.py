"""A dealer's "call the floor" reaches the floor's overview and stays there until answered (issue 6)."""

from __future__ import annotations

from floor import tables
from floor.extensions import db
from floor.models import FloorCall, User
from tests.conftest import SETUP, csrf_token_from

# Button on seat 1: seat 2 passes, seat 3 opens, seats 4 and 1 call (F5: two callers, the pot plays).
LOG = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3, "amount": 10},
       {"type": "call", "seat": 4}, {"type": "call", "seat": 1}]


def logged_table(app):
    with app.app_context():
        table = tables.create_table("Table 7", SETUP)
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        for event in LOG:
            tables.append(table, event, dealer)
        return table.id


def call(client, table_id, issue="false_openers", seat="3"):
    response = client.post(f"/dealer/tables/{table_id}/call-floor", data={"issue": issue, "seat": seat})
    assert response.status_code == 302
    return response


def test_a_call_is_listed_for_the_floor_with_its_dispute_link(app, as_role):
    table_id = logged_table(app)
    call(as_role("dealer"), table_id)
    page = as_role("floor").get("/floor/").get_data(as_text=True)
    assert "Calls from the tables" in page and "Table 7" in page
    assert "False openers" in page or "false openers" in page
    assert f"/rulings/new?table={table_id}&amp;issue=false_openers&amp;seat=3" in page
    # The dealer's tablet keeps showing the call, on any device, until it is answered.
    assert "Floor called: false openers, seat 3" in as_role("dealer").get(f"/dealer/tables/{table_id}").get_data(as_text=True)


def test_the_ruling_for_the_table_answers_the_call(app, as_role):
    table_id = logged_table(app)
    call(as_role("dealer"), table_id)
    floor = as_role("floor")
    # The floor person logs the engine's own false-openers ruling from the dispute page.
    response = floor.post("/rulings/new", data={"step": "engine", "table": table_id, "version": "5"})
    assert response.status_code == 302, response.get_data(as_text=True)
    with app.app_context():
        (answered,) = db.session.scalars(db.select(FloorCall)).all()
        assert not answered.is_open and answered.ruling.outcome == "POT_PLAYS_OPENER_DEAD"
        assert answered.closed_by.username == "fred"
    assert "No open calls." in floor.get("/floor/").get_data(as_text=True)
    assert "Floor called" not in as_role("dealer").get(f"/dealer/tables/{table_id}").get_data(as_text=True)


def test_the_floor_dismisses_a_call_that_needed_no_ruling_with_its_csrf_token(csrf_app):
    table_id = logged_table(csrf_app)
    dealer = csrf_app.test_client()
    login_with_token(dealer, "dee")
    path = f"/dealer/tables/{table_id}/call-floor"
    dealer.post(path, data={"issue": "caller_refund", "seat": "4", "csrf_token": csrf_token_from(dealer.get(path).data)})
    floor = csrf_app.test_client()
    login_with_token(floor, "fred")
    with csrf_app.app_context():
        call_id = db.session.scalars(db.select(FloorCall.id)).one()
    assert floor.post(f"/floor/calls/{call_id}/dismiss").status_code == 400
    token = csrf_token_from(floor.get("/floor/").data)
    assert floor.post(f"/floor/calls/{call_id}/dismiss", data={"csrf_token": token}).status_code == 302
    with csrf_app.app_context():
        assert not db.session.get(FloorCall, call_id).is_open
    assert "No open calls." in floor.get("/floor/").get_data(as_text=True)


def test_dealers_cannot_dismiss_calls(app, as_role):
    table_id = logged_table(app)
    call(as_role("dealer"), table_id)
    with app.app_context():
        call_id = db.session.scalars(db.select(FloorCall.id)).one()
    assert as_role("dealer").post(f"/floor/calls/{call_id}/dismiss").status_code == 403
    assert as_role("floor").post("/floor/calls/999/dismiss").status_code == 404


def login_with_token(client, username):
    from tests.conftest import PASSWORD

    token = csrf_token_from(client.get("/login").data)
    assert client.post("/login", data={"username": username, "password": PASSWORD, "csrf_token": token}).status_code == 302


def test_a_call_names_the_table_by_its_event_where_two_events_number_the_same_table(app, as_role):
    """Every event numbers its tables from 1 (the demo's room has a "Table 1" of the Friday
    jackpots and one of the Sunday freezeout): the call, its announcement and the rulings' lists
    name the table with its event, so the floor person walks to the right one."""
    from floor.models import CardRoomEvent

    with app.app_context():
        friday, sunday = (CardRoomEvent(name=name, profile="cardroom") for name in ("Friday", "Sunday"))
        db.session.add_all([friday, sunday])
        db.session.commit()
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        table = tables.create_table("Table 1", SETUP, event_id=friday.id)
        tables.create_table("Table 1", SETUP, event_id=sunday.id)
        for event in LOG:
            tables.append(table, event, dealer)
        table_id = table.id
    call(as_role("dealer"), table_id)
    floor = as_role("floor")
    calls = floor.get("/floor/").get_data(as_text=True).split("Calls from the tables", 1)[1].split("</table>", 1)[0]
    assert "<strong>Table 1 (Friday)</strong>" in calls
    assert floor.get("/floor/live").get_json()["calls"][0]["words"] == "Table 1 (Friday): false openers, seat 3"
    # and what the floor is told after answering it (the flashes after a dismissal, a ruling, a correction)
    with app.app_context():
        call_id = db.session.scalars(db.select(FloorCall.id)).one()
    said = floor.post(f"/floor/calls/{call_id}/dismiss", follow_redirects=True).get_data(as_text=True)
    assert "Call from Table 1 (Friday) dismissed." in said
    response = floor.post("/rulings/new", data={"step": "engine", "table": table_id, "version": "5"}, follow_redirects=True)
    assert "issued and applied to Table 1 (Friday)." in response.get_data(as_text=True)
