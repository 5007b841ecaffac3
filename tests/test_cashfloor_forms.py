"""The floor person's forms for the cash floor (``/floor/cash``; docs/players.md, "The floor's
forms"): link a must-move game to its main game and unlink it, take a seat-change request and
cancel it, set and change the dealers' push schedule, stop it, move a dealer by hand. Through HTTP with each role: a
dealer may not (403, nothing written), the floor and the director may; a refusal answers 422 with
the reason on the re-shown form and writes nothing; a form without its CSRF token is refused (400)."""

from __future__ import annotations

import html
import re

import pytest

from floor.accounts import create_user
from floor.extensions import db
from floor.models import Role
from floor.players.models import MustMove, SeatChange
from floor.rotation import Rotation
from tests.conftest import PASSWORD, SETUP, csrf_token_from
from tests.tourney_play import Api


@pytest.fixture
def api(client, tokens):
    return Api(client, tokens)


@pytest.fixture
def room(app, api, table_id):
    """Table 1 (the main game: Ann, Bob, Cleo, Dev), Must 1 (Kim, Lou) at the same game and
    stakes, Big at 50/100; dealers dee and dot."""
    with app.app_context():
        create_user("dot", Role.dealer, "long enough password")
        db.session.commit()
    must = api.post("/api/tables", {"name": "Must 1", "setup": {**SETUP, "seats": [
        {"seat": 1, "player": "Kim", "stack": 300}, {"seat": 2, "player": "Lou", "stack": 300}]}}, status=201)["id"]
    big = api.post("/api/tables", {"name": "Big", "setup": {**SETUP, "small_bet": 50, "big_bet": 100}},
                   status=201)["id"]
    return {"main": table_id, "must": must, "big": big}


def feeds_of(app, table):
    with app.app_context():
        row = db.session.get(MustMove, table)
        return row.main_id if row is not None else None


def requests_at(app, table):
    with app.app_context():
        return [(r.player.name, r.seat, r.outcome) for r in db.session.scalars(
            db.select(SeatChange).where(SeatChange.table_id == table).order_by(SeatChange.id))]


def alert(response) -> str:
    found = re.findall(r'class="field-error" role="alert">([^<]*)<', response.get_data(as_text=True))
    assert found, "no reason shown on the re-shown form"
    return html.unescape(" ".join(found))


@pytest.mark.parametrize("role, allowed", [("dealer", False), ("floor", True), ("director", True)])
def test_who_may_link_a_must_move_game_and_unlink_it(app, as_role, room, role, allowed):
    client = as_role(role)
    page = client.get("/floor/cash")
    assert page.status_code == (200 if allowed else 403)
    linked = client.post(f"/floor/cash/tables/{room['must']}/feeds", data={f"t{room['must']}-main": str(room["main"])})
    assert linked.status_code == (302 if allowed else 403)
    assert feeds_of(app, room["must"]) == (room["main"] if allowed else None)
    if allowed:
        shown = client.get("/floor/cash").get_data(as_text=True)
        assert "must move</span> for Table 1" in shown and "Main game, fed by Must 1" in shown
        unlinked = client.post(f"/floor/cash/tables/{room['must']}/feeds", data={f"t{room['must']}-main": ""})
        assert unlinked.status_code == 302
        assert feeds_of(app, room["must"]) is None


def test_a_must_move_link_the_rules_refuse_is_shown_with_the_reason(app, as_role, room):
    floor = as_role("floor")
    other_stakes = floor.post(f"/floor/cash/tables/{room['must']}/feeds",
                              data={f"t{room['must']}-main": str(room["big"])})
    assert other_stakes.status_code == 422
    assert "a must-move game feeds a main game of its own game and stakes" in alert(other_stakes)
    assert f'<option selected value="{room["big"]}">' in other_stakes.get_data(as_text=True)  # the form as sent
    assert "no table '999'" in alert(floor.post(f"/floor/cash/tables/{room['must']}/feeds",
                                                data={f"t{room['must']}-main": "999"}))
    assert "cannot feed itself" in alert(floor.post(f"/floor/cash/tables/{room['must']}/feeds",
                                                    data={f"t{room['must']}-main": str(room["must"])}))
    assert feeds_of(app, room["must"]) is None
    assert floor.post(f"/floor/cash/tables/{room['must']}/feeds", data={f"t{room['must']}-main": str(room["main"])}
                      ).status_code == 302
    fed = floor.post(f"/floor/cash/tables/{room['main']}/feeds", data={f"t{room['main']}-main": str(room["must"])})
    assert fed.status_code == 422 and "Must 1 is a must-move game itself" in alert(fed)
    assert feeds_of(app, room["main"]) is None and feeds_of(app, room["must"]) == room["main"]


@pytest.mark.parametrize("role, allowed", [("dealer", False), ("floor", True), ("director", True)])
def test_who_may_take_a_seat_change_and_cancel_it(app, as_role, room, role, allowed):
    client = as_role(role)
    main = room["main"]
    with app.app_context():
        from floor.players.models import Player
        bob = db.session.scalars(db.select(Player).where(Player.name == "Bob")).one().id
    taken = client.post(f"/floor/cash/tables/{main}/seat_changes",
                        data={f"t{main}-player": f"#{bob}", f"t{main}-seat": "4"})
    assert taken.status_code == (302 if allowed else 403)
    if not allowed:
        assert requests_at(app, main) == []
        floor = as_role("floor")
        floor.post(f"/floor/cash/tables/{main}/seat_changes", data={f"t{main}-player": f"#{bob}", f"t{main}-seat": ""})
    waiting = requests_at(app, main)
    assert waiting == [("Bob", 4 if allowed else None, None)]
    with app.app_context():
        request_id = db.session.scalars(db.select(SeatChange.id)).one()
    cancelled = client.post(f"/floor/cash/tables/{main}/seat_changes/{request_id}/cancel")
    assert cancelled.status_code == (302 if allowed else 403)
    assert requests_at(app, main)[0][2] == ("cancelled" if allowed else None)


def test_a_cancelled_seat_change_is_not_honoured(api, as_role, app, room):
    floor = as_role("floor")
    main = room["main"]
    floor.post(f"/floor/cash/tables/{main}/seat_changes", data={f"t{main}-player": "Ann", f"t{main}-seat": "2"})
    assert "Ann" in floor.get("/floor/cash").get_data(as_text=True)
    with app.app_context():
        request_id = db.session.scalars(db.select(SeatChange.id)).one()
    assert floor.post(f"/floor/cash/tables/{main}/seat_changes/{request_id}/cancel").status_code == 302
    again = floor.post(f"/floor/cash/tables/{main}/seat_changes/{request_id}/cancel")
    assert again.status_code == 422 and "Ann's request is cancelled already" in alert(again)
    api.log(main, {"type": "leave", "seat": 2})  # Bob leaves: Ann stays in seat 1
    assert {int(n): s["player"] for n, s in api.table(main)["seats"].items()} == {1: "Ann", 3: "Cleo", 4: "Dev"}
    assert api.post(f"/api/tables/{main}/seat_changes/{request_id}/cancel", {}, role="floor",
                    status=422)["message"].endswith("is cancelled already")


def test_a_seat_change_the_rules_refuse_is_shown_with_the_reason(app, as_role, room):
    floor = as_role("floor")
    main = room["main"]
    for data, reason in (({f"t{main}-player": "Ann", f"t{main}-seat": "1"}, "Ann is in seat 1 already"),
                         ({f"t{main}-player": "Zed", f"t{main}-seat": ""}, "Zed is not seated at Table 1"),
                         ({f"t{main}-player": "Ann", f"t{main}-seat": "11"}, "8 seats, no seat 11"),
                         ({f"t{main}-player": "", f"t{main}-seat": ""}, "Player: This field is required.")):
        refused = floor.post(f"/floor/cash/tables/{main}/seat_changes", data=data)
        assert refused.status_code == 422 and reason in alert(refused), (data, alert(refused))
    assert requests_at(app, main) == []
    floor.post(f"/floor/cash/tables/{main}/seat_changes", data={f"t{main}-player": "Ann"})
    twice = floor.post(f"/floor/cash/tables/{main}/seat_changes", data={f"t{main}-player": "Ann"})
    assert twice.status_code == 422 and "Ann has asked already" in alert(twice)
    assert requests_at(app, main) == [("Ann", None, None)]


@pytest.mark.parametrize("role, allowed", [("dealer", False), ("floor", True), ("director", True)])
def test_who_may_set_change_and_stop_the_rotation(api, app, as_role, room, role, allowed):
    client = as_role(role)
    made = client.post("/floor/cash/rotation", data={"dealers": ["dot", "", "dee"], "tables": [str(room["main"]),
                                                     str(room["must"])], "minutes": "30"})
    assert made.status_code == (302 if allowed else 403)
    slots = api.get("/api/rotation", role="floor")
    if not allowed:
        assert slots == []
        return
    assert {s["dealer"]: s["table"] for s in slots if s["from"] == slots[0]["from"]} == {
        "dot": room["main"], "dee": room["must"]}
    page = client.get("/floor/cash").get_data(as_text=True)
    assert "Every 30 minutes" in page and "Change the rotation" in page
    assert '<option value="dot" selected>' in page  # the form shows the schedule in force
    changed = client.post("/floor/cash/rotation", data={"dealers": ["dee", "dot"], "tables": [str(room["main"])],
                                                        "minutes": "45"})
    assert changed.status_code == 302
    with app.app_context():
        running = db.session.scalars(db.select(Rotation).where(Rotation.ended_at.is_(None))).one()
        assert (running.minutes, running.table_ids) == (45, [room["main"]])
    assert client.post("/floor/cash/rotation/end").status_code == 302
    assert api.get("/api/rotation", role="floor") == []


def test_a_rotation_the_rules_refuse_is_shown_with_the_reason_and_nothing_changes(api, as_role, room):
    floor = as_role("floor")
    tables = [str(room["main"]), str(room["must"])]
    for data, reason in (({"dealers": ["dee"], "tables": tables, "minutes": "30"}, "2 tables need 2 dealers at least"),
                         ({"dealers": ["dee", "dee"], "tables": tables, "minutes": "30"}, "a dealer is named twice"),
                         ({"dealers": ["dee", "dot"], "tables": tables, "minutes": "5"},
                          "Minutes a round: Number must be between 10 and 120."),
                         ({"dealers": ["dee", "dot"], "tables": [], "minutes": "30"}, "tables is a list of table ids"),
                         ({"dealers": ["dee", "nobody"], "tables": tables, "minutes": "30"}, "no dealer 'nobody'")):
        refused = floor.post("/floor/cash/rotation", data=data)
        assert refused.status_code == 422 and reason in alert(refused), (data, alert(refused))
        assert api.get("/api/rotation", role="floor") == []
    shown = refused.get_data(as_text=True)
    assert '<option value="nobody" selected>' in shown and '<option value="dee" selected>' in shown  # as sent


def moves_by_hand(app):
    from floor.models import User
    from floor.rotation import DealerAssignment

    with app.app_context():
        return [(db.session.get_one(User, m.dealer_id).username, m.table_id)
                for m in db.session.scalars(db.select(DealerAssignment).order_by(DealerAssignment.id))]


@pytest.mark.parametrize("role, allowed", [("dealer", False), ("floor", True), ("director", True)])
def test_who_may_move_a_dealer_by_hand(api, app, as_role, room, role, allowed):
    """The form beside the schedule (``POST /api/rotation/assign``'s work): a dealer may not move
    anyone (403, nothing written); the floor and the director may, and the page says where the
    dealer deals now and until when."""
    floor = as_role("floor")
    assert floor.post("/floor/cash/rotation", data={"dealers": ["dee", "dot"], "tables": [str(room["main"]),
                                                    str(room["must"])], "minutes": "30"}).status_code == 302
    client = as_role(role)
    moved = client.post("/floor/cash/rotation/assign", data={"assign-dealer": "dee", "assign-table": str(room["big"])})
    assert moved.status_code == (302 if allowed else 403)
    if not allowed:
        assert moves_by_hand(app) == []
        return
    assert moved.headers["Location"].endswith("/floor/cash#assign")
    page = client.get("/floor/cash").get_data(as_text=True)
    assert re.search(r"dee deals at Big until \d\d:\d\d, moved by hand\.", page)
    assert re.search(r"<td>dee</td><td>Big <span class=\"pill\">by hand</span></td>", page)
    assert moves_by_hand(app) == [("dee", room["big"])]
    slots = api.get("/api/rotation", role="floor")
    assert [s["table"] for s in slots if s["dealer"] == "dee" and s["by_hand"]] == [room["big"]]
    # the dealer moved logs at Big now, and is refused at the table the schedule gave them
    assert "you deal at Big" in api.post(f"/api/tables/{room['main']}/events", {"type": "sit_out", "seat": 1},
                                         role="dealer", status=403)["message"]


def test_a_move_by_hand_the_rules_refuse_is_shown_with_the_reason_and_nothing_changes(app, as_role, room):
    floor = as_role("floor")
    for data, reason in (({"assign-dealer": "nobody", "assign-table": str(room["big"])}, "no dealer 'nobody'"),
                         ({"assign-dealer": "dee", "assign-table": "999"}, "there is no table '999'"),
                         ({"assign-dealer": "", "assign-table": str(room["big"])}, "Dealer: This field is required."),
                         ({"assign-dealer": "dee", "assign-table": ""}, "To table: This field is required.")):
        refused = floor.post("/floor/cash/rotation/assign", data=data)
        text = refused.get_data(as_text=True)
        assert refused.status_code == 422 and reason in alert(refused), (data, alert(refused))
        assert "Move by hand: not done, nothing was changed: " in text  # at the top too
    assert '<option selected value="nobody">nobody</option>' in floor.post(
        "/floor/cash/rotation/assign", data={"assign-dealer": "nobody", "assign-table": ""}).get_data(as_text=True)
    with app.app_context():
        from floor.models import User

        db.session.scalars(db.select(User).where(User.username == "dot")).one().active = False
        db.session.commit()
    gone = floor.post("/floor/cash/rotation/assign", data={"assign-dealer": "dot", "assign-table": str(room["big"])})
    assert gone.status_code == 422 and "no dealer 'dot'" in alert(gone)  # an account closed since the page was read
    assert moves_by_hand(app) == []


def test_a_floor_person_who_deals_a_down_is_offered_in_the_rotation(api, app, as_role, room):
    """Decision (docs/players.md, "Dealer rotation"): the rotation's forms offer every active
    account, the dealers first, then the floor and the directors marked with their role: a room
    short of a dealer puts a floor person in the push, and the schedule says where they deal."""
    floor = as_role("floor")
    page = floor.get("/floor/cash").get_data(as_text=True)
    push = page.split('data-place="1"')[1].split("</select>")[0]
    assert re.findall(r'<option value="(\w*)"', push) == ["", "dee", "dot", "fred", "dana"]
    assert '<option value="fred">fred (floor)</option>' in push and '<option value="dana">dana (director)</option>' in push
    by_hand = page.split('name="assign-dealer"')[1].split("</select>")[0]
    assert re.findall(r'<option value="(\w*)"', by_hand) == ["", "dee", "dot", "fred", "dana"]
    assert floor.post("/floor/cash/rotation", data={"dealers": ["dee", "fred"], "tables": [str(room["main"]),
                                                    str(room["must"])], "minutes": "30"}).status_code == 302
    assert {s["dealer"]: s["table"] for s in api.get("/api/rotation", role="floor") if not s["by_hand"]
            and s["from"] == min(x["from"] for x in api.get("/api/rotation", role="floor"))} == {
        "dee": room["main"], "fred": room["must"]}
    # in the push, the floor person's taps are still never refused for it (docs/players.md)
    api.post(f"/api/tables/{room['main']}/events", {"type": "sit_out", "seat": 1}, role="floor", status=201)


def test_the_forms_need_their_csrf_token(csrf_app):
    from floor import tables

    with csrf_app.app_context():
        main = tables.create_table("Table 1", SETUP).id
        must = tables.create_table("Must 1", {**SETUP, "seats": [{"seat": 1, "player": "Kim", "stack": 300}]}).id
    floor = csrf_app.test_client()
    floor.post("/login", data={"username": "fred", "password": PASSWORD,
                               "csrf_token": csrf_token_from(floor.get("/login").data)})
    refused = floor.post(f"/floor/cash/tables/{must}/feeds", data={f"t{must}-main": str(main)})
    assert refused.status_code == 400 and b"CSRF token is missing" in refused.data
    assert feeds_of(csrf_app, must) is None
    page = floor.get("/floor/cash").get_data()
    token = re.search(rb'id="t%d-csrf_token" name="t%d-csrf_token" type="hidden" value="([^"]+)"' % (must, must), page)
    assert token is not None, "no CSRF token on the must-move form"
    linked = floor.post(f"/floor/cash/tables/{must}/feeds",
                        data={f"t{must}-main": str(main), f"t{must}-csrf_token": token.group(1).decode()})
    assert linked.status_code == 302 and feeds_of(csrf_app, must) == main
    assert floor.post("/floor/cash/rotation/end").status_code == 400
    assert floor.post("/floor/cash/rotation/assign", data={"assign-dealer": "dee",
                                                           "assign-table": str(main)}).status_code == 400
    assign_token = re.search(rb'id="assign-csrf_token" name="assign-csrf_token" type="hidden" value="([^"]+)"', page)
    assert assign_token is not None, "no CSRF token on the move-by-hand form"
    assert floor.post("/floor/cash/rotation/assign", data={"assign-dealer": "dee", "assign-table": str(main),
                                                           "assign-csrf_token": assign_token.group(1).decode()}
                      ).status_code == 302
    assert floor.post("/floor/cash/rotation/end", data={"csrf_token": csrf_token_from(page)}).status_code == 302


def test_tables_of_two_events_are_told_apart_in_the_floors_lists(app, as_role):
    """Every event numbers its tables from 1: the cash game's "Table 1" and the tournament's "Table 1"
    were offered as two identical ticks in the rotation, the dealer's move and the promotion's
    table, and a floor person could not tell which one the push or the award meant. Each list
    names the event beside the table."""
    from floor import tables
    from floor.models import CardRoomEvent

    with app.app_context():
        for event_name in ("Friday cash", "Sunday freezeout"):
            event = CardRoomEvent(name=event_name, profile="cardroom")
            db.session.add(event)
            db.session.flush()
            tables.create_table("Table 1", SETUP, event_id=event.id)
        db.session.commit()
    floor = as_role("floor")
    cash = html.unescape(floor.get("/floor/cash").get_data(as_text=True))
    promotions = html.unescape(floor.get("/floor/promotions").get_data(as_text=True))
    for page in (cash, promotions):
        assert "Table 1 (Friday cash)" in page and "Table 1 (Sunday freezeout)" in page
    ticks = re.findall(r'<span>(Table 1[^<]*)</span>', cash)  # the rotation's tables
    assert sorted(ticks) == ["Table 1 (Friday cash)", "Table 1 (Sunday freezeout)"]
